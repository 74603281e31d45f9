/**
 * One file's record (FPakEntry): where its bytes are, how big, how they are compressed and
 * encrypted. The same record is written in front of the file's bytes ("in-data record", offset 0)
 * and, before v10, in the index. From v10 the index keeps most entries bit-packed ("encoded").
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { PakVersion } from './version.js';
import type { PakFooter } from './footer.js';

/** Entry flags byte. */
export const ENTRY_FLAG_ENCRYPTED = 0x01;
export const ENTRY_FLAG_DELETED = 0x02;

export const AES_BLOCK = 16;
const SHA1_LENGTH = 20;
const IV_LENGTH = 12;

/** Legacy (before v8) compression flags: ECompressionFlags. */
const COMPRESS_ZLIB = 0x01;
const COMPRESS_GZIP = 0x02;
const COMPRESS_CUSTOM = 0x04;

export interface PakEntry {
  /** Offset of the in-data record; the bytes follow it. */
  offset: number;
  /** Stored size: for encrypted compressed entries it includes each block's AES padding. */
  compressedSize: number;
  uncompressedSize: number;
  /** Codec name as the registry knows it; "None" when stored as is. */
  method: string;
  flags: number;
  /** Uncompressed size of every block but the last. */
  blockSize: number;
  /**
   * Compressed blocks as absolute [start, end) file ranges, flattened, or null when the bytes are
   * one piece right after the in-data record (stored entries, and compressed v1-2 entries).
   */
  blocks: number[] | null;
  /** Size of the in-data record, so the bytes start at offset + recordSize. */
  recordSize: number;
  /** SHA1 of the stored bytes, when the index has it (not for encoded entries). */
  hash: Uint8Array | null;
  /** AES-CTR paks (v15+): the entry's 12-byte IV. */
  iv: Uint8Array | null;
}

export function isEncrypted(e: PakEntry): boolean { return (e.flags & ENTRY_FLAG_ENCRYPTED) !== 0; }
export function isDeleted(e: PakEntry): boolean { return (e.flags & ENTRY_FLAG_DELETED) !== 0; }
export function alignAes(n: number): number { return Math.ceil(n / AES_BLOCK) * AES_BLOCK; }

/** What the version decides about entries, taken once from the footer. */
export interface EntryFormat {
  version: PakVersion;
  /** UE4.22's "8A" paks store the method slot in one byte, every other v8+ pak in four. */
  methodIndexIsByte: boolean;
  /** Footer method slots (v8+). */
  methods: readonly string[];
  /** AES-CTR paks (v15+) keep an IV per entry. */
  ctr: boolean;
}

export function entryFormat(footer: PakFooter): EntryFormat {
  return {
    version: footer.version,
    methodIndexIsByte: footer.label === '8A',
    methods: footer.compressionMethods,
    ctr: footer.encryptionMethod === 'AES-CTR',
  };
}

/** Size of a full FPakEntry record as this version writes it. */
export function recordSize(fmt: EntryFormat, compressed: boolean, blockCount: number): number {
  let size = 8 + 8 + 8; // offset, compressed size, uncompressed size
  size += fmt.methodIndexIsByte ? 1 : 4;
  if (fmt.version < PakVersion.NoTimestamps) size += 8;
  size += SHA1_LENGTH;
  if (fmt.version >= PakVersion.CompressionEncryption) {
    if (compressed) size += 4 + blockCount * 16;
    size += 1 + 4; // flags, block size
  }
  return size;
}

/** Names the codec for a method field: legacy flags before v8, a footer slot after. */
function methodName(fmt: EntryFormat, r: BinaryReader, value: number, at: number): string {
  if (value === 0) return 'None';
  if (fmt.version < PakVersion.FNameBasedCompressionMethod) {
    if (value & COMPRESS_ZLIB) return 'Zlib';
    if (value & COMPRESS_GZIP) return 'Gzip';
    if (value & COMPRESS_CUSTOM) return 'Oodle'; // the "custom" codec of UE4 games of that era
    return `Unknown(flags 0x${value.toString(16)})`;
  }
  const name = fmt.methods[value - 1];
  if (name === undefined || name === '') {
    throw r.error(`compression method slot ${value} is ${name === undefined ? 'past the footer\'s ' + fmt.methods.length + ' slots' : 'empty in the footer'}`, at);
  }
  return name;
}

/**
 * A full FPakEntry record (the index before v10, non-encoded entries from v10, and the in-data
 * record in front of every file's bytes).
 */
