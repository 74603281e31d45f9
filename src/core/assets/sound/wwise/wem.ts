/**
 * A .wem as a sound: its codec named from the fmt chunk's id, its length from the codec's own
 * data, and its PCM: PCM as stored, Wwise IMA ADPCM, Platinum ADPCM (ptadpcm.ts), the three Wwise
 * Opus layouts cut into packets for libopus (opus.ts), and Vorbis rebuilt to Ogg Vorbis
 * (vorbis.ts) and decoded by libvorbis (../vorbis.ts). The sound kind, the CLI and the app read .wem
 * files (and a bank's embedded media) through wemSound.
 */
import { FormatError } from '../../../errors.js';
import { planarToPcm, type PlanarPcm } from '../planar.js';
import { decodeOggVorbis } from '../vorbis.js';
import { MAX_CHANNELS, MAX_SAMPLE_RATE } from '../read.js';
import type { Pcm, Sound, SoundCuePoint } from '../types.js';
import { decodeWwiseIma, wwiseImaFramesPerBlock } from './ima.js';
import { parseWem, type WemFile } from './riff.js';
import { CodebookMismatch } from './codebooks.js';
import { decodeWemOpus, wemOpus } from './opus.js';
import { decodePtadpcm, ptadpcmSampleCount } from './ptadpcm.js';
import { VORBIS_CODEBOOK_LIBRARIES, wemVorbisInfo, wemVorbisToOgg } from './vorbis.js';

/** Codec names by fmt id, as vgmstream and Wwise's own conversion settings name them. */
const CODECS: Record<number, string> = {
  0x0001: 'PCM', 0xfffe: 'PCM', 0x0002: 'IMA_ADPCM', 0x0069: 'IMA_ADPCM', 0xffff: 'VORBIS',
  0x3039: 'OPUS', 0x3040: 'OPUS', 0x3041: 'OPUS', 0x8311: 'PTADPCM',
  0x0165: 'XMA2', 0x0166: 'XMA2', 0x0161: 'XWMA', 0x0162: 'XWMA', 0xaac0: 'AAC', 0xfff0: 'DSP_ADPCM',
  0xfffb: 'HEVAG', 0xfffc: 'ATRAC9',
};
/** The codecs PakScope decodes to PCM. */
const DECODABLE = new Set(['PCM', 'IMA_ADPCM', 'VORBIS', 'OPUS', 'PTADPCM']);

export interface WemInfo {
  /** PCM, IMA_ADPCM, VORBIS, OPUS, PTADPCM, ...; an unknown id as "0x1234". */
  codec: string;
  codecId: number;
  sampleRate: number;
  channels: number;
  /** Frames (samples per channel). */
  samples: number;
  decodable: boolean;
  bigEndian: boolean;
  wem: WemFile;
}

export function codecName(id: number): string {
  return CODECS[id] ?? `0x${id.toString(16).padStart(4, '0')}`;
}

/** The facts of a .wem; `file` names it in errors. */
export function wemInfo(bytes: Uint8Array, file: string): WemInfo {
  const wem = parseWem(bytes, file);
  // Codec 2 is "the platform's ADPCM": Platinum's where its frames are 0x104 bytes a channel (Bayonetta 2).
  const codec = wem.codecId === 0x0002 && wem.channels > 0 && wem.blockAlign === 0x104 * wem.channels ? 'PTADPCM' : codecName(wem.codecId);
  if (wem.sampleRate < 1 || wem.sampleRate > MAX_SAMPLE_RATE) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 4, `sample rate ${wem.sampleRate} Hz is impossible (1 to ${MAX_SAMPLE_RATE})`);
  if (wem.channels < 1 || wem.channels > MAX_CHANNELS) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 2, `channel count ${wem.channels} is impossible (1 to ${MAX_CHANNELS})`);
  if (codec === 'OPUS') {
    // Opus decodes at an Opus rate (Wwise's newest layout always at 48 kHz, whatever the fmt says).
    const opus = wemOpus(wem, file);
    return { codec, codecId: wem.codecId, sampleRate: opus.sampleRate, channels: wem.channels, samples: opus.samples, decodable: true, bigEndian: wem.bigEndian, wem };
  }
  return { codec, codecId: wem.codecId, sampleRate: wem.sampleRate, channels: wem.channels, samples: frameCount(wem, codec, file), decodable: DECODABLE.has(codec), bigEndian: wem.bigEndian, wem };
}

