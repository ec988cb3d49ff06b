/**
 * The one error printer. Expected errors (AideError) print what is wrong and how to fix it;
 * anything else is a bug: the stack, exit 70 and a request for a report.
 */
import { AideError, ExitCode } from '../../shared/errors.js';
import type { OutputStream } from '../io.js';

export function printError(error: unknown, out: OutputStream, json: boolean): number {
  if (error instanceof AideError) {
    if (json) {
      out.write(
        `${JSON.stringify({
          ok: false,
          error: {
            code: error.code,
            message: error.message,
            hint: error.hint ?? null,
            details: error.details,
            ...(error.data === undefined ? {} : { data: error.data }),
          },
        })}\n`,
      );
    } else {
      out.write(`aide: ${error.message}\n`);
      for (const line of error.details) out.write(`  ${line}\n`);
      if (error.hint !== undefined) out.write(`  hint: ${error.hint}\n`);
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
