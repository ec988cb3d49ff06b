/**
 * Stack traces in src/ terms for the bundled CLI, paid for only when there is one to print.
 * Turning Node's source maps on at start-up cost `aide status` a third of its CPU time (Node
 * reads and parses every loaded module's map as it loads it); so they stay off, and an internal
 * error's stack is mapped here, frame by frame, through the `.map` file beside each bundle file.
 * Frames with no map (Node's own, dependencies left outside the bundle) stay as they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AideError } from '../shared/errors.js';
import { packageRoot } from './package-files.js';

/** `file:///…/x.js:12:34` or `/…/x.cjs:12:34`, as V8 writes a frame's place. */
const PLACE = /((?:file:\/\/)?\/[^\s():]+\.c?js):(\d+):(\d+)/g;

function loadMap(file: string, maps: Map<string, SourceMap | null>): SourceMap | null {
  let map = maps.get(file);
  if (map !== undefined) return map;
  try {
    map = new SourceMap(
      JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0],
    );
  } catch {
    map = null;
  }
  maps.set(file, map);
  return map;
}

/**
 * The stack with every place that has a source map replaced by its source file, line and column.
 * Only files inside `within` (aide's own package) are looked up: a message can quote a path of
 * the user's repository, whose `.map` beside it is not aide's to read.
 */
export function mapStack(stack: string, within: string = packageRoot()): string {
  const maps = new Map<string, SourceMap | null>();
  const inside = within.endsWith(sep) ? within : `${within}${sep}`;
  return stack.replace(PLACE, (place: string, where: string, line: string, column: string) => {
    const file = where.startsWith('file://') ? fileURLToPath(where) : where;
    if (!file.startsWith(inside)) return place;
    const map = loadMap(file, maps);
    if (map === null) return place;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return place;
    const source = entry.originalSource.startsWith('file://')
      ? entry.originalSource
      : pathToFileURL(resolve(dirname(file), entry.originalSource)).href;
    return `${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
  });
}

/** An unexpected error with its stack in src/ terms; anything else as it is. */
export function withSourceStack(error: unknown): unknown {
  if (error instanceof AideError || !(error instanceof Error) || error.stack === undefined) return error;
  try {
    error.stack = mapStack(error.stack);
  } catch {
    // A stack that cannot be mapped is still worth printing as it is.
  }
  return error;
}
