/**
 * An IoStore container: the parsed .utoc plus its .ucas partition files (X.ucas, X_s1.ucas ...),
 * opened lazily. Lists the directory-index files, reads chunks block by block through a
 * BlockDecoder (so decompression can run in worker threads), and verifies them against the
 * stored hashes. A missing .ucas or a missing key does not stop listing: they show in `status`.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, ArchiveStatus, FileStorage, HashCheck } from '../archive.js';
import { asError, FormatError } from '../errors.js';
import type { KeyRing } from '../crypto/keys.js';
import { inlineDecoder, type BlockDecoder } from '../workers/block-job.js';
import type { BlockPlan, PlannedBatch } from '../workers/block-plan.js';
import type { WriteResult, WriteTarget } from '../workers/file-write.js';
import type { WriteJobBuilder } from '../workers/packed-writes.js';
import type { WorkerPool } from '../workers/pool.js';
import { checkChunkHash } from '../hash/chunk-hash.js';
import { bytesToHex } from '../io/hex.js';
import { chunkTypeName, chunkTypeNames } from './chunk-type.js';
import { ContainerBlocks, partitionPath } from './container-blocks.js';
import { pickContainerKey } from './container-key.js';
import { parseDirectoryIndex, type DirectoryIndex } from './directory-index.js';
import { ChunkLookup } from './perfect-hash.js';
import { blockRange, chunkMetaHash, chunkTypeByte, parseToc, type Toc } from './toc.js';
import { ContainerFlags, containerFlagNames, encryptionMethodName, tocVersionName } from './toc-version.js';

export interface OpenIoStoreOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
}

/** 250,000 entries and a million blocks take about 40 MiB. */
const MAX_TOC_BYTES = 1024 * 1024 * 1024;

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
    const pick = pickContainerKey(toc, opts.keys);
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

export class IoStoreContainer implements Archive {
  readonly kind = 'iostore' as const;
  readonly name: string;
  readonly mountPoint: string;
  private fileList: ArchiveFile[] | null = null;
  /** Files made one by one (fileAt) before the whole list was. */
  private someFiles: Map<number, ArchiveFile> | null = null;
  private readonly lookup: ChunkLookup;
  private readonly blocks: ContainerBlocks;
  private allIdsHex: string | null = null;

  constructor(
    readonly path: string,
    readonly toc: Toc,
    /** Null when the TOC has no directory index or it cannot be decrypted. */
    readonly directoryIndex: DirectoryIndex | null,
    key: Uint8Array | null,
    readonly status: ArchiveStatus,
    /** Paths of X.ucas, X_s1.ucas ... */
    readonly partitionPaths: readonly string[],
    missingPartitions: ReadonlySet<string>,
    private readonly decoder: BlockDecoder,
  ) {
    this.name = basename(path, extname(path));
    this.mountPoint = directoryIndex?.mountPoint ?? '';
    this.lookup = new ChunkLookup(toc);
    this.blocks = new ContainerBlocks(path, toc, key, partitionPaths, missingPartitions, decoder);
  }

  get chunkCount(): number { return this.toc.header.entryCount; }

  chunkIdHex(entryIndex: number): string {
    this.checkEntry(entryIndex);
    return this.idHex(entryIndex);
  }

  /** All ids as one hex string, made once: slicing it is much cheaper than formatting each id. */
  private idHex(entryIndex: number): string {
    this.allIdsHex ??= bytesToHex(this.toc.chunkIds);
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

  /** True when planWrites can be called: the decoder is a worker pool (see workers/archive-writes.ts). */
  get writesInWorkers(): boolean {
    return this.blocks.planRunner !== null;
  }

  /**
   * Chunk `entryIndices[i]` to `to[i]`, planned into `job` for workers to read, decode and write
   * (their bytes never come to this thread). Needs writesInWorkers. A failure is that chunk's own,
   * as readChunk reports it.
   */
  async planWrites(entryIndices: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): Promise<PlannedBatch> {
    const runner = this.blocks.planRunner;
    if (!runner) throw new Error(`${this.name}: its decoder cannot write files (no worker pool)`);
    const toc = this.toc;
    const slots: (number | Error)[] = [];
    for (let i = 0; i < entryIndices.length; i++) {
      const entryIndex = entryIndices[i]!;
      try {
        this.checkEntry(entryIndex);
        this.checkUnlocked();
        await this.blocks.planWrite(job, toc.chunkOffsets[entryIndex]!, toc.chunkLengths[entryIndex]!, to[i]!);
        slots.push(job.files - 1);
      } catch (e) {
        slots.push(asError(e));
      }
    }
    const settle = (i: number, r: WriteResult): WriteResult => {
      if (typeof r === 'string') return r;
      return asError(this.blocks.writeError(r, toc.chunkOffsets[entryIndices[i]!]!, toc.chunkLengths[entryIndices[i]!]!));
    };
    return { runner, slots, settle };
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

  close(): Promise<void> {
    return this.blocks.close();
  }

  private checkEntry(entryIndex: number): void {
    if (!Number.isInteger(entryIndex) || entryIndex < 0 || entryIndex >= this.chunkCount) {
      throw new RangeError(`${this.name}: no TOC entry ${entryIndex} (the container has ${this.chunkCount})`);
    }
  }

  private checkUnlocked(): void {
    if (this.status.state === 'locked') throw new Error(`${this.name}: cannot read: ${this.status.message}`);
  }

  /**
   * The plan for a worker pool to read the first `length` bytes of a chunk (many chunks' plans
   * joined make one job: the search index reads packages so); null without a pool, when
   * readChunkRange reads them here.
   */
  async planChunkHead(entryIndex: number, length: number): Promise<BlockPlan | null> {
    this.checkEntry(entryIndex);
    this.checkUnlocked();
    const take = Math.min(Math.max(0, length), this.toc.chunkLengths[entryIndex]!);
    return this.blocks.planRange(this.toc.chunkOffsets[entryIndex]!, take);
  }

  /**
   * planChunkHead of several chunks as one plan: chunk i's first lengths[i] bytes at ats[i] of an
   * output of `size` bytes (the caller lays them out so that none overlap).
   */
  async planChunkHeads(entryIndices: readonly number[], lengths: readonly number[], ats: readonly number[], size: number): Promise<BlockPlan | null> {
    this.checkUnlocked();
    const starts = entryIndices.map((e) => {
      this.checkEntry(e);
      return this.toc.chunkOffsets[e]!;
    });
    const takes = entryIndices.map((e, i) => Math.min(Math.max(0, lengths[i]!), this.toc.chunkLengths[e]!));
    return this.blocks.planRanges(starts, takes, ats, size);
  }

  /** A worker's failure to run planChunkHead's plan, named as readChunkRange would name it. */
  chunkReadError(e: unknown, entryIndex: number, length: number): unknown {
    return this.blocks.rangeError(e, this.toc.chunkOffsets[entryIndex]!, Math.min(length, this.toc.chunkLengths[entryIndex]!));
  }

  /** Bytes [start, start+length) of the container's uncompressed address space. */
  private readRange(start: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.checkUnlocked();
    return this.blocks.readRange(start, length, signal);
  }
}

/** Hex of a stored hash; the 12 zero bytes after a 20-byte hash in a 32-byte slot are left out. */
function storedHashHex(hash: Uint8Array): string {
  if (hash.length > 20 && hash.subarray(20).every((x) => x === 0)) return bytesToHex(hash.subarray(0, 20));
  return bytesToHex(hash);
}
