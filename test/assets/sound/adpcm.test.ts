// The ADPCM decoders against ffmpeg: the cue58 source WAVs encoded by ffmpeg as MS-ADPCM and IMA
// ADPCM, decoded by PakScope and by ffmpeg, sample for sample. Bad headers: a clear error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSoundPayload } from '../../../src/core/assets/sound/decode.js';
import { FormatError } from '../../../src/core/errors.js';
import { corpus } from '../../support/corpus.js';
import { ffmpegSamples } from '../../support/ffmpeg.js';

/** ffmpeg's encoding of a source WAV (to a file: through a pipe it cannot fill in the chunk sizes). */
function encode(source: string, codec: string, extra: string[] = []): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-adpcm-'));
  try {
    const out = join(dir, 'out.wav');
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', source, ...extra, '-acodec', codec, out]);
    if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const info = { name: 'test.wav', format: 'ADPCM', sampleRate: 0, channels: 0, samples: 0 };

describe('ADPCM', () => {
  for (const [codec, extra] of [
    ['adpcm_ms', []], ['adpcm_ima_wav', []], ['adpcm_ima_wav', ['-ac', '2']],
  ] as const) {
    it(`${codec}${extra.length ? ` ${extra.join(' ')}` : ''}: decodes equal to ffmpeg`, async () => {
      const wav = encode(corpus('cue58/SourceAudio/streaming.wav'), codec, [...extra]);
      const want = ffmpegSamples('-', wav);
      const pcm = await decodeSoundPayload(info, wav);
      expect(pcm.sampleRate).toBe(22_050);
      expect(pcm.channels).toBe(extra.length ? 2 : 1);
      // ffmpeg decodes the whole last block; PakScope does too (the file has no fact chunk to cut it).
      expect(pcm.samples.length).toBe(want.length);
      expect(Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength).equals(Buffer.from(want.buffer))).toBe(true);
    });
  }

  it('an impossible sample rate or channel count, a cut data chunk: a clear error', async () => {
    const wav = encode(corpus('cue58/SourceAudio/inline.wav'), 'adpcm_ms');
    const bad = (at: number, value: number, size: 2 | 4): Uint8Array => {
      const b = wav.slice();
      const v = new DataView(b.buffer);
      if (size === 2) v.setUint16(at, value, true); else v.setUint32(at, value, true);
      return b;
    };
    await expect(decodeSoundPayload(info, bad(24, 0, 4))).rejects.toThrow(/sample rate 0 Hz is impossible/);
    await expect(decodeSoundPayload(info, bad(22, 200, 2))).rejects.toThrow(/channel count 200 is impossible/);
    await expect(decodeSoundPayload(info, wav.subarray(0, wav.length - 100))).rejects.toThrow(FormatError);
    await expect(decodeSoundPayload(info, wav.subarray(0, wav.length - 100))).rejects.toThrow(/runs past the payload's end/);
  });
});
