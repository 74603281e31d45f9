/**
 * An IoStore container: the parsed .utoc plus its .ucas partition files (X.ucas, X_s1.ucas ...),
 * opened lazily. Lists the directory-index files, reads chunks block by block through a
 * BlockDecoder (so decompression can run in worker threads), and verifies them against the
 * stored hashes. A missing .ucas or a missing key does not stop listing: they show in `status`.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, ArchiveStatus, FileStorage, HashCheck } from '../archive.js';
import { asError, DecodeError, FormatError } from '../errors.js';
import { aesDecrypt, type AesParams } from '../crypto/aes.js';
import type { KeyRing } from '../crypto/keys.js';
import { FileByteSource, type ByteSource } from '../io/byte-source.js';
import { inlineDecoder, jobIndexOf, tagJobIndex, type BlockDecoder, type BlockJob } from '../workers/block-job.js';
import { planRunnerOf, PlanTable, ShortBlockError, writeBatches, type BlockPlan, type PlannedBatch, type PlanRunner, type PlanSink } from '../workers/block-plan.js';
import { WriteJobBuilder } from '../workers/packed-writes.js';
import type { WriteOutcome, WriteResult, WriteTarget } from '../workers/file-write.js';
import type { WorkerPool } from '../workers/pool.js';
import { checkChunkHash } from '../hash/chunk-hash.js';
import { chunkTypeName, chunkTypeNames } from './chunk-type.js';
import { looksLikeMountPoint, parseDirectoryIndex, type DirectoryIndex } from './directory-index.js';
import { ChunkLookup } from './perfect-hash.js';
import {
  blockRange, chunkMetaHash, chunkTypeByte, COMPRESSED_BLOCK_ENTRY_SIZE, ENCRYPTION_IV_SIZE, parseToc,
  TOC_HEADER_SIZE, toHex, type Toc,
} from './toc.js';
import { ContainerFlags, containerFlagNames, EncryptionMethod, encryptionMethodName, tocVersionName } from './toc-version.js';

export interface OpenIoStoreOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
}

/** Blocks decoded per batch: bounds the memory a huge chunk holds in flight. */
const BLOCKS_PER_BATCH = 64;
const AES_BLOCK = 16;
/** 250,000 entries and a million blocks take about 40 MiB. */
const MAX_TOC_BYTES = 1024 * 1024 * 1024;

/** X.ucas, X_s1.ucas, X_s2.ucas ... beside X.utoc. */
export function partitionPath(utocPath: string, partition: number): string {
  const stem = utocPath.slice(0, utocPath.length - extname(utocPath).length);
  return partition === 0 ? `${stem}.ucas` : `${stem}_s${partition}.ucas`;
}

/** Codec name -> number of blocks using it, over all blocks ("None" included). */
export function summarizeCodecs(toc: Toc, firstBlock = 0, endBlock = toc.blockMethods.length): Record<string, number> {
  const counts = new Array<number>(toc.methodNames.length).fill(0);
  for (let b = firstBlock; b < endBlock; b++) counts[toc.blockMethods[b]!]!++;
  const out: Record<string, number> = {};
  toc.methodNames.forEach((name, i) => {
    if (counts[i]) out[name] = (out[name] ?? 0) + counts[i]!;
  });
  return out;
}

