/**
 * AES-256 as the engine uses it, through node:crypto.
 * - ECB: pak entries and indexes, IoStore blocks up to TOC version 9 (and v10 method AES).
 *   No padding: the stored data is 16-byte aligned.
 * - CTR: IoStore TOC version 10 (EncryptionMethod AES_CTR). Each block has a 12-byte IV; the
 *   16-byte counter block is the IV followed by a 32-bit big-endian block counter from 0
 *   (FIoStoreEncryptionIV, CUE4Parse Aes.CryptCtrInPlace). No alignment needed.
 */
import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';
import { DecodeError, KeyError } from '../errors.js';

export type AesParams =
  | { mode: 'ecb'; key: Uint8Array }
  /** `blockIndex`: the counter of the first 16-byte block of `data` (0 for a whole block). */
  | { mode: 'ctr'; key: Uint8Array; iv: Uint8Array; blockIndex?: number };

const AES_BLOCK = 16;
const CTR_IV_BYTES = 12;

export function aesDecrypt(data: Uint8Array, p: AesParams): Uint8Array {
  return run(data, p, 'decrypt');
}

/** For fixture writers: the inverse of aesDecrypt with the same params. */
export function aesEncrypt(data: Uint8Array, p: AesParams): Uint8Array {
  return run(data, p, 'encrypt');
}

function run(data: Uint8Array, p: AesParams, direction: 'encrypt' | 'decrypt'): Uint8Array {
  if (p.key.length !== 32) throw new KeyError(`an AES-256 key has 32 bytes, not ${p.key.length}`);
  let cipher: Cipher | Decipher;
  if (p.mode === 'ecb') {
    if (data.length % AES_BLOCK !== 0) {
      throw new DecodeError('AES-256-ECB', `${data.length} bytes is not a whole number of 16-byte blocks`);
    }
    cipher = direction === 'decrypt' ? createDecipheriv('aes-256-ecb', p.key, null) : createCipheriv('aes-256-ecb', p.key, null);
  } else {
    // CTR decryption is encryption of the counter stream: one cipher serves both directions.
    cipher = createCipheriv('aes-256-ctr', p.key, ctrCounterBlock(p.iv, p.blockIndex ?? 0, data.length));
  }
  cipher.setAutoPadding(false);
  const out = cipher.update(data);
  cipher.final(); // no padding: nothing is held back
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/**
 * IV || u32 BE counter. node:crypto carries the counter into the IV bytes on overflow while the
 * engine's 32-bit counter would not, so data that would overflow it is refused.
 */
function ctrCounterBlock(iv: Uint8Array, blockIndex: number, length: number): Uint8Array {
  if (iv.length !== CTR_IV_BYTES) throw new DecodeError('AES-256-CTR', `the IV has ${iv.length} bytes, not ${CTR_IV_BYTES}`);
  const blocks = Math.ceil(length / AES_BLOCK);
  if (!Number.isSafeInteger(blockIndex) || blockIndex < 0 || blockIndex + blocks > 2 ** 32) {
    throw new DecodeError('AES-256-CTR', `blocks ${blockIndex}..${blockIndex + blocks} overflow the 32-bit counter`);
  }
  const counter = new Uint8Array(AES_BLOCK);
  counter.set(iv);
  new DataView(counter.buffer).setUint32(CTR_IV_BYTES, blockIndex);
  return counter;
}
