/**
 * Which of a scratch's paths its ignore rules ignore, and by which rule: `check-ignore -v`
 * against the scratch's private index (Scratch.ignoredPaths).
 */
import { isAbsolute, sep } from 'node:path';
import type { IgnoredPath } from '../../../core/ports/scratch.js';
import type { GitCallOptions, ShadowGit } from '../git.js';

/** An ignore file as check-ignore names it: work-tree-relative, or the shadow's copy of the workspace's exclude file. */
function ruleSource(source: string): string {
  if (!isAbsolute(source)) return source;
  return source.endsWith(`info${sep}exclude`) || source.endsWith('info/exclude')
    ? '.git/info/exclude'
    : source;
}

/** Those of `paths` (scratch-relative) that an ignore rule matches, with the rule; a `!` rule does not count. */
export async function ignoredBy(
  git: ShadowGit,
  options: GitCallOptions,
  paths: readonly string[],
): Promise<IgnoredPath[]> {
  // -v names the rule; --no-index would also report tracked files, which a capture does take.
  const out = await git.run(['check-ignore', '-v', '-z', '--stdin'], {
    ...options,
    input: paths.map((p) => `${p}\0`).join(''),
    okCodes: [1],
  });
  const fields = out.stdout.toString('utf8').split('\0');
  const ignored: IgnoredPath[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, path] = fields.slice(i, i + 4) as [string, string, string, string];
    if (pattern !== '' && !pattern.startsWith('!'))
      ignored.push({ path, rule: `${ruleSource(source)}:${line}: ${pattern}` });
  }
  return ignored;
}
