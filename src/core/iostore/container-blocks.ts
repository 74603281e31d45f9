/**
 * The block I/O of an IoStore container: its .ucas partition files, opened lazily, and the bytes
 * of its uncompressed address space read block by block, decoded inline or through a BlockDecoder
 * (worker threads), or planned for workers to read or write whole (block-plan.ts). Errors name the
 * .ucas and block as the inline path does, whichever path ran.
 */
import { basename, extname } from 'node:path';
import { DecodeError, FormatError } from '../errors.js';
import { FileByteSource, type ByteSource } from '../io/byte-source.js';
import { jobIndexOf, tagJobIndex, type BlockDecoder, type BlockJob } from '../workers/block-job.js';
import { planRunnerOf, PlanTable, ShortBlockError, type BlockPlan, type PlanRunner, type PlanSink } from '../workers/block-plan.js';
import type { WriteTarget } from '../workers/file-write.js';
import type { WriteJobBuilder } from '../workers/packed-writes.js';
import { aesParamsFor } from './container-key.js';
import { blockRange, COMPRESSED_BLOCK_ENTRY_SIZE, ENCRYPTION_IV_SIZE, TOC_HEADER_SIZE, type Toc } from './toc.js';
import { EncryptionMethod } from './toc-version.js';

/** Blocks decoded per batch: bounds the memory a huge chunk holds in flight. */
const BLOCKS_PER_BATCH = 64;
const AES_BLOCK = 16;

/** X.ucas, X_s1.ucas, X_s2.ucas ... beside X.utoc. */
export function partitionPath(utocPath: string, partition: number): string {
  const stem = utocPath.slice(0, utocPath.length - extname(utocPath).length);
  return partition === 0 ? `${stem}.ucas` : `${stem}_s${partition}.ucas`;
}

export class ContainerBlocks {
  private readonly sources = new Map<number, Promise<ByteSource>>();
  /** The partitions open so far, by index: plans are made without waiting on a promise. */
  private readonly opened: (ByteSource | undefined)[] = [];
  private planKey: Uint8Array | undefined;
  /** Per partition, the file list of the plans that read only it. */
  private readonly partitionFiles: string[][] = [];
  /** The decoder when it runs whole reads in workers (the worker pool), else null. */
  readonly planRunner: PlanRunner | null;
  private readonly name: string;

  constructor(
    /** The .utoc's path. */
    private readonly path: string,
    private readonly toc: Toc,
    /** Null when the container is not encrypted (or its key is not known). */
    private readonly key: Uint8Array | null,
    /** Paths of X.ucas, X_s1.ucas ... */
    private readonly partitionPaths: readonly string[],
    private readonly missingPartitions: ReadonlySet<string>,
    private readonly decoder: BlockDecoder,
  ) {
    this.name = basename(path, extname(path));
    this.planRunner = planRunnerOf(decoder) ?? null;
  }

  /**
   * Plans bytes [start, start+length) to be written to `to` into `job` (a worker reads, decodes and
   * writes them); throws, leaving the job as it was, when they cannot be planned.
   */
  async planWrite(job: WriteJobBuilder, start: number, length: number, to: WriteTarget): Promise<void> {
    const [first, end] = blockRange(this.toc, start, length);
    let partitions = this.openPartitions(first, end);
    if (partitions instanceof Promise) partitions = await partitions;
    job.file(this.planFiles(partitions), this.toc.methodNames, length, this.key ? (this.planKey ??= this.key.slice()) : undefined, to);
    try {
      this.planBlocks(job, partitions, start, length, first, end);
    } catch (e) {
      job.dropFile();
      throw e;
    }
  }

  /**
   * The plan a worker runs (PlanRunner.readPlan) to produce bytes [start, start+length), checked
   * as readRange checks; null when the decoder runs no plans (no worker pool).
   */
  planRange(start: number, length: number): BlockPlan | Promise<BlockPlan> | null {
    if (!this.planRunner) return null;
    const [first, end] = blockRange(this.toc, start, length);
    return this.blockPlan(start, length, first, end);
  }

