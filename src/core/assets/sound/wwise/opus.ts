/**
 * Wwise's three Opus layouts, each cut into its bare Opus packets and decoded by libopus
 * (../opus.ts). As vgmstream documents them (src/meta/wwise.c):
 *
 *   0x3039 "OPUSNX" (Switch, Wwise 2017-2018): fmt of 0x28 bytes, samples (s32) at 0x18 and the
 *          size of a seek table at 0x24; the data chunk is that seek table, then packets each
 *          behind a big-endian u32 size and a u32 of encoder state. The encoder delay is 1/8 of
 *          the first packet's samples.
 *   0x3040 "OPUS" (Wwise 2018-2019): the data chunk is a whole Ogg Opus file (its OpusHead gives
 *          pre-skip and the channel layout); samples at fmt 0x18; a "meta" chunk, where present,
 *          says how many bytes at the data's start to pass over (u32 at 4).
 *   0x3041 "OPUS_WEM" (Wwise 2019.2 and later): bare packets back to back in the data chunk,
 *          their sizes (u16 each) in the "seek" chunk; fmt: samples (s32) at 0x18, packet count
 *          (u32) at 0x1c, pre-skip (u16) at 0x20, codec version (u8, 1) at 0x22 and the channel
 *          mapping family (u8) at 0x23. Always 48 kHz. Multichannel files are Opus multistream:
 *          family 1 with the streams the speaker mask implies, or family 255 (one stream a channel).
 */
import { DecodeError, FormatError } from '../../../errors.js';
import { decodeOpusPackets, opusPacketFrames } from '../opus.js';
import { planarToPcm } from '../planar.js';
import type { Pcm } from '../types.js';
import { readOggPackets } from './ogg-packets.js';
import type { WemFile } from './riff.js';

export type WemOpusLayout = 'OPUSNX' | 'OGG_OPUS' | 'OPUS_WEM';

export interface WemOpus {
  layout: WemOpusLayout;
  packets: Uint8Array[];
  channels: number;
  /** The rate libopus decodes at (an Opus rate). */
  sampleRate: number;
  /** Frames at the start of the decoded stream to drop (the encoder's delay). */
  skip: number;
  /** Frames after the skip: the sound's length. */
  samples: number;
  streamCount: number;
  coupledStreamCount: number;
  channelMappingTable: number[];
  /** Mapping family 1 decodes to the Vorbis channel order; the sound is given in the WAVE order of its speaker mask. */
  vorbisOrder: boolean;
}

// Vorbis order (RFC 7845 5.1.1.2) to WAVE order (FL FR FC LFE BL BR SL SR) per channel count:
// the WAVE channel i is the decoded channel VORBIS_TO_WAVE[n - 1][i].
const VORBIS_TO_WAVE = [[0], [0, 1], [0, 2, 1], [0, 1, 2, 3], [0, 2, 1, 3, 4], [0, 2, 1, 5, 3, 4], [0, 2, 1, 6, 5, 3, 4], [0, 2, 1, 7, 5, 6, 3, 4]];
const OPUS_RATES = [8000, 12000, 16000, 24000, 48000];
// Speaker masks (WAVEFORMATEXTENSIBLE bits) of the layouts Wwise couples into stereo streams.
const COUPLED_BY_MASK = new Map<number, number>([
  [0x3, 1], // stereo
  [0x7, 1], // L R C
  [0x603, 2], // quad (side)
  [0x607, 2], // 5.0
  [0x60f, 2], // 5.1
  [0x63f, 3], // 7.1
]);
// Wwise's channel order into the decoder's streams for family 1, per channel count (Vorbis order).
const FAMILY1_ORDER = [[0], [0, 1], [0, 2, 1], [0, 1, 2, 3], [0, 4, 1, 2, 3], [0, 4, 1, 2, 3, 5], [0, 6, 1, 2, 3, 4, 5], [0, 6, 1, 2, 3, 4, 5, 7]];

