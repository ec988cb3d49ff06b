/**
 * Where a command's output goes: a capped log file, a bounded ring for the tail, and a line
 * splitter for `onLine`. Memory stays bounded however much a command prints: nothing here
 * holds more than the ring, one capped line and the chunk being handled.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { capLine, stripTerminalControls, tailOf } from './terminal-text.js';

/** The last `size` bytes written, in a fixed buffer. */
export class ByteRing {
  private readonly buffer: Buffer;
  private position = 0;
  private total = 0;

  constructor(size: number) {
    this.buffer = Buffer.alloc(Math.max(1, size));
  }

  write(chunk: Buffer): void {
    const size = this.buffer.length;
    this.total += chunk.length;
    if (chunk.length >= size) {
      chunk.copy(this.buffer, 0, chunk.length - size);
      this.position = 0;
      return;
    }
    const first = Math.min(chunk.length, size - this.position);
    chunk.copy(this.buffer, this.position, 0, first);
    chunk.copy(this.buffer, 0, first);
    this.position = (this.position + chunk.length) % size;
  }

  /** True while nothing has been overwritten: the contents start at the first byte written. */
  get holdsEverything(): boolean {
    return this.total <= this.buffer.length;
  }

  contents(): Buffer {
    if (this.holdsEverything) return Buffer.from(this.buffer.subarray(0, this.total));
    return Buffer.concat([this.buffer.subarray(this.position), this.buffer.subarray(0, this.position)]);
  }
}

/**
 * A log file that keeps the first `maxBytes` and counts the rest. Writes are synchronous
 * appends of one pipe chunk (≤ 64 KiB) each, so nothing queues in memory and the pipe is only
 * read as fast as the disk takes it. A file error stops logging but never the command.
 */
export class CappedLog {
  private fd: number | null = null;
  private kept = 0;
  private dropped = 0;
  private lastByte = 0x0a;
  /** Why the log could not be written, if it could not. */
  error: string | null = null;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, 'w');
    } catch (error) {
      this.fail(error);
    }
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  write(chunk: Buffer): void {
    const room = Math.max(0, this.maxBytes - this.kept);
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.kept += part.length;
    this.dropped += chunk.length - part.length;
    if (part.length > 0) {
      this.append(part);
      this.lastByte = part[part.length - 1] ?? this.lastByte;
    }
  }

  /** Appends the truncation marker (now that the dropped count is known) and closes the file. */
  close(): void {
    if (this.dropped > 0) {
      const newline = this.lastByte === 0x0a ? '' : '\n';
      this.append(
        Buffer.from(
          `${newline}[aide: output truncated after ${this.kept} bytes; ${this.dropped} bytes dropped]\n`,
        ),
      );
    }
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch (error) {
      this.fail(error);
    }
    this.fd = null;
  }

  private append(bytes: Buffer): void {
    if (this.fd === null) return;
    try {
      for (let offset = 0; offset < bytes.length;) offset += writeSync(this.fd, bytes, offset);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.error ??= `cannot write the log ${this.path}: ${error instanceof Error ? error.message : String(error)}`;
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing; the first error is the one reported.
      }
      this.fd = null;
    }
  }
}

const LF = 0x0a;
const CR = 0x0d;
/** Raw bytes kept of one line: room for escape sequences around `MAX_LINE_CHARS` of text. */
const MAX_RAW_LINE = 16 * 1024;

