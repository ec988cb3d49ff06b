/**
 * The argv that runs a command inside Linux namespaces, with `unshare` (util-linux) or
 * bubblewrap, and the mount table (an fstab) the unshare sandbox builds its file system from.
 * Pure: which plan works on this machine is decided by probing (isolation.ts), and where things
 * are (sandbox-layout.ts) by looking.
 */

/**
 * What the command may touch of the file system:
 * - 'confined': the whole file system read-only; only the scratch and the command's own HOME and
 *   temp folder writable; /tmp, /run, /dev/shm, the user's HOME (…) replaced by empty private
 *   folders, so UNIX sockets in them are out of sight.
 * - 'paths': only the read-only paths (the workspace and its git dirs) are read-only.
 * - 'open': no mount namespace at all.
 */
export type FileSystemScope = 'confined' | 'paths' | 'open';

/** One combination of protections with one tool. */
export interface SandboxPlan {
  mechanism: 'unshare' | 'bwrap';
  /** A network namespace of its own: no interfaces but loopback. */
  network: boolean;
  filesystem: FileSystemScope;
  /** A PID namespace: when the command's wrapper exits, every process it left dies. */
  pid: boolean;
  /**
   * Runs that name a layer (CommandRun.layer) get an overlay over the scratch (unshare's
   * confined plan with a PID namespace only, sandbox.ts): a plan of its own, so its probe mounts
   * one and a remembered pass (plan-memory.ts) covers the overlay too.
   */
  layers?: boolean;
}

/** Absolute paths of the programs a plan uses; null when not installed. */
export interface SandboxTools {
  unshare: string | null;
  /** unshare has `--map-current-user` and `--keep-caps` (util-linux 2.38). */
  unshareMapsCurrentUser: boolean;
  bwrap: string | null;
  mount: string | null;
  umount: string | null;
  pivotRoot: string | null;
  /** Drops the command's capabilities, without which it could unmount the read-only binds. */
  setpriv: string | null;
  /** iproute2's `ip`, to bring loopback up inside a new network namespace. */
  ip: string | null;
}

/** A file or folder of the user's home shown read-only at `target` (in the command's HOME). */
export interface HomeBind {
  source: string;
  target: string;
}

/** Where things are for one command. Every path absolute and real (no symlinks). */
export interface SandboxLayout {
  /** The command's working folder, the scratch: writable. */
  cwd: string;
  /** Writable besides the scratch: the command's own HOME and temp folder. */
  writable: readonly string[];
  /** Read-only, and shown even inside a hidden folder: the workspace, every git dir aide knows, toolchains in HOME. */
  readOnly: readonly string[];
  /** Folders replaced by an empty private tmpfs (confined): /tmp, /run, /dev/shm, the user's HOME, … */
  hidden: readonly string[];
  homeBinds: readonly HomeBind[];
  /** Sockets directly in /dev (syslog's /dev/log): /dev/null is bound over each (unshare, confined). */
  masked: readonly string[];
  /** An empty folder the unshare sandbox builds its new root in (confined). */
  newRoot: string;
  /** The fstab file the unshare sandbox mounts with one `mount -a` ('' for an 'open' plan). */
  fstab: string;
  /**
   * An overlay's upper and work folders (empty at first, outside every path the command sees):
   * the scratch is then mounted as the overlay's lower layer, so it stays as it was and the
   * command's writes land in `upper` (unshare, confined only).
   */
  layer?: OverlayLayer;
}

/** Where an overlay over the scratch keeps what the command wrote. */
export interface OverlayLayer {
  upper: string;
  work: string;
}

/** One line of /proc/self/mountinfo: where, and its per-mount options (rw, nosuid, relatime…). */
export interface MountPoint {
  point: string;
  options: readonly string[];
}

