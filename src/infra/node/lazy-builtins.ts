/**
 * node:crypto and node:zlib, loaded on first use. Loading node:crypto costs about 2 ms of a start
 * here (it compiles every internal crypto module: ciphers, key exchange, pbkdf2...) and node:zlib
 * about 1 ms, at every commit's review, whose static checks need neither: only random names
 * (the lock's token, the session's), which the kernel's generator gives without node:crypto.
 * The modules a review loads import these instead of the builtins.
 */
import type * as Crypto from 'node:crypto';
import type * as Zlib from 'node:zlib';
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
let crypto: typeof Crypto | undefined;
let zlib: typeof Zlib | undefined;

function nodeCrypto(): typeof Crypto {
  crypto ??= load('node:crypto') as typeof Crypto;
  return crypto;
}

/** crypto.createHash. */
export function createHash(algorithm: string): Crypto.Hash {
  return nodeCrypto().createHash(algorithm);
}

/** zlib.deflateSync. */
export function deflateSync(data: Buffer | Uint8Array): Buffer {
  zlib ??= load('node:zlib') as typeof Zlib;
  return zlib.deflateSync(data);
}

/**
 * `size` bytes from the kernel's generator (/dev/urandom: the pool getrandom(2), and so
 * crypto.randomBytes, draws from), read without loading node:crypto; from node:crypto where
 * there is no such device (Windows, a chroot without /dev) or node:crypto is loaded anyway.
 */
export function randomBytes(size: number): Buffer {
  if (crypto === undefined && process.platform !== 'win32') {
    const bytes = fromDevice(size);
    if (bytes !== null) return bytes;
  }
  return nodeCrypto().randomBytes(size);
}

function fromDevice(size: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return null;
  }
  try {
    const bytes = Buffer.alloc(size);
    for (let got = 0; got < size;) {
      const read = readSync(fd, bytes, got, size - got, null);
      if (read <= 0) return null;
      got += read;
    }
    return bytes;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
