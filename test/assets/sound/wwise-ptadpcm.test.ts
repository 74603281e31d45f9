/**
 * Platinum ADPCM (.wem codec 0x8311). SYNTHETIC: no real PTADPCM .wem with a licence to
 * redistribute was found in a public repository, and no independent decoder reads it (ffmpeg
 * does not), so the checks are (1) the decoder's table against entries of vgmstream's table
 * (src/coding/ptadpcm_decoder.c), (2) a frame decoded by hand from those entries, and (3) a
 * stereo sine encoded by a small greedy encoder here and decoded back close to the source.
 */
import { describe, expect, it } from 'vitest';
import { convertSound } from '../../../src/core/assets/sound/kind.js';
import { PTADPCM_TABLE } from '../../../src/core/assets/sound/wwise/ptadpcm.js';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { formatError } from '../../support/format-error.js';

/** A RIFF .wem of one fmt (0x18 bytes) and one data chunk. */
function wem(codec: number, channels: number, blockAlign: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + 8 + 0x18 + 8 + data.length);
  const v = new DataView(out.buffer);
  out.set([0x52, 0x49, 0x46, 0x46], 0);
  v.setUint32(4, out.length - 8, true);
  out.set([0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20], 8);
  v.setUint32(16, 0x18, true);
  v.setUint16(20, codec, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, 48000, true);
  v.setUint16(32, blockAlign, true);
  v.setUint16(34, 4, true);
  v.setUint16(36, 6, true);
  v.setUint32(40, channels === 2 ? 0x3 : 0x4, true);
  out.set([0x64, 0x61, 0x74, 0x61], 44);
  v.setUint32(48, data.length, true);
  out.set(data, 52);
  return out;
}

const entry = (index: number, nibble: number) => [PTADPCM_TABLE.delta[index * 16 + nibble], PTADPCM_TABLE.next[index * 16 + nibble]];

/** Greedy encoder: per sample the nibble whose prediction lands nearest, as the decoder will follow it. */
function encodeFrame(src: Int16Array, from: number, frameBytes: number): Uint8Array {
  const f = new Uint8Array(frameBytes);
  const dv = new DataView(f.buffer);
  let prev2 = src[from]!;
  let prev1 = src[from + 1]!;
  dv.setInt16(0, prev2, true);
  dv.setInt16(2, prev1, true);
  let index = 4;
  f[4] = index;
  for (let i = 0; i < (frameBytes - 5) * 2; i++) {
    const want = src[from + 2 + i] ?? 0;
    let best = 0;
    let bestErr = Infinity;
    let bestS = 0;
    for (let n = 0; n < 16; n++) {
      const s = Math.max(-32768, Math.min(32767, 2 * prev1 - prev2 + PTADPCM_TABLE.delta[index * 16 + n]!));
      if (Math.abs(s - want) < bestErr) { bestErr = Math.abs(s - want); best = n; bestS = s; }
    }
    f[5 + (i >> 1)] = f[5 + (i >> 1)]! | (i & 1 ? best << 4 : best);
    index = PTADPCM_TABLE.next[index * 16 + best]!;
    prev2 = prev1;
    prev1 = bestS;
  }
  return f;
}

