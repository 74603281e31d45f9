// The app's backend and sounds: a sound package lists its SoundWave under the registry's "sound"
// view, and saveConversion writes it as a WAV (equal to the source art) or as stored.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';
import { writeSoundPackage } from '../assets/sound/ue12-writer.js';
import { pcmStreamedSound } from '../../bench/sound-writer.js';
import { soundView } from '../../src/backend/sounds.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const sw = (name: string) => `CUE4ParseFixtures/Content/Fixtures/Audio/${name}.uasset`;

const session = useBackend(UNCOMPRESSED, 'pakscope-sounds-');
let backend: Backend, installId: string, configDir: string, out: string;
beforeAll(() => ({ backend, installId, configDir, out } = session));

describe('sounds in the backend', () => {
  it('a sound package lists its SoundWave under the sound view', async () => {
    const view = await backend.openPackage({ installId, path: sw('SW_Streaming') });
    expect(view.assets.map((a) => [a.name, a.class, a.kind, a.view])).toEqual([['SW_Streaming', 'SoundWave', 'sound', 'sound']]);
    expect(view.assets[0]!.converts).toEqual(expect.arrayContaining(['wav', 'ogg', 'opus', 'binka', 'rada']));
  });

  it('saveConversion writes SW_Streaming as the source WAV, byte for byte, and RADA as stored', async () => {
    const wav = join(out, 'SW_Streaming.wav');
    const saved = await backend.saveConversion({ installId, path: sw('SW_Streaming'), format: 'wav', destination: wav });
    expect(saved.path).toBe(wav);
    expect(Buffer.from(await readFile(wav)).equals(await readFile(corpus('cue58/SourceAudio/streaming.wav')))).toBe(true);
    const rada = join(out, 'SW_Format_RADAudio.rada');
    await backend.saveConversion({ installId, path: sw('SW_Format_RADAudio'), format: 'rada', destination: rada });
    expect((await readFile(rada)).subarray(0, 4).toString('latin1')).toBe('ADAR');
    await expect(backend.saveConversion({ installId, path: sw('SW_Format_RADAudio'), format: 'wav', destination: join(out, 'x.wav') }))
      .rejects.toThrow(/RADA cannot be decoded to \.wav/);
    await expect(backend.saveConversion({ installId, path: sw('SW_Inline'), format: 'wav', destination: join(out, 'x.ogg') })).rejects.toThrow(/ends in \.wav/);
  });

  it('soundInfo gives SW_Streaming\'s facts and its WAV, equal to the source art', async () => {
    const v = await backend.soundInfo({ installId, path: sw('SW_Streaming') });
    const source = await readFile(corpus('cue58/SourceAudio/streaming.wav'));
    // The source WAV's own header: format 1, its rate and channels; its data size over 2 bytes a sample.
    expect([v.format, v.sampleRate, v.channels]).toEqual(['PCM', source.readUInt32LE(24), source.readUInt16LE(22)]);
    expect(v.samples).toBe((source.length - 44) / 2 / v.channels);
    expect(v.durationS).toBeCloseTo(v.samples / v.sampleRate, 3);
    expect([v.streaming, v.decodable, v.converts]).toEqual([true, true, ['wav']]);
    expect(v.chunks).toBeGreaterThan(1);
    expect(v.decodeError).toBeUndefined();
    expect(Buffer.from(v.wav!).equals(source)).toBe(true);
    expect(v.path).toBe(sw('SW_Streaming'));
    expect('readPayload' in v).toBe(false);
    expect(() => validateRequest('soundInfo', { installId, path: 1 })).toThrow(ApiValidationError);
  });

  it('soundInfo decodes OPUS and OGG sounds: a 48 kHz mono WAV of 96000 frames, saved as WAV or as stored', async () => {
    for (const [name, stored] of [['SW_Format_Opus', 'opus'], ['SW_Format_PlatformSpecific', 'ogg']] as const) {
      const v = await backend.soundInfo({ installId, path: sw(name) });
      expect([v.decodable, v.converts, v.decodeError]).toEqual([true, ['wav', stored], undefined]);
      const wav = Buffer.from(v.wav!);
      expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([1, 1, 48_000, 96_000 * 2]);
      const file = join(out, `${name}.wav`);
      await backend.saveConversion({ installId, path: sw(name), format: 'wav', destination: file });
      expect(Buffer.from(await readFile(file)).equals(wav)).toBe(true);
    }
  });

  it('soundInfo names a RADA sound, its note, saves it as stored only and gives no WAV', async () => {
    const v = await backend.soundInfo({ installId, path: sw('SW_Format_RADAudio') });
    expect([v.format, v.decodable, v.converts, v.wav]).toEqual(['RADA', false, ['rada'], undefined]);
    expect(v.notes.join(' ')).toMatch(/RADA is a format PakScope does not decode/);
  });

  it('a UE1/2 sound package (.uax) opens on the sound view and gives its WAV', async () => {
    const folder = join(configDir, 'ut');
    await mkdir(folder);
    const source = await readFile(corpus('cue58/SourceAudio/inline.wav'));
    await writeFile(join(folder, 'Sounds.uax'), writeSoundPackage(source, { version: 69 }));
    const id = (await backend.openInstall({ path: folder })).id;
    const view = await backend.openPackage({ installId: id, path: 'Sounds.uax' });
    expect(view.assets.map((a) => [a.name, a.class, a.kind, a.view])).toEqual([['Hit', 'Sound', 'sound', 'sound']]);
    const v = await backend.soundInfo({ installId: id, path: 'Sounds.uax' });
    expect([v.format, v.sampleRate, v.channels, v.converts]).toEqual(['PCM', 22_050, 1, ['wav']]);
    expect(Buffer.from(v.wav!).equals(source)).toBe(true);
  });

  it('soundCue gives SC_Fixture\'s graph, each wave player\'s sound as a tree path of the install', async () => {
    const cue = await backend.soundCue({ installId, path: `CUE4ParseFixtures/Content/Fixtures/Audio/SC_Fixture.uasset` });
    expect([cue.name, cue.volume, cue.pitch, cue.nodes.length]).toEqual(['SC_Fixture', 0.75, 1.125, 3]);
    expect(cue.nodes.filter((n) => n.kind === 'wavePlayer').map((n) => n.soundPath).sort()).toEqual([sw('SW_Inline'), sw('SW_Streaming')]);
    await expect(backend.soundCue({ installId, path: sw('SW_Inline') })).rejects.toThrow(/no export of this package is a SoundCue/);
  });
});

describe('a long streamed sound in the sound view', () => {
  it('gives its first seconds at once (partial), and the whole WAV after', async () => {
    const sound = pcmStreamedSound(60, 8000);
    const start = await soundView(sound, 'Synthetic.uasset');
    expect(start.partial).toBe(true);
    const frames = (start.wav!.length - 44) / 2;
    expect(frames).toBeGreaterThanOrEqual(10 * 8000);
    expect(frames).toBeLessThan(60 * 8000);
    const whole = await soundView(sound, 'Synthetic.uasset', undefined, undefined, { whole: true });
    expect(whole.partial).toBeUndefined();
    expect((whole.wav!.length - 44) / 2).toBe(60 * 8000);
    expect(Buffer.from(whole.wav!.subarray(44, 44 + frames * 2)).equals(Buffer.from(start.wav!.subarray(44)))).toBe(true);
    expect('readChunk' in start).toBe(false);
  });
});
