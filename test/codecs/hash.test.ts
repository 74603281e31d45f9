import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { blake3 } from '../../src/core/hash/blake3.js';
import { sha1 } from '../../src/core/hash/sha1.js';
import { checkChunkHash } from '../../src/core/hash/chunk-hash.js';
import { runBlockJobs } from '../../src/core/workers/block-job.js';
import { assembleChunk, chunkJobs, loadContainer, storedHash } from './real-chunks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('hashes', () => {
  it('SHA-1 of known inputs', () => {
    expect(hex(sha1(new Uint8Array(0)))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1(ascii('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });

  it('BLAKE3 of known inputs, also when called concurrently', async () => {
    expect(hex(await blake3(new Uint8Array(0)))).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    const [abc, empty] = await Promise.all([blake3(ascii('abc')), blake3(new Uint8Array(0))]);
    expect(hex(abc)).toBe('6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
    expect(hex(empty)).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
  });
});

describe('checkChunkHash', () => {
  const data = ascii('ExportBundleData '.repeat(100));

  it('recognises a truncated BLAKE3 in a 20-byte (v8+) or 32-byte (before v8) slot', async () => {
    const digest = await blake3(data);
    const slot32 = new Uint8Array(32);
    slot32.set(digest.subarray(0, 20));
    for (const stored of [digest.subarray(0, 20), slot32]) {
      const check = await checkChunkHash(stored, data);
      expect(check).toEqual({ ok: true, algorithm: 'BLAKE3', expected: hex(digest.subarray(0, 20)), actual: { BLAKE3: hex(digest.subarray(0, 20)) } });
    }
  });

  it('recognises SHA-1 (UE4-era containers)', async () => {
    const check = await checkChunkHash(sha1(data), data);
    expect(check.ok).toBe(true);
    expect(check.algorithm).toBe('SHA1');
    expect(check.actual.SHA1).toBe(check.expected);
  });

  it('reports both digests when neither matches', async () => {
    const check = await checkChunkHash(new Uint8Array(20).fill(0xab), data);
    expect(check.ok).toBe(false);
    expect(check.algorithm).toBeNull();
    expect(check.expected).toBe('ab'.repeat(20));
    expect(check.actual.SHA1).toBe(hex(sha1(data)));
    expect(check.actual.BLAKE3).toBe(hex((await blake3(data)).subarray(0, 20)));
    await expect(checkChunkHash(new Uint8Array(19), data)).rejects.toThrow(RangeError);
  });

  it('matches every chunk of isle_pakchunk999 (uncompressed, TOC v6) read straight from its .ucas', async () => {
    const c = loadContainer(corpus('iostore/isle_pakchunk999-WindowsClient_P.utoc'));
    expect(c.toc.header.version).toBe(6);
    expect(c.toc.header.entryCount).toBe(13);
    for (let entry = 0; entry < 13; entry++) {
      const { jobs, start } = chunkJobs(c, entry);
      expect(jobs.every((j) => j.codec === 'None')).toBe(true);
      const chunk = assembleChunk(c, entry, await runBlockJobs(jobs), start);
      const stored = storedHash(c, entry);
      expect(stored.length).toBe(32);
      const check = await checkChunkHash(stored, chunk);
      expect(check, `chunk ${entry}`).toMatchObject({ ok: true, algorithm: 'BLAKE3', expected: hex(stored.subarray(0, 20)) });
      // One flipped byte and it no longer matches.
      chunk[chunk.length >> 1]! ^= 1;
      expect((await checkChunkHash(stored, chunk)).ok).toBe(false);
    }
  });
});
