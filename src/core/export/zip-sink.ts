/**
 * Writes exported files into one .zip, streamed: fflate's Zip with a ZipDeflate (or, at level 0,
 * ZipPassThrough) per entry, its output written to the file as it comes, so the zip is never
 * whole in memory. Files are read in parallel but enter the zip one at a time, and only once
 * complete: a file that fails half-way must not leave half an entry. Until then a file waits in
 * memory, or beyond ZIP_BUFFER_BYTES in a spool file beside the zip.
 *
 * fflate writes no ZIP64 records, so a zip holds at most 65,535 entries and 4 GiB; past that the
 * export fails (ZipLimitError) rather than write a zip that lies about its offsets.
 *
 * The zip is written to a temporary name and renamed to its own when closed; an aborted export
 * removes it.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { EntryWriter, ExportSink } from './sink.js';
import { Destination, numberedName } from './safe-path.js';
import type { ConflictPolicy } from './types.js';

/** Largest entry count and byte offset a zip without ZIP64 records can hold. */
export const ZIP_MAX_ENTRIES = 0xffff;
export const ZIP_MAX_BYTES = 0xffffffff;
/** A file bigger than this waits for its turn in a spool file instead of memory. */
const ZIP_BUFFER_BYTES = 8 * 1024 * 1024;
const SPOOL_PIECE = 4 * 1024 * 1024;
const CREATE_NEW = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** An entry failed after it was started: the zip can take nothing more. */
export class ZipBrokenError extends Error {
  constructor(path: string, cause: unknown) {
    super(`the zip cannot be completed after ${path} failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ZipBrokenError';
  }
}

/** The zip would not fit what a zip without ZIP64 can describe. */
export class ZipLimitError extends Error {
  constructor(message: string) {
    super(`${message}; fflate writes no ZIP64 records (at most ${ZIP_MAX_ENTRIES} files and 4 GiB): export to a folder instead`);
    this.name = 'ZipLimitError';
  }
}

export class ZipSink implements ExportSink {
  private readonly zip: Zip;
  /** fflate's output waiting to be written (it calls back synchronously). */
  private queue: Uint8Array[] = [];
  private zipError: Error | undefined;
  private written = 0;
  private entries = 0;
  /** Entries go in one after another. */
  private turn: Promise<void> = Promise.resolve();
  private finished = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly temp: string,
    /** The zip's final path. */
    readonly target: string,
    private readonly level: number,
    /** The zip's folder: the zip, its temporary name and spool files are checked to be files in it. */
    readonly folder: Destination,
  ) {
    this.zip = new Zip((err, data) => {
      if (err) this.zipError ??= new ZipBrokenError('an entry', err);
      else if (data) this.queue.push(data);
    });
  }

  /**
   * Opens a temporary zip beside `zipPath`. Under 'skip' an existing zip means nothing to do:
   * the result is {skipped}. Under 'keep-both' the zip gets a numbered name.
   */
  static async create(zipPath: string, conflict: ConflictPolicy, level: number): Promise<ZipSink | { skipped: string; target: string }> {
    const dir = dirname(resolve(zipPath));
    const folder = new Destination(dir);
    const wanted = folder.file(dir, basename(resolve(zipPath)));
    await mkdir(dir, { recursive: true });
    let target = wanted;
    if (await exists(wanted)) {
      if (conflict === 'skip') return { skipped: 'the zip exists (not overwritten)', target: wanted };
      if (conflict === 'keep-both') {
        let n = 2;
        while (await exists(folder.file(dir, numberedName(basename(wanted), n)))) n++;
        target = folder.file(dir, numberedName(basename(wanted), n));
      }
    }
    const temp = folder.file(dir, `.pakscope-${randomBytes(6).toString('hex')}.zip.partial`);
    const handle = await open(temp, CREATE_NEW, 0o644);
    return new ZipSink(handle, temp, target, level, folder);
  }

  async begin(path: string, _segments: readonly string[], size: number): Promise<{ writer: EntryWriter }> {
    if (size > ZIP_MAX_BYTES) throw new ZipLimitError(`${path} is ${size} bytes`);
    return { writer: new ZipEntryWriter(this, path) };
  }

  /** Adds one complete file: runs when the entries before it are in. */
  addEntry(path: string, feed: (push: (chunk: Uint8Array, final: boolean) => Promise<void>) => Promise<void>): Promise<void> {
    const run = async (): Promise<void> => {
      if (++this.entries > ZIP_MAX_ENTRIES) throw new ZipLimitError(`${path} would be entry ${this.entries}`);
      const entry = this.level === 0 ? new ZipPassThrough(path) : new ZipDeflate(path, { level: this.level as 1 });
      this.zip.add(entry);
      try {
        await feed(async (chunk, final) => {
          entry.push(chunk, final);
          await this.drain();
        });
      } catch (e) {
        // The entry is in the zip but unfinished: no later entry or central directory can follow.
        this.zipError ??= new ZipBrokenError(path, e);
        throw this.zipError;
      }
    };
    const result = this.turn.then(run);
    this.turn = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.turn;
    this.zip.end();
    await this.drain();
    await this.handle.close();
    this.finished = true;
    await rename(this.temp, this.target);
  }

  async abort(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.zip.terminate();
    await this.handle.close().catch(() => undefined);
    await unlink(this.temp).catch(() => undefined);
  }

  /** Writes what fflate has produced; fails the export past 4 GiB. */
  private async drain(): Promise<void> {
    if (this.zipError) throw this.zipError;
    while (this.queue.length > 0) {
      const chunks = this.queue;
      this.queue = [];
      for (const c of chunks) {
        if (this.written + c.length > ZIP_MAX_BYTES) throw new ZipLimitError('the zip would pass 4 GiB');
        let done = 0;
        while (done < c.length) done += (await this.handle.write(c, done, c.length - done)).bytesWritten;
        this.written += c.length;
      }
    }
  }
}

/** Collects one file in memory (spilling to a spool file when big) until it is complete. */
class ZipEntryWriter implements EntryWriter {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private spool: { handle: FileHandle; path: string; size: number } | undefined;

  constructor(private readonly sink: ZipSink, private readonly path: string) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.spool && this.buffered + chunk.length > ZIP_BUFFER_BYTES) {
      const dir = dirname(this.sink.target);
      const path = this.sink.folder.file(dir, `.pakscope-${randomBytes(6).toString('hex')}.spool`);
      this.spool = { handle: await open(path, CREATE_NEW, 0o600), path, size: 0 };
      for (const c of this.chunks) await this.toSpool(c);
      this.chunks = [];
      this.buffered = 0;
    }
    if (this.spool) await this.toSpool(chunk);
    else {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
  }

  async commit(): Promise<{ path: string }> {
    try {
      await this.sink.addEntry(this.path, async (push) => {
        if (!this.spool) {
          const chunks = this.chunks;
          this.chunks = [];
          if (chunks.length === 0) await push(new Uint8Array(0), true);
          for (let i = 0; i < chunks.length; i++) await push(chunks[i]!, i === chunks.length - 1);
          return;
        }
        const { handle, size } = this.spool;
        const piece = new Uint8Array(Math.min(SPOOL_PIECE, Math.max(size, 1)));
        if (size === 0) await push(new Uint8Array(0), true);
        for (let at = 0; at < size; at += piece.length) {
          const n = Math.min(piece.length, size - at);
          const { bytesRead } = await handle.read(piece, 0, n, at);
          if (bytesRead !== n) throw new Error(`spool file ${this.spool.path} was cut short`);
          // fflate may keep the chunk (pass-through) until it is written: give it its own copy.
          await push(piece.slice(0, n), at + n >= size);
        }
      });
    } finally {
      await this.discard();
    }
    return { path: this.path };
  }

  async discard(): Promise<void> {
    this.chunks = [];
    const spool = this.spool;
    this.spool = undefined;
    if (spool) {
      await spool.handle.close().catch(() => undefined);
      await unlink(spool.path).catch(() => undefined);
    }
  }

  private async toSpool(chunk: Uint8Array): Promise<void> {
    const s = this.spool!;
    let done = 0;
    while (done < chunk.length) done += (await s.handle.write(chunk, done, chunk.length - done, s.size + done)).bytesWritten;
    s.size += chunk.length;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
