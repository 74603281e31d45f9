// Bad input in the compressed formats, on cue58's payloads made bad: a chunk cut short, a corrupt
// Vorbis page, impossible header values. A clear error or a note naming what did not decode, no
// hang, and the rest of the sound still there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSoundPayload } from '../../../src/core/assets/sound/decode.js';
import { readSound } from '../../../src/core/assets/sound/kind.js';
import { FormatError } from '../../../src/core/errors.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { corpus } from '../../support/corpus.js';

let install: Install;
let packages: InstallPackages;
const payloads: Record<string, Uint8Array> = {};
const info = (format: string) => ({ name: 'bad', format, sampleRate: 48_000, channels: 1, samples: 96_000 });
beforeAll(async () => {
  install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc')]);
  packages = new InstallPackages(install);
  for (const [k, name] of [['OPUS', 'SW_Format_Opus'], ['OGG', 'SW_Format_PlatformSpecific']] as const) {
    payloads[k] = await (await readSound({ packages, ref: `/Game/Fixtures/Audio/${name}` }, undefined)).readPayload();
  }
});
afterAll(async () => {
  await packages.close();
  await install.close();
});

describe('compressed sounds, bad input', () => {
  it('Opus cut in the middle of a packet: the packets before it play, the cut named with its offset', async () => {
    const pcm = await decodeSoundPayload(info('OPUS'), payloads['OPUS']!.subarray(0, 12_000));
    expect(pcm.samples.length).toBeGreaterThan(40_000);
    expect(pcm.samples.length).toBeLessThan(96_000);
    expect(pcm.errors).toEqual([expect.stringMatching(/UEOPUS packet at byte \d+: packet \d+ of 105: \d+ bytes where \d+ are left \(the data is cut short\)/)]);
  });

  it('Opus with an impossible channel count or decoding rate: a FormatError naming the header field', async () => {
    const b = payloads['OPUS']!.slice();
    b[9] = 0;
    await expect(decodeSoundPayload(info('OPUS'), b)).rejects.toThrow(/UEOPUS header at byte 9: 0 channels/);
    const r = payloads['OPUS']!.slice();
    new DataView(r.buffer).setUint32(14, 44_100, true);
    await expect(decodeSoundPayload(info('OPUS'), r)).rejects.toThrow(/encoded sample rate 44100 Hz is not an Opus rate/);
    await expect(decodeSoundPayload(info('OPUS'), new Uint8Array(10))).rejects.toThrow(FormatError);
  });

  it('a corrupt Vorbis page: the packets on it named, the whole length still decoded', async () => {
    const b = payloads['OGG']!.slice();
    for (let i = 5000; i < 5200; i++) b[i] = (b[i]! * 7 + 13) & 255;
    const pcm = await decodeSoundPayload(info('OGG'), b);
    expect(pcm.samples.length).toBe(96_000);
    expect(pcm.errors!.length).toBeGreaterThan(0);
    expect(pcm.errors![0]).toMatch(/^Vorbis packet \d+: /);
  });

  it('an Ogg Vorbis stream cut short: what is there plays, the cut named', async () => {
    const pcm = await decodeSoundPayload(info('OGG'), payloads['OGG']!.subarray(0, 6000));
    expect(pcm.samples.length).toBeLessThan(96_000);
    expect(pcm.errors).toEqual([expect.stringMatching(/ends after \d+ of 96000 samples \(cut short\)/)]);
  });
});
