// The wasm decoders' plain entries (what the SoundWave and Wwise readers build on), on files
// ffmpeg encodes from the cue58 source art with its own channels apart, checked against ffmpeg
// decoding the same files: Ogg Vorbis whole, Opus as bare packets (the Ogg pages taken off).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/core/errors.js';
import { decodeOpusPackets, opusPacketFrames } from '../../../src/core/assets/sound/opus.js';
import { planarToPcm } from '../../../src/core/assets/sound/planar.js';
import { decodeOggVorbis } from '../../../src/core/assets/sound/vorbis.js';
import { corpus } from '../../support/corpus.js';
import { ffmpegSamples } from '../../support/ffmpeg.js';
import { oggPackets } from '../../support/ogg.js';

// Each channel its own gain of the source, so a swapped or shared channel shows.
const PAN = { 2: 'stereo|c0=c0|c1=-0.5*c0', 6: '5.1|c0=c0|c1=-0.5*c0|c2=0.25*c0|c3=0.1*c0|c4=-0.3*c0|c5=0.7*c0' } as const;

function encode(codec: string, channels: 2 | 6, format: string): Uint8Array {
  const quality = codec === 'libvorbis' ? ['-q:a', '6'] : ['-b:a', '256k'];
  const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', corpus('cue58/SourceAudio/streaming.wav'), '-af', `pan=${PAN[channels]}`, '-c:a', codec, ...quality, '-f', format, '-'], { maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

/** Signal-to-error ratio in dB of `got` against `want` (interleaved, same layout). */
function snr(got: Int16Array, want: Int16Array): number {
  let e = 0;
  let p = 0;
  for (let i = 0; i < want.length; i++) { const d = got[i]! - want[i]!; e += d * d; p += want[i]! * want[i]!; }
  return 10 * Math.log10(p / Math.max(e, 1));
}

describe('decodeOggVorbis', () => {
  it('a stereo Ogg Vorbis file: both channels, equal to ffmpeg\'s decode within 2 LSB', async () => {
    const ogg = encode('libvorbis', 2, 'ogg');
    const got = await decodeOggVorbis(ogg, 'stereo.ogg');
    expect(got.sampleRate).toBe(22_050);
    expect(got.channelData.length).toBe(2);
    expect(got.errors).toEqual([]);
    const pcm = planarToPcm(got);
    const want = ffmpegSamples('-', ogg);
    expect(pcm.samples.length).toBe(want.length);
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(pcm.samples[i]! - want[i]!));
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('bytes that are not Ogg, or an Ogg with no Vorbis in it: a FormatError', async () => {
    await expect(decodeOggVorbis(new Uint8Array(100), 'x.ogg')).rejects.toThrow(/no "OggS" page/);
    const opus = encode('libopus', 2, 'ogg');
    await expect(decodeOggVorbis(opus, 'x.ogg')).rejects.toThrow(FormatError);
  });
});

describe('decodeOpusPackets', () => {
  for (const channels of [2, 6] as const) {
    it(`${channels} channels of bare Opus packets: the default layout is libopus's own, equal to ffmpeg's decode (>= 40 dB)`, async () => {
      const file = encode('libopus', channels, 'ogg');
      const [head, _tags, ...packets] = oggPackets(file);
      const h = new DataView(head!.buffer, head!.byteOffset, head!.byteLength);
      expect(head![9]).toBe(channels);
      const preSkip = h.getUint16(10, true);
      if (channels === 6) {
        // Mapping family 1: what the encoder wrote is what decodeOpusPackets assumes without being told.
        expect(head![18]).toBe(1);
        expect([head![19], head![20], ...head!.subarray(21, 27)]).toEqual([4, 2, 0, 4, 1, 2, 3, 5]);
      }
      const got = await decodeOpusPackets(packets, { channels });
      expect(got.sampleRate).toBe(48_000);
      expect(got.errors).toEqual([]);
      expect(got.frames).toBe(packets.reduce((n, p) => n + opusPacketFrames(p), 0));
      // The decoder gives the stream's order (Vorbis order for family 1); ffmpeg gives WAV order.
      if (channels === 6) got.channelData = [0, 2, 1, 5, 3, 4].map((c) => got.channelData[c]!);
      const want = ffmpegSamples('-', file);
      const pcm = planarToPcm(got, preSkip, want.length / channels);
      expect(pcm.samples.length).toBe(want.length);
      expect(snr(pcm.samples, want)).toBeGreaterThanOrEqual(40);
    });
  }

  it('a corrupt packet is silence of its length and named; the packets around it decode', async () => {
    const [, , ...packets] = oggPackets(encode('libopus', 2, 'ogg'));
    const bad = packets.map((p) => p);
    // TOC code 3 with a frame count of 0: a packet libopus refuses.
    bad[10] = Uint8Array.from([packets[10]![0]! | 3, 0]);
    const got = await decodeOpusPackets(bad, { channels: 2 });
    expect(got.errors).toHaveLength(1);
    expect(got.errors[0]).toMatch(/^Opus packet 10: /);
    const whole = await decodeOpusPackets(packets, { channels: 2 });
    expect(got.frames).toBe(whole.frames - opusPacketFrames(packets[10]!));
  });

  it('impossible channel counts and rates: a FormatError before any decoding', async () => {
    await expect(decodeOpusPackets([], { channels: 0 })).rejects.toThrow(/0 channels \(Opus streams have 1 to 8\)/);
    await expect(decodeOpusPackets([], { channels: 9 })).rejects.toThrow(FormatError);
    await expect(decodeOpusPackets([], { channels: 1, sampleRate: 44_100 })).rejects.toThrow(/44100 Hz is not one Opus has/);
  });
});