  /**
   * One plan producing several ranges one after the other, range i ([starts[i], starts[i] +
   * lengths[i])) at ats[i] of an output of `size` bytes: what planRange gives per range, joined,
   * without a plan and a promise per range (a search index plans 250,000 package headers).
   */
  planRanges(starts: readonly number[], lengths: readonly number[], ats: readonly number[], size: number): BlockPlan | Promise<BlockPlan> | null {
    if (!this.planRunner) return null;
    let first = Infinity, end = -Infinity, count = 0;
    const ranges = starts.map((start, i) => {
      const r = blockRange(this.toc, start, lengths[i]!);
      if (r[0] < r[1]) {
        first = Math.min(first, r[0]);
        end = Math.max(end, r[1]);
        count += r[1] - r[0];
      }
      return r;
    });
    const partitions = count === 0 ? [] : this.openPartitions(first, end);
    if (partitions instanceof Promise) return partitions.then(() => this.planRanges(starts, lengths, ats, size)!);
    const table = new PlanTable(count);
    let shift = 0, ivBase = 0;
    // Range i's blocks as planBlocks gives them, moved to its place in the output and after the IVs before it.
    const sink: PlanSink = {
      block: (file, offset, stored, compressed, uncompressed, codec, encrypted, iv, ctrBlock, at, skip, take) =>
        table.block(file, offset, stored, compressed, uncompressed, codec, encrypted, iv + ivBase, ctrBlock, at + shift, skip, take),
      addIvs: (ivs) => table.addIvs(ivs),
    };
    ranges.forEach(([b0, b1], i) => {
      shift = ats[i]!;
      this.planBlocks(sink, partitions, starts[i]!, lengths[i]!, b0, b1);
      ivBase += b1 - b0;
    });
    const plan: BlockPlan = { files: this.planFiles(partitions), codecs: this.toc.methodNames, size, blocks: table.blocks };
    if (this.key) plan.key = this.planKey ??= this.key.slice();
    if (table.ivs) plan.ctrIvs = table.ivs;
    return plan;
  }

  /** A worker's failure to run planRange's plan, as readRange reports it. */
  rangeError(e: unknown, start: number, length: number): unknown {
    return this.planError(e, blockRange(this.toc, start, length)[0], start, length);
  }

  /** A worker's failure to write bytes [start, start+length) as readRange reports it. */
  writeError(e: unknown, start: number, length: number): unknown {
    return this.planError(e, blockRange(this.toc, start, length)[0], start, length);
  }

  async close(): Promise<void> {
    const open = [...this.sources.values()];
    this.sources.clear();
    this.opened.length = 0;
    await Promise.all(open.map((p) => p.then((s) => s.close(), () => undefined)));
  }

  private source(partition: number): Promise<ByteSource> {
    let p = this.sources.get(partition);
    if (!p) {
      const path = this.partitionPaths[partition];
      if (path === undefined) {
        return Promise.reject(new FormatError(this.path, 'compression blocks', TOC_HEADER_SIZE,
          `a block lies in partition ${partition} but the container has ${this.partitionPaths.length}`));
      }
      if (this.missingPartitions.has(path)) {
        const e = Object.assign(new Error(`${this.name}: cannot read: ${path} is missing`), { code: 'ENOENT', path });
        return Promise.reject(e);
      }
      p = FileByteSource.open(path);
      p.then((src) => { if (this.sources.get(partition) === p) this.opened[partition] = src; }, () => this.sources.delete(partition));
      this.sources.set(partition, p);
    }
    return p;
  }

  /** Bytes [start, start+length) of the container's uncompressed address space. */
  async readRange(start: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (length === 0) return new Uint8Array(length);
    const toc = this.toc;
    const bs = toc.header.compressionBlockSize;
    const [first, end] = blockRange(toc, start, length);
    // With a worker pool, workers read the stored bytes themselves; stored, unencrypted blocks
    // need no CPU and are read here through the block cache.
    if (this.planRunner && !this.storedPlain(first, end)) {
      const plan = await this.blockPlan(start, length, first, end);
      try {
        return await this.planRunner.readPlan(plan, signal);
      } catch (e) {
        throw this.planError(e, first, start, length);
      }
    }
    const out = new Uint8Array(length);
    for (let b0 = first; b0 < end; b0 += BLOCKS_PER_BATCH) {
      signal?.throwIfAborted();
      const b1 = Math.min(end, b0 + BLOCKS_PER_BATCH);
      const blocks = await this.decodeBlocks(b0, b1, signal);
      for (let b = b0; b < b1; b++) {
        const data = blocks[b - b0]!;
        const blockStart = b * bs;
        const from = Math.max(start, blockStart) - blockStart;
        const to = Math.min(start + length, blockStart + bs) - blockStart;
        if (data.length < to) throw this.shortBlock(b, data.length, to);
        out.set(data.subarray(from, to), blockStart + from - start);
      }
    }
    return out;
  }

