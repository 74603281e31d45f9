// Bad input to the SoundWave reader, made from a real cue58 sound: a chunk cut short, an
// impossible sample rate or channel count. Each a FormatError naming what is wrong.
import { describe, expect, it } from 'vitest';
import { soundOf } from '../../../src/core/assets/sound/read.js';
import { installTextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import { openedPackages } from '../../support/opened-packages.js';

describe('SoundWave bad input', () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  const source = () => installTextureSource(packages(), '/Game/Fixtures/Audio/SW_Streaming', {});

  it('a streamed chunk that runs past its .ubulk', async () => {
    const s = await source();
    // The last chunk's bulk data map entry claims more bytes than the BulkData chunk holds.
    s.bulk = { ...s.bulk, map: s.bulk.map!.map((e, i) => (i === 2 ? { ...e, serialSize: e.serialSize + 4096, rawSize: e.rawSize + 4096 } : e)) };
    const sound = soundOf(s, {});
    await expect(sound.readPayload()).rejects.toThrow(FormatError);
    await expect(sound.readPayload()).rejects.toThrow(/audio chunk 2.*run past the file/);
  });

  for (const [name, value, message] of [
    ['SampleRate', 0, /sample rate 0 Hz is impossible/],
    ['SampleRate', 5_000_000, /sample rate 5000000 Hz is impossible/],
    ['NumChannels', 0, /channel count 0 is impossible/],
    ['NumChannels', 300, /channel count 300 is impossible/],
  ] as const) {
    it(`${name} ${value}`, async () => {
      const s = await source();
      const exp = s.exports[0]!;
      exp.properties = { ...exp.properties, properties: exp.properties.properties.map((p) => (p.name === name ? { ...p, value } : p)) };
      expect(() => soundOf(s, {})).toThrow(message);
    });
  }
});
