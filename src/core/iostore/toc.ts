/**
 * The .utoc file: header, chunk table, perfect-hash seeds, compression blocks, method names,
 * signatures, directory index bytes and chunk metas. Everything is kept in typed arrays or views
 * into the file's bytes, so a TOC with 250,000 entries parses in milliseconds and stays compact.
 * Layout: /work/shared/formats.md ".utoc header"; CUE4Parse FIoStoreTocResource where it is silent.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { bytesToHex } from '../io/hex.js';
import { FormatError } from '../errors.js';
import { ContainerFlags, EncryptionMethod, LATEST_TOC_VERSION, TocVersion } from './toc-version.js';

export const TOC_MAGIC = '-==--==--==--==-';
export const TOC_HEADER_SIZE = 144;
export const CHUNK_ID_SIZE = 12;
export const OFFSET_LENGTH_SIZE = 10;
export const COMPRESSED_BLOCK_ENTRY_SIZE = 12;
export const ENCRYPTION_IV_SIZE = 12;
export const SHA1_SIZE = 20;
/** Largest chunk offset/length (40 bits) and block offset (40 bits). */
export const MAX_40_BIT = 2 ** 40 - 1;

export interface TocHeader {
  version: TocVersion;
  headerSize: number;
  entryCount: number;
  compressedBlockEntryCount: number;
  compressedBlockEntrySize: number;
  compressionMethodNameCount: number;
  compressionMethodNameLength: number;
  compressionBlockSize: number;
  directoryIndexSize: number;
  /** 1 below v3 (PartitionSize). */
  partitionCount: number;
  /** Bytes per partition; Infinity when the container is not split (or below v3). */
  partitionSize: number;
  /** FIoContainerId as 16 lowercase hex digits (the u64 as a number would lose bits). */
  containerId: string;
  /** 32 uppercase hex digits, as KeyRing expects. */
  encryptionKeyGuid: string;
  containerFlags: number;
  /** Stored from v10; before that derived from the Encrypted flag (ECB). */
  encryptionMethod: EncryptionMethod;
  perfectHashSeedsCount: number;
  chunksWithoutPerfectHashCount: number;
  /** v9+ (AddedSourceHashes); 0 before. */
  sourceHashCount: number;
  /** v10+ (ContainerEncryptionMethod): block count + 1 (directory index) for AES-CTR. */
  encryptionIvCount: number;
}

export interface TocSignatures {
  hashSize: number;
  tocSignature: Uint8Array;
  blockSignature: Uint8Array;
  /** 20-byte SHA1 per compression block, back to back. */
  blockHashes: Uint8Array;
}

export interface Toc {
  fileName: string;
  fileSize: number;
  header: TocHeader;
  /** 12 bytes per entry: u64 id, u16 index (big-endian), u8 pad, u8 type. A view into the file. */
  chunkIds: Uint8Array;
  /** Chunk offset in the container's uncompressed address space (40-bit, block aligned). */
  chunkOffsets: Float64Array;
  chunkLengths: Float64Array;
  /** v4+; empty when the TOC has none (then lookups use a map). */
  perfectHashSeeds: Int32Array;
  /** v5+: entry indices the perfect hash could not place. */
  chunksWithoutPerfectHash: Int32Array;
  /** File offset of the compression block table (for error messages). */
  blockTableOffset: number;
  /** Offset of each compression block in the partitioned .ucas address space. */
  blockOffsets: Float64Array;
  blockCompressedSizes: Uint32Array;
  blockUncompressedSizes: Uint32Array;
  /** 0 = None, else 1-based into methodNames. */
  blockMethods: Uint8Array;
  /** "None" first, then the stored names; index with blockMethods. */
  methodNames: string[];
  /** v10 AES-CTR: 12 bytes per IV; the block IVs, then one for the directory index. */
  encryptionIvs: Uint8Array;
  signatures: TocSignatures | null;
  /** Raw (possibly encrypted) directory index, or null when the TOC has none. */
  directoryIndex: Uint8Array | null;
  directoryIndexOffset: number;
  /** Chunk metas, raw: metaStride bytes each, the hash first (metaHashSize bytes), then the flags. */
  metas: Uint8Array;
  metaStride: number;
  metaHashSize: number;
  /** v6 with the OnDemand flag: 20-byte hash per chunk and per block. */
  onDemandChunkHashes: Uint8Array | null;
  onDemandBlockHashes: Uint8Array | null;
  /** Bytes after the last structure PakScope knows (v9 source hashes live there). */
  trailingBytes: number;
}