function frameCount(wem: WemFile, codec: string, file: string): number {
  switch (codec) {
    case 'PCM': return wem.bitsPerSample > 0 ? Math.floor(wem.data.length / (wem.channels * Math.ceil(wem.bitsPerSample / 8))) : 0;
    case 'IMA_ADPCM': return wem.blockAlign > 0 ? Math.floor(wem.data.length / wem.blockAlign) * Math.max(0, wwiseImaFramesPerBlock(wem)) : 0;
    case 'VORBIS': return wemVorbisInfo(wem, file).sampleCount;
    case 'PTADPCM': return ptadpcmSampleCount(wem);
    default: return 0;
  }
}

/** The .wem decoded to 16-bit PCM (decodable codecs only). */
export async function decodeWem(info: WemInfo, file: string): Promise<Pcm> {
  const { wem } = info;
  const shape = { sampleRate: info.sampleRate, channels: wem.channels };
  switch (info.codec) {
    case 'PCM': return { ...shape, samples: pcmSamples(wem, file) };
    case 'IMA_ADPCM': return { ...shape, samples: decodeWwiseIma(wem, file) };
    case 'VORBIS': return decodeWemVorbis(info, file);
    case 'OPUS': return decodeWemOpus(wem, file);
    case 'PTADPCM': return { ...shape, samples: decodePtadpcm(wem, file) };
    default:
      throw new FormatError(file, 'fmt chunk', wem.fmtOffset, CODECS[wem.codecId]
        ? `${info.codec} (codec 0x${wem.codecId.toString(16)}) is a Wwise codec PakScope does not decode: save the .wem as stored`
        : `codec id 0x${wem.codecId.toString(16).padStart(4, '0')} is not a Wwise codec PakScope knows`);
  }
}

/**
 * Vorbis through each codebook library in turn (vorbis.ts): the first whose rebuild libvorbis
 * decodes without a complaint. A FormatError of the file itself (a truncated packet, a book the
 * library lacks) is not retried; libvorbis's verdict on a rebuild is.
 */
async function decodeWemVorbis(info: WemInfo, file: string): Promise<Pcm> {
  let first: PlanarPcm | FormatError | CodebookMismatch | undefined;
  for (const books of VORBIS_CODEBOOK_LIBRARIES()) {
    let ogg: Uint8Array;
    try {
      ogg = wemVorbisToOgg(info.wem, file, books);
    } catch (e) {
      if (!(e instanceof CodebookMismatch)) throw e;
      first ??= e;
      continue;
    }
    const got = await decodeOggVorbis(ogg, file).catch((e: unknown) => {
      if (e instanceof FormatError) return e;
      throw e;
    });
    if (!(got instanceof FormatError) && got.errors.length === 0) return planarToPcm(got, 0, info.samples);
    first ??= got;
  }
  if (first instanceof CodebookMismatch) throw new FormatError(file, 'Vorbis setup packet', info.wem.dataOffset, `its codebooks are in neither Wwise codebook library (${first.message})`);
  if (first instanceof FormatError) throw first;
  // Every library left packets undecoded: the first rebuild, its bad packets silent and named.
  return planarToPcm(first!, 0, info.samples);
}

function pcmSamples(wem: WemFile, file: string): Int16Array {
  if (wem.bitsPerSample !== 16) throw new FormatError(file, 'fmt chunk', wem.fmtOffset + 14, `${wem.bitsPerSample}-bit PCM (16 expected)`);
  const n = Math.floor(wem.data.length / (2 * wem.channels)) * wem.channels;
  const v = new DataView(wem.data.buffer, wem.data.byteOffset, wem.data.byteLength);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = v.getInt16(i * 2, !wem.bigEndian);
  return out;
}

/** A .wem (or a bank's embedded media) as the sound kind's Sound. */
export function wemSound(bytes: Uint8Array, name: string, file = name): Sound & { codec: string } {
  const info = wemInfo(bytes, file);
  const { wem } = info;
  const loop = wem.loops[0];
  const cuePoints: SoundCuePoint[] = wem.cues.map((c) => ({ label: c.label ?? `cue ${c.id}`, framePosition: c.position }));
  const notes: string[] = [];
  if (loop) notes.push(`loops from frame ${loop.start} to ${loop.end || info.samples}`);
  if (!info.decodable) notes.push(`${info.codec} is not decoded by PakScope: save the .wem as stored`);
  return {
    class: 'Wwise media', name, format: 'WEM', codec: info.codec,
    sampleRate: info.sampleRate, channels: info.channels, samples: info.samples,
    durationS: info.samples / info.sampleRate, looping: loop !== undefined, streaming: false, chunks: 1,
    cuePoints, decodable: info.decodable, storedExtension: 'wem', notes,
    readPayload: () => Promise.resolve(bytes),
    decode: () => decodeWem(info, file),
  };
}
