/**
 * Reads git's index file (versions 2 to 4) without starting git: a snapshot's seed checks every
 * entry of the user's index, and each git process that reads a 50k-entry index costs 40-140 ms
 * here (`ls-files -s --debug` wrote 10 MB for it), where parsing the file costs a few.
 *
 * Format: Documentation/gitformat-index.txt. Only what the shadow needs is decoded; the
 * checksum is not verified (git verifies it when it reads the copy).
 */

/** One index entry. */
export interface IndexEntry {
  /** Octal, as git prints it: '100644', '100755', '120000', '160000'. */
  mode: string;
  /** The object id, hex. */
  id: string;
  /** The file's size when git last recorded its stat data (the low 32 bits; 0 when smudged). */
  size: number;
  /** 0 for a resolved entry; 1-3 during a merge conflict. */
  stage: number;
  /** assume-unchanged (`update-index --assume-unchanged`): git does not look at the file. */
  assumeValid: boolean;
  /** skip-worktree (sparse checkout): git does not look at the file. */
  skipWorktree: boolean;
  /**
   * The path's bytes as a latin1 string (one character per byte: `Buffer.from(path, 'latin1')`
   * gives them back), '/'-separated. A string, not a Buffer: 50k Buffers cost more in garbage
   * collection than the whole parse.
   */
  path: string;
}

/** A parsed index: its entries, and the signatures of its extensions ('TREE', 'link', 'sdir'…). */
export interface IndexFile {
  version: number;
  entries: IndexEntry[];
  extensions: string[];
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;
const SKIP_WORKTREE = 0x4000;
/** ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields. */
const STAT_BYTES = 40;

const MODES = new Map([0o100644, 0o100755, 0o120000, 0o160000].map((m) => [m, m.toString(8)]));

/** git's varint of index v4 (varint.c): each continuation adds one before shifting. */
function varint(buffer: Buffer, at: number): { value: number; next: number } {
  let byte = buffer[at++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buffer[at++] ?? 0;
    value = (value + 1) * 128 + (byte & 0x7f);
  }
  return { value, next: at };
}

/**
 * Parses an index file's bytes; null when they are not an index this reader understands (a
 * bad signature or version, truncated entries). `idBytes` is 20 for SHA-1, 32 for SHA-256.
 */
export function parseIndex(buffer: Buffer, idBytes = 20): IndexFile | null {
  if (buffer.length < 12 + idBytes || buffer.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buffer.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buffer.readUInt32BE(8);
  const end = buffer.length - idBytes;
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    if (start + STAT_BYTES + idBytes + 2 > end) return null;
    const mode = buffer.readUInt32BE(start + 24);
    const size = buffer.readUInt32BE(start + 36);
    const id = buffer.toString('hex', start + STAT_BYTES, start + STAT_BYTES + idBytes);
    const flags = buffer.readUInt16BE(start + STAT_BYTES + idBytes);
    at = start + STAT_BYTES + idBytes + 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      extended = buffer.readUInt16BE(at);
      at += 2;
    }
    let path: string;
    if (version === 4) {
      const strip = varint(buffer, at);
      const nul = buffer.indexOf(0, strip.next);
      if (nul < 0 || nul >= end || strip.value > previous.length) return null;
      path = previous.slice(0, previous.length - strip.value) + buffer.toString('latin1', strip.next, nul);
      at = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? at + length : buffer.indexOf(0, at);
      if (nul < 0 || nul >= end || buffer[nul] !== 0) return null;
      path = buffer.toString('latin1', at, nul);
      // Entries are padded with 1-8 NULs to a multiple of 8 bytes.
      at = start + ((nul - start + 8) & ~7);
    }
    previous = path;
    entries.push({
      mode: MODES.get(mode) ?? mode.toString(8),
      id,
      size,
      stage: (flags & STAGE_MASK) >> 12,
      assumeValid: (flags & ASSUME_VALID) !== 0,
      skipWorktree: (extended & SKIP_WORKTREE) !== 0,
      path,
    });
  }
  const extensions: string[] = [];
  while (at + 8 <= end) {
    extensions.push(buffer.toString('latin1', at, at + 4));
    at += 8 + buffer.readUInt32BE(at + 4);
  }
  if (at !== end) return null;
  return { version, entries, extensions };
}
