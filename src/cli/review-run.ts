/**
 * `aide review`, wired: the change read once (wiring/review.ts), the static checks on it, then
 * the verify commands on a scratch copy of exactly the reviewed tree (the verify flow, isolated,
 * network as sandbox.json says), then the model check (wiring/review-model.ts: only with a model
 * configured and answering its probe, which runs meanwhile; else Skipped with the reason), and
 * the report.
 */
import { join, resolve } from 'node:path';
import { CONFIG_FILE, SANDBOX_FILE } from '../config/files.js';
import { loadWorkspaceConfig } from '../config/load-workspace.js';
import type { SandboxConfig } from '../config/sandbox-schema.js';
import { CHECK_NAMES, runStaticChecks, type CheckResult } from '../core/review/checks.js';
import type { VerifyReport } from '../core/verify/report.js';
import type { CommandSelection } from '../core/verify/select-commands.js';
import { AideError, ExitCode } from '../shared/errors.js';
import type { ReviewOptions } from './commands/review-options.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { renderReview, reviewJson } from './render/review-report.js';
import { makeStyle } from './render/style.js';
import { renderReviewJunit } from './render/review-junit.js';
import {
  locateForReview,
  prepareReview,
  readReview,
  reviewScratch,
  PendingReview,
  type PreparedReview,
  type ReviewWorkspace,
} from './wiring/review.js';
import type { RunnerRequest, VerifyRunner } from './wiring/runner.js';
import { monotonicMs } from '../shared/monotonic.js';

const TAIL_LINES = 15;

const skipped = (name: CheckResult['name'], reason: string): CheckResult => ({
  name,
  status: 'skipped',
  reason,
  findings: [],
});

/**
 * `aide verify`'s command module (what verify runs, its policy, report files) and the runner are
 * loaded only when a review verifies or writes a report: a hook's static-only review
 * (`AIDE_SKIP=verify`) does not pay for the isolation and process modules' start-up.
 */
const verifyRun = () => import('./verify-run.js');
/** The verify flow too (its test-count parsers, the secret-env rules): 1.5-2 ms of a start. */
const verifyFlowModule = () => import('../core/flows/verify.js');

async function openRunner(request: RunnerRequest): Promise<VerifyRunner> {
  const { openVerifyRunner } = await import('./wiring/runner.js');
  return openVerifyRunner(request);
}

/** verify's report as one check: the failed commands and the end of their output under it. */
function verifyResult(report: VerifyReport): CheckResult {
  if (report.verdict === 'passed') return { name: 'verify', status: 'passed', findings: [] };
  const details: string[] = [];
  for (const command of report.commands.filter((c) => c.status !== 'passed' && c.status !== 'flaky')) {
    details.push(`${command.name}: ${command.status.replace('_', ' ')}`);
    for (const line of command.tail.trimEnd().split('\n').slice(-TAIL_LINES)) details.push(`  ${line}`);
  }
  details.push(`fix: make the commands pass on the staged content (\`aide verify --staged\` shows it all)`);
  return { name: 'verify', status: 'failed', reason: report.summary, findings: [], details };
}

/**
 * The commands verify runs (review.commands, or what `aide verify` runs), or why verify is
 * skipped (none configured nor detected). A name in review.commands that sandbox.json does not
 * have is a configuration error, said in the words of config.json rather than of --commands.
 */
async function verifySelection(
  root: string,
  sandbox: SandboxConfig,
  only: readonly string[] | undefined,
): Promise<CommandSelection | string> {
  try {
    const { chooseCommands } = await verifyRun();
    return await chooseCommands(root, sandbox, only);
  } catch (error) {
    if (error instanceof AideError && error.code === 'config_invalid') return 'no verify commands';
    if (error instanceof AideError && error.code === 'usage' && only !== undefined)
      throw new AideError(
        'config_invalid',
        error.message.replace('--commands', `review.commands in ${CONFIG_FILE}`),
        {
          hint: `Name commands of ${SANDBOX_FILE} in review.commands (\`aide config\` lists them), or remove the key to run them all.`,
        },
      );
    throw error;
  }
}

export async function runReview(options: ReviewOptions, globals: GlobalOptions, io: CliIo): Promise<number> {
  const startedAt = Date.now();
  // The repository's layout comes with the root: the shadow is opened without asking git again.
  const located = await locateForReview(globals.cwd, io.env);
  // The change is read (its git processes run) while the configuration is parsed.
  const pending = new PendingReview((treeWanted, scratchWanted) =>
    readReview(located, io.env, options, treeWanted, scratchWanted),
  );
  // A review that may verify, or whose report names the tree, has it written from the start;
  // the others only once the configuration says a model check will read its patch.
  if (!options.skip.includes('verify') || globals.json || options.junit !== undefined) pending.wantTree();
  try {
    return await reviewRead(pending, options, globals, io, located, startedAt);
  } finally {
    await pending.release();
  }
}

