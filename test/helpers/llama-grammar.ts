/**
 * llama.cpp's own GBNF parser and matcher, for tests, through node-llama-cpp (pinned, a dev
 * dependency) without a model: `createGrammar` runs llama.cpp's grammar parser (it throws "Failed
 * to parse grammar" on an error), and the addon's `isTextCompatible` feeds a text to
 * `llama_grammar_accept` code point by code point and answers whether the grammar is then
 * complete. node-llama-cpp reaches that matcher only through `LlamaGrammar._testText`, marked
 * internal (absent from its types): it is checked here so that an upgrade without it fails
 * loudly instead of every acceptance test passing for no reason.
 *
 * Install scripts may be skipped (`npm ci --ignore-scripts`): the prebuilt CPU binary comes from
 * the optional dependency @node-llama-cpp/linux-x64, and `build: 'never'` forbids compiling or
 * downloading one. Load it once per test file: the first load takes about half a second.
 */
import { getLlama, LlamaLogLevel, type LlamaGrammar } from 'node-llama-cpp';

/** llama.cpp's checks of one grammar text. */
export interface LlamaGrammarChecker {
  /** Parses `grammar`; rejects with llama.cpp's "Failed to parse grammar" when it does not parse. */
  parse(grammar: string): Promise<ParsedGrammar>;
}

/** A grammar llama.cpp has parsed. */
export interface ParsedGrammar {
  /** Whether the whole of `text` is a complete match of the grammar's `root`. */
  accepts(text: string): boolean;
}

interface WithMatcher {
  _testText(text: string): boolean;
}

function hasMatcher(grammar: LlamaGrammar): grammar is LlamaGrammar & WithMatcher {
  return typeof (grammar as unknown as Partial<WithMatcher>)._testText === 'function';
}

/** Loads llama.cpp's CPU build (no GPU probe, no model). */
export async function loadLlamaGrammar(): Promise<LlamaGrammarChecker> {
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    logLevel: LlamaLogLevel.error,
    progressLogs: false,
  });
  return {
    async parse(text) {
      const grammar = await llama.createGrammar({ grammar: text });
      if (!hasMatcher(grammar)) throw new Error('node-llama-cpp no longer has LlamaGrammar._testText');
      return { accepts: (reply) => grammar._testText(reply) };
    },
  };
}