/**
 * The inner shell for unshare: mount the sandbox's file system, bring loopback up, then run the
 * command without capabilities and wait for it.
 *
 * The file system comes from one fstab and one `mount -a` (one process for every mount; a
 * `mount` per path cost ~5 ms each here). Confined, it builds a read-only copy of / in an empty
 * folder, covers the hidden folders with tmpfs there, binds the scratch and the private folders
 * back in, and pivots into it: the old root is detached, so nothing outside stays reachable by
 * any path (a chroot would leave it behind /proc/1/root).
 *
 * It stays PID 1 of the namespace rather than exec the command, because PID 1 ignores every
 * signal it has no handler for: a test runner exec'd there would shrug off SIGTERM. The command
 * runs in the foreground, not as `cmd & wait` with traps forwarding signals: dash starts a
 * background job with SIGINT and SIGQUIT ignored and cannot undo that (`trap - INT` has no
 * effect; SigIgn 0x6 verified), which would change how a project's own tests behave. Forwarding
 * is not needed: the command stays in the process group aide signals, so a group SIGTERM reaches
 * its handler directly, while the shell, as PID 1, ignores it (verified). When the shell exits,
 * the kernel kills everything left in the namespace, `setsid` daemons included (verified with
 * util-linux 2.38.1). `exit $?` keeps the command from being the shell's last one, which dash
 * may exec in place of itself.
 *
 * Capabilities are dropped because, verified here, a command that keeps them in the user
 * namespace can simply `umount` the read-only bind and write the workspace.
 *
 * Arguments: $1 ip, $2 mount, $3 setpriv (each '' when unused), $4 the file system scope,
 * $5 the fstab, $6 the new root, $7 the command's folder, $8 pivot_root, $9 umount, then the
 * command's argv.
 */
export const UNSHARE_SCRIPT = `ip=$1 mount=$2 setpriv=$3 fs=$4 fstab=$5 root=$6 cwd=$7 pivot=$8 umount=$9
shift 9
fail() { echo "aide: $1" >&2; exit 125; }
case $fs in
confined)
  "$mount" -a -T "$fstab" || fail "cannot mount the sandbox's file system"
  cd "$root" && "$pivot" . . && "$umount" -l . || fail "cannot enter the sandbox's file system"
  cd "$cwd" || fail "cannot enter $cwd" ;;
paths) "$mount" -a -T "$fstab" || fail "cannot make the workspace read-only" ;;
esac
if [ -n "$ip" ]; then "$ip" link set lo up || fail "cannot bring up loopback"; fi
if [ -n "$setpriv" ]; then
  "$setpriv" --no-new-privs --inh-caps=-all --bounding-set=-all -- "$@"
else
  "$@"
fi
exit $?`;

function unshareFlags(plan: SandboxPlan, tools: SandboxTools): string[] {
  // Confined, System V shared memory, semaphores and message queues are the sandbox's own too
  // (`i`): a command run as root could otherwise reach root-owned segments on the host by file
  // permission alone, as it could sockets in /tmp.
  const letters = `${plan.filesystem !== 'open' || plan.pid ? 'm' : ''}${plan.network ? 'n' : ''}${plan.filesystem === 'confined' ? 'i' : ''}${plan.pid ? 'pf' : ''}`;
  // The command keeps the user's uid where unshare can: with `-r` it is uid 0 inside, and some
  // tools refuse to run as root (initdb, Chromium without --no-sandbox). --keep-caps lets the
  // script's mount and ip work under that uid; the command itself gets no capabilities.
  const user = tools.unshareMapsCurrentUser ? ['--map-current-user', '--keep-caps'] : ['-r'];
  // --kill-child: if unshare itself is killed, the namespace's PID 1 goes with it.
  return [
    ...user,
    ...(letters === '' ? [] : [`-${letters}`]),
    ...(plan.pid ? ['--kill-child', '--mount-proc'] : []),
  ];
}

function unshareArgv(
  plan: SandboxPlan,
  tools: SandboxTools,
  layout: SandboxLayout,
  argv: readonly string[],
): string[] {
  return [
    tools.unshare ?? 'unshare',
    ...unshareFlags(plan, tools),
    '/bin/sh',
    '-c',
    UNSHARE_SCRIPT,
    'aide-sandbox',
    plan.network ? (tools.ip ?? '') : '',
    tools.mount ?? 'mount',
    tools.setpriv ?? '',
    plan.filesystem,
    layout.fstab,
    layout.newRoot,
    layout.cwd,
    tools.pivotRoot ?? 'pivot_root',
    tools.umount ?? 'umount',
    ...argv,
  ];
}

/** Whether `path` is `dir` or inside it. */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

/** Hidden folders that are not inside another hidden folder, parents first. */
function outermost(hidden: readonly string[]): string[] {
  const sorted = [...new Set(hidden)].sort((a, b) => a.length - b.length);
  return sorted.filter((dir, index) => !sorted.slice(0, index).some((parent) => within(dir, parent)));
}

/** Paths that need binding back: inside a hidden folder, not inside another path of the list. */
function boundBack(paths: readonly string[], hidden: readonly string[]): string[] {
  const needed = [...new Set(paths)]
    .filter((path) => hidden.some((dir) => within(path, dir)))
    .sort((a, b) => a.length - b.length);
  return needed.filter((path, index) => !needed.slice(0, index).some((parent) => within(path, parent)));
}

