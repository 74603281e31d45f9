/**
 * Platinum's ADPCM ("PTADPCM", Wwise codec 0x8311 since Wwise 2019.1, and 0x0002 with 0x104-byte
 * channel frames in Bayonetta 2): as vgmstream documents it (src/coding/ptadpcm_decoder.c).
 * Frames of blockAlign / channels bytes, one channel's after the other within a block; a frame is
 * two whole samples (i16 little-endian: the older, then the newer), a step index (u8, 0 to 12)
 * and nibbles, low first. Each nibble predicts from the two previous samples,
 *
 *   sample = clamp16(2 * prev1 - prev2 + delta[index][nibble]),  index = next[index][nibble],
 *
 * a second-order predictor with an IMA-like step table folded into one [index][nibble] lookup.
 */
import { FormatError } from '../../../errors.js';
import type { WemFile } from './riff.js';

/**
 * The [index][nibble] table, built from its rule: nibbles 8..15 are the eight positive levels
 * 2, 6, 10, 14, 20, 28, 40, 56 scaled by 2^index / 4 (rounded toward zero), nibbles 7..0 their
 * negatives; the next index is index - 1, index, index, index, index + 1, index + 1, index + 2,
 * index + 2 for levels 0..7, kept within 0..11. Index 12 is all zeros (the decoder's bound).
 */
export const PTADPCM_TABLE: { delta: Int32Array; next: Uint8Array } = (() => {
  const levels = [2, 6, 10, 14, 20, 28, 40, 56];
  const moves = [-1, 0, 0, 0, 1, 1, 2, 2];
  const delta = new Int32Array(13 * 16);
  const next = new Uint8Array(13 * 16);
  for (let index = 0; index < 12; index++) {
    for (let level = 0; level < 8; level++) {
      const d = Math.trunc((levels[level]! * 2 ** index) / 4);
      const n = Math.min(11, Math.max(0, index + moves[level]!));
      delta[index * 16 + 8 + level] = d;
      delta[index * 16 + 7 - level] = -d;
      next[index * 16 + 8 + level] = n;
      next[index * 16 + 7 - level] = n;
    }
  }
  return { delta, next };
})();

/** Frames (samples a channel) a frame of `frameBytes` holds: the two header samples and two a byte. */
export const ptadpcmFramesPerFrame = (frameBytes: number): number => 2 + (frameBytes - 5) * 2;

/** Whole-block frames the data holds. */
export function ptadpcmSampleCount(wem: Pick<WemFile, 'blockAlign' | 'channels' | 'data'>): number {
  const frame = wem.blockAlign / wem.channels;
  if (!Number.isInteger(frame) || frame < 6) return 0;
  return Math.floor(wem.data.length / wem.blockAlign) * ptadpcmFramesPerFrame(frame);
}

export function decodePtadpcm(wem: WemFile, file: string): Int16Array {
  const ch = wem.channels;
  const frame = wem.blockAlign / ch;
  if (ch < 1 || !Number.isInteger(frame) || frame < 6) {
    throw new FormatError(file, 'PTADPCM fmt chunk', wem.fmtOffset + 12, `block align ${wem.blockAlign} does not split into ${ch} channel frames of at least 6 bytes`);
  }
  const { delta, next } = PTADPCM_TABLE;
  const per = ptadpcmFramesPerFrame(frame);
  const d = wem.data;
  const blocks = Math.floor(d.length / wem.blockAlign);
  const out = new Int16Array(blocks * per * ch);
  for (let b = 0; b < blocks; b++) {
    for (let c = 0; c < ch; c++) {
      const h = b * wem.blockAlign + c * frame;
      let prev2 = ((d[h]! | (d[h + 1]! << 8)) << 16) >> 16;
      let prev1 = ((d[h + 2]! | (d[h + 3]! << 8)) << 16) >> 16;
      let index = d[h + 4]!;
      if (index > 12) throw new FormatError(file, 'PTADPCM frame', wem.dataOffset + h + 4, `step index ${index} (0 to 12)`);
      let at = (b * per) * ch + c;
      out[at] = prev2; at += ch;
      out[at] = prev1; at += ch;
      for (let i = h + 5; i < h + frame; i++) {
        for (const nibble of [d[i]! & 15, d[i]! >> 4]) {
          const k = index * 16 + nibble;
          const s = Math.max(-32768, Math.min(32767, 2 * prev1 - prev2 + delta[k]!));
          index = next[k]!;
          out[at] = s; at += ch;
          prev2 = prev1;
          prev1 = s;
        }
      }
    }
  }
  return out;
}