/** The packets and stream layout of a Wwise Opus .wem (codec 0x3039, 0x3040 or 0x3041). */
export function wemOpus(wem: WemFile, file: string): WemOpus {
  switch (wem.codecId) {
    case 0x3039: return opusNx(wem, file);
    case 0x3040: return oggOpus(wem, file);
    case 0x3041: return opusWem(wem, file);
    default: throw new FormatError(file, 'fmt chunk', wem.fmtOffset, `codec 0x${wem.codecId.toString(16)} is not a Wwise Opus codec`);
  }
}

/** The .wem's Opus decoded to 16-bit PCM, the encoder delay dropped and cut to its length. */
export async function decodeWemOpus(wem: WemFile, file: string): Promise<Pcm> {
  const o = wemOpus(wem, file);
  const pcm = await decodeOpusPackets(o.packets, {
    channels: o.channels, sampleRate: o.sampleRate, file,
    streamCount: o.streamCount, coupledStreamCount: o.coupledStreamCount, channelMappingTable: o.channelMappingTable,
  }).catch((e: unknown) => {
    throw e instanceof DecodeError ? new FormatError(file, 'Opus packets', wem.dataOffset, e.message) : e;
  });
  if (o.vorbisOrder) pcm.channelData = VORBIS_TO_WAVE[o.channels - 1]!.map((c) => pcm.channelData[c]!);
  return planarToPcm(pcm, o.skip, o.samples);
}

function fmtReader(wem: WemFile) {
  const v = new DataView(wem.fmt.buffer, wem.fmt.byteOffset, wem.fmt.byteLength);
  return { u8: (at: number) => v.getUint8(at), u16: (at: number) => v.getUint16(at, !wem.bigEndian), u32: (at: number) => v.getUint32(at, !wem.bigEndian), s32: (at: number) => v.getInt32(at, !wem.bigEndian) };
}

/** The whole file's bytes (the chunks' offsets count from its start). */
function fileView(wem: WemFile): DataView {
  const start = wem.fmt.byteOffset - wem.fmtOffset;
  return new DataView(wem.fmt.buffer, start, wem.fmt.buffer.byteLength - start);
}

function needFmt(wem: WemFile, size: number, what: string, file: string): void {
  if (wem.fmt.length < size) throw new FormatError(file, 'fmt chunk', wem.fmtOffset, `${what}'s fmt has ${size} bytes, this one ${wem.fmt.length}`);
}

function checkChannels(wem: WemFile, file: string): void {
  if (wem.channels > 8) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 2, `${wem.channels}-channel Opus: PakScope decodes Wwise Opus of 1 to 8 channels`);
}

/** Frames the packets decode to at `rate`, from their TOC bytes. */
const framesOf = (packets: readonly Uint8Array[], rate: number): number => packets.reduce((n, p) => n + opusPacketFrames(p, rate), 0);

/** The sound's length: the header's count, but never more than the packets hold after the skip. */
function length(declared: number, packets: readonly Uint8Array[], rate: number, skip: number, file: string, wem: WemFile): number {
  if (declared < 0) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 0x18, `sample count ${declared}`);
  return Math.min(declared, Math.max(0, framesOf(packets, rate) - skip));
}

/** One stream (1 or 2 channels) or the Vorbis-order family 1 layout (3 to 8). */
type Streams = Pick<WemOpus, 'streamCount' | 'coupledStreamCount' | 'channelMappingTable' | 'vorbisOrder'>;

function defaultStreams(channels: number): Streams {
  const coupled = [0, 1, 1, 2, 2, 2, 3, 3][channels - 1]!;
  return { vorbisOrder: channels > 2, streamCount: channels - coupled, coupledStreamCount: coupled, channelMappingTable: [[0], [0, 1], [0, 2, 1], [0, 1, 2, 3], [0, 4, 1, 2, 3], [0, 4, 1, 2, 3, 5], [0, 4, 1, 2, 3, 5, 6], [0, 6, 1, 2, 3, 4, 5, 7]][channels - 1]! };
}

