/**
 * Wwise IMA ADPCM (.wem codec 0x0002): one REAL file (a 2016 Unity project's Android cache,
 * stereo 44.1 kHz, SOURCES.tsv), whose Wwise blocks make-ima-fixtures.mts re-laid as a Microsoft
 * IMA .wav for ffmpeg; and two SYNTHETIC ones, little-endian RIFF and big-endian RIFX (no real
 * RIFX IMA file was found), ffmpeg's own IMA blocks re-laid as Wwise stores them. The decode must
 * match ffmpeg's (ima.json) sample for sample.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { formatError } from '../../support/format-error.js';
import { loadWwise, wwiseFile } from '../../support/wwise-corpus.js';

interface Ima { rate: number; channels: number; frames: number; blockAlign: number; sha256: string }
const expected = JSON.parse(readFileSync(wwiseFile('ima.json'), 'utf8')) as Record<string, Ima>;

describe('Wwise IMA ADPCM against ffmpeg (synthetic fixtures)', () => {
  it('has the real file and the RIFF and RIFX fixtures', () => {
    expect(Object.keys(expected).sort()).toEqual(['41-19_Diesel_Trains_Enigne_horn_-_on_87089399.wem', 'synthetic-ima-stereo-rifx.wem', 'synthetic-ima-stereo.wem']);
  });
  for (const [file, want] of Object.entries(expected)) {
    it(`${file}: sample for sample ffmpeg's decode`, async () => {
      const sound = wemSound(loadWwise(file), file);
      expect([sound.codec, sound.sampleRate, sound.channels, sound.samples]).toEqual(['IMA_ADPCM', want.rate, want.channels, want.frames]);
      const pcm = await sound.decode!();
      expect(pcm.samples.length).toBe(want.frames * want.channels);
      expect(createHash('sha256').update(new Uint8Array(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength)).digest('hex')).toBe(want.sha256);
    });
  }

  it('bad input: a step index past 88, a block align that does not split into channel parts', async () => {
    const b = loadWwise('synthetic-ima-stereo.wem').slice();
    const data = 12 + 8 + 0x18 + 8;
    b[data + 128 + 2] = 89; // the second channel's header in the first block
    const e = await wemSound(b, 'index.wem').decode!().catch((x: unknown) => x);
    expect(formatError(() => { throw e; }).message).toContain(`IMA ADPCM block at byte ${data + 130}: step index 89 (0 to 88)`);
    const odd = loadWwise('synthetic-ima-stereo.wem').slice();
    new DataView(odd.buffer).setUint16(20 + 12, 255, true);
    const e2 = await wemSound(odd, 'align.wem').decode!().catch((x: unknown) => x);
    expect(formatError(() => { throw e2; }).message).toContain('block align 255 does not split into 2 channel parts');
  });
});
