// The app's backend on the Wwise codecs decoded through libopus and the ADPCM decoders: the sound
// view's soundInfo gives the facts and the decoded WAV of the synthetic fixtures of
// test/corpus/wwise (SOURCES.tsv; ffmpeg's figures in synthetic.json and ima.json).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { writePak } from '../fixtures/pak-writer.js';
import { loadWwise } from '../support/wwise-corpus.js';

const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };
const MEDIA = 'Game/Content/WwiseAudio/Media';
let dir: string;
let backend: Backend;
let installId: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pakscope-wwise-codecs-'));
  await mkdir(join(dir, 'pak'));
  const files = ['synthetic-opus-wem-5.1.wem', 'synthetic-ogg-opus-mono.wem', 'synthetic-ima-stereo-rifx.wem'];
  const pak = writePak(files.map((f) => ({ name: `Content/WwiseAudio/Media/${f}`, data: loadWwise(f) })), { version: 11, mountPoint: '../../../Game/' });
  await writeFile(join(dir, 'pak', 'WwiseCodecs.pak'), pak.bytes);
  backend = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
  installId = (await backend.openInstall({ path: join(dir, 'pak', 'WwiseCodecs.pak') })).id;
});
afterAll(async () => {
  await backend.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Wwise Opus and IMA ADPCM in the backend\'s sound view', () => {
  for (const [file, codec, rate, channels, frames] of [
    ['synthetic-opus-wem-5.1.wem', 'OPUS', 48000, 6, 33600],
    ['synthetic-ogg-opus-mono.wem', 'OPUS', 48000, 1, 33600],
    ['synthetic-ima-stereo-rifx.wem', 'IMA_ADPCM', 32000, 2, 16185],
  ] as const) {
    it(`${file}: soundInfo gives ${codec}, its facts and its decoded WAV`, async () => {
      const v = await backend.soundInfo({ installId, path: `${MEDIA}/${file}` });
      expect([v.format, v.codec, v.sampleRate, v.channels, v.samples]).toEqual(['WEM', codec, rate, channels, frames]);
      expect(v.decodeError).toBeUndefined();
      expect(v.converts).toEqual(['wav', 'wem']);
      const wav = Buffer.from(v.wav!);
      expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([1, channels, rate, frames * channels * 2]);
    });
  }
});
