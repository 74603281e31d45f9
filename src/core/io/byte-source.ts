import { open, type FileHandle } from 'node:fs/promises';
import { FormatError } from '../errors.js';

/**
 * Random access to the bytes of one file. Containers read through this, never through whole-file
 * buffers: a .ucas can be tens of GiB.
 */
export interface ByteSource {
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`; a read past the end is a FormatError naming `what`. */
  read(offset: number, length: number, what?: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** In-memory bytes (tests, chunks already read, small files). */
export class MemoryByteSource implements ByteSource {
  readonly size: number;
  constructor(readonly name: string, private readonly bytes: Uint8Array) {
    this.size = bytes.length;
  }
  async read(offset: number, length: number, what = 'read'): Promise<Uint8Array> {
    checkRange(this, offset, length, what);
    return this.bytes.subarray(offset, offset + length);
  }
  async close(): Promise<void> {}
}

function checkRange(src: ByteSource, offset: number, length: number, what: string): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 ||
      offset + length > src.size) {
    throw new FormatError(src.name, what, offset, `${length} bytes past the end of the file (size ${src.size})`);
  }
}

/**
 * A read-only file handle with a bounded LRU cache of aligned blocks. Positional reads only, so
 * files over 4 GiB work (offsets are JS numbers, exact up to 2^53).
 */
export class FileByteSource implements ByteSource {
  private readonly cache = new Map<number, Promise<Uint8Array>>();
  private constructor(
    readonly name: string,
    private readonly handle: FileHandle,
    readonly size: number,
    private readonly blockSize: number,
    private readonly maxBlocks: number,
  ) {}

  static async open(path: string, opts: { blockSize?: number; cacheBytes?: number } = {}): Promise<FileByteSource> {
    const handle = await open(path, 'r'); // read-only, always
    try {
      const { size } = await handle.stat();
      const blockSize = opts.blockSize ?? 256 * 1024;
      const maxBlocks = Math.max(2, Math.floor((opts.cacheBytes ?? 8 * 1024 * 1024) / blockSize));
      return new FileByteSource(path, handle, size, blockSize, maxBlocks);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async read(offset: number, length: number, what = 'read'): Promise<Uint8Array> {
    checkRange(this, offset, length, what);
    if (length === 0) return new Uint8Array(0);
    // Large reads bypass the cache: they are bulk chunk data, read once.
    if (length >= this.blockSize * 2) return this.readDirect(offset, length);
    const first = Math.floor(offset / this.blockSize);
    const last = Math.floor((offset + length - 1) / this.blockSize);
    if (first === last) {
      const block = await this.block(first);
      const start = offset - first * this.blockSize;
      return block.subarray(start, start + length);
    }
    const out = new Uint8Array(length);
    let pos = 0;
    for (let b = first; b <= last; b++) {
      const block = await this.block(b);
      const start = b === first ? offset - b * this.blockSize : 0;
      const end = Math.min(block.length, offset + length - b * this.blockSize);
      out.set(block.subarray(start, end), pos);
      pos += end - start;
    }
    return out;
  }

  private block(index: number): Promise<Uint8Array> {
    const hit = this.cache.get(index);
    if (hit) {
      this.cache.delete(index); // move to the LRU tail
      this.cache.set(index, hit);
      return hit;
    }
    const start = index * this.blockSize;
    const p = this.readDirect(start, Math.min(this.blockSize, this.size - start));
    this.cache.set(index, p);
    p.catch(() => this.cache.delete(index));
    while (this.cache.size > this.maxBlocks) this.cache.delete(this.cache.keys().next().value as number);
    return p;
  }

  private async readDirect(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(out, done, length - done, offset + done);
      if (bytesRead === 0) throw new FormatError(this.name, 'read', offset + done, 'file ended early (changed on disk?)');
      done += bytesRead;
    }
    return out;
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.handle.close();
  }
}