/**
 * Splits a byte stream into cleaned lines, across chunk boundaries. A `\r` not followed by
 * `\n` starts the line over (a progress redraw), so a bar updated a million times still holds
 * one capped line. A final line without a newline is emitted by `end()`.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private bytes = 0;
  private pendingCR = false;
  private started = false;

  constructor(private readonly onLine: (line: string) => void) {}

  write(chunk: Buffer): void {
    let pos = 0;
    if (this.pendingCR && chunk.length > 0) {
      this.pendingCR = false;
      if (chunk[0] === LF) {
        this.emit();
        pos = 1;
      } else if (chunk[0] !== CR) this.restart();
    }
    // Searches are cached: re-scanning the chunk for a `\r` after every `\n` is quadratic.
    let nextLF = -2;
    let nextCR = -2;
    while (pos < chunk.length) {
      if (nextLF !== -1 && nextLF < pos) nextLF = chunk.indexOf(LF, pos);
      if (nextCR !== -1 && nextCR < pos) nextCR = chunk.indexOf(CR, pos);
      const special = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (special === -1) {
        this.append(chunk, pos, chunk.length);
        return;
      }
      if (chunk[special] === LF && this.parts.length === 0) {
        // A whole line inside this chunk: decoded in place, no copy (3.3 M lines per 100 MB).
        this.deliver(chunk.toString('utf8', pos, Math.min(special, pos + MAX_RAW_LINE)));
        pos = special + 1;
        continue;
      }
      this.append(chunk, pos, special);
      pos = this.handleSpecial(chunk, special);
    }
  }

  /** Emits the last line when the output did not end with a newline. */
  end(): void {
    if (this.started || this.pendingCR) this.emit();
    this.pendingCR = false;
  }

  /** Handles the `\n` or `\r` at `at`; returns where to continue. */
  private handleSpecial(chunk: Buffer, at: number): number {
    if (chunk[at] === LF) {
      this.emit();
      return at + 1;
    }
    if (at + 1 === chunk.length) {
      this.pendingCR = true;
      return at + 1;
    }
    const next = chunk[at + 1];
    if (next === LF) {
      this.emit();
      return at + 2;
    }
    if (next !== CR) this.restart();
    return at + 1;
  }

  private append(chunk: Buffer, start: number, end: number): void {
    this.started = true;
    const take = Math.min(end - start, MAX_RAW_LINE - this.bytes);
    if (take <= 0) return;
    // A copy: a slice would keep the whole 64 KiB chunk alive for a few bytes of line.
    this.parts.push(Buffer.from(chunk.subarray(start, start + take)));
    this.bytes += take;
  }

  private restart(): void {
    this.parts = [];
    this.bytes = 0;
  }

  private emit(): void {
    const raw = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.restart();
    this.deliver(raw?.toString('utf8') ?? '');
  }

  /** `text` holds no `\r` or `\n`: the splitter has already acted on them. */
  private deliver(text: string): void {
    this.started = false;
    this.onLine(capLine(stripTerminalControls(text)));
  }
}

export interface OutputSinkOptions {
  logFile: string;
  maxLogBytes: number;
  tailBytes: number;
  onLine?: ((line: string) => void) | undefined;
}

export interface OutputSummary {
  /** Every byte the command printed, kept or not. */
  outputBytes: number;
  truncated: boolean;
  tail: string;
  /** Why the log file could not be written; null when it was. */
  logError: string | null;
}

/** Fans each chunk out to the log, the tail ring and the line splitter. */
export class OutputSink {
  private readonly log: CappedLog;
  private readonly ring: ByteRing;
  private readonly lines: LineSplitter | null;
  private outputBytes = 0;
  private summary: OutputSummary | null = null;

  constructor(private readonly options: OutputSinkOptions) {
    this.log = new CappedLog(options.logFile, options.maxLogBytes);
    // Escape sequences shrink when stripped, so the ring holds more raw bytes than the tail.
    this.ring = new ByteRing(Math.max(options.tailBytes * 4, 64 * 1024));
    this.lines = options.onLine === undefined ? null : new LineSplitter(options.onLine);
  }

  write(chunk: Buffer): void {
    if (this.summary !== null) return;
    this.outputBytes += chunk.length;
    this.log.write(chunk);
    this.ring.write(chunk);
    this.lines?.write(chunk);
  }

  /** A line of aide's own in the log only (not counted as output, not in the tail). */
  note(text: string): void {
    this.log.write(Buffer.from(`${text}\n`));
  }

  /** Flushes the last line, writes the marker and closes the log. Idempotent. */
  finish(): OutputSummary {
    if (this.summary !== null) return this.summary;
    this.lines?.end();
    this.log.close();
    this.summary = {
      outputBytes: this.outputBytes,
      truncated: this.log.truncated,
      tail: tailOf(this.ring.contents(), this.ring.holdsEverything, this.options.tailBytes),
      logError: this.log.error,
    };
    return this.summary;
  }
}
