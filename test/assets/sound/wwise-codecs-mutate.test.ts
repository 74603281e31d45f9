/**
 * The Wwise Opus, IMA ADPCM and PTADPCM paths on mutated files (the synthetic fixtures of
 * test/corpus/wwise, SOURCES.tsv): bytes overwritten, ints set to extremes, the file cut, in
 * seeded variants. Every variant either decodes or fails with a FormatError; nothing else
 * escapes, and none takes long.
 */
import { describe, expect, it } from 'vitest';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { FormatError } from '../../../src/core/errors.js';
import { mutateBytes, seededRandom } from '../../support/seeded-mutation.js';
import { loadWwise } from '../../support/wwise-corpus.js';

const rng = seededRandom;
/** The headers (RIFF, fmt, seek, the first packets or pages) are where a bad number matters. */
const mutate = (src: Uint8Array, r: () => number): Uint8Array => mutateBytes(src, r, 160);

/** A copy of the IMA fixture as codec 0x8311 (PTADPCM), 0x24-byte frames, each frame's step index brought into 0..12. */
function asPtadpcm(b: Uint8Array): Uint8Array {
  const out = b.slice();
  const v = new DataView(out.buffer);
  v.setUint16(20, 0x8311, true);
  v.setUint16(32, 0x24 * v.getUint16(22, true), true);
  const data = 12 + 8 + 0x18 + 8;
  for (let at = data; at + 5 <= out.length; at += 0x24) out[at + 4] = out[at + 4]! % 13;
  return out;
}

describe('Wwise codecs on mutated files', () => {
  const files = ['synthetic-opus-wem-stereo.wem', 'synthetic-opus-wem-5.1.wem', 'synthetic-opus-wem-6ch-family255.wem', 'synthetic-opusnx-stereo.wem', 'synthetic-ogg-opus-mono.wem', 'synthetic-ima-stereo.wem', 'synthetic-ima-stereo-rifx.wem'];
  const sources = [...files.map((f) => [f, loadWwise(f)] as const), ['ptadpcm', asPtadpcm(loadWwise('synthetic-ima-stereo.wem'))] as const];
  for (const [name, src] of sources) {
    it(`${name}: a result or a FormatError, each in under 2 s`, async () => {
      const r = rng(name.length * 7919);
      let decoded = 0;
      for (let i = 0; i < 80; i++) {
        const b = mutate(src, r);
        const t = performance.now();
        try {
          const s = wemSound(b, `m${i}.wem`);
          if (s.decodable) { const pcm = await s.decode!(); expect(pcm.samples.length).toBe(s.samples * s.channels); decoded++; }
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
        }
        expect(performance.now() - t).toBeLessThan(2000);
      }
      // Most mutations land on bytes that still read: the loop reached the decoders.
      expect(decoded).toBeGreaterThan(10);
    }, 120_000);
  }
});
