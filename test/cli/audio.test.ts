// `pakscope audio`: the facts as --json (tagged, and unversioned with the usmap alike), a WAV equal
// to the source art, undecodable formats as stored, and `extract --format convert` writing the same.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');
const A = (name: string): string => `/Game/Fixtures/Audio/${name}`;

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-audio-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope audio', () => {
  it('--json: SW_Streaming as CUE4Parse lists it, the same from tagged and from unversioned packages with their mappings', async () => {
    const [tagged, unversioned] = await Promise.all([
      pakscope(['audio', TAGGED, A('SW_Streaming'), '--json']),
      pakscope(['audio', UNVERSIONED, A('SW_Streaming'), '--json', '--usmap', USMAP]),
    ]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const want = { class: 'SoundWave', format: 'PCM', sampleRate: 22050, channels: 1, samples: 132300, durationS: 6, looping: true, streaming: true, chunks: 3 };
    expect(JSON.parse(tagged.out)).toEqual(want);
    expect(JSON.parse(unversioned.out)).toEqual(want);
  });

  it('-o x.wav writes the source WAV byte for byte (16-bit PCM, format tag 1); -o x.opus the Opus payload as stored, -o x.wav it decoded; -o x.wav of RADA exits 2', async () => {
    const wav = join(temp, 'SW_Inline.wav');
    const r = await pakscope(['audio', TAGGED, A('SW_Inline'), '-o', wav]);
    expect(r.code).toBe(0);
    expect(Buffer.from(await readFile(wav)).equals(await readFile(corpus('cue58/SourceAudio/inline.wav')))).toBe(true);
    const opus = join(temp, 'SW_Format_Opus.opus');
    const o = await pakscope(['audio', TAGGED, A('SW_Format_Opus'), '-o', opus]);
    expect(o.code).toBe(0);
    expect(o.stderr).toMatch(/OPUS as stored/);
    expect((await readFile(opus)).subarray(0, 6).toString('latin1')).toBe('UEOPUS');
    // Decoded: a 16-bit PCM WAV (tag 1) of 48 kHz mono, 2 s (96000 frames after the pre-skip and the encoder's padding).
    const opusWav = join(temp, 'SW_Format_Opus.wav');
    expect((await pakscope(['audio', UNVERSIONED, A('SW_Format_Opus'), '-o', opusWav, '--usmap', USMAP])).code).toBe(0);
    const w = await readFile(opusWav);
    expect([w.readUInt16LE(20), w.readUInt16LE(22), w.readUInt32LE(24), w.readUInt16LE(34), w.readUInt32LE(40)]).toEqual([1, 1, 48_000, 16, 192_000]);
    const bad = await pakscope(['audio', TAGGED, A('SW_Format_RADAudio'), '-o', join(temp, 'x.wav')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/RADA cannot be decoded to \.wav/);
  });

  it('extract --format convert: every sound as SW_X.wav or its payload as stored, no .uasset/.ubulk', async () => {
    const out = join(temp, 'ex');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', 'Audio/SW_']);
    expect(r.code).toBe(0);
    const dir = join(out, 'CUE4ParseFixtures/Content/Fixtures/Audio');
    expect((await readdir(dir)).sort()).toEqual([
      'SW_Format_ADPCM.wav', 'SW_Format_BinkAudio.wav', 'SW_Format_Opus.wav', 'SW_Format_PCM.wav', 'SW_Format_PlatformSpecific.wav',
      'SW_Format_ProjectDefined.wav', 'SW_Format_RADAudio.rada', 'SW_Inline.wav', 'SW_Streaming.wav',
    ]);
    expect(Buffer.from(await readFile(join(dir, 'SW_Streaming.wav'))).equals(await readFile(corpus('cue58/SourceAudio/streaming.wav')))).toBe(true);
    // Decoded in the workers as `audio -o` decodes it on its own thread: the same file.
    const single = join(temp, 'ProjectDefined.wav');
    expect((await pakscope(['audio', TAGGED, A('SW_Format_ProjectDefined'), '-o', single])).code).toBe(0);
    expect(Buffer.from(await readFile(join(dir, 'SW_Format_ProjectDefined.wav'))).equals(await readFile(single))).toBe(true);
  });
});
