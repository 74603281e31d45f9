import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { aesDecrypt, aesEncrypt, type AesParams } from '../../src/core/crypto/aes.js';
import { parseAesKey } from '../../src/core/crypto/keys.js';
import { DecodeError, KeyError } from '../../src/core/errors.js';
import { parseToc } from '../../src/core/iostore/toc.js';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// NIST SP 800-38A, F.1.5 (ECB-AES256) and F.5.5 (CTR-AES256, initial counter f0f1..fcfdfeff).
const NIST_KEY = hex('603deb1015ca71be2b73aef0857d7781 1f352c073b6108d72d9810a30914dff4');
const NIST_PLAIN = hex(`6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
  30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710`);
const NIST_ECB = `f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870
  b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7`.replace(/\s+/g, '');
const NIST_CTR = `601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
  2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6`.replace(/\s+/g, '');
// The engine's counter block is the 12-byte IV and a 32-bit big-endian block counter.
const NIST_CTR_PARAMS: AesParams = { mode: 'ctr', key: NIST_KEY, iv: hex('f0f1f2f3f4f5f6f7f8f9fafb'), blockIndex: 0xfcfdfeff };

describe('AES-256-ECB', () => {
  const ecb: AesParams = { mode: 'ecb', key: NIST_KEY };

  it('matches the NIST known-answer vector both ways', () => {
    expect(toHex(aesEncrypt(NIST_PLAIN, ecb))).toBe(NIST_ECB);
    expect(toHex(aesDecrypt(hex(NIST_ECB), ecb))).toBe(toHex(NIST_PLAIN));
  });

  it('round-trips aligned data', () => {
    const data = new Uint8Array(randomBytes(65536 + 48));
    expect(Buffer.from(aesDecrypt(aesEncrypt(data, ecb), ecb)).equals(data)).toBe(true);
  });

  it('decrypts the directory index of the encrypted UE5.8 fixture to its mount point', () => {
    const path = corpus('cue58/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc');
    const index = parseToc(readFileSync(path), path).directoryIndex!;
    expect(index.length % 16).toBe(0);
    const plain = aesDecrypt(index, { mode: 'ecb', key: parseAesKey(CUE58_AES_KEY) });
    const length = Buffer.from(plain).readInt32LE(0);
    expect(Buffer.from(plain.subarray(4, 4 + length - 1)).toString('latin1')).toBe('../../../CUE4ParseFixtures/Content/Fixtures/');
    // The wrong key gives noise, not a mount point.
    const wrong = aesDecrypt(index, { mode: 'ecb', key: new Uint8Array(32).fill(7) });
    expect(Buffer.from(wrong.subarray(4, 13)).toString('latin1')).not.toBe('../../../');
  });

  it('refuses data that is not whole 16-byte blocks, and keys that are not 32 bytes', () => {
    expect(() => aesDecrypt(new Uint8Array(17), ecb)).toThrow(DecodeError);
    expect(() => aesDecrypt(new Uint8Array(17), ecb)).toThrow('AES-256-ECB: 17 bytes is not a whole number of 16-byte blocks');
    expect(() => aesDecrypt(new Uint8Array(16), { mode: 'ecb', key: new Uint8Array(16) })).toThrow(KeyError);
  });
});

describe('AES-256-CTR (IoStore TOC v10)', () => {
  it('matches the NIST known-answer vector both ways', () => {
    expect(toHex(aesEncrypt(NIST_PLAIN, NIST_CTR_PARAMS))).toBe(NIST_CTR);
    expect(toHex(aesDecrypt(hex(NIST_CTR), NIST_CTR_PARAMS))).toBe(toHex(NIST_PLAIN));
  });

  it('decrypts from any 16-byte block with its block index', () => {
    const tail = aesDecrypt(hex(NIST_CTR).subarray(32), { ...NIST_CTR_PARAMS, blockIndex: 0xfcfdfeff + 2 });
    expect(toHex(tail)).toBe(toHex(NIST_PLAIN.subarray(32)));
  });

  it('round-trips unaligned data with the counter from 0 (a compression block)', () => {
    const p: AesParams = { mode: 'ctr', key: new Uint8Array(randomBytes(32)), iv: new Uint8Array(randomBytes(12)) };
    const data = new Uint8Array(randomBytes(1000 + 5));
    const enc = aesEncrypt(data, p);
    expect(enc.length).toBe(data.length);
    expect(Buffer.from(aesDecrypt(enc, p)).equals(data)).toBe(true);
    // Counter 0 is the IV followed by four zero bytes: one ECB encryption of that block.
    const counter0 = new Uint8Array(16);
    counter0.set(p.iv);
    const keystream = aesEncrypt(counter0, { mode: 'ecb', key: p.key });
    expect(enc[0]).toBe(data[0]! ^ keystream[0]!);
    expect(enc[15]).toBe(data[15]! ^ keystream[15]!);
  });

  it('refuses IVs that are not 12 bytes and ranges that overflow the 32-bit counter', () => {
    const key = new Uint8Array(32);
    expect(() => aesDecrypt(new Uint8Array(16), { mode: 'ctr', key, iv: new Uint8Array(16) })).toThrow('the IV has 16 bytes, not 12');
    expect(() => aesDecrypt(new Uint8Array(32), { mode: 'ctr', key, iv: new Uint8Array(12), blockIndex: 2 ** 32 - 1 }))
      .toThrow(/overflow the 32-bit counter/);
  });
});
