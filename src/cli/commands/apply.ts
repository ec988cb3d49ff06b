import { isAscii } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { unreadableReason } from '../../shared/file-errors.js';
import { AideError, ExitCode } from '../../shared/errors.js';
import { useColor, type CliIo, type InputStream } from '../io.js';
import type { ApplyReport } from '../../core/flows/apply.js';
import { drive } from '../../core/flows/drive.js';
import type { CommandRunner, RawArgv } from './spec.js';

export const applyOptionsSchema = z.object({
  /** The reply file; '-' reads standard input (yargs hands a lone "-" over as ''). */
  file: z
    .string()
    .optional()
    .transform((file) => (file === '' ? '-' : file)),
  dryRun: z.boolean().default(false),
  /** Write protected files (config.json protected_paths, .aide/) without asking. */
  allowProtected: z.boolean().default(false),
});
export type ApplyOptions = z.infer<typeof applyOptionsSchema>;

export function applyOptions(argv: RawArgv): ApplyOptions {
  return applyOptionsSchema.parse({
    file: argv['file'],
    dryRun: argv['dryRun'],
    allowProtected: argv['allowProtected'],
  });
}

/** One shell word: as is when plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line that applies the same reply with --allow-protected (a reply on stdin has to be piped again). */
export function retryCommand(options: ApplyOptions, argv: RawArgv, json: boolean): string {
  const cwd = argv['cwd'];
  const words = [
    'aide',
    'apply',
    '--allow-protected',
    ...(typeof cwd === 'string' && cwd !== '' ? ['--cwd', shellWord(cwd)] : []),
    ...(json ? ['--json'] : []),
  ];
  const stdin = options.file === undefined || options.file === '-';
  return stdin ? `… | ${words.join(' ')} -` : `${words.join(' ')} ${shellWord(options.file ?? '-')}`;
}

/** Exit code of an apply: protected files refused (4) or declined (5) before the edits' own verdict. */
function exitCode(report: ApplyReport): number {
  const decision = report.protectedDecision?.kind;
  if (decision === 'refuse') return ExitCode.approvalNeeded;
  if (decision === 'decline') return ExitCode.aborted;
  return report.ok ? ExitCode.ok : ExitCode.failed;
}

async function readAll(stream: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return replyText(Buffer.concat(chunks));
}

/**
 * The reply's text. ASCII is read as latin1 (the same characters): Node keeps a large latin1
 * string outside V8's heap, where a UTF-8 decode makes a heap string that a 20 MB reply's first
 * garbage collection copies to the old generation, and counting those 20 MB as survivors, V8
 * grows its young generation to its maximum (32 MB more at the peak).
 */
function replyText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

async function readResponse(options: ApplyOptions, cwd: string, io: CliIo): Promise<string> {
  if (options.file === undefined || options.file === '-') {
    if (options.file === undefined && io.stdin.isTTY === true) {
      throw new AideError('input_missing', 'no response to apply', {
        hint: 'Give a file (`aide apply reply.md`) or pipe the text in (`pbpaste | aide apply -`).',
      });
    }
    return readAll(io.stdin);
  }
  const path = resolve(cwd, options.file);
  try {
    // Bytes, then one decode: readFile(path, 'utf8') decodes a large file piece by piece into a
    // rope that the parser's first regular expression copies flat, a second reply in memory.
    return replyText(await readFile(path));
  } catch (error) {
    throw new AideError('input_unreadable', `cannot read ${options.file}: ${unreadableReason(error)}`, {
      hint: 'Give the path of a file holding the model response, or - to read standard input.',
    });
  }
}

export const applyRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = applyOptions(argv);
    const response = await readResponse(options, globals.cwd, io);
    const [{ applyFlow }, { openApply }, render, { makeStyle }, { protectedApprover }] = await Promise.all([
      import('../../core/flows/apply.js'),
      import('../wiring/apply.js'),
      import('../render/apply.js'),
      import('../render/style.js'),
      import('../approver.js'),
    ]);
    const wiring = await openApply(globals.cwd, io.env);
    const protect = {
      policy: { rules: wiring.config.protected_paths, caseInsensitive: wiring.caseInsensitive },
      approver: protectedApprover(
        { allowProtected: options.allowProtected, retry: retryCommand(options, argv, globals.json) },
        io,
        () => ({
          stdin: process.stdin,
          stdout: globals.json ? process.stderr : process.stdout,
        }),
      ),
    };
    try {
      const flow = applyFlow(
        { response, root: wiring.root, dryRun: options.dryRun },
        { fs: wiring.fs, checkpoints: wiring.checkpoints, protect },
      );
      // apply prints once, at the end: its report says everything its events did.
      const report = await drive(flow, () => undefined);
      io.stdout.write(
        globals.json ? render.applyJson(report) : render.renderApplyText(report, makeStyle(useColor(io))),
      );
      return exitCode(report);
    } finally {
      await wiring.close();
    }
  },
};
