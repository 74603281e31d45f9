/**
 * The key of a .pak's encrypted index, by the shared index-key trial (crypto/index-key.ts): the
 * candidate whose decryption has the footer's SHA1 (the engine hashes the decrypted index); a pak
 * with a zeroed hash is judged by a sane mount point and entry count instead.
 */
import type { AesParams } from '../crypto/aes.js';
import { findIndexKey, mountPointEnd, type IndexKeyResult } from '../crypto/index-key.js';
import { FormatError } from '../errors.js';
import { sha1 } from '../hash/sha1.js';
import type { PakFooter } from './footer.js';
import { equalBytes, isZero } from './index.js';

/** The AES params that decrypt the index (or one of its regions, starting at `iv`) with `key`. */
export function pakIndexAes(footer: PakFooter, path: string, key: Uint8Array, iv: Uint8Array | null): AesParams {
  if (footer.encryptionMethod === 'AES-CTR') {
    if (!iv) throw new FormatError(path, 'pak footer', footer.offset, 'AES-CTR pak without an index IV');
    return { mode: 'ctr', key, iv };
  }
  return { mode: 'ecb', key };
}

/** The candidate that decrypts the stored index `raw`, with the index it decrypts to; or why it stays locked. */
export function findPakIndexKey(raw: Uint8Array, footer: PakFooter, path: string, guid: string,
  candidates: readonly Uint8Array[]): IndexKeyResult {
  const hashed = !isZero(footer.indexHash);
  return findIndexKey({
    raw, guid, candidates,
    aes: (key) => pakIndexAes(footer, path, key, footer.indexIv),
    accept: hashed ? (plain) => equalBytes(sha1(plain), footer.indexHash) : plausibleIndex,
    subject: 'index encrypted', object: 'it',
  });
}

/** A decrypted index that starts with a sane mount point and a non-negative entry count. */
function plausibleIndex(plain: Uint8Array): boolean {
  const end = mountPointEnd(plain);
  if (end === null || end + 4 > plain.length) return false;
  return new DataView(plain.buffer, plain.byteOffset + end, 4).getInt32(0, true) >= 0;
}
