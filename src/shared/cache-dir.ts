import { isAbsolute, join } from 'node:path';

/**
 * aide's folder of the user's cache: `$XDG_CACHE_HOME/aide`, else `$HOME/.cache/aide`; null
 * without either (as absolute paths). What is kept there can always be made again.
 */
export function aideCacheDir(env: Readonly<Record<string, string | undefined>>): string | null {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'aide');
  const home = env['HOME'];
  if (home !== undefined && isAbsolute(home)) return join(home, '.cache', 'aide');
  return null;
}