export function hasFlag(toc: Toc, flag: ContainerFlags): boolean {
  return (toc.header.containerFlags & flag) !== 0;
}

/** The stored hash of one chunk (32 bytes before v8, 20 from v8). */
export function chunkMetaHash(toc: Toc, entryIndex: number): Uint8Array {
  const at = entryIndex * toc.metaStride;
  return toc.metas.subarray(at, at + toc.metaHashSize);
}

export function chunkMetaFlags(toc: Toc, entryIndex: number): number {
  return toc.metas[entryIndex * toc.metaStride + toc.metaHashSize] ?? 0;
}

/** Index of the first and one past the last compression block a byte range of the address space covers. */
export function blockRange(toc: Toc, offset: number, length: number): [number, number] {
  const bs = toc.header.compressionBlockSize;
  if (length <= 0) return [Math.floor(offset / bs), Math.floor(offset / bs)];
  return [Math.floor(offset / bs), Math.floor((offset + length - 1) / bs) + 1];
}

export function parseToc(bytes: Uint8Array, fileName: string): Toc {
  const r = new BinaryReader(bytes, fileName);
  const header = readHeader(r);
  const v = header.version;
  const n = header.entryCount;

  // Each entry needs at least its id, offset/length and meta: reject hostile counts before allocating.
  r.struct('chunk ids').checkCount(n, CHUNK_ID_SIZE + OFFSET_LENGTH_SIZE + 24, 'entry count', 24);
  const chunkIds = r.bytesView(n * CHUNK_ID_SIZE);

  r.struct('chunk offsets');
  const offsetsAt = r.pos;
  const offsetBytes = r.bytesView(n * OFFSET_LENGTH_SIZE);
  const chunkOffsets = new Float64Array(n);
  const chunkLengths = new Float64Array(n);
  // Every chunk must lie inside the compression blocks, or reads would index past them; the
  // first that does not is reported after the rest is checked, as before.
  const coveredBytes = header.compressedBlockEntryCount * header.compressionBlockSize;
  let firstUncovered = -1;
  const dv = new DataView(offsetBytes.buffer, offsetBytes.byteOffset, offsetBytes.byteLength);
  for (let i = 0, p = 0; i < n; i++, p += OFFSET_LENGTH_SIZE) {
    // Two 40-bit big-endian numbers: a high byte, then 32 bits.
    const offset = offsetBytes[p]! * 0x100000000 + dv.getUint32(p + 1, false);
    const length = offsetBytes[p + 5]! * 0x100000000 + dv.getUint32(p + 6, false);
    chunkOffsets[i] = offset;
    chunkLengths[i] = length;
    if (length !== 0 && offset + length > coveredBytes && firstUncovered < 0) firstUncovered = i;
  }

  let seedCount = 0;
  let withoutCount = 0;
  if (v >= TocVersion.PerfectHash) seedCount = header.perfectHashSeedsCount;
  if (v >= TocVersion.PerfectHashWithOverflow) withoutCount = header.chunksWithoutPerfectHashCount;
  r.struct('perfect hash seeds').checkCount(seedCount, 4, 'seed count', 84);
  const perfectHashSeeds = readInt32s(r, seedCount);
  r.struct('chunks without perfect hash').checkCount(withoutCount, 4, 'count', 96);
  const withoutAt = r.pos;
  const chunksWithoutPerfectHash = readInt32s(r, withoutCount);
  for (let i = 0; i < withoutCount; i++) {
    const e = chunksWithoutPerfectHash[i]!;
    if (e < 0 || e >= n) throw r.error(`entry index ${e} is outside the ${n} entries`, withoutAt + i * 4);
  }

  const blocks = readBlocks(r, header);

  r.struct('encryption IVs').checkCount(header.encryptionIvCount, ENCRYPTION_IV_SIZE, 'IV count', 104);
  const encryptionIvs = r.bytesView(header.encryptionIvCount * ENCRYPTION_IV_SIZE);

  r.struct('compression method names');
  r.checkCount(header.compressionMethodNameCount * header.compressionMethodNameLength, 1, 'method name bytes', 36);
  const methodNames = ['None'];
  for (let i = 0; i < header.compressionMethodNameCount; i++) {
    methodNames.push(r.fixedAscii(header.compressionMethodNameLength));
  }
  if (blocks.maxMethod >= methodNames.length) {
    const b = blocks.methods.findIndex((m) => m >= methodNames.length);
    throw new FormatError(fileName, 'compression blocks', blocks.at + b * COMPRESSED_BLOCK_ENTRY_SIZE + 11,
      `block ${b} uses method index ${blocks.methods[b]} but the TOC names ${header.compressionMethodNameCount} method(s)`);
  }

  let signatures: TocSignatures | null = null;
  if (header.containerFlags & ContainerFlags.Signed) {
    r.struct('signatures');
    const hashSize = r.count(1, 'signature size');
    r.checkCount(hashSize * 2 + blocks.count * SHA1_SIZE, 1, 'signature bytes');
    signatures = {
      hashSize,
      tocSignature: r.bytesView(hashSize),
      blockSignature: r.bytesView(hashSize),
      blockHashes: r.bytesView(blocks.count * SHA1_SIZE),
    };
  }

  let directoryIndex: Uint8Array | null = null;
  let directoryIndexOffset = -1;
  // The size is written even without the Indexed flag by some tools; only an indexed TOC has one.
  if (v >= TocVersion.DirectoryIndex && header.directoryIndexSize > 0) {
    r.struct('directory index');
    r.checkCount(header.directoryIndexSize, 1, 'directory index size', 48);
    directoryIndexOffset = r.pos;
    const dirBytes = r.bytesView(header.directoryIndexSize);
    if (header.containerFlags & ContainerFlags.Indexed) directoryIndex = dirBytes;
  }

  r.struct('chunk metas');
  const wideHash = v < TocVersion.ReplaceIoChunkHashWithIoHash;
  const metaHashSize = wideHash ? 32 : SHA1_SIZE;
  const metaStride = wideHash ? 33 : 24;
  r.checkCount(n, metaStride, 'entry count', 24);
  const metas = r.bytesView(n * metaStride);

  let onDemandChunkHashes: Uint8Array | null = null;
  let onDemandBlockHashes: Uint8Array | null = null;
  if (v === TocVersion.OnDemandMetaData && header.containerFlags & ContainerFlags.OnDemand) {
    r.struct('on-demand metas');
    r.checkCount(n + blocks.count, SHA1_SIZE, 'hash count');
    onDemandChunkHashes = r.bytesView(n * SHA1_SIZE);
    onDemandBlockHashes = r.bytesView(blocks.count * SHA1_SIZE);
  }

  const toc: Toc = {
    fileName,
    fileSize: bytes.length,
    header,
    chunkIds,
    chunkOffsets,
    chunkLengths,
    perfectHashSeeds,
    chunksWithoutPerfectHash,
    blockTableOffset: blocks.at,
    blockOffsets: blocks.offsets,
    blockCompressedSizes: blocks.compressed,
    blockUncompressedSizes: blocks.uncompressed,
    blockMethods: blocks.methods,
    methodNames,
    encryptionIvs,
    signatures,
    directoryIndex,
    directoryIndexOffset,
    metas,
    metaStride,
    metaHashSize,
    onDemandChunkHashes,
    onDemandBlockHashes,
    trailingBytes: r.remaining,
  };
  if (firstUncovered >= 0) throw uncoveredChunk(toc, firstUncovered, offsetsAt);
  return toc;
}

