/**
 * Journal files (a restore's, a step's write-back): written durably before the first file they
 * describe changes — a temp file beside it, flushed with fsync, then renamed into place, so a
 * crash or kill -9 leaves either no journal or a whole one — and read back against their schema.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename } from 'node:fs/promises';
import type { z } from 'zod';

/**
 * The journal at `path` checked against `schema`, or null when there is none. Text that is not
 * JSON, or JSON the schema refuses, gets `invalid(firstProblem)`'s error: aide did not write it.
 */
export async function readJsonJournal<T>(
  path: string,
  schema: z.ZodType<T>,
  invalid: (problem: string) => Error,
): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'unexpected content');
  return parsed.data;
}

export async function writeJsonDurably(path: string, value: unknown): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
