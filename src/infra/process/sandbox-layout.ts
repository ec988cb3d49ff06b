/**
 * Where the sandbox's pieces are on this machine: the folders to hide (the temp folders, /run,
 * the user's HOME), what to show again read-only (toolchains installed in HOME), the mount
 * table, and the command's own private folder (a fresh HOME and temp folder, per session).
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  type Stats,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { within, type HomeBind, type MountPoint, type OverlayLayer } from './sandbox-argv.js';

type Env = Readonly<Record<string, string | undefined>>;

function real(path: string | undefined): string | null {
  if (path === undefined || path === '' || !isAbsolute(path)) return null;
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The user's real home folder, or null (unset, missing, or `/`). */
export function realHome(env: Env): string | null {
  const home = real(env['HOME']);
  return home === null || home === '/' ? null : home;
}

/** The OS temp folder, as aide's own os.tmpdir() would find it. */
export function tempRoot(env: Env): string {
  return real(env['TMPDIR']) ?? '/tmp';
}

/**
 * Folders replaced by an empty private tmpfs: everything a user can normally write outside the
 * scratch, and where UNIX sockets live (docker, ssh-agent, X11, D-Bus, local proxies).
 */
export function hiddenFolders(env: Env): string[] {
  const candidates = [
    '/tmp',
    '/var/tmp',
    '/run',
    '/var/run',
    '/dev/shm',
    '/dev/mqueue',
    tempRoot(env),
    real(env['XDG_RUNTIME_DIR']),
    realHome(env),
  ];
  // A symlink (/var/run -> /run) is hidden with its target; realpath would name the target again.
  return [...new Set(candidates.filter((dir): dir is string => dir !== null && dir !== '/' && isDir(dir)))];
}

/**
 * Toolchains installed in HOME (nvm, pyenv, cargo, ~/.local) stay usable read-only: for each
 * PATH folder inside it, its parent (`~/.nvm/versions/node/v20/bin` → `…/v20`, where node's
 * own libraries are), or the folder itself when its parent is HOME.
 */
export function toolchainFolders(env: Env): string[] {
  const home = realHome(env);
  if (home === null) return [];
  const found = new Set<string>();
  for (const entry of (env['PATH'] ?? '').split(':')) {
    const dir = real(entry);
    if (dir === null || dir === home || !within(dir, home)) continue;
    const parent = dirname(dir);
    found.add(parent !== home && within(parent, home) ? parent : dir);
  }
  return [...found];
}

/** With the network allowed, resolv.conf must still resolve when it points into /run (systemd-resolved). */
export function resolverFolder(): string[] {
  const target = real('/etc/resolv.conf');
  return target === null || target === '/etc/resolv.conf' ? [] : [dirname(target)];
}

function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** This process's mount table, in mount order (a later line at the same point is on top). */
export function readMounts(): MountPoint[] {
  let text = '';
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((row) => row.split(' '))
    .filter((fields) => fields.length > 5)
    .map((fields) => ({ point: unescape(fields[4] ?? ''), options: (fields[5] ?? '').split(',') }));
}

/** UNIX sockets directly in /dev: syslog's /dev/log on systems without systemd. */
export function devSockets(): string[] {
  try {
    return readdirSync('/dev', { withFileTypes: true })
      .filter((entry) => entry.isSocket())
      .map((entry) => join('/dev', entry.name));
  } catch {
    return [];
  }
}

/** The command's own folders for one session; nothing a command writes is ever read back from it. */
export class PrivateFolder {
  readonly root: string;
  /** The commands' HOME. */
  readonly home: string;
  /** The commands' TMPDIR. */
  readonly tmp: string;
  /** Empty: the unshare sandbox builds its root here. Out of the commands' sight, like the fstab. */
  readonly newRoot: string;
  /** Holds the fstab; read-only for commands even where nothing is hidden ('paths'), so none can rewrite the next one's mounts. */
  readonly conf: string;
  readonly fstab: string;
  private written = '';
  /** The overlay layer's folder, out of the commands' sight like the new root, and the name it was made for. */
  private readonly layerDir: string;
  private layerName: string | null = null;

