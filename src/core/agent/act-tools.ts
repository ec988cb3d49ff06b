/**
 * Act mode's tools in a step's scratch (issue 14, "The step"): the ToolExecutor the act-mode
 * loop runs. Writes go through the edit engine, the path jail and the syntax guard
 * (act-writes.ts); commands only from allowed_commands, isolated like verify (act-command.ts);
 * reads go to the read tools given, over the scratch as it is now. The executor remembers what
 * it wrote, for the step's report and the checkpoint's watched paths, and which of those writes
 * touched protected paths, so the review shows them first and `--yes` refuses them without
 * `--allow-protected` (the act flow's review already does that for any protected file the
 * scratch changed; these are the same ProtectedChange records, known as soon as they happen).
 */
import type { ProtectedChange } from '../ports/approval.js';
import type { FileSystem } from '../ports/files.js';
import type { SyntaxChecker } from '../ports/syntax.js';
import { runCommand, type CommandTools } from './act-command.js';
import { replaceInFile } from './act-replace.js';
import type { WriteContext } from './act-write.js';
import { writeFile } from './act-write-file.js';
import type { ToolExecutor, ToolResult } from './loop-types.js';
import type { ToolCall } from './tools.js';

export type { CommandTools } from './act-command.js';

/** What act mode's tools work on. */
export interface ActToolsDeps {
  /** The step's scratch folder: a real (symlink-free) absolute path. Nothing outside it is written. */
  root: string;
  /** Reads and writes the scratch's files. */
  fs: FileSystem;
  /** JS/TS syntax for the guard (infra's TypeScript checker); JSON is checked without it. */
  syntax?: SyntaxChecker;
  /** config.json protected_paths (globs, `glob#/pointer`), as before the step. */
  protectedPaths: readonly string[];
  /** Match protected paths without regard to case (the workspace's file system ignores it). */
  protectedCaseInsensitive?: boolean;
  /** run_command's allowed lines, runner and policy. */
  commands: CommandTools;
  /**
   * read_file, list_files and search_files over the scratch as it is now (core/agent/read-tools.ts
   * over a folder reader of the scratch). Absent: those calls are an error result.
   */
  reads?: ToolExecutor;
}

/** The executor, with what its writes did so far. */
export interface ActTools extends ToolExecutor {
  /**
   * Scratch-relative paths written (created, edited or deleted), in the order first written; a
   * write through a symlink inside the scratch names the file behind it, the one that changed.
   */
  written(): string[];
  /** The protected paths the writes touched, one entry per path with its rule, in order. */
  protectedTouched(): ProtectedChange[];
}

/** Act mode's tools for one step's scratch. */
export function actTools(deps: ActToolsDeps): ActTools {
  const written = new Set<string>();
  const touched = new Map<string, ProtectedChange>();
  let commands = 0;
  const writes: WriteContext = {
    root: deps.root,
    fs: deps.fs,
    ...(deps.syntax === undefined ? {} : { syntax: deps.syntax }),
    protectedPaths: deps.protectedPaths,
    protectedCaseInsensitive: deps.protectedCaseInsensitive === true,
    failedEdits: new Map(),
    record(path, found) {
      written.add(path);
      for (const p of found) if (!touched.has(p.path)) touched.set(p.path, p);
    },
  };
  return {
    written: () => [...written],
    protectedTouched: () => [...touched.values()],
    async run(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
      if (signal?.aborted === true)
        return { ok: false, forModel: 'Cancelled.', forUser: `${call.tool} cancelled` };
      switch (call.tool) {
        case 'replace_in_file':
          return replaceInFile(writes, call.input.path, call.input.diff);
        case 'write_file':
          return writeFile(writes, call.input.path, call.input.content);
        case 'run_command':
          return runCommand(deps.commands, deps.root, call.input.command, ++commands, signal);
        case 'read_file':
        case 'list_files':
        case 'search_files':
          if (deps.reads !== undefined) return deps.reads.run(call, signal);
          return notHere(call.tool, `${call.tool} is not available in this step`);
        case 'submit_plan':
          return notHere(call.tool, 'submit_plan belongs to Plan mode; this is Act mode');
        case 'attempt_completion':
          // The loop judges the finishing call itself; it never reaches a tool executor.
          return notHere(call.tool, 'attempt_completion ends the step and is not run as a tool');
      }
    },
  };
}

function notHere(tool: string, why: string): ToolResult {
  return { ok: false, mistake: true, forModel: `${why}.`, forUser: `${tool}: ${why}` };
}
