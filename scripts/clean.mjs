// Removes build output so a deleted source file never leaves a stale compiled test behind.
import { rmSync } from 'node:fs';
for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