function readHeader(r: BinaryReader): TocHeader {
  r.struct('utoc header');
  if (r.length < TOC_HEADER_SIZE) {
    throw r.error(`file is ${r.length} bytes, shorter than the ${TOC_HEADER_SIZE}-byte header`, 0);
  }
  const magic = r.latin1(16);
  if (magic !== TOC_MAGIC) throw r.error(`magic is ${JSON.stringify(magic)}, not "${TOC_MAGIC}" (not a .utoc file)`, 0);
  const version = r.u8();
  if (version < TocVersion.Initial || version > LATEST_TOC_VERSION) {
    throw r.error(`TOC version ${version} is not one PakScope knows (1..${LATEST_TOC_VERSION})`, 16);
  }
  r.skip(3); // reserved
  const headerSize = r.u32();
  if (headerSize !== TOC_HEADER_SIZE) throw r.error(`header size is ${headerSize}, not ${TOC_HEADER_SIZE}`, 20);
  const entryCount = r.u32();
  const compressedBlockEntryCount = r.u32();
  const compressedBlockEntrySize = r.u32();
  if (compressedBlockEntrySize !== COMPRESSED_BLOCK_ENTRY_SIZE) {
    throw r.error(`compressed block entry size is ${compressedBlockEntrySize}, not ${COMPRESSED_BLOCK_ENTRY_SIZE}`, 32);
  }
  const compressionMethodNameCount = r.u32();
  const compressionMethodNameLength = r.u32();
  if (compressionMethodNameCount > 255) {
    throw r.error(`${compressionMethodNameCount} compression methods; a block's u8 index can name at most 255`, 36);
  }
  if (compressionMethodNameCount > 0 && (compressionMethodNameLength === 0 || compressionMethodNameLength > 1024)) {
    throw r.error(`compression method name length ${compressionMethodNameLength} is implausible`, 40);
  }
  const compressionBlockSize = r.u32();
  if (compressionBlockSize === 0 && (entryCount > 0 || compressedBlockEntryCount > 0)) {
    throw r.error('compression block size is 0', 44);
  }
  const directoryIndexSize = r.u32();
  let partitionCount = r.u32();
  const containerId = hex64(r.bytesView(8));
  const encryptionKeyGuid = r.guid();
  const containerFlags = r.u8();
  const storedMethod = r.u8();
  r.skip(2); // reserved
  const perfectHashSeedsCount = r.u32();
  const partitionSizeAt = r.pos;
  const partitionSizeRaw = r.u64();
  const chunksWithoutPerfectHashCount = r.u32();
  const reserved7 = r.u32();
  const sourceHashCount = version >= TocVersion.AddedSourceHashes ? reserved7 : 0;
  const reserved8 = r.u32();
  const encryptionIvCount = version >= TocVersion.ContainerEncryptionMethod ? reserved8 : 0;

  let partitionSize = Infinity;
  if (version < TocVersion.PartitionSize) {
    partitionCount = 1;
  } else {
    if (partitionCount === 0) partitionCount = 1;
    if (partitionCount > 1) {
      if (partitionSizeRaw === 0n) throw r.error(`${partitionCount} partitions of size 0`, partitionSizeAt);
      if (partitionSizeRaw <= BigInt(MAX_40_BIT)) partitionSize = Number(partitionSizeRaw);
    }
    if (partitionCount > 65536) throw r.error(`partition count ${partitionCount} is implausible`, 52);
  }

  const encrypted = (containerFlags & ContainerFlags.Encrypted) !== 0;
  let encryptionMethod: EncryptionMethod;
  if (version >= TocVersion.ContainerEncryptionMethod) {
    if (storedMethod > EncryptionMethod.AesCtr) throw r.error(`encryption method ${storedMethod} is unknown`, 81);
    encryptionMethod = encrypted ? (storedMethod === EncryptionMethod.None ? EncryptionMethod.AesEcb : storedMethod) : EncryptionMethod.None;
    const expected = encryptionMethod === EncryptionMethod.AesCtr
      ? compressedBlockEntryCount + (containerFlags & ContainerFlags.Indexed ? 1 : 0) : 0;
    if (encryptionIvCount !== expected) {
      throw r.error(`${encryptionIvCount} encryption IVs, but ${encryptionMethodLabel(encryptionMethod)} over ${compressedBlockEntryCount} blocks needs ${expected}`, 104);
    }
  } else {
    encryptionMethod = encrypted ? EncryptionMethod.AesEcb : EncryptionMethod.None;
  }

  r.seek(TOC_HEADER_SIZE);
  return {
    version,
    headerSize,
    entryCount,
    compressedBlockEntryCount,
    compressedBlockEntrySize,
    compressionMethodNameCount,
    compressionMethodNameLength,
    compressionBlockSize,
    directoryIndexSize,
    partitionCount,
    partitionSize,
    containerId,
    encryptionKeyGuid,
    containerFlags,
    encryptionMethod,
    perfectHashSeedsCount,
    chunksWithoutPerfectHashCount,
    sourceHashCount,
    encryptionIvCount,
  };
}

