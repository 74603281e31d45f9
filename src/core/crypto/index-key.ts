/**
 * Which of the keys given opens an encrypted index: the one trial the .pak index and the IoStore
 * directory index share. A key is right when the index it decrypts passes the archive's check;
 * the default check, and the only rule for "a sane mount point", is the FString the engine writes
 * first in both indexes (FPakFile::LoadIndex, FIoDirectoryIndexResource).
 */
import { aesDecrypt, type AesParams } from './aes.js';
import { ZERO_GUID } from './keys.js';

/** Mount points are short paths; anything longer means a wrong key or garbage. */
export const MAX_MOUNT_POINT_CHARS = 1024;
const AES_BLOCK = 16;

/** How messages name the key a container asks for. */
export function keyGuidText(guid: string): string {
  return guid.toLowerCase() === ZERO_GUID ? 'the zero key GUID (main key)' : `key GUID ${guid}`;
}

/**
 * The byte offset just past the mount-point FString `bytes` start with, or null when they do not
 * start with a plausible one: a sane length, a NUL terminator and printable characters (ASCII
 * when narrow: the engine writes any other text as UTF-16).
 */
export function mountPointEnd(bytes: Uint8Array): number | null {
  if (bytes.length < 4) return null;
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0, true);
  if (n === 0) return 4;
  const units = Math.abs(n);
  if (units > MAX_MOUNT_POINT_CHARS || n === -2147483648) return null;
  const wide = n < 0;
  const size = wide ? units * 2 : units;
  if (4 + size > bytes.length) return null;
  const last = wide ? bytes[4 + size - 2]! | (bytes[4 + size - 1]! << 8) : bytes[4 + size - 1]!;
  if (last !== 0) return null;
  for (let i = 0; i < units - 1; i++) {
    const c = wide ? bytes[4 + i * 2]! | (bytes[5 + i * 2]! << 8) : bytes[4 + i]!;
    if (c < 0x20 || c === 0x7f || (!wide && c > 0x7e)) return null;
  }
  return 4 + size;
}

/** True when `bytes` start with a plausible mount-point FString (mountPointEnd). */
export function looksLikeMountPoint(bytes: Uint8Array): boolean {
  return mountPointEnd(bytes) !== null;
}

export interface IndexKeyTrial {
  /** The encrypted index as stored. */
  raw: Uint8Array;
  /** The container's key GUID, and the keys given for it, in the order to try. */
  guid: string;
  candidates: readonly Uint8Array[];
  /** AES parameters that decrypt the index from its start with `key`. */
  aes(key: Uint8Array): AesParams;
  /** Whether the whole decrypted index is right (default: it starts with a sane mount point). */
  accept?(plain: Uint8Array): boolean;
  /** How messages start ("index encrypted", "encrypted") and name the index ("it", "its directory index"). */
  subject: string;
  object: string;
}

export type IndexKeyResult = { key: Uint8Array; index: Uint8Array } | { locked: string };

/**
 * The first candidate whose decryption of the index is accepted, with that decryption; or why the
 * index stays locked. ECB decrypts whole AES blocks only: a ragged tail is left out.
 */
export function findIndexKey(t: IndexKeyTrial): IndexKeyResult {
  const guidText = keyGuidText(t.guid);
  if (t.candidates.length === 0) return { locked: `${t.subject} with ${guidText}; no AES key given for it` };
  const accept = t.accept ?? looksLikeMountPoint;
  for (const key of t.candidates) {
    const params = t.aes(key);
    const raw = params.mode === 'ecb' ? t.raw.subarray(0, t.raw.length - (t.raw.length % AES_BLOCK)) : t.raw;
    // One AES block decides most wrong keys before the whole index is decrypted: the mount
    // point's length comes first.
    const head = aesDecrypt(raw.subarray(0, Math.min(AES_BLOCK, raw.length - (raw.length % AES_BLOCK))), params);
    if (head.length >= 4 && !plausibleLength(new DataView(head.buffer, head.byteOffset, 4).getInt32(0, true))) continue;
    const plain = aesDecrypt(raw, params);
    if (accept(plain)) return { key, index: plain };
  }
  return {
    locked: `${t.subject} with ${guidText}; none of the ${t.candidates.length} AES key(s) given decrypts ${t.object} (wrong key)`,
  };
}

function plausibleLength(n: number): boolean {
  return n !== -2147483648 && Math.abs(n) <= MAX_MOUNT_POINT_CHARS;
}
