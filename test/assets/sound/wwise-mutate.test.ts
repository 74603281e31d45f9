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
import { mutateBytes, seededRandom } from '../../support/seeded-mutation.js';
import { loadWwise } from '../../support/wwise-corpus.js';

const rng = seededRandom;
/** The headers (RIFF, fmt, seek, the first packets or pages) are where a bad number matters. */
const mutate = (src: Uint8Array, r: () => number): Uint8Array => mutateBytes(src, r, 256);

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
