/**
 * Bink Audio as the engine cooks it (format BINKA, "UEBA" files, Bink Audio 2 in its DCT mode)
 * to PCM. Written from the format's public descriptions (ffmpeg's binkaudio.c documents Bink
 * Audio 1; vgmstream's notes the engine's variant); no code taken from either.
 *
 * File: "ABEU" ('UEBA' little-endian), version u8 (1), channels u8, u16 unused, rate u32,
 * samples u32, largest block u16, flags u16, file size u32, seek entries u16, blocks per seek
 * entry u16, seek entries x u16; then blocks, and in streamed sounds "SEEK" tables between them
 * (the engine's chunk seek table: "SEEK", u8, u16, u32, entry count i32, entries x u16).
 * Block: u16 0x9999, u16 size (0xFFFF: then u16 size and u16 samples, a last short block), the
 * block's bytes: one stream per channel pair (the last one mono for an odd count), each
 * 32-bit aligned.
 *
 * Stream: 2 bits unused, then per channel its coefficients: two 29-bit floats (coefficients 0
 * and 1), a 7-bit scale index per band, then runs of 8 (or 8 x a run table entry) coefficients
 * sharing a 4-bit width, the magnitudes first and then a sign bit for each one not zero. The
 * coefficients go through a type-III DCT; the frame's last 1/16 is kept and cross-faded into
 * the next frame's start. Bits are read from the least significant end of little-endian words.
 */
import { FormatError } from '../../errors.js';
import { Dct3 } from './dct.js';
import { MAX_CHANNELS, MAX_SAMPLE_RATE } from './limits.js';
import type { PlanarPcm } from './planar.js';

export const BINKA_HEADER_BYTES = 28;
const BLOCK_SYNC = 0x9999;
// Band edges in Hz (the critical bands Bink Audio shares with WMA), the first band from 0.
const BAND_EDGES = [0, 100, 200, 300, 400, 510, 630, 770, 920, 1080, 1270, 1480, 1720, 2000, 2320, 2700, 3150, 3700, 4400, 5300, 6400, 7700, 9500, 12000, 15500];
const RUN_LENGTHS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 32, 64];
// Band scales: 96 steps of 1.328 dB.
const SCALES = Float32Array.from({ length: 96 }, (_, i) => Math.exp(i * (0.1328 / 2 / Math.LOG10E)));

export interface BinkaHeader {
  version: number;
  channels: number;
  sampleRate: number;
  samples: number;
  maxBlockBytes: number;
  /** Where the first block (or seek table) starts. */
  dataStart: number;
}

const ascii = (b: Uint8Array, at: number, n: number): string => String.fromCharCode(...b.subarray(at, at + n));
export const isBinka = (b: Uint8Array): boolean => b.length >= 4 && ascii(b, 0, 4) === 'ABEU';

