/**
 * A file's bytes as a sequence of pieces, so a big file goes to disk as its blocks are decoded
 * instead of whole in memory. IoStore and pak archives decode only the blocks a range needs;
 * other archives give the file in one piece. One piece is read ahead while the last is written.
 */
import type { Archive } from '../archive.js';
import { IoStoreContainer } from '../iostore/container.js';
import { PakArchive } from '../pak/pak-archive.js';

/** Piece size for archives without a block size of their own. */
const PIECE_BYTES = 4 * 1024 * 1024;
/** Blocks per IoStore piece: the container decodes 64 blocks per batch. */
const BLOCKS_PER_PIECE = 64;

type RangeReader = (offset: number, length: number, signal?: AbortSignal) => Promise<Uint8Array>;

function rangeReader(archive: Archive, ref: number): { read: RangeReader; piece: number } | undefined {
  if (archive instanceof IoStoreContainer) {
    const block = archive.toc.header.compressionBlockSize;
    return {
      read: (offset, length, signal) => archive.readChunkRange(ref, offset, length, signal),
      // Whole blocks per piece: no block is decoded twice.
      piece: block > 0 ? block * BLOCKS_PER_PIECE : PIECE_BYTES,
    };
  }
  if (archive instanceof PakArchive) {
    return { read: (offset, length, signal) => archive.readRange(ref, offset, length, signal), piece: PIECE_BYTES };
  }
  return undefined;
}

/** The bytes of file `ref` (of `size` bytes) in order; a file that fits one piece is one read. */
export async function* filePieces(archive: Archive, ref: number, size: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const ranged = rangeReader(archive, ref);
  if (!ranged || size <= ranged.piece) {
    yield await archive.read(ref, signal);
    return;
  }
  const readPiece = (at: number): Promise<Uint8Array> => {
    const p = ranged.read(at, ranged.piece, signal);
    p.catch(() => undefined); // awaited below; this only keeps a failure during a write from going unhandled
    return p;
  };
  let next = readPiece(0);
  for (let at = 0; at < size; at += ranged.piece) {
    const piece = await next;
    if (at + ranged.piece < size) next = readPiece(at + ranged.piece);
    yield piece;
  }
}