function encryptionMethodLabel(m: EncryptionMethod): string {
  return m === EncryptionMethod.AesCtr ? 'AES-CTR' : m === EncryptionMethod.AesEcb ? 'AES-ECB' : 'no encryption';
}

interface Blocks {
  at: number;
  count: number;
  offsets: Float64Array;
  compressed: Uint32Array;
  uncompressed: Uint32Array;
  methods: Uint8Array;
  /** The largest method index a block uses (0 without blocks). */
  maxMethod: number;
}

/** 12 bytes each, little-endian: 40-bit offset, 24-bit compressed size, 24-bit uncompressed size, u8 method. */
function readBlocks(r: BinaryReader, header: TocHeader): Blocks {
  r.struct('compression blocks');
  const count = header.compressedBlockEntryCount;
  r.checkCount(count, COMPRESSED_BLOCK_ENTRY_SIZE, 'block count', 28);
  const at = r.absolutePos;
  const b = r.bytesView(count * COMPRESSED_BLOCK_ENTRY_SIZE);
  const offsets = new Float64Array(count);
  const compressed = new Uint32Array(count);
  const uncompressed = new Uint32Array(count);
  const methods = new Uint8Array(count);
  let maxMethod = 0;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0, p = 0; i < count; i++, p += COMPRESSED_BLOCK_ENTRY_SIZE) {
    // Three little-endian words: offset bits 0-31 | offset bits 32-39, compressed size << 8 |
    // uncompressed size, method << 24.
    const sizes = dv.getUint32(p + 4, true);
    const last = dv.getUint32(p + 8, true);
    offsets[i] = dv.getUint32(p, true) + (sizes & 0xff) * 0x100000000;
    compressed[i] = sizes >>> 8;
    uncompressed[i] = last & 0xffffff;
    const m = last >>> 24;
    methods[i] = m;
    if (m > maxMethod) maxMethod = m;
  }
  return { at, count, offsets, compressed, uncompressed, methods, maxMethod };
}

