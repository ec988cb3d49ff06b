/** Changed files: what a flow, a scratch or a checkpoint reports as having changed. */

export interface ChangedFile {
  path: string;
  action: 'created' | 'modified' | 'deleted';
  added: number;
  removed: number;
  /** Unified diff of the change. */
  diff: string;
}

/** A changed file without its diff: what an event names. */
export type FileChange = Omit<ChangedFile, 'diff'>;
