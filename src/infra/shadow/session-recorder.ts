/**
 * The SessionRecorder port on the shadow repository: a verified step's tree becomes the next
 * checkpoint on `aide/<session>`, and its files are written into the workspace (write-back.ts),
 * with Ctrl-C held while the files are replaced so the workspace is wholly before or after.
 */
import type { CheckpointRecord, FileSystem, ScratchChange, SessionRecorder, WriteBackConflict } from '../../core/ports.js';
import { holdSignals } from '../process/hold-signals.js';
import type { SessionFiles } from '../session/session-files.js';
import { createCheckpoint } from './checkpoints.js';
import { ObjectReader } from './scratch/object-reader.js';
import type { ShadowStore } from './shadow-store.js';
import { planWriteBack } from './write-back.js';

export class ShadowSessionRecorder implements SessionRecorder {
  constructor(
    private readonly store: ShadowStore,
    private readonly session: string,
    private readonly files: SessionFiles,
    private readonly fs: FileSystem,
    /** Test-only: called after the files are written and before Ctrl-C is released. */
    private readonly afterWrite: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async checkpointTree(tree: string, meta: { step: string; verdict: string; message: string }): Promise<CheckpointRecord> {
    const { checkpoint } = await createCheckpoint(this.store.git, tree, { session: this.session, reason: 'step', ...meta });
    return checkpoint;
  }

  async writeBack(changes: readonly ScratchChange[]): Promise<{ written: number; conflicts: WriteBackConflict[] }> {
    const objects = new ObjectReader(this.store.git);
    try {
      const plan = await planWriteBack(objects, this.store.workspace.root, changes, this.fs);
      if (plan.conflicts.length > 0) return { written: 0, conflicts: plan.conflicts };
      await holdSignals(async () => {
        await this.fs.commit(plan.writes);
        await this.afterWrite();
      });
      return { written: plan.writes.length, conflicts: [] };
    } finally {
      objects.close();
    }
  }

  diff(from: string, to: string): Promise<string> {
    return this.store.diff(from, to);
  }

  saveFile(name: string, content: string): Promise<string> {
    return this.files.save(name, content);
  }

  async readBlob(id: string): Promise<Uint8Array> {
    const objects = new ObjectReader(this.store.git);
    try {
      const object = await objects.read(id);
      if (object?.type !== 'blob') throw new Error(`${id} is not a blob of the shadow repository`);
      return object.content;
    } finally {
      objects.close();
    }
  }
}