/**
 * bubblewrap brings loopback up itself and runs the command as PID 2 under its own init, so
 * signals work normally. `--die-with-parent` is left out on purpose: verified here, a SIGTERM
 * to the group kills bwrap's outer process at once, and with that flag the command is then
 * SIGKILLed before its TERM handler runs. Without it the command handles TERM, and SIGKILL to
 * the group still reaches bwrap's init (it stays in the group), which ends the namespace.
 * `--cap-drop ALL` matters when aide runs as root: bwrap then keeps every capability and the
 * command could unmount the read-only bind (verified). `--remount-ro /proc` matters then too:
 * bwrap covers only /proc/irq and /proc/bus, and a root without capabilities may still write
 * sysctls by file permission alone, /proc/sys/kernel/core_pattern among them, whose helper the
 * host kernel runs as root outside every namespace (verified writable here, bwrap 0.8.0); the
 * unshare sandbox's /proc is read-only as well. Order matters: the scratch lives under the temp
 * folder that is hidden, so the binds come after the tmpfs that hides it.
 */
/**
 * The fd on which bwrap's argv has it write, as JSON, the pid of its namespace's init
 * (`--info-fd`): the runner opens it as the child's fd 3 and reads `child-pid` from it
 * (command-runner.ts says why). bwrap closes it before the command runs: nothing inside can
 * write there.
 */
export const NAMESPACE_INFO_FD = 3;

function bwrapArgv(
  plan: SandboxPlan,
  tools: SandboxTools,
  layout: SandboxLayout,
  argv: readonly string[],
): string[] {
  // --dev makes a fresh /dev (its own /dev/shm, no /dev/log), so nothing under it needs hiding;
  // but it hides like a tmpfs does, so a read-only path under it (a workspace in /dev/shm) is
  // bound back after it too.
  const hidden = outermost(layout.hidden).filter((dir) => !within(dir, '/dev'));
  const binds = [
    ...hidden.flatMap((dir) => ['--tmpfs', dir]),
    ...boundBack(layout.readOnly, [...hidden, '/dev']).flatMap((path) => ['--ro-bind', path, path]),
    ...[...layout.writable, layout.cwd].flatMap((path) => ['--bind', path, path]),
    ...layout.homeBinds.flatMap((bind) => ['--ro-bind', bind.source, bind.target]),
  ];
  const root =
    plan.filesystem === 'confined'
      ? ['--ro-bind', '/', '/', '--dev', '/dev', ...binds]
      : ['--dev-bind', '/', '/', ...layout.readOnly.flatMap((path) => ['--ro-bind', path, path])];
  return [
    tools.bwrap ?? 'bwrap',
    ...root,
    ...(plan.network ? ['--unshare-net'] : []),
    // System V IPC of its own, as under unshare (confined).
    ...(plan.filesystem === 'confined' ? ['--unshare-ipc'] : []),
    ...(plan.pid
      ? ['--unshare-pid', '--proc', '/proc', '--remount-ro', '/proc', '--info-fd', String(NAMESPACE_INFO_FD)]
      : []),
    '--cap-drop',
    'ALL',
    '--chdir',
    layout.cwd,
    '--',
    ...argv,
  ];
}

/** The argv to spawn so that `argv` runs under `plan`. */
export function sandboxArgv(
  plan: SandboxPlan,
  tools: SandboxTools,
  layout: SandboxLayout,
  argv: readonly string[],
): string[] {
  return plan.mechanism === 'unshare'
    ? unshareArgv(plan, tools, layout, argv)
    : bwrapArgv(plan, tools, layout, argv);
}

