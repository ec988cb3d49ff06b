/**
 * One sandbox for a session's commands: the chosen plan (or none), and the private folder that
 * gives every command a fresh HOME and temp folder. Made when the first command runs, removed
 * by `dispose()`.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  devSockets,
  hiddenFolders,
  homeBinds,
  PrivateFolder,
  readMounts,
  resolverFolder,
  tempRoot,
  toolchainFolders,
} from './sandbox-layout.js';
import {
  sandboxArgv,
  sandboxFstab,
  type MountPoint,
  type SandboxLayout,
  type SandboxPlan,
  type SandboxTools,
} from './sandbox-argv.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SandboxSettings {
  /** The user's environment: PATH, HOME, TMPDIR, XDG_RUNTIME_DIR say where things are. */
  env: Env;
  /** Absolute paths kept read-only: the workspace and every git dir aide knows. */
  readOnlyPaths: readonly string[];
  /** sandbox.json `home_binds`: "~/…" paths shown read-only in the commands' HOME. */
  homeBinds: readonly string[];
  allowNetwork: boolean;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The variables a sandbox sets: HOME and the temp and XDG folders in its private folder. */
function privateEnv(folder: PrivateFolder): Record<string, string> {
  const home = folder.home;
  return {
    HOME: home,
    TMPDIR: folder.tmp,
    TMP: folder.tmp,
    TEMP: folder.tmp,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

export class Sandbox {
  private folder: PrivateFolder | null = null;
  private mounts: MountPoint[] | null = null;
  private readonly readOnly: string[];
  private readonly hidden: string[];
  /**
   * Whether runs given a layer leave the scratch untouched. Only unshare's confined plan with a
   * PID namespace: the scratch is then reachable by no path but the overlay (the temp folder it
   * is in is hidden, the old root detached, /proc the namespace's own, the command without the
   * capabilities to unmount), and no process of the command outlives the run, so the scratch
   * never changes under a mounted overlay. bubblewrap 0.8 has no overlay.
   */
  /** Its argv writes its namespace init's pid on NAMESPACE_INFO_FD (bwrap with a PID namespace). */
  readonly reportsInit: boolean;
  readonly layers: boolean;

  constructor(
    private readonly plan: SandboxPlan | null,
    private readonly tools: SandboxTools,
    private readonly settings: SandboxSettings,
  ) {
    const extra = [...toolchainFolders(settings.env), ...(settings.allowNetwork ? resolverFolder() : [])];
    this.readOnly = [...settings.readOnlyPaths.map(realOr), ...extra];
    this.hidden = plan?.filesystem === 'confined' ? hiddenFolders(settings.env) : [];
    this.reportsInit = plan?.mechanism === 'bwrap' && plan.pid;
    this.layers =
      plan?.layers === true && plan.mechanism === 'unshare' && plan.filesystem === 'confined' && plan.pid;
  }

  private privateFolder(): PrivateFolder {
    this.folder ??= new PrivateFolder(tempRoot(this.settings.env));
    return this.folder;
  }

  /** The command's environment with HOME, TMPDIR (TMP, TEMP) and the XDG folders in the private folder. */
  environment(env: Readonly<Record<string, string>>): Record<string, string> {
    const result: Record<string, string> = { ...env, ...privateEnv(this.privateFolder()) };
    // Under /run/user, which is hidden; a runtime folder the command can reach is its TMPDIR.
    delete result['XDG_RUNTIME_DIR'];
    return result;
  }

  /** The argv that runs `argv` in `cwd` (the scratch) inside the sandbox; on `layer`'s overlay where it `layers`. */
  wrap(argv: readonly string[], cwd: string, layer?: string): string[] {
    const folder = this.privateFolder();
    const binds = homeBinds(this.settings.homeBinds, this.settings.env, folder.home);
    const mounted = this.plan !== null && this.plan.filesystem !== 'open';
    folder.prepareBinds(binds, !mounted);
    if (this.plan === null) return [...argv];
    const layout: SandboxLayout = {
      cwd: realOr(cwd),
      writable: [folder.home, folder.tmp],
      readOnly: this.plan.filesystem === 'paths' ? [...this.readOnly, folder.conf] : this.readOnly,
      hidden: this.hidden,
      homeBinds: mounted ? binds : [],
      masked: this.plan.filesystem === 'confined' ? devSockets() : [],
      newRoot: folder.newRoot,
      fstab: folder.fstab,
      ...(this.layers && layer !== undefined ? { layer: folder.layer(layer) } : {}),
    };
    if (this.plan.mechanism === 'unshare' && mounted) {
      this.mounts ??= readMounts();
      folder.writeFstab(sandboxFstab(this.plan, layout, this.mounts));
    }
    return sandboxArgv(this.plan, this.tools, layout, argv);
  }

  /** The private folder's path once a command ran (its HOME and TMPDIR are inside). */
  get privateRoot(): string | null {
    return this.folder?.root ?? null;
  }

  dispose(): void {
    this.folder?.dispose();
    this.folder = null;
  }
}
