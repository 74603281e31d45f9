import type { HashCheck } from '../archive.js';
import { blake3 } from './blake3.js';
import { sha1 } from './sha1.js';
import { bytesToHex } from '../io/hex.js';

/** Chunk hashes are compared on their first 20 bytes (the whole FIoHash from TOC v8). */
export const CHUNK_HASH_BYTES = 20;

/**
 * Checks an IoStore chunk against its stored hash: a 20-byte FIoHash from TOC v8, before that
 * the first 20 of a 32-byte FIoChunkHash. UE5 writes truncated BLAKE3, UE4 SHA-1; the container
 * does not say which, so BLAKE3 is tried first and SHA-1 only if it does not match.
 */
export async function checkChunkHash(stored: Uint8Array, data: Uint8Array): Promise<HashCheck> {
  if (stored.length < CHUNK_HASH_BYTES) {
    throw new RangeError(`a stored chunk hash has at least ${CHUNK_HASH_BYTES} bytes, not ${stored.length}`);
  }
  const expected = bytesToHex(stored.subarray(0, CHUNK_HASH_BYTES));
  const actual: Record<string, string> = {};
  actual.BLAKE3 = bytesToHex((await blake3(data)).subarray(0, CHUNK_HASH_BYTES));
  if (actual.BLAKE3 === expected) return { ok: true, algorithm: 'BLAKE3', expected, actual };
  actual.SHA1 = bytesToHex(sha1(data));
  if (actual.SHA1 === expected) return { ok: true, algorithm: 'SHA1', expected, actual };
  return { ok: false, algorithm: null, expected, actual };
}

/** A digest of any bytes for telling contents apart (comparing builds): BLAKE3-256 as hex. */
export async function contentDigest(data: Uint8Array): Promise<string> {
  return bytesToHex(await blake3(data));
}
