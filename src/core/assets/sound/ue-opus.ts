/**
 * The engine's Opus container (format OPUS; the cook's FOpusAudioInfo layout), bare Opus packets
 * behind a 42-byte header:
 *
 *   "UEOPUS\0\0", version u8, channels u8, sample rate u32, encoded sample rate u32,
 *   active sample count u64, encoded frame count u32, pre-skip i32,
 *   silent samples at the beginning i32, silent samples at the end i32
 *
 * then blocks of packets, one or more per streamed chunk, each:
 *
 *   "SEEK", version u8, max samples per channel u16, offset u32, entry count i32, entries u16 x n,
 *   then n packets, each a u16 size and its bytes.
 *
 * Decoded samples = pre-skip + leading silence + the active samples + trailing silence.
 */
import { FormatError } from '../../errors.js';
import { MAX_CHANNELS, MAX_SAMPLE_RATE } from './limits.js';
import { OpusPacketDecoder } from './opus.js';
import type { PlanarPcm } from './planar.js';

export const UE_OPUS_HEADER_BYTES = 42;
const MAGIC = 'UEOPUS\0\0';
const SEEK = 'SEEK';

export interface UeOpusHeader {
  version: number;
  channels: number;
  sampleRate: number;
  encodedSampleRate: number;
  activeSamples: number;
  encodedFrames: number;
  preSkip: number;
  silentStart: number;
  silentEnd: number;
}

// The engine's multistream layout per channel count (its OpusAudioInfo tables).
const UE_STREAMS = [1, 1, 2, 2, 3, 4, 4, 5];
const UE_COUPLED = [0, 1, 1, 2, 2, 2, 3, 3];
const UE_MAPPING = [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 4, 2, 3], [0, 1, 4, 5, 2, 3], [0, 1, 4, 6, 2, 3, 5], [0, 1, 6, 7, 2, 3, 4, 5]];

const ascii = (b: Uint8Array, at: number, n: number): string => String.fromCharCode(...b.subarray(at, at + n));

export const isUeOpus = (b: Uint8Array): boolean => b.length >= 8 && ascii(b, 0, 8) === MAGIC;

