// The start of a streamed sound decoded alone (playback begins while the rest decodes): on cue58's
// streamed sounds, the first chunks decode to the same samples the whole sound starts with.
import { describe, expect, it } from 'vitest';
import { decodeSound, readSound } from '../../../src/core/assets/sound/kind.js';
import { decodeSoundStart } from '../../../src/core/assets/sound/progressive.js';
import { openedPackages } from '../../support/opened-packages.js';

const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');

describe('decodeSoundStart', () => {
  for (const name of ['SW_Streaming', 'SW_Format_Opus', 'SW_Format_PCM', 'SW_Format_ADPCM', 'SW_Format_PlatformSpecific', 'SW_Format_BinkAudio']) {
    it(`${name}: the header chunk and the first audio chunk alone decode to the whole sound's first samples`, async () => {
      const sound = await readSound({ packages: packages(), ref: `/Game/Fixtures/Audio/${name}` }, undefined);
      const whole = await decodeSound(sound);
      const start = await decodeSoundStart(sound, { seconds: 0.1 });
      if (sound.chunks < 3) {
        expect([name, start.complete]).toEqual([name, true]);
        return;
      }
      expect([start.complete, start.chunks]).toEqual([false, 2]);
      expect(start.pcm.errors).toBeUndefined();
      expect(start.pcm.samples.length).toBeGreaterThan(0);
      expect(start.pcm.samples.length).toBeLessThan(whole.samples.length);
      const n = start.pcm.samples.length - 4096; // a lapped codec's last frame needs the next
      expect(Buffer.from(start.pcm.samples.subarray(0, n).buffer.slice(0)).subarray(0, n * 2).equals(Buffer.from(whole.samples.buffer, whole.samples.byteOffset, n * 2))).toBe(true);
    });
  }
});
