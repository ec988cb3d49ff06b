/**
 * Which grammar reads which file, by extension, and where its prebuilt WASM lies. The grammars come
 * from @repomix/tree-sitter-wasms (built with tree-sitter-cli 0.26, ABI 14–15, which
 * web-tree-sitter 0.26 loads); nothing is compiled or downloaded at install time.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { extractJavaScript } from './extract-js.js';
import { extractPython, extractRuby } from './extract-scripts.js';
import { extractC, extractGo, extractJava, extractRust } from './extract-typed.js';
import type { SyntaxNode } from './syntax.js';

/** A grammar aide reads definitions with: the WASM file's name in the package, without `tree-sitter-`. */
export type GrammarName =
  'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust' | 'java' | 'ruby' | 'c' | 'cpp';

/** A file's language: the grammar that parses it and the extractor that reads its definitions. */
export interface LanguageSpec {
  grammar: GrammarName;
  extract: (root: SyntaxNode) => string[];
}

const JS: LanguageSpec = { grammar: 'javascript', extract: extractJavaScript };
const TS: LanguageSpec = { grammar: 'typescript', extract: extractJavaScript };
const TSX: LanguageSpec = { grammar: 'tsx', extract: extractJavaScript };
const CPP: LanguageSpec = { grammar: 'cpp', extract: extractC };

/**
 * Extension → language. `.h` goes to the C++ grammar: it reads C headers as well, and a C++ header
 * read by the C grammar loses its classes. JSX in `.js` is common, and the JavaScript grammar reads it.
 */
const BY_EXTENSION: Readonly<Record<string, LanguageSpec>> = {
  '.js': JS,
  '.mjs': JS,
  '.cjs': JS,
  '.jsx': JS,
  '.ts': TS,
  '.mts': TS,
  '.cts': TS,
  '.tsx': TSX,
  '.py': { grammar: 'python', extract: extractPython },
  '.pyi': { grammar: 'python', extract: extractPython },
  '.go': { grammar: 'go', extract: extractGo },
  '.rs': { grammar: 'rust', extract: extractRust },
  '.java': { grammar: 'java', extract: extractJava },
  '.rb': { grammar: 'ruby', extract: extractRuby },
  '.c': { grammar: 'c', extract: extractC },
  '.h': CPP,
  '.cc': CPP,
  '.cpp': CPP,
  '.cxx': CPP,
  '.hh': CPP,
  '.hpp': CPP,
  '.hxx': CPP,
};

/** The language of the file at `path` (by its extension, case-insensitive), or null when aide has no grammar for it. */
export function languageOf(path: string): LanguageSpec | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot).toLowerCase()] ?? null;
}

/** The path of a grammar's WASM file; resolved on demand, so a missing package fails only that grammar. */
export function grammarPath(grammar: GrammarName): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve('@repomix/tree-sitter-wasms/package.json')),
    'out',
    `tree-sitter-${grammar}.wasm`,
  );
}
