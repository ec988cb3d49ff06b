/**
 * Writes git objects into the shadow's own store without starting git: a save of a few paths
 * aide wrote itself (snapshot.ts, snapshotPaths) would otherwise start `hash-object` and
 * `mktree` for a handful of small objects, ~5-20 ms each here, more than the rest of the save.
 *
 * A loose object is the zlib-deflated `<type> <size>\0<content>` at `objects/<2 hex>/<rest>`,
 * named by the hash of those bytes (gitformat-loose). It is written as git writes one: to a
 * temporary file in the same folder, read-only, then renamed to its name, so no reader ever
 * sees half an object; one that is there already is left as it is (same name, same content). Only for content taken as is: the
 * shadow's info/attributes turns every conversion off, so `hash-object` of a workspace file
 * stores its bytes unchanged, and so does this.
 *
 * The file work is synchronous: an object is a few hundred bytes to a few kilobytes into the page
 * cache (tens of microseconds), and through the thread pool its six calls (lstat, mkdir, open,
 * write, close, rename) each waited for a core on a busy machine: a step's capture and checkpoint
 * of one edited file (the blob and a tree per folder on its path) took 8-13 ms instead of 1-2.
 */
import { createHash, deflateSync, randomBytes } from '../node/lazy-builtins.js';
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The id git gives an object (SHA-1, or SHA-256 in a repository that uses it). */
export function objectId(type: string, content: Uint8Array, algorithm: 'sha1' | 'sha256'): string {
  return createHash(algorithm).update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Writes an object into `<gitDir>/objects`; returns its id (a failure as a rejected promise). */
export function writeLooseObject(
  gitDir: string,
  type: 'blob' | 'tree' | 'commit',
  content: Uint8Array,
  algorithm: 'sha1' | 'sha256',
): Promise<string> {
  return Promise.resolve().then(() => writeNow(gitDir, type, content, algorithm));
}

function writeNow(
  gitDir: string,
  type: 'blob' | 'tree' | 'commit',
  content: Uint8Array,
  algorithm: 'sha1' | 'sha256',
): string {
  const id = objectId(type, content, algorithm);
  const folder = join(gitDir, 'objects', id.slice(0, 2));
  const target = join(folder, id.slice(2));
  if (lstatSync(target, { throwIfNoEntry: false }) !== undefined) return id;
  const temp = join(folder, `tmp_obj_aide_${randomBytes(6).toString('hex')}`);
  const data = deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]));
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temp, data, { flag: 'wx', mode: 0o444 });
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return id;
}
