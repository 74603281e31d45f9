/**
 * Turns an entry into the pieces to read and decode: its compression blocks, or slices of a
 * stored entry (so a big stored file is read, and decrypted, in bounded pieces that workers can
 * share). Every size is checked against the others, and against the file, before anything is read.
 */
import { FormatError } from '../errors.js';
import { AES_BLOCK, alignAes, isEncrypted, type PakEntry } from './entry.js';

/** Slice size for stored entries: a multiple of the AES block. */
export const STORED_PIECE = 1 << 20;
/** No engine writes compression blocks anywhere near this; a bigger claim is damage. */
export const MAX_BLOCK_BYTES = 1 << 30;
/**
 * No codec packs more than this many bytes into one (Oodle's bound; Zlib's is 1032): a larger
 * size is refused before a buffer for it is made.
 */
const MAX_COMPRESSION_RATIO = 65536;

export interface ReadPiece {
  /** File offset of the stored bytes. */
  start: number;
  /** Bytes the codec gets (after decryption). */
  compressedSize: number;
  /** Bytes to read: the compressed size, padded to the AES block when encrypted. */
  storedSize: number;
  uncompressedSize: number;
  /** Where the decoded bytes go in the file's data. */
  outOffset: number;
  codec: string;
  /** AES-CTR: the counter of the piece's first 16-byte block within the entry's encryption unit. */
  ctrBlockIndex: number;
}

/**
 * The pieces covering bytes [from, to) of the entry's data (all of it by default), each checked
 * to lie inside a file of `fileSize` bytes.
 */
export function planEntryRead(e: PakEntry, file: string, fileSize: number, path: string, from = 0, to = e.uncompressedSize): ReadPiece[] {
  const fail = (detail: string): FormatError => new FormatError(file, `entry "${path}"`, e.offset, detail);
  const encrypted = isEncrypted(e);
  const pad = (n: number): number => (encrypted ? alignAes(n) : n);
  const inFile = (start: number, storedSize: number): void => {
    if (start + storedSize > fileSize) {
      throw fail(`its bytes ${start}..${start + storedSize} lie past the end of the file (${fileSize} bytes)`);
    }
  };
  const dataStart = e.offset + e.recordSize;

  if (e.blocks) {
    const count = e.blocks.length / 2;
    const blockSize = count === 1 && e.blockSize === 0 ? e.uncompressedSize : e.blockSize;
    if (blockSize <= 0) throw fail(`${count} compression blocks but a block size of ${e.blockSize}`);
    if (blockSize > MAX_BLOCK_BYTES) throw fail(`a compression block of ${blockSize} bytes is implausible (limit ${MAX_BLOCK_BYTES})`);
    const expected = Math.ceil(e.uncompressedSize / blockSize);
    if (expected !== count) {
      throw fail(`${e.uncompressedSize} bytes in blocks of ${blockSize} make ${expected} blocks, not ${count}`);
    }
    const first = e.blocks[0]!;
    let stored = 0;
    for (let i = 0; i < count; i++) {
      const start = e.blocks[2 * i]!, end = e.blocks[2 * i + 1]!;
      if (start < first || end < start) throw fail(`compression block ${i} spans ${start}..${end}`);
      if (encrypted && (start - first) % AES_BLOCK !== 0) {
        throw fail(`encrypted compression block ${i} at ${start} is not 16-byte aligned within the entry`);
      }
      inFile(start, pad(end - start));
      stored += pad(end - start);
    }
    if (stored > e.compressedSize + (encrypted ? count * AES_BLOCK : 0)) {
      throw fail(`compression blocks hold ${stored} bytes but the entry stores ${e.compressedSize}`);
    }
    if (e.uncompressedSize > stored * MAX_COMPRESSION_RATIO + count * 1024) {
      throw fail(`${e.uncompressedSize} bytes cannot come from the ${stored} bytes its ${count} compression blocks store`);
    }
    const pieces: ReadPiece[] = [];
    const last = Math.min(count, Math.ceil(to / blockSize));
    for (let i = Math.floor(from / blockSize); i < last; i++) {
      const start = e.blocks[2 * i]!, end = e.blocks[2 * i + 1]!;
      pieces.push({
        start, compressedSize: end - start, storedSize: pad(end - start),
        uncompressedSize: Math.min(blockSize, e.uncompressedSize - i * blockSize),
        outOffset: i * blockSize, codec: e.method, ctrBlockIndex: (start - first) / AES_BLOCK,
      });
    }
    return pieces;
  }

  if (e.method !== 'None') {
    // Compressed without blocks (v1-2): the whole entry is one compressed piece.
    inFile(dataStart, pad(e.compressedSize));
    if (e.uncompressedSize > MAX_BLOCK_BYTES) {
      throw fail(`a compressed entry of ${e.uncompressedSize} bytes without blocks is implausible (limit ${MAX_BLOCK_BYTES})`);
    }
    if (e.uncompressedSize > e.compressedSize * MAX_COMPRESSION_RATIO + 1024) {
      throw fail(`${e.uncompressedSize} bytes cannot come from its ${e.compressedSize} compressed bytes`);
    }
    if (to <= from) return [];
    return [{
      start: dataStart, compressedSize: e.compressedSize, storedSize: pad(e.compressedSize),
      uncompressedSize: e.uncompressedSize, outOffset: 0, codec: e.method, ctrBlockIndex: 0,
    }];
  }
  if (e.compressedSize !== e.uncompressedSize) {
    throw fail(`stored entry has ${e.compressedSize} bytes but an uncompressed size of ${e.uncompressedSize}`);
  }
  inFile(dataStart, pad(e.compressedSize));
  const pieces: ReadPiece[] = [];
  for (let at = Math.floor(from / STORED_PIECE) * STORED_PIECE; at < to; at += STORED_PIECE) {
    const n = Math.min(STORED_PIECE, e.uncompressedSize - at);
    pieces.push({
      start: dataStart + at, compressedSize: n, storedSize: pad(n), uncompressedSize: n, outOffset: at,
      codec: 'None', ctrBlockIndex: at / AES_BLOCK,
    });
  }
  return pieces;
}
