// The app's backend and Wwise media: a .wem in a container is a plain file the registry reads by
// its extension: its details name the sound view, soundInfo gives its facts and decoded WAV, and
// saveConversion writes it as a WAV or as stored.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { loadWwise, wwiseExpected } from '../support/wwise-corpus.js';
import { WEM_VORBIS, writeWwisePak } from '../support/wwise-pak.js';

const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };
let dir: string;
let out: string;
let backend: Backend;
let installId: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pakscope-wwise-'));
  out = join(dir, 'out');
  await mkdir(join(dir, 'pak'));
  await mkdir(out);
  await writeWwisePak(join(dir, 'pak'));
  backend = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
  installId = (await backend.openInstall({ path: join(dir, 'pak', 'WwiseAudio-Windows.pak') })).id;
});
afterAll(async () => {
  await backend.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Wwise media in the backend', () => {
  const want = wwiseExpected()['surface_hits_medium_hard_01_3F75BDB9.wem']!;

  it('a .wem file\'s details name the sound view; other files none', async () => {
    expect((await backend.fileDetails({ installId, path: WEM_VORBIS })).view).toBe('sound');
    expect((await backend.fileDetails({ installId, path: 'Game/Content/WwiseAudio/SoundbanksInfo.json' })).view).toBeUndefined();
  });

  it('soundInfo gives the .wem\'s facts (ffmpeg\'s figures) and its decoded WAV', async () => {
    const v = await backend.soundInfo({ installId, path: WEM_VORBIS });
    expect([v.format, v.codec, v.sampleRate, v.channels, v.samples]).toEqual(['WEM', 'VORBIS', want.rate, want.channels, want.frames]);
    expect(v.converts).toEqual(['wav', 'wem']);
    expect(v.decodeError).toBeUndefined();
    const wav = Buffer.from(v.wav!);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([1, want.channels, want.rate, want.frames * want.channels * 2]);
  });

  it('saveConversion writes the .wem as a WAV and as stored', async () => {
    const wav = join(out, 'hit.wav');
    await backend.saveConversion({ installId, path: WEM_VORBIS, format: 'wav', destination: wav });
    expect((await readFile(wav)).readUInt32LE(40)).toBe(want.frames * want.channels * 2);
    const wem = join(out, 'hit.wem');
    await backend.saveConversion({ installId, path: WEM_VORBIS, format: 'wem', destination: wem });
    expect(Buffer.from(await readFile(wem)).equals(Buffer.from(loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem')))).toBe(true);
  });
});
