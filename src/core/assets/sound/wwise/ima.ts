/**
 * Wwise IMA ADPCM (codec 0x0002): blocks of blockAlign bytes; within a block each channel's part
 * (blockAlign / channels bytes) is whole, not interleaved in 4-byte groups as Microsoft's IMA:
 * a 4-byte header (first sample i16, step index u8, a reserved byte), then the channel's nibbles,
 * low nibble first. The header's sample is the block's first frame. RIFX files store the header
 * sample big-endian.
 */
import { FormatError } from '../../../errors.js';
import { IMA_INDEX, IMA_STEPS } from '../adpcm.js';
import type { WemFile } from './riff.js';

/** Frames a block holds: the header's sample and two a byte after it. */
export const wwiseImaFramesPerBlock = (wem: Pick<WemFile, 'blockAlign' | 'channels'>): number => 1 + (wem.blockAlign / wem.channels - 4) * 2;

export function decodeWwiseIma(wem: WemFile, file: string): Int16Array {
  const ch = wem.channels;
  const block = wem.blockAlign;
  const part = block / ch;
  if (ch < 1 || !Number.isInteger(part) || part <= 4) {
    throw new FormatError(file, 'IMA ADPCM fmt chunk', wem.fmtOffset + 12, `block align ${block} does not split into ${ch} channel parts of more than 4 bytes`);
  }
  const perBlock = wwiseImaFramesPerBlock(wem);
  const d = wem.data;
  const blocks = Math.floor(d.length / block);
  const out = new Int16Array(blocks * perBlock * ch);
  for (let i = 0; i < blocks; i++) {
    for (let c = 0; c < ch; c++) {
      const h = i * block + c * part;
      let pred = wem.bigEndian ? ((d[h]! << 8) | d[h + 1]!) << 16 >> 16 : (d[h]! | (d[h + 1]! << 8)) << 16 >> 16;
      let index = d[h + 2]!;
      if (index > 88) throw new FormatError(file, 'IMA ADPCM block', wem.dataOffset + h + 2, `step index ${index} (0 to 88)`);
      let frame = i * perBlock;
      out[frame++ * ch + c] = pred;
      for (let at = h + 4; at < h + part; at++) {
        for (const nib of [d[at]! & 15, d[at]! >> 4]) {
          const step = IMA_STEPS[index]!;
          const diff = ((2 * (nib & 7) + 1) * step) >> 3;
          pred = nib & 8 ? Math.max(-32768, pred - diff) : Math.min(32767, pred + diff);
          index = Math.min(88, Math.max(0, index + IMA_INDEX[nib]!));
          out[frame++ * ch + c] = pred;
        }
      }
    }
  }
  return out;
}
