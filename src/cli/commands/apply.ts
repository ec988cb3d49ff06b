import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { unreadableReason } from '../../shared/file-errors.js';
import { AideError, ExitCode } from '../../shared/errors.js';
import { useColor, type CliIo, type InputStream } from '../io.js';
import type { Checkpointer } from '../../core/ports.js';
import type { ShadowStore as ShadowStoreType } from '../../infra/shadow/shadow-store.js';
import type { CommandSpec, RawArgv } from './spec.js';

export const applyOptionsSchema = z.object({
  /** The reply file; '-' reads standard input (yargs hands a lone "-" over as ''). */
  file: z
    .string()
    .optional()
    .transform((file) => (file === '' ? '-' : file)),
  dryRun: z.boolean().default(false),
});
export type ApplyOptions = z.infer<typeof applyOptionsSchema>;

export function applyOptions(argv: RawArgv): ApplyOptions {
  return applyOptionsSchema.parse({ file: argv['file'], dryRun: argv['dryRun'] });
}

async function readAll(stream: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
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
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new AideError('input_unreadable', `cannot read ${options.file}: ${unreadableReason(error)}`, {
      hint: 'Give the path of a file holding the model response, or - to read standard input.',
    });
  }
}

export const applyCommand: CommandSpec = {
  command: 'apply [file]',
  describe: 'Apply SEARCH/REPLACE blocks or a unified diff from a model response',
  builder: (yargs) =>
    yargs
      .positional('file', { type: 'string', describe: 'File holding the response; - or omitted reads standard input' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Show the diff and what would change; write nothing' })
      .example('$0 apply reply.md', 'apply the edits in reply.md to this repository')
      .example('pbpaste | $0 apply --dry-run', 'preview pasted model output as a diff')
      .example('git diff | $0 apply --cwd ../other-checkout', 'replay a diff by content in another checkout')
      .epilog(
        'All or nothing: if any edit does not apply, no file is written and the report says why.\n' +
          'Exit codes: 0 every edit applied, 1 an edit failed or there were none, 2 usage error.',
      ),
  run: async (argv, globals, io) => {
    const options = applyOptions(argv);
    const response = await readResponse(options, globals.cwd, io);
    const [{ applyFlow }, { NodeFileSystem }, { findWorkspaceRoot }, { loadWorkspaceConfig }, { ShadowStore }, render, { makeStyle }] = await Promise.all([
      import('../../core/flows/apply.js'),
      import('../../infra/fs/node-file-system.js'),
      import('../../infra/git/workspace-root.js'),
      import('../../config/load-workspace.js'),
      import('../../infra/shadow/shadow-store.js'),
      import('../render/apply.js'),
      import('../render/style.js'),
    ]);
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const maxFileBytes = (await loadWorkspaceConfig(root, io.env)).config.value.checkpoints.max_file_bytes;
    // The shadow (and its lock) is opened only when there is something to write: a dry run or a
    // failed apply leaves no trace in the workspace.
    let store: ShadowStoreType | undefined;
    const checkpoints: Checkpointer = {
      checkpoint: async (request) => {
        store ??= await ShadowStore.open(root, io.env, { maxFileBytes, command: 'apply' });
        return store.checkpoint(request);
      },
    };
    try {
      const flow = applyFlow({ response, root, dryRun: options.dryRun }, { fs: new NodeFileSystem(), checkpoints });
      let step = await flow.next();
      while (step.done !== true) step = await flow.next();
      const report = step.value;
      io.stdout.write(globals.json ? render.applyJson(report) : render.renderApplyText(report, makeStyle(useColor(io))));
      return report.ok ? ExitCode.ok : ExitCode.failed;
    } finally {
      await store?.close();
    }
  },
};