function opusNx(wem: WemFile, file: string): WemOpus {
  needFmt(wem, 0x28, 'OPUSNX', file);
  checkChannels(wem, file);
  const f = fmtReader(wem);
  const seekSize = f.u32(0x24);
  const d = wem.data;
  if (seekSize > d.length) throw new FormatError(file, 'OPUSNX seek table', wem.fmtOffset + 0x24, `${seekSize} bytes of seek table in a data chunk of ${d.length}`);
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const packets: Uint8Array[] = [];
  for (let at = seekSize; at < d.length;) {
    if (at + 8 > d.length) throw new FormatError(file, 'OPUSNX packet header', wem.dataOffset + at, `${d.length - at} bytes left where a packet header has 8 (truncated)`);
    const size = v.getUint32(at, false);
    if (size > d.length - at - 8) throw new FormatError(file, 'OPUSNX packet', wem.dataOffset + at, `packet ${packets.length} claims ${size} bytes, ${d.length - at - 8} are left (truncated)`);
    packets.push(d.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  if (packets.length === 0) throw new FormatError(file, 'OPUSNX data', wem.dataOffset + seekSize, 'no Opus packets after the seek table');
  // Switch voices may keep their source rate in the fmt: libopus decodes at it where Opus has it.
  const rate = OPUS_RATES.includes(wem.sampleRate) ? wem.sampleRate : 48000;
  const skip = Math.floor(opusPacketFrames(packets[0]!, rate) / 8);
  const declared = rate === wem.sampleRate ? f.s32(0x18) : Number.MAX_SAFE_INTEGER;
  return { layout: 'OPUSNX', packets, channels: wem.channels, sampleRate: rate, skip, samples: length(declared, packets, rate, skip, file, wem), ...defaultStreams(wem.channels) };
}

function oggOpus(wem: WemFile, file: string): WemOpus {
  needFmt(wem, 0x1c, 'Ogg Opus', file);
  checkChannels(wem, file);
  const f = fmtReader(wem);
  let start = 0;
  const meta = wem.chunks.find((c) => c.id === 'meta');
  if (meta) {
    if (meta.size < 8) throw new FormatError(file, 'meta chunk', meta.offset, `${meta.size} bytes, 8 expected`);
    start = fileView(wem).getUint32(meta.offset + 4, !wem.bigEndian);
    if (start > wem.data.length) throw new FormatError(file, 'meta chunk', meta.offset + 4, `skips ${start} bytes of a data chunk of ${wem.data.length}`);
  }
  const { packets, lastGranule } = readOggPackets(wem.data.subarray(start), file, wem.dataOffset + start);
  const head = packets[0];
  const headAt = wem.dataOffset + start;
  if (!head || head.length < 19 || String.fromCharCode(...head.subarray(0, 8)) !== 'OpusHead') throw new FormatError(file, 'Ogg Opus stream', headAt, 'its first packet is not an OpusHead');
  const hv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const channels = head[9]!;
  if (channels !== wem.channels) throw new FormatError(file, 'OpusHead', headAt, `${channels} channels where the fmt has ${wem.channels}`);
  const preSkip = hv.getUint16(10, true);
  const family = head[18]!;
  let streams = defaultStreams(channels);
  if (family !== 0) {
    if (head.length < 21 + channels) throw new FormatError(file, 'OpusHead', headAt, `mapping family ${family} needs ${21 + channels} bytes, the packet has ${head.length}`);
    streams = { vorbisOrder: family === 1 && channels > 2, streamCount: head[19]!, coupledStreamCount: head[20]!, channelMappingTable: Array.from(head.subarray(21, 21 + channels)) };
    checkStreams(streams, channels, file, headAt + 19);
  } else if (channels > 2) {
    throw new FormatError(file, 'OpusHead', headAt + 18, `mapping family 0 with ${channels} channels (it holds 1 or 2)`);
  }
  const audio = packets.slice(2);
  if (audio.length === 0) throw new FormatError(file, 'Ogg Opus stream', headAt, 'no audio packets after OpusHead and OpusTags');
  const rate = OPUS_RATES.includes(wem.sampleRate) ? wem.sampleRate : 48000;
  const skip = Math.round((preSkip * rate) / 48000);
  const declared = f.s32(0x18) > 0 ? f.s32(0x18) : Math.max(0, Math.round(((lastGranule - preSkip) * rate) / 48000));
  return { layout: 'OGG_OPUS', packets: audio, channels, sampleRate: rate, skip, samples: length(declared, audio, rate, skip, file, wem), ...streams };
}

function opusWem(wem: WemFile, file: string): WemOpus {
  needFmt(wem, 0x24, 'OPUS_WEM', file);
  checkChannels(wem, file);
  const f = fmtReader(wem);
  const count = f.u32(0x1c);
  const skip = f.u16(0x20);
  const version = f.u8(0x22);
  const family = f.u8(0x23);
  if (version !== 1) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 0x22, `Wwise Opus codec version ${version} (PakScope knows 1)`);
  const seek = wem.chunks.find((c) => c.id === 'seek');
  if (!seek) throw new FormatError(file, 'RIFF chunks', 12, 'Wwise Opus (0x3041) without the seek chunk of its packet sizes');
  if (count * 2 > seek.size) throw new FormatError(file, 'seek chunk', seek.offset, `${count} packet sizes need ${count * 2} bytes, the chunk has ${seek.size}`);
  const whole = fileView(wem);
  const d = wem.data;
  const packets: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    // The sizes are little-endian whatever the RIFF's order (vgmstream reads them so).
    const size = whole.getUint16(seek.offset + i * 2, true);
    if (at + size > d.length) throw new FormatError(file, 'seek chunk', seek.offset + i * 2, `packet ${i} of ${count} (${size} bytes at ${at}) runs past the data chunk's ${d.length} bytes`);
    packets.push(d.subarray(at, at + size));
    at += size;
  }
  if (packets.length === 0) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 0x1c, 'no Opus packets (packet count 0)');
  const streams = opusWemStreams(wem, family, file);
  return { layout: 'OPUS_WEM', packets, channels: wem.channels, sampleRate: 48000, skip, samples: length(f.s32(0x18), packets, 48000, skip, file, wem), ...streams };
}

