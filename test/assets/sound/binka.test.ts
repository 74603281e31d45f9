// Bink Audio (BINKA): the type-III DCT against its definition, and bad input on the cue58
// SW_Format_BinkAudio payload (its good decode is checked in read-zen.test.ts against the PCM twin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBinka, parseBinkaHeader, readBinkaBlocks } from '../../../src/core/assets/sound/binka.js';
import { Dct3 } from '../../../src/core/assets/sound/dct.js';
import { decodeSoundPayload } from '../../../src/core/assets/sound/decode.js';
import { readSound } from '../../../src/core/assets/sound/kind.js';
import { FormatError } from '../../../src/core/errors.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { corpus } from '../../support/corpus.js';

describe('Dct3', () => {
  for (const n of [16, 512]) {
    it(`length ${n}: in[0] + 2 * sum in[k] cos(pi k (2j + 1) / 2N), by the definition`, () => {
      const input = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 1.7) * (i % 5) - 0.3);
      const data = input.slice();
      new Dct3(n).run(data);
      for (const j of [0, 1, n / 2, n - 1]) {
        let want = input[0]!;
        for (let k = 1; k < n; k++) want += 2 * input[k]! * Math.cos((Math.PI * k * (2 * j + 1)) / (2 * n));
        expect(data[j]).toBeCloseTo(want, 2);
      }
    });
  }
});

describe('Bink Audio, bad input', () => {
  let install: Install;
  let packages: InstallPackages;
  let payload: Uint8Array;
  const info = { name: 'SW_Format_BinkAudio', format: 'BINKA', sampleRate: 48_000, channels: 1, samples: 96_000 };
  beforeAll(async () => {
    install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc')]);
    packages = new InstallPackages(install);
    payload = await (await readSound({ packages, ref: '/Game/Fixtures/Audio/SW_Format_BinkAudio' }, undefined)).readPayload();
  });
  afterAll(async () => {
    await packages.close();
    await install.close();
  });

  it('the header as the cook wrote it: 1 channel, 48000 Hz, 96000 samples; 1920 frames a block', () => {
    const h = parseBinkaHeader(payload, 'x');
    expect([h.version, h.channels, h.sampleRate, h.samples]).toEqual([1, 1, 48_000, 96_000]);
    const { blocks, error } = readBinkaBlocks(payload, h.dataStart, 'x');
    expect(error).toBeUndefined();
    expect(blocks.length).toBe(Math.ceil(96_000 / 1920));
  });

  it('a block of garbage: silence of its length, named; the blocks after it decode as before', async () => {
    const good = decodeBinka(payload, 'x');
    const { blocks } = readBinkaBlocks(payload, parseBinkaHeader(payload, 'x').dataStart, 'x');
    const bad = payload.slice();
    bad.fill(0xff, blocks[10]!.start, blocks[10]!.end);
    const pcm = await decodeSoundPayload(info, bad);
    expect(pcm.samples.length).toBe(96_000);
    expect(pcm.errors).toEqual([expect.stringMatching(/^Bink Audio block 10: .*runs past the block's/)]);
    expect(pcm.samples.subarray(10 * 1920, 11 * 1920).every((s) => s === 0)).toBe(true);
    // Two blocks on, the overlap has forgotten the bad one: the same samples as the good decode.
    const at = 13 * 1920;
    for (let i = at; i < at + 1920; i++) expect(Math.abs(pcm.samples[i]! - Math.round(good.channelData[0]![i]! * 32768))).toBeLessThanOrEqual(1);
  });

  it('a payload cut in the middle of a block: the blocks before it play, the cut named', async () => {
    const { blocks } = readBinkaBlocks(payload, parseBinkaHeader(payload, 'x').dataStart, 'x');
    const pcm = await decodeSoundPayload(info, payload.subarray(0, blocks[20]!.start + 10));
    expect(pcm.samples.length).toBe(20 * 1920);
    expect(pcm.errors).toEqual([expect.stringMatching(/a block of \d+ bytes where 10 are left/)]);
  });

  it('an impossible channel count or sample rate, a foreign payload: a FormatError, nothing decoded', async () => {
    const set = (at: number, f: (v: DataView) => void): Uint8Array => { const b = payload.slice(); f(new DataView(b.buffer)); return b; };
    await expect(decodeSoundPayload(info, set(5, (v) => v.setUint8(5, 0)))).rejects.toThrow(/0 channels \(Bink Audio has 1 to 16\)/);
    await expect(decodeSoundPayload(info, set(8, (v) => v.setUint32(8, 5_000_000, true)))).rejects.toThrow(/sample rate 5000000 Hz is impossible/);
    await expect(decodeSoundPayload(info, new Uint8Array(64))).rejects.toThrow(FormatError);
  });
});
