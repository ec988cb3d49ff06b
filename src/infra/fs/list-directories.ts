/** The DirectoryLister of `aide init`: folder names from readdir, symlinks not followed. */
import { readdir } from 'node:fs/promises';
import type { DirectoryLister } from '../../core/init/workspace-dirs.js';

export class NodeDirectoryLister implements DirectoryLister {
  async listDirectories(path: string): Promise<string[]> {
    try {
      const entries = await readdir(path, { withFileTypes: true });
      return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch {
      // Not there, not a folder, or not readable: nothing to find in it.
      return [];
    }
  }
}
