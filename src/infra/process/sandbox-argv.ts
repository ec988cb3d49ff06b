/**
 * The argv that runs a command inside Linux namespaces, with `unshare` (util-linux) or
 * bubblewrap. Pure: which plan works on this machine is decided by probing (isolation.ts).
 */

/** One combination of protections with one tool. */
export interface SandboxPlan {
  mechanism: 'unshare' | 'bwrap';
  /** A network namespace of its own: no interfaces but loopback. */
  network: boolean;
  /** A mount namespace in which the read-only paths are bind-mounted read-only. */
  readOnly: boolean;
  /** A PID namespace: when the command's wrapper exits, every process it left dies. */
  pid: boolean;
}

/** Absolute paths of the programs a plan uses; null when not installed. */
export interface SandboxTools {
  unshare: string | null;
  /** unshare has `--map-current-user` and `--keep-caps` (util-linux 2.38). */
  unshareMapsCurrentUser: boolean;
  bwrap: string | null;
  mount: string | null;
  /** Drops the command's capabilities, without which it could unmount the read-only binds. */
  setpriv: string | null;
  /** iproute2's `ip`, to bring loopback up inside a new network namespace. */
  ip: string | null;
}

/**
 * The inner shell for unshare: make the paths read-only, bring loopback up, then run the
 * command without capabilities and wait for it.
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
 * Arguments: $1 ip, $2 mount, $3 setpriv (each '' when unused), $4 the number of read-only
 * paths, then the paths, then the command's argv.
 */
export const UNSHARE_SCRIPT = `ip=$1 mount=$2 setpriv=$3 n=$4
shift 4
while [ "$n" -gt 0 ]; do
  "$mount" --bind "$1" "$1" && "$mount" -o remount,bind,ro "$1" || { echo "aide: cannot make $1 read-only" >&2; exit 125; }
  shift
  n=$((n - 1))
done
if [ -n "$ip" ]; then "$ip" link set lo up || { echo "aide: cannot bring up loopback" >&2; exit 125; }; fi
if [ -n "$setpriv" ]; then
  "$setpriv" --no-new-privs --inh-caps=-all --bounding-set=-all -- "$@"
else
  "$@"
fi
exit $?`;

function unshareFlags(plan: SandboxPlan, tools: SandboxTools): string[] {
  const letters = `${plan.readOnly || plan.pid ? 'm' : ''}${plan.network ? 'n' : ''}${plan.pid ? 'pf' : ''}`;
  // The command keeps the user's uid where unshare can: with `-r` it is uid 0 inside, and some
  // tools refuse to run as root (initdb, Chromium without --no-sandbox). --keep-caps lets the
  // script's mount and ip work under that uid; the command itself gets no capabilities.
  const user = tools.unshareMapsCurrentUser ? ['--map-current-user', '--keep-caps'] : ['-r'];
  // --kill-child: if unshare itself is killed, the namespace's PID 1 goes with it.
  return [...user, ...(letters === '' ? [] : [`-${letters}`]), ...(plan.pid ? ['--kill-child', '--mount-proc'] : [])];
}

function unshareArgv(plan: SandboxPlan, tools: SandboxTools, readOnlyPaths: readonly string[], argv: readonly string[]): string[] {
  const paths = plan.readOnly ? readOnlyPaths : [];
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
    String(paths.length),
    ...paths,
    ...argv,
  ];
}

/**
 * bubblewrap brings loopback up itself and runs the command as PID 2 under its own init, so
 * signals work normally. `--die-with-parent` is left out on purpose: verified here, a SIGTERM
 * to the group kills bwrap's outer process at once, and with that flag the command is then
 * SIGKILLed before its TERM handler runs. Without it the command handles TERM, and SIGKILL to
 * the group still reaches bwrap's init (it stays in the group), which ends the namespace.
 * `--cap-drop ALL` matters when aide runs as root: bwrap then keeps every capability and the
 * command could unmount the read-only bind (verified).
 */
function bwrapArgv(plan: SandboxPlan, tools: SandboxTools, readOnlyPaths: readonly string[], argv: readonly string[]): string[] {
  const binds = plan.readOnly ? readOnlyPaths.flatMap((path) => ['--ro-bind', path, path]) : [];
  return [
    tools.bwrap ?? 'bwrap',
    '--dev-bind',
    '/',
    '/',
    ...binds,
    ...(plan.network ? ['--unshare-net'] : []),
    ...(plan.pid ? ['--unshare-pid', '--proc', '/proc'] : []),
    '--cap-drop',
    'ALL',
    '--',
    ...argv,
  ];
}

/** The argv to spawn so that `argv` runs under `plan`. */
export function sandboxArgv(plan: SandboxPlan, tools: SandboxTools, readOnlyPaths: readonly string[], argv: readonly string[]): string[] {
  return plan.mechanism === 'unshare' ? unshareArgv(plan, tools, readOnlyPaths, argv) : bwrapArgv(plan, tools, readOnlyPaths, argv);
}
