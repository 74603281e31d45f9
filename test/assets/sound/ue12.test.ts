// Unreal Engine 1/2 sounds: a .uax written around cue58's source WAV (the corpus's UE1/2
// packages import sounds but hold none), UT99's layout and UT2004's (with its Likelihood float):
// the facts from the WAV's own header, the PCM equal to ffmpeg's decode of the same WAV, saved as
// WAV through the registry, and bad input.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { decodeSound, readSound } from '../../../src/core/assets/sound/kind.js';
import { readUe12Sound } from '../../../src/core/assets/sound/ue12.js';
import { FormatError } from '../../../src/core/errors.js';
import { parseUe12Package } from '../../../src/core/ue12/package.js';
import { ue12ToPackageModel } from '../../../src/core/ue12/model.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { ffmpegSamples } from '../../support/ffmpeg.js';
import { writeSoundPackage } from './ue12-writer.js';

const wav = Buffer.from(loadCorpus('cue58/SourceAudio/inline.wav'));
let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'pakscope-uax-')); });
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('UE1/2 sounds', () => {
  for (const [game, o] of [['UT99 (version 69)', { version: 69 }], ['UT2004 (version 128, licensee 29)', { version: 128, licensee: 29 }]] as const) {
    it(`${game}: the stored WAV, its facts from its own header, decoded equal to ffmpeg`, async () => {
      const file = join(dir, `Sounds${o.version}.uax`);
      await writeFile(file, writeSoundPackage(wav, o));
      const sound = await readSound({ file }, undefined);
      expect(sound).toMatchObject({
        class: 'Sound', name: 'Hit', format: 'PCM', sampleRate: wav.readUInt32LE(24), channels: wav.readUInt16LE(22),
        samples: (wav.length - 44) / 2, streaming: false, chunks: 1, decodable: true, storedExtension: 'wav',
      });
      expect(Buffer.from(await sound.readPayload()).equals(wav)).toBe(true);
      const pcm = await decodeSound(sound);
      expect(Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength).equals(Buffer.from(ffmpegSamples(corpus('cue58/SourceAudio/inline.wav')).buffer))).toBe(true);
      // The registry offers the Sound export as a sound and converts it to the same WAV.
      const model = ue12ToPackageModel(parseUe12Package(writeSoundPackage(wav, o), 'Sounds.uax'));
      const [exp] = convertibleExports(model);
      expect(exp!.kind.kind).toBe('sound');
      const [out] = await convertExport({ file }, exp!, undefined, {});
      expect(out!.extension).toBe('wav');
      expect(Buffer.from(out!.data).equals(wav)).toBe(true);
    });
  }

  it('an Ogg Vorbis file (file type OGG, as UE2 games store music and voice): named OGG, decoded', async () => {
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', corpus('cue58/SourceAudio/inline.wav'), '-c:a', 'libvorbis', '-q:a', '6', '-f', 'ogg', '-'], { maxBuffer: 1 << 24 });
    const ogg = new Uint8Array(r.stdout);
    const sound = readUe12Sound(writeSoundPackage(ogg, { version: 128, licensee: 29, fileType: 'OGG' }), 'x.uax');
    expect([sound.format, sound.decodable, sound.storedExtension]).toEqual(['OGG', true, 'ogg']);
    const pcm = await decodeSound(sound);
    expect([pcm.sampleRate, pcm.channels, pcm.samples.length]).toEqual([22_050, 1, 22_050]);
  });

  it('bad input: a lazy array that does not end where it says, a cut package, an impossible WAV', () => {
    expect(() => readUe12Sound(writeSoundPackage(wav, { version: 69, badSkip: true }), 'bad.uax')).toThrow(/its lazy array says/);
    const cut = writeSoundPackage(wav, { version: 69 });
    expect(() => readUe12Sound(cut.subarray(0, 2000), 'cut.uax')).toThrow(FormatError);
    const odd = Buffer.from(wav);
    odd.writeUInt16LE(0, 22);
    expect(() => readUe12Sound(writeSoundPackage(odd, { version: 69 }), 'odd.uax')).toThrow(/channel count 0 is impossible/);
    odd.writeUInt16LE(1, 22);
    odd.writeUInt32LE(0, 24);
    expect(() => readUe12Sound(writeSoundPackage(odd, { version: 69 }), 'odd.uax')).toThrow(/sample rate 0 Hz is impossible/);
  });
});
