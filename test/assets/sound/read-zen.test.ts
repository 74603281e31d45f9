// The SoundWave reader on the cue58 IoStore (Zen, UE5.8) fixtures: the facts CUE4Parse's
// FixtureAudioTests list, PCM equal sample for sample to the source WAVs (read by ffmpeg), the
// format matrix's tone sweep counted by its rising zero crossings, undecodable formats stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { decodeSound, readSound } from '../../../src/core/assets/sound/kind.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { openedPackages } from '../../support/opened-packages.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { ffmpegSamples } from '../../support/ffmpeg.js';

const VARIANTS: Record<string, { path: string; mappings: boolean }> = {
  'Tagged Uncompressed': { path: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc', mappings: false },
  'Tagged Oodle': { path: 'cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc', mappings: false },
  'Unversioned Zlib with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: true },
};
const ref = (name: string): string => `/Game/Fixtures/Audio/${name}`;

function risingZeroCrossings(s: Int16Array): number {
  let n = 0;
  for (let i = 1; i < s.length; i++) if (s[i - 1]! <= 0 && s[i]! > 0) n++;
  return n;
}

/** Signal-to-error ratio of `got` against `want`, in dB. */
function snrDb(got: Int16Array, want: Int16Array): number {
  let e = 0;
  let p = 0;
  for (let i = 0; i < want.length; i++) { const d = got[i]! - want[i]!; e += d * d; p += want[i]! * want[i]!; }
  return 10 * Math.log10(p / Math.max(1, e));
}

let mappings: Usmap;
beforeAll(() => {
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`cue58 IoStore ${variant}`, () => {
    const packages = openedPackages(v.path);
    const opts = (): { mappings?: Usmap } => (v.mappings ? { mappings } : {});

    for (const [name, source, looping, seconds, chunks] of [
      ['SW_Inline', 'inline.wav', false, 1, 2],
      ['SW_Streaming', 'streaming.wav', true, 6, 3],
    ] as const) {
      it(`${name} decodes equal to SourceAudio/${source} (22050 Hz mono, ${seconds} s, looping ${looping})`, async () => {
        const sound = await readSound({ packages: packages(), ref: ref(name) }, undefined, opts());
        expect(sound).toMatchObject({
          class: 'SoundWave', name, format: 'PCM', sampleRate: 22_050, channels: 1, samples: seconds * 22_050,
          durationS: seconds, looping, streaming: true, chunks, decodable: true, storedExtension: 'wav',
        });
        const pcm = await decodeSound(sound);
        expect(pcm.sampleRate).toBe(22_050);
        expect(pcm.channels).toBe(1);
        const want = ffmpegSamples(corpus('cue58/SourceAudio', source));
        expect(pcm.samples.length).toBe(want.length);
        expect(Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength).equals(Buffer.from(want.buffer))).toBe(true);
      });
    }

    // The issue gives 439 / 659 for SW_Format_PCM; ffmpeg decoding the same stored payload counts
    // 440 / 660 (439 / 659 is what it counts on the OGG twin, SW_Format_PlatformSpecific).
    it('SW_Format_PCM: 48000 Hz, 2 s of the tone sweep, equal to ffmpeg\'s decode, 440 / 660 rising zero crossings', async () => {
      const sound = await readSound({ packages: packages(), ref: ref('SW_Format_PCM') }, undefined, opts());
      const pcm = await decodeSound(sound);
      expect(pcm.sampleRate).toBe(48_000);
      expect(pcm.samples.length).toBe(96_000);
      expect(Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength).equals(Buffer.from(ffmpegSamples('-', await sound.readPayload()).buffer))).toBe(true);
      expect(risingZeroCrossings(pcm.samples.subarray(0, 48_000))).toBe(440);
      expect(risingZeroCrossings(pcm.samples.subarray(48_000))).toBe(660);
    });

    // Every decodable format of the matrix: the same 2 s of the sweep (±3 %), its pitch where it
    // should be (420-460 rising zero crossings in the first second, 630-690 in the last).
    for (const [name, format, ext] of [
      ['SW_Format_ADPCM', 'ADPCM', 'wav'],
      ['SW_Format_Opus', 'OPUS', 'opus'],
      ['SW_Format_PlatformSpecific', 'OGG', 'ogg'],
      ['SW_Format_ProjectDefined', 'OGG', 'ogg'],
      ['SW_Format_BinkAudio', 'BINKA', 'binka'],
    ] as const) {
      it(`${name} (${format}): 48000 Hz mono, 2 s (±3 %), 420-460 / 630-690 rising zero crossings, the PCM twin's waveform`, async () => {
        const sound = await readSound({ packages: packages(), ref: ref(name) }, undefined, opts());
        expect(sound).toMatchObject({ format, decodable: true, storedExtension: ext, sampleRate: 48_000, channels: 1, samples: 96_000 });
        const pcm = await decodeSound(sound);
        expect(pcm.sampleRate).toBe(48_000);
        expect(pcm.channels).toBe(1);
        expect(pcm.errors).toBeUndefined();
        expect(Math.abs(pcm.samples.length - 96_000)).toBeLessThanOrEqual(96_000 * 0.03);
        const first = risingZeroCrossings(pcm.samples.subarray(0, 48_000));
        const last = risingZeroCrossings(pcm.samples.subarray(pcm.samples.length - 48_000));
        expect(first).toBeGreaterThanOrEqual(420);
        expect(first).toBeLessThanOrEqual(460);
        expect(last).toBeGreaterThanOrEqual(630);
        expect(last).toBeLessThanOrEqual(690);
        // The same sweep as SW_Format_PCM (itself equal to ffmpeg's decode), sample-aligned and at its level:
        // a lossy codec's error, not a shift, a gain or a wrong transform.
        const twin = await decodeSound(await readSound({ packages: packages(), ref: ref('SW_Format_PCM') }, undefined, opts()));
        expect(snrDb(pcm.samples.subarray(1000, 95_000), twin.samples.subarray(1000, 95_000))).toBeGreaterThanOrEqual(30);
      });
    }

    // The OGG twin of SW_Format_PCM decodes to the counts the issue gives (439 / 659), as ffmpeg's Vorbis decoder does.
    it('SW_Format_PlatformSpecific (OGG) decodes to 439 / 659 rising zero crossings, close to ffmpeg\'s decode', async () => {
      const sound = await readSound({ packages: packages(), ref: ref('SW_Format_PlatformSpecific') }, undefined, opts());
      const pcm = await decodeSound(sound);
      expect(risingZeroCrossings(pcm.samples.subarray(0, 48_000))).toBe(439);
      expect(risingZeroCrossings(pcm.samples.subarray(48_000))).toBe(659);
      const want = ffmpegSamples('-', await sound.readPayload());
      expect(pcm.samples.length).toBe(want.length);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(pcm.samples[i]! - want[i]!));
      expect(worst).toBeLessThanOrEqual(2);
    });

    for (const [name, format, ext, magic] of [
      ['SW_Format_RADAudio', 'RADA', 'rada', 'ADAR'],
    ] as const) {
      it(`${name} is named ${format} and converts to .${ext} as stored`, async () => {
        const opened = await packages().open(ref(name));
        const [exp, ...rest] = convertibleExports(opened.model);
        expect(rest).toEqual([]);
        expect(exp!.kind.kind).toBe('sound');
        const sound = await readSound({ packages: packages(), ref: ref(name) }, exp!.index, opts());
        expect(sound).toMatchObject({ format, decodable: false, storedExtension: ext, sampleRate: 48_000, channels: 1, samples: 96_000 });
        expect(sound.notes.join('\n')).toMatch(new RegExp(`${format} is a format PakScope does not decode`));
        const [file] = await convertExport({ packages: packages(), ref: ref(name) }, exp!, undefined, opts());
        expect(file!.extension).toBe(ext);
        expect(file!.note).toMatch(/written as stored/);
        expect(Buffer.from(file!.data.subarray(0, magic.length)).toString('latin1')).toBe(magic);
        await expect(convertExport({ packages: packages(), ref: ref(name) }, exp!, 'wav', opts())).rejects.toThrow(/cannot be decoded to \.wav/);
      });
    }
  });
}
