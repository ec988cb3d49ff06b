/**
 * The infra a model-driven `aide act` step runs on: the model client (a remote endpoint
 * refused before anything runs), the read tools over the step's scratch, the JS/TS syntax
 * guard and the fences of wrapped results. Only built when a step to run has no written edits.
 */
import type { ToolExecutor } from '../../core/agent/loop-types.js';
import { readTools } from '../../core/agent/read-tools.js';
import type { ModelClient, ModelOutcome } from '../../core/ports/model.js';
import type { Scratch } from '../../core/ports/scratch.js';
import type { SyntaxChecker } from '../../core/ports/syntax.js';
import { FolderReader } from '../../infra/fs/folder-reader.js';
import { createModelClient } from '../../infra/model/create.js';
import { cachedTypeScript, TypeScriptSyntaxChecker } from '../../infra/syntax/typescript-syntax.js';
import type { PlanModelConfig } from './plan.js';

export { randomFence } from './plan.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The model client for act's agent steps; a remote endpoint without allow_remote gets none. */
export function actModelClient(model: PlanModelConfig, root: string, env: Env): ModelOutcome<ModelClient> {
  return createModelClient(model, { cwd: root, env });
}

/**
 * read_file, list_files and search_files over the scratch as it is at each call: a fresh
 * listing each time, so a file the model just wrote is there (the reader caches its listing).
 */
export function scratchReads(workspaceRoot: string): (scratch: Scratch) => ToolExecutor {
  return (scratch) => {
    let calls = 0;
    return {
      run: (call, signal) =>
        readTools(
          new FolderReader({
            root: scratch.path,
            id: `scratch-${++calls}`,
            ignored: (paths) => scratch.ignoredPaths(paths),
          }),
          { workspaceRoot },
        ).run(call, signal),
    };
  };
}

/**
 * The JS/TS parser behind the syntax guard: TypeScript, loaded when first needed, through a code
 * cache in the cache folder `env` names.
 */
export function syntaxChecker(env: Env): SyntaxChecker {
  return new TypeScriptSyntaxChecker(cachedTypeScript(env));
}