/** A path as an fstab field: space, tab, newline and backslash as octal escapes (as mountinfo writes them). */
function field(path: string): string {
  return path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/** The mount holding `path`: the longest mount point it is inside (the last one mounted there). */
function mountOf(path: string, mounts: readonly MountPoint[]): MountPoint | undefined {
  let best: MountPoint | undefined;
  for (const mount of mounts)
    if (within(path, mount.point) && (best === undefined || mount.point.length >= best.point.length))
      best = mount;
  return best;
}

/**
 * `remount,bind,ro` plus the mount's own flags: in a user namespace the flags a mount came with
 * (nosuid, nodev, noexec, the atime ones) are locked, and a remount that leaves one out is
 * refused (EPERM).
 */
function readOnlyOptions(mount: MountPoint | undefined): string {
  const kept = (mount?.options ?? []).filter((option) => option !== 'rw' && option !== 'ro');
  return ['remount', 'bind', 'ro', ...kept].join(',');
}

function line(source: string, target: string, type: string, options: string): string {
  return `${field(source)} ${field(target)} ${type} ${options} 0 0`;
}

function readOnlyBind(
  source: string,
  target: string,
  mounts: readonly MountPoint[],
  mkdir: boolean,
): string[] {
  return [
    line(source, target, 'none', mkdir ? 'bind,X-mount.mkdir' : 'bind'),
    line('none', target, 'none', readOnlyOptions(mountOf(source, mounts))),
  ];
}

/** The paths remain reachable at the same place in the new root. */
function confinedFstab(layout: SandboxLayout, mounts: readonly MountPoint[]): string[] {
  const root = layout.newRoot;
  const at = (path: string) => (path === '/' ? root : `${root}${path}`);
  const hidden = outermost(layout.hidden);
  const lines = [line('/', root, 'none', 'rbind')];
  // The last line for a mount point is the mount on top, the one a path reaches.
  const top = new Map(mounts.map((mount) => [mount.point, mount]));
  for (const mount of top.values()) {
    if (
      mount.options.includes('ro') ||
      hidden.some((dir) => within(mount.point, dir)) ||
      within(mount.point, root)
    )
      continue;
    lines.push(line('none', at(mount.point), 'none', readOnlyOptions(mount)));
  }
  for (const dir of hidden)
    lines.push(
      line(
        'aide',
        at(dir),
        'tmpfs',
        `mode=${within(dir, '/tmp') || dir === '/var/tmp' || dir === '/dev/shm' ? '1777' : '755'},nosuid,nodev`,
      ),
    );
  for (const socket of layout.masked) lines.push(line('/dev/null', at(socket), 'none', 'bind'));
  for (const path of boundBack(layout.readOnly, hidden))
    lines.push(...readOnlyBind(path, at(path), mounts, true));
  for (const path of layout.writable) lines.push(line(path, at(path), 'none', 'bind,X-mount.mkdir'));
  lines.push(
    layout.layer === undefined
      ? line(layout.cwd, at(layout.cwd), 'none', 'bind,X-mount.mkdir')
      : line('aide-layer', at(layout.cwd), 'overlay', overlayOptions(layout.cwd, layout.layer)),
  );
  for (const bind of layout.homeBinds)
    lines.push(...readOnlyBind(bind.source, at(bind.target), mounts, false));
  return lines;
}

/** Characters an overlay's folder cannot hold in its mount options (or in an fstab field unescaped). */
const NOT_IN_OPTIONS = /[,:\\\s"']/;

/**
 * The scratch (`lowerdir`, its path outside, read before the pivot) under the layer.
 * `userxattr`: in a user namespace overlayfs may not set trusted.* attributes, and a folder
 * removed and made again (an opaque folder) needs one. Throws for a path it cannot hold: the
 * command then does not run, rather than run on the scratch itself.
 */
function overlayOptions(lower: string, layer: OverlayLayer): string {
  for (const path of [lower, layer.upper, layer.work])
    if (NOT_IN_OPTIONS.test(path))
      throw new Error(
        `${path} has a character an overlay mount cannot name (",", ":", a space, a quote or "\\")`,
      );
  return `lowerdir=${lower},upperdir=${layer.upper},workdir=${layer.work},userxattr,X-mount.mkdir`;
}

/** Read-only binds in place: the workspace and git dirs, and the home binds at their targets. */
function pathsFstab(layout: SandboxLayout, mounts: readonly MountPoint[]): string[] {
  return [
    ...layout.readOnly.flatMap((path) => readOnlyBind(path, path, mounts, false)),
    ...layout.homeBinds.flatMap((bind) => readOnlyBind(bind.source, bind.target, mounts, false)),
  ];
}

/** The fstab the unshare sandbox mounts with `mount -a -T` ('' when there is nothing to mount). */
export function sandboxFstab(
  plan: SandboxPlan,
  layout: SandboxLayout,
  mounts: readonly MountPoint[],
): string {
  if (plan.mechanism !== 'unshare' || plan.filesystem === 'open') return '';
  const lines = plan.filesystem === 'confined' ? confinedFstab(layout, mounts) : pathsFstab(layout, mounts);
  return `${lines.join('\n')}\n`;
}
