/**
 * A journal file that must be on disk before the first file it describes changes: written to a
 * temp file beside it, flushed with fsync, then renamed into place, so a crash or kill -9 leaves
 * either no journal or a whole one.
 */
import { randomBytes } from 'node:crypto';
import { open, rename } from 'node:fs/promises';

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
