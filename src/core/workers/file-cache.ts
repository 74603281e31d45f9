/**
 * A worker's open files: read-only descriptors by path, at most `maxOpen` (the least recently
 * used is closed), each closed once unused for `idleMs`, all on closeAll(). Reads are positional
 * and synchronous: the worker has nothing else to do meanwhile, and the page cache answers most of
 * them. Files are never opened for writing here. A worker that ends closes what is left (Node
 * tracks descriptors a worker opens, piscina's trackUnmanagedFds).
 *
 * A small read that starts where the last read of its file ended reads ahead: an export's files
 * often lie one after the other in their container, and one read of 256 KiB serves a dozen of
 * them for less than their dozen system calls. What was read ahead is dropped by forget() (the
 * worker calls it after each task), so a file changed on disk is read again.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { FormatError } from '../errors.js';
import type { RangeReader } from './block-plan.js';

interface OpenFile { fd: number; used: number; lastEnd: number }

/** Bytes read at once for a sequential small read, and the largest read that reads ahead. */
const READ_AHEAD_BYTES = 256 * 1024;
const READ_AHEAD_BELOW = 64 * 1024;

export class ReadOnlyFiles implements RangeReader {
  private readonly open = new Map<string, OpenFile>();
  private ahead: { file: string; start: number; length: number; lastEnd: number } | null = null;
  private aheadBytes: Uint8Array | null = null;

  constructor(private readonly maxOpen = 64, private readonly idleMs = 10_000, private readonly now: () => number = Date.now) {}

  get openCount(): number { return this.open.size; }

  readInto(file: string, offset: number, length: number, into: Uint8Array): void {
    const a = this.ahead;
    if (a && a.file === file && offset >= a.start && offset + length <= a.start + a.length) {
      into.set(this.aheadBytes!.subarray(offset - a.start, offset - a.start + length));
      a.lastEnd = offset + length;
      return;
    }
    const f = this.file(file);
    // Sequential: right after the last read of this file, or of what was read ahead of it.
    const sequential = offset === f.lastEnd || (a !== null && a.file === file && offset === a.lastEnd);
    f.lastEnd = offset + length;
    if (sequential && length < READ_AHEAD_BELOW) {
      const buf = (this.aheadBytes ??= new Uint8Array(READ_AHEAD_BYTES));
      const got = readSync(f.fd, buf, 0, READ_AHEAD_BYTES, offset);
      if (got >= length) {
        this.ahead = { file, start: offset, length: got, lastEnd: offset + length };
        into.set(buf.subarray(0, length));
        return;
      }
    }
    let done = 0;
    while (done < length) {
      const n = readSync(f.fd, into, done, length - done, offset + done);
      if (n === 0) throw new FormatError(file, 'read', offset + done, 'file ended early (changed on disk?)');
      done += n;
    }
  }

  /** Drops what was read ahead. */
  forget(): void {
    this.ahead = null;
  }

  /** Closes the files unused for idleMs; returns how many stay open. */
  closeIdle(): number {
    const limit = this.now() - this.idleMs;
    for (const [path, f] of this.open) {
      if (f.used <= limit) this.close(path, f);
    }
    return this.open.size;
  }

  closeAll(): void {
    for (const [path, f] of this.open) this.close(path, f);
  }

  private file(file: string): OpenFile {
    const known = this.open.get(file);
    const now = this.now();
    if (known) {
      // Most recently used last, so the first entry is the one to close.
      this.open.delete(file);
      known.used = now;
      this.open.set(file, known);
      return known;
    }
    const opened = { fd: openSync(file, 'r'), used: now, lastEnd: -1 };
    this.open.set(file, opened);
    while (this.open.size > this.maxOpen) {
      const [path, f] = this.open.entries().next().value as [string, OpenFile];
      this.close(path, f);
    }
    return opened;
  }

  private close(path: string, f: OpenFile): void {
    this.open.delete(path);
    if (this.ahead?.file === path) this.ahead = null;
    try {
      closeSync(f.fd);
    } catch {
      // Closing a read-only descriptor cannot lose data; nothing to report.
    }
  }
}