  /**
   * A block that does not decode, named by its .ucas and byte offset there (the codec's own
   * message says only what went wrong); the same from the pool and the inline decoder.
   */
  private blockDecodeError(e: unknown, b: number): unknown {
    if (!(e instanceof DecodeError)) return e;
    const ps = this.toc.header.partitionSize;
    const p = Math.floor(this.toc.blockOffsets[b]! / ps);
    const offset = this.toc.blockOffsets[b]! - (p === 0 ? 0 : p * ps);
    const detail = e.message.startsWith(`${e.method}: `) ? e.message.slice(e.method.length + 2) : e.message;
    return tagJobIndex(new DecodeError(e.method, `block ${b} of ${basename(partitionPath(this.path, p))} at byte ${offset}: ${detail}`), jobIndexOf(e) ?? 0);
  }

  private shortBlock(b: number, holds: number, needs: number): FormatError {
    return new FormatError(this.path, 'compression blocks', this.toc.blockTableOffset + b * COMPRESSED_BLOCK_ENTRY_SIZE,
      `block ${b} holds ${holds} bytes but the chunk needs ${needs} of it`);
  }

  /** Blocks [first, end) are all stored (method None) and the container is not encrypted. */
  private storedPlain(first: number, end: number): boolean {
    if (this.key) return false;
    const methods = this.toc.blockMethods;
    for (let b = first; b < end; b++) if (methods[b] !== 0) return false;
    return true;
  }

  /**
   * The plan a worker runs to produce bytes [start, start+length): per block its partition file,
   * offset and sizes, checked against the file's size here, as the inline path checks its reads.
   */
  private blockPlan(start: number, length: number, first: number, end: number): BlockPlan | Promise<BlockPlan> {
    const partitions = this.openPartitions(first, end);
    if (partitions instanceof Promise) return partitions.then(() => this.blockPlan(start, length, first, end));
    const table = new PlanTable(end - first);
    this.planBlocks(table, partitions, start, length, first, end);
    const plan: BlockPlan = { files: this.planFiles(partitions), codecs: this.toc.methodNames, size: length, blocks: table.blocks };
    // A copy of its own: a view into a bigger buffer would send that whole buffer along.
    if (this.key) plan.key = this.planKey ??= this.key.slice();
    if (table.ivs) plan.ctrIvs = table.ivs;
    return plan;
  }

  /**
   * The partitions blocks [first, end) lie in, in the order they first appear (a block's `file` in
   * a plan is its partition's index here), once all are open: a promise while one is not yet.
   */
  private openPartitions(first: number, end: number): number | number[] | Promise<number | number[]> {
    // An empty chunk has no blocks, and needs no partition.
    if (first >= end) return [];
    const toc = this.toc;
    const ps = toc.header.partitionSize;
    // Nearly always one partition: no list is made then.
    let one = -1;
    let list: number[] | undefined;
    for (let b = first; b < end; b++) {
      const p = Math.floor(toc.blockOffsets[b]! / ps);
      if (one < 0) one = p;
      else if (p !== one && !list?.includes(p)) (list ??= [one]).push(p);
    }
    // Asked per planned file: the one-partition case makes no array.
    if (list === undefined) return this.opened[one] ? one : this.source(one).then(() => one);
    const closed = list.filter((p) => !this.opened[p]);
    if (closed.length > 0) return Promise.all(closed.map((p) => this.source(p))).then(() => list);
    return list;
  }

  /** The file list of plans over `partitions` (openPartitions); one partition's is shared by its plans, and found by identity when packed. */
  private planFiles(partitions: number | number[]): string[] {
    if (typeof partitions === 'number') return this.partitionFiles[partitions] ??= [this.opened[partitions]!.name];
    return partitions.map((p) => this.opened[p]!.name);
  }

  /**
   * The blocks of bytes [start, start+length), blocks [first, end), into `sink`: the fields of
   * PlanField, without an object per block (thousands per export); AES-CTR IVs alongside.
   */
  private planBlocks(sink: PlanSink, partitions: number | number[], start: number, length: number, first: number, end: number): void {
    const toc = this.toc;
    const bs = toc.header.compressionBlockSize;
    const ps = toc.header.partitionSize;
    const ctr = this.key !== null && toc.header.encryptionMethod === EncryptionMethod.AesCtr;
    const encrypted = this.key !== null ? 1 : 0;
    for (let b = first; b < end; b++) {
      const p = Math.floor(toc.blockOffsets[b]! / ps);
      const src = this.opened[p]!;
      const base = p === 0 ? 0 : p * ps; // ps may be Infinity
      const offset = toc.blockOffsets[b]! - base;
      const stored = this.storedSize(b, src.size - offset, ctr);
      if (offset + stored > src.size) {
        throw new FormatError(src.name, `block ${b} in ${basename(src.name)}`, offset,
          `${stored} bytes past the end of the file (size ${src.size})`);
      }
      const blockStart = b * bs;
      const from = Math.max(start, blockStart) - blockStart;
      const to = Math.min(start + length, blockStart + bs) - blockStart;
      sink.block(typeof partitions === 'number' ? 0 : partitions.indexOf(p), offset, stored, toc.blockCompressedSizes[b]!,
        toc.blockUncompressedSizes[b]!, toc.blockMethods[b]!, encrypted, b - first, 0, blockStart + from - start, from, to - from);
      if (ctr) sink.addIvs(toc.encryptionIvs.subarray(b * ENCRYPTION_IV_SIZE, (b + 1) * ENCRYPTION_IV_SIZE));
    }
  }

