/**
 * The SyntaxChecker port on TypeScript's own parser, for JS, TS, JSX and TSX (issue 14: "JS/TS
 * through the TypeScript parser"). Syntax only: one file parsed alone, no lib, no imports, no
 * types, nothing read from disk. TypeScript is loaded on the first check (it is a large module:
 * from a third of a second to seconds on a busy machine), and when it cannot be loaded the checker knows no language
 * (null), so a missing parser never blocks an edit.
 *
 * The syntactic diagnostics come from a one-file program: its public getSyntacticDiagnostics is
 * the parser's errors plus, for a JavaScript file, TypeScript-only syntax used in it (a type
 * annotation in a `.js` file does not run either).
 */
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';
import type { SyntaxChecker, SyntaxDiagnostic } from '../../core/ports/syntax.js';
import { loadCommonJs, userCacheFile } from '../code-cache/compiled-commonjs.js';

type Ts = typeof TypeScript;

/** The script kind of each extension the parser reads; others are not its language. */
const KINDS: Readonly<Record<string, keyof typeof TypeScript.ScriptKind>> = {
  ts: 'TS',
  mts: 'TS',
  cts: 'TS',
  tsx: 'TSX',
  js: 'JS',
  mjs: 'JS',
  cjs: 'JS',
  jsx: 'JSX',
};

function extension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export class TypeScriptSyntaxChecker implements SyntaxChecker {
  private loading: Promise<Ts | null> | undefined;

  /** `load` is for tests (a parser that cannot be loaded); by default the `typescript` package. */
  constructor(private readonly load: () => Promise<Ts> = loadTypeScript) {}

  async check(path: string, text: string): Promise<SyntaxDiagnostic[] | null> {
    const kind = KINDS[extension(path)];
    if (kind === undefined) return null;
    this.loading ??= this.load().catch(() => null);
    const ts = await this.loading;
    if (ts === null) return null;
    try {
      return diagnostics(ts, path, text, ts.ScriptKind[kind]);
    } catch {
      // A crash of the parser on some input is its bug, not the model's: the edit is not held up.
      return null;
    }
  }
}

/**
 * `typescript` is one 9 MB CommonJS file. Through `import()` Node first scans all of it for its
 * export names (cjs-module-lexer) and sniffs its format: 0.7 s of CPU against 0.3 s for
 * `require()`, measured on this machine, paid by every `aide act` whose model edits a JS/TS file.
 */
function loadTypeScript(): Promise<Ts> {
  try {
    return Promise.resolve(createRequire(import.meta.url)('typescript') as Ts);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * TypeScript compiled through a code cache in the cache folder `env` names (infra/code-cache),
 * written at the exit of the first run that loads it: about 90 ms to load instead of 250 ms on the
 * runs after, measured on this machine. Without a cache folder, loadTypeScript's `require()`.
 */
export function cachedTypeScript(env: Readonly<Record<string, string | undefined>>): () => Promise<Ts> {
  const userCache = userCacheFile(env, 'typescript-code-cache.bin');
  if (userCache === null) return loadTypeScript;
  return () => {
    try {
      const file = createRequire(import.meta.url).resolve('typescript');
      return Promise.resolve(loadCommonJs({ file, userCache }) as Ts);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

function diagnostics(ts: Ts, path: string, text: string, kind: TypeScript.ScriptKind): SyntaxDiagnostic[] {
  // A name the host serves and nothing else: the program reads no other file.
  const fileName = `/aide-syntax/${path.replace(/^\/+/, '')}`;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const options: TypeScript.CompilerOptions = {
    noLib: true,
    noResolve: true,
    allowJs: true,
    jsx: ts.JsxEmit.Preserve,
    target: ts.ScriptTarget.Latest,
    types: [],
  };
  const host: TypeScript.CompilerHost = {
    getSourceFile: (name) => (name === fileName ? source : undefined),
    getDefaultLibFileName: () => '/aide-syntax/lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/aide-syntax',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  return program.getSyntacticDiagnostics(source).map((d) => {
    const at = source.getLineAndCharacterOfPosition(d.start ?? 0);
    return {
      line: at.line + 1,
      column: at.character + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}
