/**
 * The one error printer. Expected errors (AideError) print what is wrong and how to fix it;
 * anything else is a bug: the stack, exit 70 and a request for a report.
 */
import { AideError, ExitCode, type Remedy } from '../../shared/errors.js';
import type { OutputStream } from '../io.js';

/** The fixes that take a flag, in the CLI's words (infra and core only name them). */
export const REMEDY_TEXT: Readonly<Record<Remedy, string>> = {
  check_cwd: 'Check --cwd.',
  use_work_tree: 'Run aide in the work tree, the folder that holds .git (check --cwd).',
  use_project_folder: 'Run aide inside a project folder (a git repository), or pass --cwd with one.',
  verify_working_tree: 'Run `aide verify` without --staged or --ref to check the files as they are.',
  restage_and_verify:
    'Resolve merge conflicts and stage the result (`git add`), then run `aide verify --staged` again.',
  name_a_commit: 'Give a branch, tag or commit id (e.g. HEAD~1); `git log --oneline` lists commits.',
  init_force:
    'Check the current settings with `aide config`, or run `aide init --force` to replace the file(s) with fresh ones.',
};

/** How to fix an expected error: its own hint, else its remedy in words. */
export function hintOf(error: AideError): string | undefined {
  return error.hint ?? (error.remedy === undefined ? undefined : REMEDY_TEXT[error.remedy]);
}

export function printError(error: unknown, out: OutputStream, json: boolean): number {
  if (error instanceof AideError) {
    const hint = hintOf(error);
    if (json) {
      out.write(
        `${JSON.stringify({
          ok: false,
          error: {
            code: error.code,
            message: error.message,
            hint: hint ?? null,
            details: error.details,
            ...(error.data === undefined ? {} : { data: error.data }),
          },
        })}\n`,
      );
    } else {
      out.write(`aide: ${error.message}\n`);
      for (const line of error.details) out.write(`  ${line}\n`);
      if (hint !== undefined) out.write(`  hint: ${hint}\n`);
    }
    return error.exitCode;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) {
    out.write(
      `${JSON.stringify({ ok: false, error: { code: 'internal', message: stack, hint: null, details: [] } })}\n`,
    );
  } else {
    out.write(`aide: internal error (this is a bug in aide)\n${stack}\n`);
    out.write('Please report it with the command you ran and the output above.\n');
  }
  return ExitCode.internal;
}
