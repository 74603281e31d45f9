/**
 * A worker's open files: read-only descriptors by path, at most `maxOpen` (the least recently
 * used is closed), each closed once unused for `idleMs`, all on closeAll(). Reads are positional
 * and synchronous: the worker has nothing else to do meanwhile, and the page cache answers most of
 * them. Files are never opened for writing here. A worker that ends closes what is left (Node
 * tracks descriptors a worker opens: Worker's trackUnmanagedFds, on by default).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { FormatError } from '../errors.js';
import type { RangeReader } from './block-plan.js';

interface OpenFile { fd: number; used: number }

export class ReadOnlyFiles implements RangeReader {
  private readonly open = new Map<string, OpenFile>();
  private last: { path: string; file: OpenFile } | null = null;
  /** The range read ahead last (readAhead), in aheadBytes. */
  private ahead: { file: string; offset: number; length: number } | null = null;
  private aheadBytes = new Uint8Array(0);

  constructor(private readonly maxOpen = 64, private readonly idleMs = 10_000, private readonly now: () => number = Date.now) {}

  get openCount(): number { return this.open.size; }

  read(file: string, offset: number, length: number, into: Uint8Array): Uint8Array {
    const a = this.ahead;
    if (a !== null && a.file === file && offset >= a.offset && offset + length <= a.offset + a.length) {
      return this.aheadBytes.subarray(offset - a.offset, offset - a.offset + length);
    }
    this.readInto(file, offset, length, into);
    return into.subarray(0, length);
  }

  readAhead(file: string, offset: number, length: number): boolean {
    this.ahead = null;
    if (this.aheadBytes.length < length) this.aheadBytes = new Uint8Array(length);
    try {
      this.readInto(file, offset, length, this.aheadBytes);
    } catch {
      // A short file: each read then reports it for its own range.
      return false;
    }
    this.ahead = { file, offset, length };
    return true;
  }

  readInto(file: string, offset: number, length: number, into: Uint8Array): void {
    const fd = this.fd(file);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, into, done, length - done, offset + done);
      if (n === 0) throw new FormatError(file, 'read', offset + done, 'file ended early (changed on disk?)');
      done += n;
    }
  }

  /** Closes the files unused for idleMs; returns how many stay open. */
  closeIdle(): number {
    this.ahead = null;
    const limit = this.now() - this.idleMs;
    for (const [path, f] of this.open) {
      if (f.used <= limit) this.close(path, f);
    }
    return this.open.size;
  }

  closeAll(): void {
    this.ahead = null;
    for (const [path, f] of this.open) this.close(path, f);
  }

  private fd(file: string): number {
    // Reads come in runs from one file: that one is most recently used already.
    const last = this.last;
    if (last !== null && last.path === file) {
      last.file.used = this.now();
      return last.file.fd;
    }
    const known = this.open.get(file);
    const now = this.now();
    if (known) {
      // Most recently used last, so the first entry is the one to close.
      this.open.delete(file);
      known.used = now;
      this.open.set(file, known);
      this.last = { path: file, file: known };
      return known.fd;
    }
    const fd = openSync(file, 'r');
    const opened = { fd, used: now };
    this.open.set(file, opened);
    this.last = { path: file, file: opened };
    while (this.open.size > this.maxOpen) {
      const [path, f] = this.open.entries().next().value as [string, OpenFile];
      this.close(path, f);
    }
    return fd;
  }

  private close(path: string, f: OpenFile): void {
    this.open.delete(path);
    if (this.last?.file === f) this.last = null;
    try {
      closeSync(f.fd);
    } catch {
      // Closing a read-only descriptor cannot lose data; nothing to report.
    }
  }
}