describe('Wwise PTADPCM (synthetic)', () => {
  it('has the table vgmstream documents (spot entries of its ptadpcm_table)', () => {
    expect(Array.from({ length: 16 }, (_, n) => entry(0, n)[0])).toEqual([-14, -10, -7, -5, -3, -2, -1, 0, 0, 1, 2, 3, 5, 7, 10, 14]);
    expect(Array.from({ length: 16 }, (_, n) => entry(0, n)[1])).toEqual([2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2]);
    expect(Array.from({ length: 16 }, (_, n) => entry(3, n)[0])).toEqual([-112, -80, -56, -40, -28, -20, -12, -4, 4, 12, 20, 28, 40, 56, 80, 112]);
    expect(Array.from({ length: 16 }, (_, n) => entry(3, n)[1])).toEqual([5, 5, 4, 4, 3, 3, 3, 2, 2, 3, 3, 3, 4, 4, 5, 5]);
    expect([entry(9, 6), entry(10, 0), entry(11, 7), entry(11, 15), entry(12, 5)]).toEqual([[-768, 9], [-14336, 11], [-1024, 10], [28672, 11], [0, 0]]);
  });

  it('decodes a frame as worked by hand from those entries', async () => {
    const frame = new Uint8Array(0x24);
    const dv = new DataView(frame.buffer);
    dv.setInt16(0, 100, true);
    dv.setInt16(2, 200, true);
    frame[4] = 2;
    frame[5] = 0x0f; // nibble 15 then 0
    frame[6] = 0x00;
    const sound = wemSound(wem(0x8311, 1, 0x24, frame), 'hand.wem');
    expect([sound.codec, sound.decodable, sound.samples]).toEqual(['PTADPCM', true, 64]);
    const pcm = await sound.decode!();
    // 2*200-100+56 = 356 (index 4); 2*356-200-224 = 288 (6); 2*288-356-896 = -676 (8); 2*-676-288-3584 = -5224 (10).
    expect(Array.from(pcm.samples.subarray(0, 6))).toEqual([100, 200, 356, 288, -676, -5224]);
    expect(pcm.samples.length).toBe(64);
  });

  it('decodes a stereo sine a greedy encoder wrote back close to it, channels in place', async () => {
    const frameBytes = 0x24;
    const per = 2 + (frameBytes - 5) * 2;
    const frames = 40;
    const n = frames * per;
    const left = Int16Array.from({ length: n }, (_, i) => Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / 48000)));
    const right = Int16Array.from({ length: n }, (_, i) => Math.round(3000 * Math.sin((2 * Math.PI * 1000 * i) / 48000)));
    const data = new Uint8Array(frames * frameBytes * 2);
    for (let b = 0; b < frames; b++) {
      data.set(encodeFrame(left, b * per, frameBytes), b * frameBytes * 2);
      data.set(encodeFrame(right, b * per, frameBytes), b * frameBytes * 2 + frameBytes);
    }
    const sound = wemSound(wem(0x8311, 2, frameBytes * 2, data), 'sine.wem');
    expect(sound.samples).toBe(n);
    const pcm = await sound.decode!();
    for (const [c, src] of [[0, left], [1, right]] as const) {
      let signal = 0;
      let noise = 0;
      for (let i = 0; i < n; i++) { signal += src[i]! ** 2; noise += (pcm.samples[i * 2 + c]! - src[i]!) ** 2; }
      expect(10 * Math.log10(signal / noise)).toBeGreaterThan(25);
    }
    const wav = await convertSound(sound, undefined);
    expect(new DataView(wav.data.buffer, wav.data.byteOffset).getUint32(40, true)).toBe(n * 4);
  });

  it('codec 2 with 0x104-byte channel frames is PTADPCM (Bayonetta 2)', () => {
    expect(wemSound(wem(0x0002, 2, 0x208, new Uint8Array(0x208)), 'b2.wem')).toMatchObject({ codec: 'PTADPCM', samples: 512 });
  });

  it('bad input: a step index past the table, a block align that does not split, a part block', async () => {
    const frame = new Uint8Array(0x24);
    frame[4] = 13;
    const e = await wemSound(wem(0x8311, 1, 0x24, frame), 'index.wem').decode!().catch((x: unknown) => x);
    expect(formatError(() => { throw e; }).message).toContain('step index 13 (0 to 12)');
    const odd = await wemSound(wem(0x8311, 2, 0x25, new Uint8Array(0x4a)), 'align.wem').decode!().catch((x: unknown) => x);
    expect(formatError(() => { throw odd; }).message).toContain('block align 37 does not split into 2 channel frames');
    // A data chunk cut inside a block: the whole blocks only.
    expect(wemSound(wem(0x8311, 1, 0x24, new Uint8Array(0x24 + 10)), 'part.wem').samples).toBe(64);
  });
});
