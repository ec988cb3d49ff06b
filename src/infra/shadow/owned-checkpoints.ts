/**
 * A checkpoint on top of one this process made can skip the full ownership pass
 * (own-objects.ts): a step of an act session changes a file or two, and the pass stats all 256
 * loose-object folders of every borrowed store (and reads the changed ones) to find nothing new,
 * about 6 ms of the main thread per step here.
 *
 * It is skipped only when it would find nothing this checkpoint needs: the parent was made by
 * this process after its own pass (or after this check, by induction), so every object its tree
 * names is the shadow's own; and every object the new tree names that the parent's does not (the
 * trees and blobs along the changed paths, read through the object reader) is a loose object in
 * the shadow's own store, where aide writes its blobs and trees itself (loose-objects.ts). Any
 * other case (a parent from another process, an object only in a pack or only borrowed, more
 * than a step's worth of objects) runs the full pass as before. A prune, which deletes loose
 * objects, forgets what this module knows.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectReader } from './scratch/object-reader.js';

/** Shadow git dir → checkpoint commit id → its tree: checkpoints whose objects are all owned. */
const ownedByShadow = new Map<string, Map<string, string>>();

/** More new objects than this and the full pass runs (it costs the same, and a step names a few). */
const MAX_NEW_OBJECTS = 256;

const TREE_MODE = '40000';
const GITLINK_MODE = '160000';

/** `commit` (with `tree`) now names only objects the shadow owns. */
export function noteOwnedCheckpoint(gitDir: string, commit: string, tree: string): void {
  let owned = ownedByShadow.get(gitDir);
  if (owned === undefined) {
    owned = new Map<string, string>();
    ownedByShadow.set(gitDir, owned);
  }
  owned.set(commit, tree);
}

/** Forgets what is known of a shadow (all shadows without one): its loose objects were pruned. */
export function forgetOwnedCheckpoints(gitDir?: string): void {
  if (gitDir === undefined) ownedByShadow.clear();
  else ownedByShadow.delete(gitDir);
}

/**
 * The objects `to` names that `from` does not at the same path: the differing trees (`to`
 * itself included) and blobs, added to `found`. Submodule commits are left out: no store holds
 * them. false once `found` holds more than `limit`.
 */
async function newObjects(
  objects: ObjectReader,
  from: string | null,
  to: string,
  found: Set<string>,
  limit: number,
): Promise<boolean> {
  if (from === to) return true;
  found.add(to);
  if (found.size > limit) return false;
  const [before, after] = await Promise.all([
    from === null ? new Map<string, { id: string; mode: string }>() : objects.tree(from),
    objects.tree(to),
  ]);
  const nested: Array<Promise<boolean>> = [];
  for (const [key, entry] of after) {
    const old = before.get(key);
    if (old !== undefined && old.id === entry.id && old.mode === entry.mode) continue;
    if (entry.mode === TREE_MODE)
      nested.push(newObjects(objects, old?.mode === TREE_MODE ? old.id : null, entry.id, found, limit));
    else if (entry.mode !== GITLINK_MODE) found.add(entry.id);
    if (found.size > limit) return false;
  }
  return (await Promise.all(nested)).every(Boolean);
}

/** Whether `id` is a loose object of the shadow's own store (a stat of a few per step, made at once). */
function isOwnLoose(gitDir: string, id: string): boolean {
  try {
    const info = lstatSync(join(gitDir, 'objects', id.slice(0, 2), id.slice(2)), { throwIfNoEntry: false });
    return info?.isFile() === true;
  } catch {
    return false;
  }
}

/**
 * Whether a checkpoint of `tree` on `parent` names only objects the shadow owns already (see
 * the file comment); false whenever that is not certain.
 */
export async function ownedOnTopOf(
  objects: ObjectReader,
  gitDir: string,
  parent: string,
  tree: string,
): Promise<boolean> {
  const parentTree = ownedByShadow.get(gitDir)?.get(parent);
  if (parentTree === undefined) return false;
  const found = new Set<string>();
  try {
    if (!(await newObjects(objects, parentTree, tree, found, MAX_NEW_OBJECTS))) return false;
  } catch {
    // An object the reader cannot read as a tree: the full pass decides.
    return false;
  }
  return [...found].every((id) => isOwnLoose(gitDir, id));
}
