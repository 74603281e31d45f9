/**
 * Wwise readers on mutated real files: bytes overwritten, ints set to extremes, the file cut, in
 * seeded variants (150 of the .wem, decoded; 300 of each bank). Every variant either reads (and decodes) or fails with a
 * FormatError; nothing else escapes, and none takes long.
 */
import { describe, expect, it } from 'vitest';
import { parseBank } from '../../../src/core/assets/sound/wwise/bank.js';
import { bankListing } from '../../../src/core/assets/sound/wwise/soundbank.js';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { FormatError } from '../../../src/core/errors.js';
import { loadWwise } from '../../support/wwise-corpus.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

function mutate(src: Uint8Array, r: () => number): Uint8Array {
  const hot = Math.min(src.length, 256);
  let b = src.slice();
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const at = r() < 0.7 ? Math.floor(r() * hot) : Math.floor(r() * b.length);
    const k = r();
    if (k < 0.4) b[at] = Math.floor(r() * 256);
    else if (k < 0.8 && at + 4 <= b.length) new DataView(b.buffer).setUint32(at, [0, 1, 0x7fffffff, 0xffffffff, 0x10000][Math.floor(r() * 5)]!, true);
    else b = b.slice(0, at);
  }
  return b;
}

async function survives(what: () => Promise<unknown>): Promise<void> {
  try {
    await what();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
  }
}

describe('Wwise readers on mutated files', () => {
  it('.wem (Vorbis): a result or a FormatError, each in under 2 s', async () => {
    const src = loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem');
    const r = rng(20);
    for (let i = 0; i < 150; i++) {
      const b = mutate(src, r);
      const t = performance.now();
      await survives(async () => { const s = wemSound(b, `m${i}.wem`); if (s.decodable) await s.decode!(); });
      expect(performance.now() - t).toBeLessThan(2000);
    }
  }, 120_000);

  it('.bnk: a listing or a FormatError', async () => {
    const r = rng(21);
    for (const file of ['Test.bnk', 'LE3_v134_1.bnk', 'ME3_v56_1.bnk']) {
      const src = loadWwise(file);
      for (let i = 0; i < 300; i++) {
        const b = mutate(src, r);
        await survives(async () => { parseBank(b, file); bankListing(b, file); });
      }
    }
  }, 120_000);
});
