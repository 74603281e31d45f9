// `pakscope audio` and `extract --format convert` on the Wwise codecs decoded through libopus and
// the PTADPCM decoder: the synthetic Opus fixtures of test/corpus/wwise (SOURCES.tsv, synthetic.json
// with ffmpeg's figures) on disk and in a pak.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePak } from '../fixtures/pak-writer.js';
import { loadWwise, wwiseFile } from '../support/wwise-corpus.js';
import { buildCli, pakscope } from './run-cli.js';

let temp: string;
let pak: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-wwise-codecs-'));
  const files = ['synthetic-opus-wem-5.1.wem', 'synthetic-opusnx-stereo.wem', 'synthetic-ogg-opus-mono.wem'];
  const built = writePak(files.map((f) => ({ name: `Content/WwiseAudio/Media/${f}`, data: loadWwise(f) })), { version: 11, mountPoint: '../../../Game/' });
  pak = join(temp, 'WwiseOpus.pak');
  await writeFile(pak, built.bytes);
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope audio on Wwise Opus', () => {
  it('--json says codec OPUS, 48 kHz, the header\'s length', async () => {
    const r = await pakscope(['audio', wwiseFile('synthetic-opus-wem-5.1.wem'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ class: 'Wwise media', format: 'WEM', codec: 'OPUS', sampleRate: 48000, channels: 6, samples: 33600, durationS: 0.7, looping: false, streaming: false, chunks: 1 });
  });

  it('-o x.wav writes the decoded 16-bit PCM', async () => {
    const wav = join(temp, 'nx.wav');
    expect((await pakscope(['audio', pak, 'Game/Content/WwiseAudio/Media/synthetic-opusnx-stereo.wem', '-o', wav])).code).toBe(0);
    const b = await readFile(wav);
    expect([b.readUInt16LE(20), b.readUInt16LE(22), b.readUInt32LE(24), b.readUInt32LE(40)]).toEqual([1, 2, 48000, 33600 * 4]);
  });

  it('extract --format convert writes each Opus .wem as .wav', async () => {
    const out = join(temp, 'convert');
    const r = await pakscope(['extract', pak, '--out', out, '--format', 'convert', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ files: 3, failed: [] });
    const media = join(out, 'Game/Content/WwiseAudio/Media');
    expect((await readdir(media)).sort()).toEqual(['synthetic-ogg-opus-mono.wav', 'synthetic-opus-wem-5.1.wav', 'synthetic-opusnx-stereo.wav']);
    const mono = await readFile(join(media, 'synthetic-ogg-opus-mono.wav'));
    expect([mono.readUInt16LE(22), mono.readUInt32LE(40)]).toEqual([1, 33600 * 2]);
  });
});