export async function openIoStoreContainer(utocPath: string, opts: OpenIoStoreOptions = {}): Promise<IoStoreContainer> {
  // The TOC is the index and is read whole; a real one is at most tens of MiB.
  const { size } = await stat(utocPath);
  if (size > MAX_TOC_BYTES) throw new FormatError(utocPath, 'utoc header', 0, `${size} bytes is too large for a .utoc`);
  // A view of the Buffer, not a copy: a copy of every TOC costs as much as the read.
  const file = await readFile(utocPath);
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const toc = parseToc(bytes, utocPath);
  const partitions = Array.from({ length: toc.header.partitionCount }, (_, i) => partitionPath(utocPath, i));
  // Only the partitions some block lies in are looked for: a hostile count must not cost a stat each.
  const used = usedPartitions(toc);
  const present = await Promise.all(used.map((i) => stat(partitions[i]!).then((s) => s.isFile(), () => false)));
  const missing = used.filter((_, k) => !present[k]).map((i) => partitions[i]!);

  let key: Uint8Array | null = null;
  let status: ArchiveStatus = { state: 'ok' };
  let index: DirectoryIndex | null = null;
  const encrypted = (toc.header.containerFlags & ContainerFlags.Encrypted) !== 0;
  let indexBytes = toc.directoryIndex;
  if (encrypted) {
    const pick = pickKey(toc, opts.keys);
    if ('locked' in pick) status = { state: 'locked', message: pick.locked };
    else {
      key = pick.key;
      indexBytes = pick.index;
    }
  }
  if (indexBytes && status.state !== 'locked') {
    index = parseDirectoryIndex(indexBytes, utocPath, toc.header.entryCount, toc.directoryIndexOffset);
  }
  if (status.state === 'ok' && missing.length > 0) {
    status = {
      state: 'warning',
      message: `missing ${missing.map((p) => basename(p)).join(', ')}: files are listed but cannot be read`,
    };
  }
  return new IoStoreContainer(utocPath, toc, index, key, status, partitions, new Set(missing), opts.decoder ?? inlineDecoder);
}

/** The partitions (below the TOC's count) that hold at least one block, ascending; partition 0 always. */
function usedPartitions(toc: Toc): number[] {
  const ps = toc.header.partitionSize;
  const used = new Set<number>([0]);
  if (Number.isFinite(ps)) {
    for (let b = 0; b < toc.blockOffsets.length; b++) {
      const p = Math.floor(toc.blockOffsets[b]! / ps);
      if (p < toc.header.partitionCount) used.add(p);
    }
  }
  return [...used].sort((a, b) => a - b);
}

/** The AES params that decrypt block `b` (or the directory index when b is the block count). */
function aesParamsFor(toc: Toc, key: Uint8Array, b: number): AesParams {
  if (toc.header.encryptionMethod === EncryptionMethod.AesCtr) {
    return { mode: 'ctr', key, iv: toc.encryptionIvs.subarray(b * ENCRYPTION_IV_SIZE, (b + 1) * ENCRYPTION_IV_SIZE) };
  }
  return { mode: 'ecb', key };
}

/**
 * Chooses the key for an encrypted container: the candidates for its key GUID, the first whose
 * decrypted directory index starts with a sane mount point. Without a directory index nothing can
 * judge a key, so the first candidate is used.
 */
function pickKey(toc: Toc, keys: KeyRing | undefined): { key: Uint8Array; index: Uint8Array | null } | { locked: string } {
  const guid = toc.header.encryptionKeyGuid;
  const candidates = keys?.candidates(guid) ?? [];
  const guidText = /^0+$/.test(guid) ? 'the zero key GUID (main key)' : `key GUID ${guid}`;
  if (candidates.length === 0) return { locked: `encrypted with ${guidText}; no AES key given for it` };
  const raw = toc.directoryIndex;
  if (!raw) return { key: candidates[0]!, index: null };
  const blocks = toc.header.compressedBlockEntryCount;
  for (const key of candidates) {
    const params = aesParamsFor(toc, key, blocks);
    let plain: Uint8Array;
    if (params.mode === 'ecb') {
      const aligned = raw.length - (raw.length % AES_BLOCK);
      plain = aesDecrypt(raw.subarray(0, aligned), params);
    } else {
      plain = aesDecrypt(raw, params);
    }
    if (looksLikeMountPoint(plain)) return { key, index: plain };
  }
  return {
    locked: `encrypted with ${guidText}; none of the ${candidates.length} AES key(s) given decrypts its directory index (wrong key)`,
  };
}

