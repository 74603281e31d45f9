/**
 * Raw Opus packets to PCM, through the opus-decoder wasm build of libopus (no native code, so it
 * runs in worker threads and any renderer). The plain entry for every container that stores
 * bare Opus packets: the engine's UEOPUS (ue-opus.ts) and Wwise's .wem.
 */
import { OpusDecoder } from 'opus-decoder';
import { DecodeError, FormatError } from '../../errors.js';
import type { PlanarPcm } from './planar.js';

export interface OpusStreamOptions {
  /** Channels of the stream, 1 to 8. */
  channels: number;
  /** The rate to decode at: 48000 (Opus's own), or 8000/12000/16000/24000. Default 48000. */
  sampleRate?: number;
  /**
   * Multistream layout; default: the Vorbis channel order (mapping family 1) for 3 to 8
   * channels, as the engine and Wwise write it, and one (coupled) stream for 1 or 2.
   */
  streamCount?: number;
  coupledStreamCount?: number;
  channelMappingTable?: number[];
  /** Names the stream in errors. */
  file?: string;
}

const OPUS_RATES = [8000, 12000, 16000, 24000, 48000];
// opus-decoder's input buffer: 120 ms at 256 kbit/s a channel.
const MAX_PACKET_BYTES_A_CHANNEL = 3840;
// Mapping family 1 (RFC 7845 5.1.1.2): streams, coupled streams and the mapping per channel count.
const FAMILY1_STREAMS = [1, 1, 2, 2, 3, 4, 4, 5];
const FAMILY1_COUPLED = [0, 1, 1, 2, 2, 2, 3, 3];
const FAMILY1_MAPPING = [[0], [0, 1], [0, 2, 1], [0, 1, 2, 3], [0, 4, 1, 2, 3], [0, 4, 1, 2, 3, 5], [0, 4, 1, 2, 3, 5, 6], [0, 6, 1, 2, 3, 4, 5, 7]];

/** Samples per channel a packet holds at `rate`, from its TOC byte (RFC 6716 3.1), or 0 when it does not say. */
export function opusPacketFrames(packet: Uint8Array, rate = 48000): number {
  if (packet.length === 0) return 0;
  const toc = packet[0]!;
  const config = toc >> 3;
  // Per config: SILK 10/20/40/60 ms, hybrid 10/20, CELT 2.5/5/10/20 (in 1/400 s units).
  const units = config < 12 ? [4, 8, 16, 24][config & 3]! : config < 16 ? [4, 8][config & 1]! : [1, 2, 4, 8][config & 3]!;
  const code = toc & 3;
  const count = code === 0 ? 1 : code === 3 ? (packet.length > 1 ? packet[1]! & 63 : 0) : 2;
  return (units * count * rate) / 400;
}

/** A decoder for one stream; `decode` takes its packets in order, any number of calls. */
export class OpusPacketDecoder {
  private readonly decoder: OpusDecoder<undefined>;
  private readonly rate: number;
  private readonly channels: number;
  private packetIndex = 0;
  /** libopus's WebAssembly memory was damaged (by a corrupt packet): nothing more is decoded. */
  private damaged = false;
  readonly ready: Promise<void>;

  constructor(opts: OpusStreamOptions) {
    const file = opts.file ?? 'Opus stream';
    const rate = opts.sampleRate ?? 48000;
    if (!OPUS_RATES.includes(rate)) throw new FormatError(file, 'Opus stream', 0, `decoding rate ${rate} Hz is not one Opus has (${OPUS_RATES.join(', ')})`);
    if (!Number.isInteger(opts.channels) || opts.channels < 1 || opts.channels > 8) throw new FormatError(file, 'Opus stream', 0, `${opts.channels} channels (Opus streams have 1 to 8)`);
    this.rate = rate;
    this.channels = opts.channels;
    const i = opts.channels - 1;
    this.decoder = new OpusDecoder({
      sampleRate: rate as 48000, channels: opts.channels,
      streamCount: opts.streamCount ?? FAMILY1_STREAMS[i]!,
      coupledStreamCount: opts.coupledStreamCount ?? FAMILY1_COUPLED[i]!,
      channelMappingTable: opts.channelMappingTable ?? FAMILY1_MAPPING[i]!,
    }) as unknown as OpusDecoder<undefined>;
    this.ready = this.decoder.ready;
  }

  /**
   * Decodes packets in order; a packet libopus refuses (or one longer than the wasm build's input
   * buffer, 3840 bytes a channel) becomes silence of the length its TOC gives. A trap in the
   * WebAssembly (corrupt packets can damage its memory) is a DecodeError.
   */
  decode(packets: readonly Uint8Array[]): PlanarPcm {
    const pieces: Float32Array[][] = [];
    const errors: string[] = [];
    let frames = 0;
    for (const packet of packets) {
      const index = this.packetIndex++;
      if (this.damaged) throw new DecodeError('Opus', `libopus failed before packet ${index}: its memory was damaged by corrupt packets`);
      let got: ReturnType<OpusDecoder<undefined>['decodeFrame']> | undefined;
      try {
        got = packet.length > 0 && packet.length <= MAX_PACKET_BYTES_A_CHANNEL * this.channels ? this.decoder.decodeFrame(packet) : undefined;
      } catch (e) {
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        this.damaged = true;
        throw new DecodeError('Opus', `libopus failed on packet ${index} (${e.message}): the packets are corrupt`);
      }
      if (!got || got.errors.length > 0 || got.samplesDecoded === 0) {
        const why = got?.errors[0]?.message ?? (packet.length > 0 ? `${packet.length} bytes, more than an Opus packet of ${this.channels} channels holds` : 'an empty packet');
        errors.push(`Opus packet ${index}: ${why}`);
        const n = Math.min(opusPacketFrames(packet, this.rate), (this.rate * 120) / 1000);
        pieces.push(Array.from({ length: this.channels }, () => new Float32Array(n)));
        frames += n;
        continue;
      }
      pieces.push(got.channelData);
      frames += got.samplesDecoded;
    }
    const channelData = Array.from({ length: this.channels }, (_, c) => {
      const out = new Float32Array(frames);
      let at = 0;
      for (const p of pieces) { out.set(p[c]!, at); at += p[c]!.length; }
      return out;
    });
    return { sampleRate: this.rate, channelData, frames, errors };
  }

  /** Frees the wasm instance; false where its memory turned out damaged (what it decoded is not to be trusted). */
  free(): boolean {
    try {
      this.decoder.free();
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      this.damaged = true;
    }
    return !this.damaged;
  }
}

/**
 * Decodes a whole stream of raw Opus packets, in order, to one Float32Array per channel, in the
 * stream's channel order (the mapping family 1 default: Vorbis order). Pre-skip is not dropped:
 * the caller knows its container's (planarToPcm's `start`).
 */
export async function decodeOpusPackets(packets: readonly Uint8Array[], opts: OpusStreamOptions): Promise<PlanarPcm> {
  const decoder = new OpusPacketDecoder(opts);
  await decoder.ready;
  let pcm: PlanarPcm;
  try {
    pcm = decoder.decode(packets);
  } finally {
    if (!decoder.free()) throw new DecodeError('Opus', 'libopus\'s memory was damaged decoding these packets: they are corrupt');
  }
  return pcm;
}
