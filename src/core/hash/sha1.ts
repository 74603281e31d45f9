import { createHash } from 'node:crypto';

/** SHA-1 (20 bytes): UE4-era IoStore chunk hashes, pak entry and index hashes. */
export function sha1(data: Uint8Array): Uint8Array {
  const d = createHash('sha1').update(data).digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.length);
}