export class IoStoreContainer implements Archive {
  readonly kind = 'iostore' as const;
  readonly name: string;
  readonly mountPoint: string;
  private fileList: ArchiveFile[] | null = null;
  /** Files made one by one (fileAt) before the whole list was. */
  private someFiles: Map<number, ArchiveFile> | null = null;
  private readonly sources = new Map<number, Promise<ByteSource>>();
  /** The partitions open so far, by index: plans are made without waiting on a promise. */
  private readonly opened: (ByteSource | undefined)[] = [];
  private planKey: Uint8Array | undefined;
  /** Per partition, the file list of the plans that read only it. */
  private readonly partitionFiles: string[][] = [];
  private readonly lookup: ChunkLookup;
  /** The decoder when it runs whole reads in workers (the worker pool), else null. */
  private readonly planRunner: PlanRunner | null;
  private allIdsHex: string | null = null;

  constructor(
    readonly path: string,
    readonly toc: Toc,
    /** Null when the TOC has no directory index or it cannot be decrypted. */
    readonly directoryIndex: DirectoryIndex | null,
    private readonly key: Uint8Array | null,
    readonly status: ArchiveStatus,
    /** Paths of X.ucas, X_s1.ucas ... */
    readonly partitionPaths: readonly string[],
    private readonly missingPartitions: ReadonlySet<string>,
    private readonly decoder: BlockDecoder,
  ) {
    this.name = basename(path, extname(path));
    this.mountPoint = directoryIndex?.mountPoint ?? '';
    this.lookup = new ChunkLookup(toc);
    this.planRunner = planRunnerOf(decoder) ?? null;
  }

  get chunkCount(): number { return this.toc.header.entryCount; }

  chunkIdHex(entryIndex: number): string {
    this.checkEntry(entryIndex);
    return this.idHex(entryIndex);
  }

  /** All ids as one hex string, made once: slicing it is much cheaper than formatting each id. */
  private idHex(entryIndex: number): string {
    this.allIdsHex ??= Buffer.from(this.toc.chunkIds.buffer, this.toc.chunkIds.byteOffset, this.toc.chunkIds.byteLength).toString('hex');
    return this.allIdsHex.slice(entryIndex * 24, entryIndex * 24 + 24);
  }

  chunkTypeName(entryIndex: number): string {
    this.checkEntry(entryIndex);
    return chunkTypeName(this.toc.header.version, chunkTypeByte(this.toc, entryIndex));
  }

  /** Entry index of a chunk id (24 hex digits), through the perfect hash when the TOC has one. */
  findChunk(chunkIdHexText: string): number | undefined {
    return this.lookup.findHex(chunkIdHexText);
  }

  /** Entry indices whose chunk type has this name (ExportBundleData, ContainerHeader, ...). */
  entriesOfType(typeName: string): number[] {
    const out: number[] = [];
    const v = this.toc.header.version;
    for (let i = 0; i < this.chunkCount; i++) {
      if (chunkTypeName(v, chunkTypeByte(this.toc, i)) === typeName) out.push(i);
    }
    return out;
  }

  chunkSize(entryIndex: number): number {
    this.checkEntry(entryIndex);
    return this.toc.chunkLengths[entryIndex]!;
  }

  files(): readonly ArchiveFile[] {
    if (!this.fileList) {
      const list: ArchiveFile[] = [];
      for (let k = 0; k < (this.directoryIndex?.fileCount ?? 0); k++) list.push(this.someFiles?.get(k) ?? this.makeFile(k));
      this.fileList = list;
      this.someFiles = null;
    }
    return this.fileList;
  }

  /**
   * files()[k] without making the whole list: listing one folder needs a few files of many
   * containers. The same object files() holds.
   */
  fileAt(k: number): ArchiveFile | undefined {
    if (this.fileList) return this.fileList[k];
    if (!Number.isInteger(k) || k < 0 || k >= (this.directoryIndex?.fileCount ?? 0)) return undefined;
    this.someFiles ??= new Map();
    let f = this.someFiles.get(k);
    if (!f) {
      f = this.makeFile(k);
      this.someFiles.set(k, f);
    }
    return f;
  }