/** runReview once the change is being read: everything but where the workspace is. */
async function reviewRead(
  pending: PendingReview,
  options: ReviewOptions,
  globals: GlobalOptions,
  io: CliIo,
  { root, layout }: ReviewWorkspace,
  startedAt: number,
): Promise<number> {
  const skip = new Set(options.skip);
  const { config, sandbox: loaded } = await loadWorkspaceConfig(root, io.env, {
    model: options.model,
    endpoint: options.endpoint,
  });
  const sandbox = loaded.value;
  const settings = config.value.review;
  // Verify will likely run: the kept scratch is swept while the commands are chosen and the
  // change is checked (an early sweep no scratch takes is let go with the shadow).
  if (!skip.has('verify')) pending.prepareScratch(reviewScratch(io.env, sandbox));
  const selection = skip.has('verify') ? null : await verifySelection(root, sandbox, settings.commands);
  const runsVerify = selection !== null && typeof selection !== 'string';
  // The model client's modules load only for a review that has a model check (as verifyRun).
  const reviewModel = skip.has('model') ? null : await import('./wiring/review-model.js');
  const interrupt = listenForInterrupt(() =>
    io.stderr.write('\naide: interrupted; stopping the commands and removing the scratch copy…\n'),
  );
  let prepared: PreparedReview<CheckResult[]> | undefined;
  const runner = runsVerify
    ? await openRunner({
        root,
        env: io.env,
        allowNetwork: sandbox.allow_network,
        isolate: options.isolation,
        homeBinds: sandbox.home_binds,
        // The git dirs to keep read-only, as the root's rev-parse told them: no git asked again.
        ...(layout === undefined
          ? {}
          : { gitDirs: layout === null ? [] : [layout.gitDir, layout.commonDir] }),
      })
    : null;
  // Started before the change is read, so the server's answer comes while the other checks run.
  const model = reviewModel?.startModelProbe(config, io.env, interrupt.signal) ?? null;
  try {
    prepared = await prepareReview(
      await pending.take(runsVerify || model?.state === 'probing'),
      io.env,
      sandbox,
      runsVerify,
      (files, ignore) =>
        runStaticChecks(
          files,
          {
            protectedPaths: config.value.protected_paths,
            protectedBlocks: settings.protected === 'block',
            maxFileBytes: settings.max_file_kb * 1024,
            ignore,
          },
          skip,
        ),
      model?.state === 'probing',
    );
    const results = [...prepared.inspected];
    if (selection === null) results.push(skipped('verify', '--skip or AIDE_SKIP'));
    else if (typeof selection === 'string') results.push(skipped('verify', selection));
    else if (prepared.scratch !== null && runner !== null) {
      const [{ verifyPolicy }, { verifyFlow }, { drive }] = await Promise.all([
        verifyRun(),
        verifyFlowModule(),
        import('../core/flows/drive.js'),
      ]);
      const flow = verifyFlow(
        {
          cwd: prepared.scratch.path,
          commands: selection.commands,
          policy: verifyPolicy(sandbox),
          userEnv: io.env,
          logDir: join(prepared.stateDir, 'sessions', prepared.session, 'logs'),
          signal: interrupt.signal,
        },
        { runner, now: monotonicMs },
      );
      const report = await drive(flow, () => undefined);
      if (report.verdict === 'cancelled' || interrupt.received() !== null)
        return interruptExitCode(interrupt.received() ?? 'SIGINT');
      results.push(verifyResult(report));
    }
    const modelResult =
      model === null || reviewModel === null
        ? skipped('model', '--skip or AIDE_SKIP')
        : await reviewModel.modelCheck(model, {
            root,
            env: io.env,
            config: config.value,
            patches: prepared.patches,
            signal: interrupt.signal,
          });
    if (modelResult === null) return interruptExitCode(interrupt.received() ?? 'SIGINT');
    results.push(modelResult);
    const ordered = CHECK_NAMES.map((name) => results.find((r) => r.name === name)).filter(
      (r): r is CheckResult => r !== undefined,
    );
    if (options.junit !== undefined) {
      const xml = renderReviewJunit(ordered, prepared.subject, {
        suiteName: 'aide review',
        timestamp: new Date(startedAt).toISOString().slice(0, 19),
        durationMs: Date.now() - startedAt,
      });
      const { writeReportFile } = await verifyRun();
      await writeReportFile(resolve(globals.cwd, options.junit), options.junit, xml, 'the JUnit report');
    }
    io.stdout.write(
      globals.json ? reviewJson(ordered, prepared.subject) : renderReview(ordered, makeStyle(useColor(io))),
    );
    if (interrupt.received() !== null) return interruptExitCode(interrupt.received() ?? 'SIGINT');
    return ordered.some((r) => r.status === 'failed') ? ExitCode.failed : ExitCode.ok;
  } finally {
    if (model?.state === 'probing') model.stop();
    // Interrupted: the kept scratch goes too (what the commands left running may still write).
    await prepared?.scratch?.dispose({ remove: interrupt.received() !== null });
    runner?.dispose();
    interrupt.dispose();
  }
}