  /** Bytes block `b` takes in its .ucas: padded to the AES block when encrypted (CTR: no padding past the file's end). */
  private storedSize(b: number, left: number, ctr: boolean): number {
    const c = this.toc.blockCompressedSizes[b]!;
    if (!this.key) return c;
    const aligned = Math.ceil(c / AES_BLOCK) * AES_BLOCK;
    return ctr ? Math.min(aligned, Math.max(c, left)) : aligned;
  }

  /** A worker's failure as the inline path reports it: a short block is a FormatError naming it. */
  private planError(e: unknown, first: number, start: number, length: number): unknown {
    const i = jobIndexOf(e);
    if (i === undefined) return e;
    if (!(e instanceof ShortBlockError)) return this.blockDecodeError(e, first + i);
    const b = first + i;
    const bs = this.toc.header.compressionBlockSize;
    return this.shortBlock(b, e.decodedLength, Math.min(start + length, b * bs + bs) - b * bs);
  }

  /** Reads blocks [b0, b1) from the .ucas files and decodes them (decrypt, decompress). */
  private async decodeBlocks(b0: number, b1: number, signal?: AbortSignal): Promise<Uint8Array[]> {
    const toc = this.toc;
    const raws = await this.readRawBlocks(b0, b1);
    const out: Uint8Array[] = new Array(b1 - b0);
    const jobs: BlockJob[] = [];
    const jobBlocks: number[] = [];
    for (let b = b0; b < b1; b++) {
      const method = toc.blockMethods[b]!;
      const raw = raws[b - b0]!;
      if (method === 0 && !this.key) {
        out[b - b0] = raw.subarray(0, Math.min(raw.length, toc.blockUncompressedSizes[b]!));
        continue;
      }
      jobs.push({
        data: raw,
        codec: toc.methodNames[method]!,
        compressedSize: toc.blockCompressedSizes[b]!,
        uncompressedSize: toc.blockUncompressedSizes[b]!,
        aes: this.key ? aesParamsFor(toc, this.key, b) : undefined,
      });
      jobBlocks.push(b);
    }
    if (jobs.length > 0) {
      let decoded: Uint8Array[];
      try {
        decoded = await this.decoder.decode(jobs, signal);
      } catch (e) {
        const i = jobIndexOf(e);
        throw i === undefined ? e : this.blockDecodeError(e, jobBlocks[i]!);
      }
      jobBlocks.forEach((b, i) => {
        const d = decoded[i]!;
        out[b - b0] = toc.blockMethods[b] === 0 ? d.subarray(0, Math.min(d.length, toc.blockUncompressedSizes[b]!)) : d;
      });
    }
    return out;
  }

  /** Stored bytes of blocks [b0, b1); neighbours in one partition are read in one go. */
  private async readRawBlocks(b0: number, b1: number): Promise<Uint8Array[]> {
    const toc = this.toc;
    const ps = toc.header.partitionSize;
    const ctr = this.key !== null && toc.header.encryptionMethod === EncryptionMethod.AesCtr;
    const out: Uint8Array[] = new Array(b1 - b0);
    let b = b0;
    while (b < b1) {
      const partition = Math.floor(toc.blockOffsets[b]! / ps);
      const base = partition === 0 ? 0 : partition * ps; // ps may be Infinity
      const src = await this.source(partition);
      const rawSize = (k: number): number => this.storedSize(k, src.size - (toc.blockOffsets[k]! - base), ctr);
      const runStart = toc.blockOffsets[b]! - base;
      let runEnd = runStart + rawSize(b);
      let e = b + 1;
      while (e < b1 && Math.floor(toc.blockOffsets[e]! / ps) === partition &&
             toc.blockOffsets[e]! - base === runEnd) {
        runEnd += rawSize(e);
        e++;
      }
      const bytes = await src.read(runStart, runEnd - runStart, `block ${b} in ${basename(src.name)}`);
      let pos = 0;
      for (let k = b; k < e; k++) {
        const n = rawSize(k);
        out[k - b0] = bytes.subarray(pos, pos + n);
        pos += n;
      }
      b = e;
    }
    return out;
  }
}
