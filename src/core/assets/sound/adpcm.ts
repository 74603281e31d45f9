/**
 * ADPCM to 16-bit PCM: Microsoft ADPCM (format tag 2) as the engine frames it, and IMA ADPCM
 * (format tag 0x11). The engine's ADPCM cook writes each channel's blocks apart (block 0 of
 * channel 0, block 0 of channel 1, ...), every block a mono MS-ADPCM block of nBlockAlign
 * bytes; a mono file is the same as the standard layout.
 */
import { FormatError } from '../../errors.js';
import type { WavFile } from './wav.js';

const ADAPTATION = [230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230];
const STANDARD_COEFS: [number, number][] = [[256, 0], [512, -256], [0, 0], [192, 64], [240, 0], [460, -208], [392, -232]];

const clamp16 = (v: number): number => (v > 32767 ? 32767 : v < -32768 ? -32768 : v);

/** The coefficient table and samples per block the fmt chunk's extension gives (else the standard ones). */
function msFormat(wav: WavFile, file: string): { coefs: [number, number][]; samplesPerBlock: number } {
  const perBlockDefault = (wav.blockAlign - 7) * 2 + 2;
  if (wav.extra.length < 4) return { coefs: STANDARD_COEFS, samplesPerBlock: perBlockDefault };
  const v = new DataView(wav.extra.buffer, wav.extra.byteOffset, wav.extra.byteLength);
  const samplesPerBlock = v.getUint16(0, true);
  const n = v.getUint16(2, true);
  if (n === 0 || n > 256 || 4 + n * 4 > wav.extra.length) throw new FormatError(file, 'MS-ADPCM fmt chunk', 0, `${n} coefficient pairs where the chunk holds ${Math.floor((wav.extra.length - 4) / 4)}`);
  const coefs: [number, number][] = [];
  for (let i = 0; i < n; i++) coefs.push([v.getInt16(4 + i * 4, true), v.getInt16(6 + i * 4, true)]);
  return { coefs, samplesPerBlock: samplesPerBlock || perBlockDefault };
}

/** One mono MS-ADPCM block into out[start + k * stride]; returns the samples written. */
function msBlock(b: Uint8Array, at: number, size: number, coefs: [number, number][], perBlock: number, out: Int16Array, start: number, stride: number, max: number, file: string): number {
  if (size < 7) return 0;
  const v = new DataView(b.buffer, b.byteOffset + at, size);
  const predictor = v.getUint8(0);
  const coef = coefs[predictor];
  if (!coef) throw new FormatError(file, 'MS-ADPCM block', at, `predictor ${predictor} is outside the ${coefs.length} coefficient pairs`);
  let delta = v.getInt16(1, true);
  let s1 = v.getInt16(3, true);
  let s2 = v.getInt16(5, true);
  const limit = Math.min(perBlock, max, 2 + (size - 7) * 2);
  let n = 0;
  const put = (s: number): void => { out[start + n * stride] = s; n++; };
  if (n < limit) put(s2);
  if (n < limit) put(s1);
  for (let i = 7; i < size && n < limit; i++) {
    for (const nibble of [b[at + i]! >> 4, b[at + i]! & 15]) {
      if (n >= limit) break;
      const signed = nibble >= 8 ? nibble - 16 : nibble;
      const sample = clamp16(((s1 * coef[0] + s2 * coef[1]) >> 8) + signed * delta);
      s2 = s1; s1 = sample;
      delta = (ADAPTATION[nibble]! * delta) >> 8;
      if (delta < 16) delta = 16;
      put(sample);
    }
  }
  return n;
}

/** MS-ADPCM, engine framing (each channel's blocks apart), to interleaved PCM; `frames` caps the output when known. */
export function decodeMsAdpcm(wav: WavFile, file: string, frames?: number): Int16Array {
  const ch = wav.channels;
  const { coefs, samplesPerBlock } = msFormat(wav, file);
  const block = wav.blockAlign;
  if (block < 7) throw new FormatError(file, 'MS-ADPCM fmt chunk', 0, `block size ${block} is smaller than a block header`);
  const blocks = Math.ceil(wav.data.length / (block * ch));
  const total = Math.min(frames ?? Infinity, blocks * samplesPerBlock);
  const out = new Int16Array(total * ch);
  let frame = 0;
  for (let i = 0; i < blocks && frame < total; i++) {
    let got = 0;
    for (let c = 0; c < ch; c++) {
      const at = (i * ch + c) * block;
      const size = Math.max(0, Math.min(block, wav.data.length - at));
      got = Math.max(got, msBlock(wav.data, at, size, coefs, samplesPerBlock, out, frame * ch + c, ch, total - frame, file));
    }
    if (got === 0) break;
    frame += got;
  }
  return frame * ch === out.length ? out : out.subarray(0, frame * ch);
}

export const IMA_STEPS = [
  7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143,
  157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552,
  1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487,
  12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
];
export const IMA_INDEX = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8];

/** IMA ADPCM (tag 0x11): per block a 4-byte header per channel, then 4-byte groups of 8 samples per channel in turn. */
export function decodeImaAdpcm(wav: WavFile, file: string, frames?: number): Int16Array {
  const ch = wav.channels;
  const block = wav.blockAlign;
  if (block < 4 * ch) throw new FormatError(file, 'IMA ADPCM fmt chunk', 0, `block size ${block} is smaller than the ${ch} channel headers`);
  const perBlock = Math.floor(((block - 4 * ch) * 8) / (4 * ch)) + 1;
  const blocks = Math.floor(wav.data.length / block);
  const total = Math.min(frames ?? Infinity, blocks * perBlock);
  const out = new Int16Array(total * ch);
  const d = wav.data;
  for (let i = 0, frame = 0; i < blocks && frame < total; i++, frame += perBlock) {
    const base = i * block;
    for (let c = 0; c < ch; c++) {
      const h = base + c * 4;
      let pred = (d[h]! | (d[h + 1]! << 8)) << 16 >> 16;
      let index = d[h + 2]!;
      if (index > 88) throw new FormatError(file, 'IMA ADPCM block', h, `step index ${index} (0-88)`);
      out[frame * ch + c] = pred;
      let n = 1;
      for (let g = base + 4 * ch + c * 4; g + 4 <= base + block && n < perBlock; g += 4 * ch) {
        for (let k = 0; k < 8 && n < perBlock; k++) {
          const byte = d[g + (k >> 1)]!;
          const nib = k & 1 ? byte >> 4 : byte & 15;
          const step = IMA_STEPS[index]!;
          // (2d + 1) * step / 8, exactly: the shift-and-add form of the IMA paper rounds each term down.
          const diff = ((2 * (nib & 7) + 1) * step) >> 3;
          pred = clamp16(nib & 8 ? pred - diff : pred + diff);
          index = Math.min(88, Math.max(0, index + IMA_INDEX[nib]!));
          if (frame + n < total) out[(frame + n) * ch + c] = pred;
          n++;
        }
      }
    }
  }
  return out;
}
