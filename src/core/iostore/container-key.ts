/**
 * The AES key of an encrypted IoStore container: chosen among the keys given for its key GUID by
 * the shared index-key trial (crypto/index-key.ts), and the AES parameters of each block.
 */
import type { AesParams } from '../crypto/aes.js';
import { findIndexKey, type IndexKeyResult } from '../crypto/index-key.js';
import type { KeyRing } from '../crypto/keys.js';
import { ENCRYPTION_IV_SIZE, type Toc } from './toc.js';
import { EncryptionMethod } from './toc-version.js';

/** The AES params that decrypt block `b` (or the directory index when b is the block count). */
export function aesParamsFor(toc: Toc, key: Uint8Array, b: number): AesParams {
  if (toc.header.encryptionMethod === EncryptionMethod.AesCtr) {
    return { mode: 'ctr', key, iv: toc.encryptionIvs.subarray(b * ENCRYPTION_IV_SIZE, (b + 1) * ENCRYPTION_IV_SIZE) };
  }
  return { mode: 'ecb', key };
}

/**
 * Chooses the key for an encrypted container: the candidates for its key GUID, the first whose
 * decrypted directory index starts with a sane mount point. Without a directory index nothing can
 * judge a key, so the first candidate is used (index null then).
 */
export function pickContainerKey(toc: Toc, keys: KeyRing | undefined): { key: Uint8Array; index: Uint8Array | null } | { locked: string } {
  const guid = toc.header.encryptionKeyGuid;
  const candidates = keys?.candidates(guid) ?? [];
  const raw = toc.directoryIndex;
  if (!raw && candidates.length > 0) return { key: candidates[0]!, index: null };
  const blocks = toc.header.compressedBlockEntryCount;
  const found: IndexKeyResult = findIndexKey({
    raw: raw ?? new Uint8Array(0), guid, candidates, aes: (key) => aesParamsFor(toc, key, blocks),
    subject: 'encrypted', object: 'its directory index',
  });
  return found;
}