  constructor(tempDir: string) {
    this.root = realpathSync(mkdtempSync(join(tempDir, 'aide-sandbox-')));
    this.home = join(this.root, 'home');
    this.tmp = join(this.root, 'tmp');
    this.newRoot = join(this.root, 'root');
    this.conf = join(this.root, 'conf');
    this.fstab = join(this.conf, 'fstab');
    this.layerDir = join(this.root, 'layer');
    for (const dir of [this.home, this.tmp, this.newRoot, this.conf]) mkdirSync(dir, { mode: 0o700 });
  }

  writeFstab(text: string): void {
    if (text === this.written) return;
    writeFileSync(this.fstab, text);
    this.written = text;
  }

  /**
   * Makes each bind's target exist in the commands' HOME as what its source is (folder or file),
   * replacing whatever an earlier command put in the way: a symlink there would send the mount
   * (and its mkdir) elsewhere. With `link`, a symlink to the source instead (no mount namespace).
   */
  prepareBinds(binds: readonly HomeBind[], link: boolean): void {
    for (const bind of binds) {
      const rel = relative(this.home, bind.target);
      let dir = this.home;
      for (const part of dirname(rel)
        .split(sep)
        .filter((p) => p !== '.' && p !== '')) {
        dir = join(dir, part);
        if (!isDir(dir)) {
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir);
        }
      }
      if (link) {
        replaceUnless(
          bind.target,
          (stat) => stat.isSymbolicLink(),
          () => {
            symlinkSync(bind.source, bind.target);
          },
        );
      } else if (isDir(bind.source)) {
        replaceUnless(
          bind.target,
          (stat) => stat.isDirectory() && !stat.isSymbolicLink(),
          () => {
            mkdirSync(bind.target);
          },
        );
      } else {
        replaceUnless(
          bind.target,
          (stat) => stat.isFile(),
          () => {
            writeFileSync(bind.target, '');
          },
        );
      }
    }
  }

  /**
   * The overlay layer named `name` (CommandRun.layer): the same folders while the name stays,
   * empty new ones when it changes (the last layer's writes are removed first).
   */
  layer(name: string): OverlayLayer {
    const upper = join(this.layerDir, 'upper');
    const work = join(this.layerDir, 'work');
    if (this.layerName !== name) {
      this.layerName = null;
      removeTree(this.layerDir);
      for (const dir of [this.layerDir, upper, work]) mkdirSync(dir, { mode: 0o700 });
      this.layerName = name;
    }
    return { upper, work };
  }

  dispose(): void {
    removeTree(this.root);
  }
}

/**
 * Removes a folder a command wrote into, whatever modes it left: overlayfs makes its work
 * folder's `work` with mode 000, and a command may leave folders it cannot be removed from.
 * On a refusal, every real folder (never through a symlink) is made writable and it tries again.
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
    return;
  } catch {
    // made writable below, then again
  }
  const open = (dir: string): void => {
    try {
      if (!lstatSync(dir).isDirectory()) return;
      chmodSync(dir, 0o700);
      for (const entry of readdirSync(dir)) open(join(dir, entry));
    } catch {
      // gone, or not ours: the removal below says so
    }
  };
  open(path);
  rmSync(path, { recursive: true, force: true });
}

function replaceUnless(path: string, ok: (stat: Stats) => boolean, make: () => void): void {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path);
  } catch {
    stat = undefined;
  }
  if (stat !== undefined && ok(stat)) return;
  if (stat !== undefined) rmSync(path, { recursive: true, force: true });
  make();
}

/** sandbox.json's `home_binds` ("~/.cache/pip") that exist, as sources in the user's home and targets in the commands' HOME. */
export function homeBinds(entries: readonly string[], env: Env, commandHome: string): HomeBind[] {
  const home = realHome(env);
  if (home === null) return [];
  const binds: HomeBind[] = [];
  for (const entry of entries) {
    const rel = entry.replace(/^~\//, '');
    const source = join(home, rel);
    if (!existsSync(source)) continue;
    binds.push({ source: real(source) ?? source, target: join(commandHome, rel) });
  }
  return binds;
}