/** The multistream layout of an OPUS_WEM file from its mapping family and its channel layout word. */
function opusWemStreams(wem: WemFile, family: number, file: string): Streams {
  const ch = wem.channels;
  // Since about 2018 the layout word is the channel count (8 bits), a config type (4 bits: 1
  // standard, 2 ambisonic) and the speaker mask above them; before, a bare speaker mask.
  const layout = wem.channelLayout >>> 0;
  const packed = (layout & 0xff) === ch;
  const type = packed ? (layout >>> 8) & 0xf : 0;
  const mask = packed ? layout >>> 12 : layout;
  if (family === 1 && type === 1) {
    const coupled = COUPLED_BY_MASK.get(mask) ?? 0;
    const streams = { vorbisOrder: ch > 2, streamCount: ch - coupled, coupledStreamCount: coupled, channelMappingTable: FAMILY1_ORDER[ch - 1]!.slice() };
    checkStreams(streams, ch, file, wem.fmtOffset + 0x14);
    return streams;
  }
  if (family === 255 && type !== 0) return { vorbisOrder: false, streamCount: ch, coupledStreamCount: 0, channelMappingTable: Array.from({ length: ch }, (_, i) => i) };
  if (family === 0 && ch <= 2) return defaultStreams(ch);
  throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 0x23, `unknown Wwise Opus channel mapping: family ${family}, ${ch} channels, layout 0x${layout.toString(16)}`);
}

function checkStreams(s: Streams, channels: number, file: string, at: number): void {
  const decoded = s.streamCount + s.coupledStreamCount;
  if (s.streamCount < 1 || s.coupledStreamCount > s.streamCount || decoded > 255 || s.channelMappingTable.some((m) => m !== 255 && m >= decoded)) {
    throw new FormatError(file, 'Opus channel mapping', at, `${s.streamCount} streams (${s.coupledStreamCount} coupled) do not fit the mapping [${s.channelMappingTable.join(', ')}] of ${channels} channels`);
  }
}