/** The error for entry i, whose byte range reaches past the compression blocks. */
function uncoveredChunk(toc: Toc, i: number, offsetsAt: number): FormatError {
  const bs = toc.header.compressionBlockSize;
  const len = toc.chunkLengths[i]!;
  const end = Math.ceil((toc.chunkOffsets[i]! + len) / bs);
  return new FormatError(toc.fileName, 'chunk offsets', offsetsAt + i * OFFSET_LENGTH_SIZE,
    `entry ${i} (offset ${toc.chunkOffsets[i]}, length ${len}) needs block ${end - 1} but the TOC has ${toc.blockOffsets.length} blocks`);
}

/** True on little-endian hosts, where the file's i32/u32 arrays can be copied as they are. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function readInt32s(r: BinaryReader, count: number): Int32Array {
  const view = r.bytesView(count * 4);
  // Uint8Array's slice copies; a Buffer's (when parseToc is given one) would be a view of the whole file.
  if (LITTLE_ENDIAN) return new Int32Array(Uint8Array.prototype.slice.call(view).buffer);
  const out = new Int32Array(count);
  const dv = new DataView(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < count; i++) out[i] = dv.getInt32(i * 4, true);
  return out;
}

/** A little-endian u64 as 16 hex digits (most significant first, as the engine prints it). */
function hex64(b: Uint8Array): string {
  return bytesToHex(b.slice(0, 8).reverse());
}

/** 24 lowercase hex digits of one entry's 12 stored chunk-id bytes. */
export function chunkIdHex(toc: Toc, entryIndex: number): string {
  const p = entryIndex * CHUNK_ID_SIZE;
  return bytesToHex(toc.chunkIds.subarray(p, p + CHUNK_ID_SIZE));
}

export function chunkTypeByte(toc: Toc, entryIndex: number): number {
  return toc.chunkIds[entryIndex * CHUNK_ID_SIZE + 11]!;
}