  private makeFile(k: number): ArchiveFile {
    const index = this.directoryIndex!;
    const entryIndex = index.fileEntries[k]!;
    const type = chunkTypeByte(this.toc, entryIndex);
    return {
      path: index.filePath(k),
      size: this.toc.chunkLengths[entryIndex]!,
      ref: entryIndex,
      chunkId: this.idHex(entryIndex),
      chunkType: chunkTypeNames(this.toc.header.version)[type] ?? `Unknown(${type})`,
    };
  }

  read(ref: number, signal?: AbortSignal): Promise<Uint8Array> {
    return this.readChunk(ref, signal);
  }

  async readChunk(entryIndex: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.checkEntry(entryIndex);
    return this.readRange(this.toc.chunkOffsets[entryIndex]!, this.toc.chunkLengths[entryIndex]!, signal);
  }

  /** `length` bytes from `offset` inside a chunk, decoding only the blocks that cover them. */
  async readChunkRange(entryIndex: number, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.checkEntry(entryIndex);
    const size = this.toc.chunkLengths[entryIndex]!;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new RangeError(`range ${offset}+${length} is not a valid byte range`);
    }
    const start = Math.min(offset, size);
    const end = Math.min(size, offset + length);
    return this.readRange(this.toc.chunkOffsets[entryIndex]! + start, end - start, signal);
  }

  async verifyChunk(entryIndex: number, signal?: AbortSignal): Promise<HashCheck> {
    const data = await this.readChunk(entryIndex, signal);
    const stored = chunkMetaHash(this.toc, entryIndex);
    // The worker pool hashes off this thread when it is the decoder.
    const pool = this.decoder as Partial<Pick<WorkerPool, 'hash'>>;
    return typeof pool.hash === 'function' ? pool.hash(data, stored) : checkChunkHash(stored, data);
  }

  verify(ref: number): Promise<HashCheck | null> {
    return this.verifyChunk(ref);
  }

  /** True when writeChunksToFiles can have workers write chunks (the decoder is a worker pool). */
  get writesInWorkers(): boolean {
    return this.planRunner !== null;
  }

  /**
   * Has workers read, decode and write whole chunks, chunk `entryIndices[i]` to `to[i]` (export;
   * see file-write.ts), so their bytes never come to this thread; many go in one job. Needs
   * writesInWorkers. One result per chunk: a failure is that chunk's own, as readChunk reports it.
   */
  async writeChunksToFiles(entryIndices: readonly number[], to: readonly WriteTarget[], signal?: AbortSignal): Promise<WriteResult[]> {
    const job = new WriteJobBuilder();
    const [results] = await writeBatches(job, [await this.planChunkWrites(entryIndices, to, job)], signal);
    return results!;
  }

  /** writeChunksToFiles planned into `job`, which writeBatches runs with other archives' files. */
  async planChunkWrites(entryIndices: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): Promise<PlannedBatch> {
    const runner = this.planRunner;
    if (!runner) throw new Error(`${this.name}: its decoder cannot write files (no worker pool)`);
    const toc = this.toc;
    const slots: (number | Error)[] = [];
    for (let i = 0; i < entryIndices.length; i++) {
      const entryIndex = entryIndices[i]!;
      try {
        this.checkEntry(entryIndex);
        this.checkUnlocked();
        const start = toc.chunkOffsets[entryIndex]!;
        const length = toc.chunkLengths[entryIndex]!;
        const [first, end] = blockRange(toc, start, length);
        let partitions = this.openPartitions(first, end);
        if (partitions instanceof Promise) partitions = await partitions;
        job.file(this.planFiles(partitions), toc.methodNames, length, this.key ? (this.planKey ??= this.key.slice()) : undefined, to[i]!);
        try {
          this.planBlocks(job, partitions, start, length, first, end);
        } catch (e) {
          job.dropFile();
          throw e;
        }
        slots.push(job.files - 1);
      } catch (e) {
        slots.push(asError(e));
      }
    }
    const settle = (i: number, r: WriteResult): WriteResult => {
      if (typeof r === 'string') return r;
      const start = toc.chunkOffsets[entryIndices[i]!]!;
      const length = toc.chunkLengths[entryIndices[i]!]!;
      return asError(this.planError(r, blockRange(toc, start, length)[0], start, length));
    };
    return { runner, slots, settle };
  }

  /** writeChunksToFiles for one chunk: its outcome, or its failure thrown. */
  async writeChunkToFile(entryIndex: number, to: WriteTarget, signal?: AbortSignal): Promise<WriteOutcome> {
    const [r] = await this.writeChunksToFiles([entryIndex], [to], signal);
    if (typeof r !== 'string') throw r;
    return r;
  }

  storage(ref: number): FileStorage {
    this.checkEntry(ref);
    const toc = this.toc;
    const offset = toc.chunkOffsets[ref]!;
    const size = toc.chunkLengths[ref]!;
    const [b0, b1] = blockRange(toc, offset, size);
    let compressedSize = 0;
    const partitions = new Set<number>();
    for (let b = b0; b < b1; b++) {
      compressedSize += toc.blockCompressedSizes[b]!;
      partitions.add(Math.floor(toc.blockOffsets[b]! / toc.header.partitionSize));
    }
    return {
      offset,
      size,
      compressedSize,
      codecs: summarizeCodecs(toc, b0, b1),
      encrypted: (toc.header.containerFlags & ContainerFlags.Encrypted) !== 0,
      storedHash: storedHashHex(chunkMetaHash(toc, ref)),
      partitions: [...partitions].sort((a, b) => a - b),
    };
  }

  describe(): ArchiveDescription {
    const h = this.toc.header;
    const codecs = summarizeCodecs(this.toc);
    return {
      kind: 'iostore',
      path: this.path,
      fields: {
        'TOC version': `${h.version} (${tocVersionName(h.version)})`,
        Flags: containerFlagNames(h.containerFlags).join(', ') || 'None',
        Entries: h.entryCount,
        Files: this.directoryIndex ? this.directoryIndex.fileCount : 0,
        'Compressed blocks': h.compressedBlockEntryCount,
        'Block size': h.compressionBlockSize,
        Codecs: Object.entries(codecs).map(([k, n]) => `${k}: ${n}`).join(', ') || 'None',
        'Mount point': this.directoryIndex ? this.directoryIndex.mountPoint : null,
        'Container id': h.containerId,
        'Encryption key GUID': h.encryptionKeyGuid,
        Encryption: encryptionMethodName(h.encryptionMethod),
        Partitions: h.partitionCount,
        'Partition size': Number.isFinite(h.partitionSize) ? h.partitionSize : null,
        Signed: (h.containerFlags & ContainerFlags.Signed) !== 0,
      },
    };
  }

  async close(): Promise<void> {
    const open = [...this.sources.values()];
    this.sources.clear();
    this.opened.length = 0;
    await Promise.all(open.map((p) => p.then((s) => s.close(), () => undefined)));
  }

  private checkEntry(entryIndex: number): void {
    if (!Number.isInteger(entryIndex) || entryIndex < 0 || entryIndex >= this.chunkCount) {
      throw new RangeError(`${this.name}: no TOC entry ${entryIndex} (the container has ${this.chunkCount})`);
    }
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

  private checkUnlocked(): void {
    if (this.status.state === 'locked') throw new Error(`${this.name}: cannot read: ${this.status.message}`);
  }

  /** Bytes [start, start+length) of the container's uncompressed address space. */
  private async readRange(start: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.checkUnlocked();
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

/** Hex of a stored hash; the 12 zero bytes after a 20-byte hash in a 32-byte slot are left out. */
function storedHashHex(hash: Uint8Array): string {
  if (hash.length > 20 && hash.subarray(20).every((x) => x === 0)) return toHex(hash.subarray(0, 20));
  return toHex(hash);
}
