/**
 * Real compression blocks: every chunk of the UE5.8 fixture containers (Zlib; Oodle; Oodle with
 * AES-256-ECB) decoded through the codecs and checked against the chunk's stored BLAKE3 hash.
 */
import { describe, expect, it } from 'vitest';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { parseAesKey } from '../../src/core/crypto/keys.js';
import { DecodeError } from '../../src/core/errors.js';
import { checkChunkHash } from '../../src/core/hash/chunk-hash.js';
import { jobIndexOf, runBlockJobs } from '../../src/core/workers/block-job.js';
import { assembleChunk, chunkJobs, loadContainer, storedHash } from './real-chunks.js';
import { getCodec } from '../../src/core/codecs/registry.js';
import { lz4CompressBlock } from '../support/lz4-encode.js';

const CUE58 = 'cue58/IoStore/Tagged';

describe.each([
  ['Zlib', `${CUE58}/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc`, false, 112],
  ['Oodle', `${CUE58}/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc`, false, 112],
  ['Oodle', `${CUE58}/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc`, true, 112],
])('%s blocks of %s', (codec, path, encrypted, entries) => {
  it('decode to chunks whose BLAKE3 matches the stored hash', async () => {
    const c = loadContainer(corpus(path), encrypted ? parseAesKey(CUE58_AES_KEY) : undefined);
    expect(c.toc.header.entryCount).toBe(entries);
    let compressedBlocks = 0;
    for (let entry = 0; entry < entries; entry++) {
      const { jobs, start } = chunkJobs(c, entry);
      compressedBlocks += jobs.filter((j) => j.codec === codec).length;
      const chunk = assembleChunk(c, entry, await runBlockJobs(jobs), start);
      const check = await checkChunkHash(storedHash(c, entry), chunk);
      expect(check.algorithm, `chunk ${entry}`).toBe('BLAKE3');
    }
    expect(compressedBlocks).toBeGreaterThan(50);
  });
});

it('a wrong AES key makes the first encrypted Oodle block fail with a DecodeError', async () => {
  const c = loadContainer(corpus(`${CUE58}/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc`), new Uint8Array(32));
  const entry = [...Array(c.toc.header.entryCount).keys()].find((e) => chunkJobs(c, e).jobs[0]!.codec === 'Oodle')!;
  const err = await runBlockJobs(chunkJobs(c, entry).jobs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DecodeError);
  expect((err as Error).message).toMatch(/^Oodle \(/);
  expect(jobIndexOf(err)).toBe(0);
});

describe('decodePrefix: a block decoded only as far as asked (a package header read)', () => {
  it('gives the first bytes of every Zlib block, and of LZ4 blocks of the same chunks, as the whole decode does', async () => {
    const c = loadContainer(corpus(`${CUE58}/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc`));
    const zlib = getCodec('Zlib'), lz4 = getCodec('LZ4');
    let blocks = 0, cutFailures = 0;
    for (let entry = 0; entry < c.toc.header.entryCount; entry++) {
      for (const job of chunkJobs(c, entry).jobs) {
        if (job.codec !== 'Zlib') continue;
        const data = job.data.subarray(0, job.compressedSize);
        const whole = zlib.decode(data, job.uncompressedSize);
        const packed = lz4CompressBlock(whole);
        for (const n of new Set([1, 57, 4096, whole.length - 1, whole.length].filter((n) => n > 0 && n <= whole.length))) {
          const out = new Uint8Array(n);
          zlib.decodePrefix!(data, out);
          expect(Buffer.from(out).equals(whole.subarray(0, n)), `Zlib block of chunk ${entry}, ${n} bytes`).toBe(true);
          out.fill(0);
          lz4.decodePrefix!(packed, out);
          expect(Buffer.from(out).equals(whole.subarray(0, n)), `LZ4 block of chunk ${entry}, ${n} bytes`).toBe(true);
        }
        // More than the block holds is an error, not zeros.
        expect(() => zlib.decodePrefix!(data, new Uint8Array(whole.length + 1))).toThrow(DecodeError);
        expect(() => lz4.decodePrefix!(packed, new Uint8Array(whole.length + 1))).toThrow(DecodeError);
        // A cut stream: a DecodeError, or the right bytes where the cut left enough; never wrong bytes.
        for (const cut of [0, 1, data.length >> 2, data.length >> 1, data.length - 1]) {
          const out = new Uint8Array(whole.length);
          try {
            zlib.decodePrefix!(data.subarray(0, cut), out);
          } catch (e) {
            expect(e, `Zlib block of chunk ${entry} cut to ${cut} bytes`).toBeInstanceOf(DecodeError);
            cutFailures++;
            continue;
          }
          expect(Buffer.from(out).equals(whole), `Zlib block of chunk ${entry} cut to ${cut} bytes`).toBe(true);
        }
        blocks++;
      }
    }
    expect(blocks).toBeGreaterThan(100);
    // Cut to nothing, one byte or a half, a block cannot give all its bytes.
    expect(cutFailures).toBeGreaterThanOrEqual(3 * blocks);
  });
});
