/**
 * A revision given on the command line. The shadow store says only that it names no commit;
 * the error the user reads also names the flag it came from (`--ref`, `--from-ref`, `--to-ref`),
 * so the message points at what to change.
 */
import { AideError } from '../../shared/errors.js';

export async function namedBy<T>(flag: string, lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof AideError && error.remedy === 'name_a_commit')
      throw new AideError(error.code, `${flag} ${error.message}`, { remedy: error.remedy, cause: error });
    throw error;
  }
}