export function readEntryRecord(r: BinaryReader, fmt: EntryFormat): PakEntry {
  const start = r.pos;
  const offset = r.i64n('entry offset');
  const compressedSize = r.i64n('compressed size');
  const uncompressedSize = r.i64n('uncompressed size');
  if (offset < 0 || compressedSize < 0 || uncompressedSize < 0) throw r.error('negative entry offset or size', start);
  const methodAt = r.pos;
  const methodValue = fmt.methodIndexIsByte ? r.u8() : r.u32();
  const method = methodName(fmt, r, methodValue, methodAt);
  if (fmt.version < PakVersion.NoTimestamps) r.skip(8); // timestamp
  const hash = r.bytesView(SHA1_LENGTH).slice();
  let blocks: number[] | null = null;
  let flags = 0;
  let blockSize = 0;
  if (fmt.version >= PakVersion.CompressionEncryption) {
    if (methodValue !== 0) {
      const count = r.count(16, 'compression block count');
      blocks = new Array<number>(count * 2);
      // Relative to the entry from v5, absolute in the file before.
      const base = fmt.version >= PakVersion.RelativeChunkOffsets ? offset : 0;
      for (let i = 0; i < count; i++) {
        const at = r.pos;
        const s = r.i64n('block start'), e = r.i64n('block end');
        if (s < 0 || e < s) throw r.error(`compression block ${i} spans ${s}..${e}`, at);
        blocks[2 * i] = base + s;
        blocks[2 * i + 1] = base + e;
      }
    }
    flags = r.u8();
    // Before v6 only the encrypted bit has a meaning.
    if (fmt.version < PakVersion.DeleteRecords) flags &= ENTRY_FLAG_ENCRYPTED;
    blockSize = r.u32();
  }
  if (blocks !== null && blocks.length === 0) blocks = null;
  return {
    offset, compressedSize, uncompressedSize, method, flags, blockSize, blocks,
    recordSize: recordSize(fmt, methodValue !== 0, blocks ? blocks.length / 2 : 0),
    hash, iv: null,
  };
}

/**
 * A bit-packed entry of the v10+ primary index (FPakFile::DecodePakEntry). The low 32 bits say
 * which fields follow and how wide they are:
 * 0-5 block size / 2048 (0x3f: a u32 follows), 6-21 block count, 22 encrypted, 23-28 method slot,
 * 29 compressed size fits 32 bits, 30 uncompressed size fits, 31 offset fits.
 */
export function readEncodedEntry(r: BinaryReader, fmt: EntryFormat): PakEntry {
  const bits = r.u32();
  const sizeCode = bits & 0x3f;
  let blockSize = sizeCode === 0x3f ? r.u32() : sizeCode << 11;
  const blockCount = (bits >>> 6) & 0xffff;
  const encrypted = (bits & (1 << 22)) !== 0;
  const methodAt = r.pos;
  const methodValue = (bits >>> 23) & 0x3f;
  const method = methodName(fmt, r, methodValue, methodAt);
  const offset = bits & (1 << 31) ? r.u32() : r.u64n('entry offset');
  const uncompressedSize = bits & (1 << 30) ? r.u32() : r.u64n('uncompressed size');
  const iv = fmt.ctr && encrypted ? r.bytesView(IV_LENGTH).slice() : null;
  const compressedSize = methodValue === 0 ? uncompressedSize : bits & (1 << 29) ? r.u32() : r.u64n('compressed size');
  if (blockCount === 1) blockSize = uncompressedSize;
  else if (blockCount === 0) blockSize = 0;

  const compressed = methodValue !== 0;
  const size = recordSize(fmt, compressed, blockCount);
  let blocks: number[] | null = null;
  if (compressed && blockCount > 0) {
    blocks = new Array<number>(blockCount * 2);
    let at = offset + size;
    if (blockCount === 1 && !encrypted) {
      blocks[0] = at;
      blocks[1] = at + compressedSize;
    } else {
      r.checkCount(blockCount, 4, 'compression block count');
      for (let i = 0; i < blockCount; i++) {
        const length = r.u32();
        blocks[2 * i] = at;
        blocks[2 * i + 1] = at + length;
        at += encrypted ? alignAes(length) : length;
      }
    }
  }
  return {
    offset, compressedSize, uncompressedSize, method, flags: encrypted ? ENTRY_FLAG_ENCRYPTED : 0,
    blockSize, blocks, recordSize: size, hash: null, iv,
  };
}
