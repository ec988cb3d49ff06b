import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { mapsCurrentUser } from './isolation.js';

function program(t: { after: (fn: () => void) => void }, name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-unshare-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

test("unshare's options are found in its own file: it is not started", async (t) => {
  const ran = join(tmpdir(), `aide-unshare-ran-${process.pid}`);
  t.after(() => {
    rmSync(ran, { force: true });
  });
  // Usage text inside the program, as util-linux's binary has it; running it would leave a mark.
  const unshare = program(t, 'unshare', `#!/bin/sh\n# --map-current-user --keep-caps\ntouch ${ran}\n`);
  assert.equal(await mapsCurrentUser(unshare, { PATH: '/usr/bin:/bin' }), true);
  assert.throws(() => readFileSync(ran), /ENOENT/);
});

test('an unshare whose file does not name them is asked with --help, as before', async (t) => {
  const says = program(t, 'unshare', '#!/bin/sh\necho " -c, --map-""current-user"; echo " --keep""-caps"\n');
  assert.equal(await mapsCurrentUser(says, { PATH: '/usr/bin:/bin' }), true);
  const old = program(t, 'unshare', '#!/bin/sh\necho " -r, --map-root-user"\n');
  assert.equal(await mapsCurrentUser(old, { PATH: '/usr/bin:/bin' }), false);
});

test("the real unshare's answer from its file is what --help says", async () => {
  const real = ['/usr/bin/unshare', '/bin/unshare'].find((path) => existsSync(path));
  assert.ok(real !== undefined, 'unshare (util-linux) is installed here: .ci/run installs it');
  const help = spawnSync(real, ['--help'], { encoding: 'utf8' }).stdout;
  const expected = help.includes('--map-current-user') && help.includes('--keep-caps');
  assert.equal(await mapsCurrentUser(real, { PATH: '/usr/bin:/bin' }), expected);
});
