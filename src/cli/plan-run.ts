/**
 * `aide plan`, wired: the workspace and config, the model client (a remote endpoint refused
 * before anything is read), a snapshot of the workspace, the Plan-mode flow with its read-only
 * tools, the view of its events, and the plan written (never over another one unless --out and
 * --force say so). Nothing is written when the model gives no plan, or on Ctrl-C.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { grammarFor } from '../core/agent/grammar.js';
import { agentLimits } from '../core/agent/limits.js';
import { readTools } from '../core/agent/read-tools.js';
import { drive } from '../core/flows/drive.js';
import { planFlow, type PlanOutcome } from '../core/flows/plan.js';
import { planSlug, readTask } from '../core/plan/task.js';
import { PLANS_DIR } from '../config/files.js';
import {
  definitionIndex,
  openPlanWorkspace,
  planModelClient,
  randomFence,
  snapshotForPlan,
  writePlanFile,
} from './wiring/plan.js';
import type { PlanOptions } from './commands/plan-options.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { agentStopError, modelFailureError } from './render/model-failure.js';
import { planEventJson, planResultJson, PlanView, renderPlanWritten } from './render/plan.js';
import { makeStyle } from './render/style.js';
import { AideError } from '../shared/errors.js';
import { monotonicMs } from '../shared/monotonic.js';

/** Tokens kept free for each reply: a plan of a dozen steps fits. */
const REPLY_RESERVE_TOKENS = 4096;

/** `.aide/plans/<slug>.md`, or `<slug>-2.md` and on when that is taken: a plan is never overwritten. */
function freePlanPath(root: string, slug: string): string {
  for (let n = 1; ; n++) {
    const path = join(root, PLANS_DIR, `${n === 1 ? slug : `${slug}-${n}`}.md`);
    if (!existsSync(path)) return path;
  }
}

export async function runPlan(
  options: PlanOptions,
  taskFile: { text: string; name: string },
  globals: GlobalOptions,
  io: CliIo,
): Promise<number> {
  const flags = {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
  };
  const { root, config } = await openPlanWorkspace(globals.cwd, io.env, flags);
  const target = { endpoint: config.model.endpoint, model: config.model.name };
  const client = planModelClient(config.model, root, io.env);
  if (!client.ok) throw modelFailureError(client.failure, target);
  const task = readTask(taskFile.text, taskFile.name);
  const path =
    options.out === undefined ? freePlanPath(root, planSlug(task.title)) : resolve(globals.cwd, options.out);
  const shown = relative(globals.cwd, path) || path;
  if (options.out !== undefined && !options.force && existsSync(path))
    throw new AideError('usage', `${shown} exists`, {
      hint: 'Give --force to replace it, or another --out.',
    });
  let snapshot: Awaited<ReturnType<typeof snapshotForPlan>> | undefined;
  const takeSnapshot = async () => {
    snapshot = await snapshotForPlan(root, io.env, {
      maxFileBytes: config.checkpoints.max_file_bytes,
      title: task.title,
    });
    return {
      reader: snapshot.reader,
      base: snapshot.checkpoint.short,
      tools: readTools(snapshot.reader, { workspaceRoot: root }),
    };
  };
  const style = makeStyle(useColor(io) && !globals.json);
  const view = new PlanView(
    io.stderr,
    makeStyle(io.stderr.isTTY === true && useColor(io)),
    io.stderr.isTTY === true,
  );
  const interrupt = listenForInterrupt(() => {
    view.clear();
    io.stderr.write('\naide: interrupted; cancelling the model request…\n');
  });
  let outcome: PlanOutcome;
  try {
    outcome = await drive(
      planFlow(
        {
          task,
          model: config.model.name,
          contextTokens: config.model.context_tokens,
          ...(config.limits.context_budget_tokens === undefined
            ? {}
            : { contextBudgetTokens: config.limits.context_budget_tokens }),
          limits: agentLimits(config.limits),
          replyReserveTokens: REPLY_RESERVE_TOKENS,
          created: new Date().toISOString(),
          planFile: relative(root, path),
          ...(config.model.grammar === 'auto' ? { grammar: grammarFor('plan') } : {}),
          signal: interrupt.signal,
        },
        {
          client: client.value,
          snapshot: takeSnapshot,
          definitions: definitionIndex(root),
          fence: randomFence,
          now: monotonicMs,
        },
      ),
      (event) => {
        if (globals.json) {
          const line = planEventJson(event);
          if (line !== null) io.stdout.write(line);
        } else view.event(event);
      },
    );
  } finally {
    view.clear();
    interrupt.dispose();
    snapshot?.close();
  }
  const signal = interrupt.received();
  if (!outcome.ok) {
    const error =
      'unavailable' in outcome
        ? modelFailureError(outcome.unavailable, target)
        : agentStopError(outcome.stop, target, 'plan');
    if (signal !== null) {
      io.stderr.write('aide: interrupted; no plan was written\n');
      return interruptExitCode(signal);
    }
    throw error;
  }
  await writePlanFile(path, outcome.plan.markdown, options.force);
  io.stdout.write(
    globals.json
      ? planResultJson(relative(root, path), outcome.plan.plan, outcome.iterations)
      : renderPlanWritten(shown, outcome.plan.plan, outcome.iterations, style),
  );
  return 0;
}