export function parseUeOpusHeader(b: Uint8Array, file: string): UeOpusHeader {
  const what = 'UEOPUS header';
  if (!isUeOpus(b)) throw new FormatError(file, what, 0, 'no "UEOPUS" identifier');
  if (b.length < UE_OPUS_HEADER_BYTES) throw new FormatError(file, what, 0, `${b.length} bytes where the header has ${UE_OPUS_HEADER_BYTES}`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const h: UeOpusHeader = {
    version: b[8]!, channels: b[9]!, sampleRate: v.getUint32(10, true), encodedSampleRate: v.getUint32(14, true),
    activeSamples: Number(v.getBigUint64(18, true)), encodedFrames: v.getUint32(26, true),
    preSkip: v.getInt32(30, true), silentStart: v.getInt32(34, true), silentEnd: v.getInt32(38, true),
  };
  if (h.channels < 1 || h.channels > Math.min(8, MAX_CHANNELS)) throw new FormatError(file, what, 9, `${h.channels} channels (the engine's Opus has 1 to 8)`);
  if (h.sampleRate < 1 || h.sampleRate > MAX_SAMPLE_RATE) throw new FormatError(file, what, 10, `sample rate ${h.sampleRate} Hz is impossible (1 to ${MAX_SAMPLE_RATE})`);
  if (![8000, 12000, 16000, 24000, 48000].includes(h.encodedSampleRate)) throw new FormatError(file, what, 14, `encoded sample rate ${h.encodedSampleRate} Hz is not an Opus rate`);
  if (h.preSkip < 0 || h.silentStart < 0 || h.silentEnd < 0) throw new FormatError(file, what, 30, `negative pre-skip or silence (${h.preSkip}, ${h.silentStart}, ${h.silentEnd})`);
  if (h.activeSamples > 0x7fffffff) throw new FormatError(file, what, 18, `${h.activeSamples} samples`);
  return h;
}

/**
 * The packets of the SEEK blocks in `b` from `at` to its end. A block cut short (a truncated
 * chunk) ends the list: what came before it is kept, and `error` says where it stopped.
 */
export function readUeOpusPackets(b: Uint8Array, at: number, file: string): { packets: Uint8Array[]; error?: FormatError } {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const packets: Uint8Array[] = [];
  while (at < b.length) {
    if (at + 15 > b.length || ascii(b, at, 4) !== SEEK) {
      return { packets, error: new FormatError(file, 'UEOPUS seek block', at, at + 15 > b.length ? `${b.length - at} bytes left where a seek block header has 15` : `"${ascii(b, at, 4).replace(/[^ -~]/g, '?')}" where a "SEEK" block starts`) };
    }
    const count = v.getInt32(at + 11, true);
    const entries = at + 15;
    if (count < 0 || entries + count * 2 > b.length) return { packets, error: new FormatError(file, 'UEOPUS seek block', at + 11, `${count} seek entries where ${b.length - entries} bytes are left`) };
    at = entries + count * 2;
    for (let i = 0; i < count; i++) {
      if (at + 2 > b.length) return { packets, error: new FormatError(file, 'UEOPUS packet', at, `packet ${i} of ${count}: its size runs past the data's end`) };
      const size = v.getUint16(at, true);
      if (at + 2 + size > b.length) return { packets, error: new FormatError(file, 'UEOPUS packet', at, `packet ${i} of ${count}: ${size} bytes where ${b.length - at - 2} are left (the data is cut short)`) };
      packets.push(b.subarray(at + 2, at + 2 + size));
      at += 2 + size;
    }
  }
  return { packets };
}

/** A decoder for the engine's Opus stream: the header first, then packets in order; trims to the active samples. */
export function ueOpusDecoder(h: UeOpusHeader, file: string): OpusPacketDecoder {
  const i = h.channels - 1;
  return new OpusPacketDecoder({
    channels: h.channels, sampleRate: h.encodedSampleRate, file,
    streamCount: UE_STREAMS[i]!, coupledStreamCount: UE_COUPLED[i]!, channelMappingTable: UE_MAPPING[i]!,
  });
}

/** Frames to drop at the start of the decoded stream (pre-skip and the encoder's leading silence). */
export const ueOpusLeadIn = (h: UeOpusHeader): number => h.preSkip + h.silentStart;

/** A whole UEOPUS payload to PCM: the active samples, at the encoded rate. */
export async function decodeUeOpus(b: Uint8Array, file: string, maxSeconds?: number): Promise<PlanarPcm & { cut?: boolean }> {
  const h = parseUeOpusHeader(b, file);
  const read = readUeOpusPackets(b, UE_OPUS_HEADER_BYTES, file);
  let { packets } = read;
  const { error } = read;
  // Only the packets that cover `maxSeconds` (the start of a long sound; 120 ms a packet at most, 20 ms as cooked).
  if (maxSeconds !== undefined) packets = packets.slice(0, Math.ceil((maxSeconds * h.encodedSampleRate + ueOpusLeadIn(h)) / (h.encodedSampleRate / 50)));
  if (packets.length === 0) throw error ?? new FormatError(file, 'UEOPUS payload', UE_OPUS_HEADER_BYTES, 'no Opus packets');
  const decoder = ueOpusDecoder(h, file);
  await decoder.ready;
  let pcm: PlanarPcm;
  try {
    pcm = decoder.decode(packets);
  } finally {
    decoder.free();
  }
  const lead = Math.min(ueOpusLeadIn(h), pcm.frames);
  const frames = Math.max(0, Math.min(h.activeSamples, pcm.frames - lead));
  return {
    sampleRate: pcm.sampleRate, frames, channelData: pcm.channelData.map((c) => c.subarray(lead, lead + frames)),
    errors: error ? [...pcm.errors, error.message] : pcm.errors,
    ...(error ? { cut: true } : {}),
  };
}