export function parseBinkaHeader(b: Uint8Array, file: string): BinkaHeader {
  const what = 'Bink Audio header';
  if (!isBinka(b)) throw new FormatError(file, what, 0, 'no "ABEU" identifier');
  if (b.length < BINKA_HEADER_BYTES) throw new FormatError(file, what, 0, `${b.length} bytes where the header has ${BINKA_HEADER_BYTES}`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const h = {
    version: b[4]!, channels: b[5]!, sampleRate: v.getUint32(8, true), samples: v.getUint32(12, true),
    maxBlockBytes: v.getUint16(16, true), seekEntries: v.getUint16(24, true),
  };
  if (h.version !== 1) throw new FormatError(file, what, 4, `version ${h.version} (1 is known)`);
  if (h.channels < 1 || h.channels > Math.min(16, MAX_CHANNELS)) throw new FormatError(file, what, 5, `${h.channels} channels (Bink Audio has 1 to 16)`);
  if (h.sampleRate < 300 || h.sampleRate > Math.min(MAX_SAMPLE_RATE, 0xffff * 2)) throw new FormatError(file, what, 8, `sample rate ${h.sampleRate} Hz is impossible for Bink Audio`);
  const dataStart = BINKA_HEADER_BYTES + h.seekEntries * 2;
  if (dataStart > b.length) throw new FormatError(file, what, 24, `${h.seekEntries} seek entries run past the data's end`);
  return { version: h.version, channels: h.channels, sampleRate: h.sampleRate, samples: h.samples, maxBlockBytes: h.maxBlockBytes, dataStart };
}

/** Little-endian, least-significant-bit-first reader over one block; reading past the end sets `overrun`. */
class Bits {
  pos = 0;
  overrun = false;
  constructor(private readonly b: Uint8Array, private readonly end: number) {}

  read(n: number): number {
    let v = 0;
    let got = 0;
    while (got < n) {
      const byteAt = this.pos >> 3;
      let byte = 0;
      if (byteAt < this.end) byte = this.b[byteAt]!;
      else this.overrun = true;
      const off = this.pos & 7;
      const take = Math.min(8 - off, n - got);
      v += ((byte >> off) & ((1 << take) - 1)) * 2 ** got;
      got += take;
      this.pos += take;
    }
    return v;
  }

  /** A 29-bit float: 5 bits of exponent, 23 of mantissa, a sign. */
  float29(): number {
    const power = this.read(5);
    const mantissa = this.read(23);
    const negative = this.read(1);
    const f = mantissa * 2 ** (power - 23);
    return negative ? -f : f;
  }

  align32(): void {
    this.pos = (this.pos + 31) & ~31;
  }
}

/** One decoder of one or two channels (a stream of a block). */
class StreamDecoder {
  readonly frame: number;
  readonly overlapLen: number;
  private readonly bands: number[];
  private readonly dct: Dct3;
  private readonly scale: number;
  readonly coefs: Float32Array[];
  private readonly previous: Float32Array[];
  private first = true;

  constructor(rate: number, readonly channels: number) {
    this.frame = rate < 22050 ? 512 : rate < 44100 ? 1024 : 2048;
    this.overlapLen = this.frame / 16;
    const half = this.frame / 2;
    const rateHalf = (rate + 1) >> 1;
    let count = 0;
    while (count < BAND_EDGES.length && BAND_EDGES[count]! < rateHalf) count++;
    // Where each band starts, in coefficients (even); the last ends at the frame.
    this.bands = [];
    for (let i = 0; i < count; i++) this.bands.push(2 * Math.max(1, Math.floor((half * BAND_EDGES[i]!) / rateHalf)));
    this.bands.push(this.frame);
    this.dct = new Dct3(this.frame);
    // The DCT above doubles every term but the first; with the 16-bit range and its length's normalization.
    this.scale = 1 / (Math.sqrt(this.frame) * 32768);
    this.coefs = Array.from({ length: channels }, () => new Float32Array(this.frame));
    this.previous = Array.from({ length: channels }, () => new Float32Array(this.overlapLen));
  }

  reset(): void {
    this.first = true;
  }

  /** Reads and transforms this stream's channels from `bits`; false when the block runs out. */
  decode(bits: Bits): boolean {
    bits.read(2);
    for (let c = 0; c < this.channels; c++) {
      this.unpack(bits, this.coefs[c]!);
      if (bits.overrun) return false;
      this.dct.run(this.coefs[c]!);
    }
    for (let c = 0; c < this.channels; c++) {
      const out = this.coefs[c]!;
      const prev = this.previous[c]!;
      for (let i = 0; i < this.frame; i++) out[i]! *= this.scale;
      if (!this.first) {
        const n = this.overlapLen;
        for (let i = 0; i < n; i++) out[i] = prev[i]! + (i * (out[i]! - prev[i]!)) / n;
      }
      prev.set(out.subarray(this.frame - this.overlapLen));
    }
    this.first = false;
    return true;
  }

  private unpack(bits: Bits, coefs: Float32Array): void {
    const frame = this.frame;
    coefs[0] = bits.float29();
    coefs[1] = bits.float29();
    const bandCount = this.bands.length - 1;
    const scales = new Float32Array(bandCount);
    for (let i = 0; i < bandCount; i++) scales[i] = SCALES[Math.min(95, bits.read(7))]!;
    let band = 0;
    let scale = 0;
    let pos = 2;
    while (pos < frame && !bits.overrun) {
      const end = Math.min(frame, pos + 8 * (bits.read(1) ? RUN_LENGTHS[bits.read(4)]! : 1));
      const width = bits.read(4);
      if (width === 0) {
        coefs.fill(0, pos, end);
        pos = end;
        while (band < bandCount && end > this.bands[band]!) scale = scales[band++]!;
        continue;
      }
      for (let i = pos; i < end; i++) coefs[i] = bits.read(width);
      for (let i = pos; i < end; i++) if (coefs[i] !== 0 && bits.read(1)) coefs[i] = -coefs[i]!;
      for (; pos < end; pos++) {
        if (band < bandCount && pos === this.bands[band]) scale = scales[band++]!;
        coefs[pos]! *= scale;
      }
    }
  }
}

/** A Bink Audio stream's decoder: blocks in order, each to `frameSamples` frames of every channel. */
export class BinkaDecoder {
  private readonly streams: StreamDecoder[] = [];
  /** Frames a block gives (its frame less the overlap kept for the next). */
  readonly frameSamples: number;

  constructor(readonly sampleRate: number, readonly channels: number) {
    for (let left = channels; left > 0; left -= 2) this.streams.push(new StreamDecoder(sampleRate, left >= 2 ? 2 : 1));
    const s = this.streams[0]!;
    this.frameSamples = s.frame - s.overlapLen;
  }

  /** One block's bytes to one array per channel; throws FormatError naming `at` when it does not read. */
  decodeBlock(b: Uint8Array, start: number, end: number, file: string, at: number): Float32Array[] {
    const out: Float32Array[] = [];
    let offset = start;
    for (const [i, s] of this.streams.entries()) {
      const bits = new Bits(b.subarray(offset, end), end - offset);
      if (!s.decode(bits)) {
        for (const other of this.streams) other.reset();
        throw new FormatError(file, 'Bink Audio block', at, `stream ${i} runs past the block's ${end - start} bytes`);
      }
      bits.align32();
      offset += bits.pos >> 3;
      for (const c of s.coefs) out.push(c.slice(0, this.frameSamples));
    }
    return out;
  }
}

/** The blocks of `b` from `at` (header and seek tables skipped): where each one's bytes are. */
export interface BinkaBlock { at: number; start: number; end: number; samples?: number }

/**
 * The blocks from `at` to the end of `b`. A block or table cut short ends the list, `error`
 * saying where: the blocks before it still decode.
 */
export function readBinkaBlocks(b: Uint8Array, at: number, file: string): { blocks: BinkaBlock[]; error?: FormatError } {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const blocks: BinkaBlock[] = [];
  const fail = (where: number, why: string): { blocks: BinkaBlock[]; error: FormatError } => ({ blocks, error: new FormatError(file, 'Bink Audio block', where, why) });
  while (at < b.length) {
    if (at + 4 > b.length) return fail(at, `${b.length - at} bytes left where a block header has 4`);
    if (ascii(b, at, 4) === 'SEEK') {
      if (at + 15 > b.length) return fail(at, 'a seek table cut short');
      const count = v.getInt32(at + 11, true);
      if (count < 0 || at + 15 + count * 2 > b.length) return fail(at + 11, `${count} seek entries where ${b.length - at - 15} bytes are left`);
      at += 15 + count * 2;
      continue;
    }
    const sync = v.getUint16(at, true);
    if (sync !== BLOCK_SYNC) return fail(at, `0x${sync.toString(16)} where a block's 0x9999 starts`);
    let size = v.getUint16(at + 2, true);
    let start = at + 4;
    let samples: number | undefined;
    if (size === 0xffff) {
      if (at + 8 > b.length) return fail(at, 'a last block\'s header cut short');
      size = v.getUint16(at + 4, true);
      samples = v.getUint16(at + 6, true);
      start = at + 8;
    }
    if (start + size > b.length) return fail(at, `a block of ${size} bytes where ${b.length - start} are left (the data is cut short)`);
    blocks.push({ at, start, end: start + size, ...(samples !== undefined ? { samples } : {}) });
    at = start + size;
  }
  return { blocks };
}

/**
 * Decodes `blocks` of `b` with `decoder`, in order: a block that does not decode is silence of a
 * block's length, named in `errors`.
 */
export function decodeBinkaBlocks(decoder: BinkaDecoder, b: Uint8Array, blocks: readonly BinkaBlock[], file: string): PlanarPcm {
  const pieces: Float32Array[][] = [];
  const errors: string[] = [];
  let frames = 0;
  for (const [i, blk] of blocks.entries()) {
    let got: Float32Array[];
    try {
      got = decoder.decodeBlock(b, blk.start, blk.end, file, blk.at);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      errors.push(`Bink Audio block ${i}: ${e.message}`);
      got = Array.from({ length: decoder.channels }, () => new Float32Array(decoder.frameSamples));
    }
    const n = blk.samples !== undefined ? Math.min(blk.samples, decoder.frameSamples) : decoder.frameSamples;
    pieces.push(got.map((c) => c.subarray(0, n)));
    frames += n;
  }
  const channelData = Array.from({ length: decoder.channels }, (_, c) => {
    const out = new Float32Array(frames);
    let at = 0;
    for (const p of pieces) { out.set(p[c]!, at); at += p[c]!.length; }
    return out;
  });
  return { sampleRate: decoder.sampleRate, channelData, frames, errors };
}

/** A whole BINKA payload to PCM, cut to the sample count its header gives. */
export function decodeBinka(b: Uint8Array, file: string, maxSeconds?: number): PlanarPcm & { cut?: boolean } {
  const h = parseBinkaHeader(b, file);
  const read = readBinkaBlocks(b, h.dataStart, file);
  const { error } = read;
  const decoder = new BinkaDecoder(h.sampleRate, h.channels);
  // Only the blocks that cover `maxSeconds` (the start of a long sound).
  const blocks = maxSeconds !== undefined ? read.blocks.slice(0, Math.ceil((maxSeconds * h.sampleRate) / decoder.frameSamples)) : read.blocks;
  if (blocks.length === 0) throw error ?? new FormatError(file, 'Bink Audio payload', h.dataStart, 'no blocks');
  const pcm = decodeBinkaBlocks(decoder, b, blocks, file);
  const frames = Math.min(pcm.frames, h.samples);
  return {
    sampleRate: pcm.sampleRate, frames, channelData: pcm.channelData.map((c) => c.subarray(0, frames)),
    errors: error ? [...pcm.errors, error.message] : pcm.errors,
    ...(error ? { cut: true } : {}),
  };
}
