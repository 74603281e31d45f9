/**
 * A sound's stored payload to 16-bit PCM: PCM (a RIFF/WAVE, or raw 16-bit samples), ADPCM
 * (a RIFF/WAVE of MS-ADPCM, IMA ADPCM, or of PCM, as the engine's ADPCM cook writes at full
 * quality), OPUS (the engine's UEOPUS container), OGG (Ogg Vorbis) and BINKA (Bink Audio 2). RAD
 * Audio is not decoded.
 */
import { FormatError } from '../../errors.js';
import { decodeImaAdpcm, decodeMsAdpcm } from './adpcm.js';
import { decodeBinka } from './binka.js';
import { MAX_CHANNELS, MAX_SAMPLE_RATE } from './limits.js';
import { planarToPcm, type PlanarPcm } from './planar.js';
import { decodeUeOpus } from './ue-opus.js';
import { decodeOggVorbis } from './vorbis.js';
import type { Pcm, SoundInfo } from './types.js';
import { isRiffWave, parseWav, type WavFile } from './wav.js';

/** PCM of a payload of sound `info` (its rate and channels used where the payload has no header). */
export async function decodeSoundPayload(info: Pick<SoundInfo, 'name' | 'format' | 'sampleRate' | 'channels' | 'samples'>, payload: Uint8Array, opts: DecodeOptions = {}): Promise<Pcm> {
  const what = `${info.format} payload of "${info.name}"`;
  if (info.format === 'OPUS') return planarToPcm(withoutCut(await decodeUeOpus(payload, info.name, opts.partial ? opts.maxSeconds : undefined), opts));
  if (info.format === 'OGG') {
    const pcm = await decodeOggVorbis(payload, info.name);
    // An Ogg cut short just ends early: say so where the package gives the length.
    if (!opts.partial && info.samples > 0 && pcm.frames + 4096 < info.samples) pcm.errors.push(`the Ogg Vorbis stream ends after ${pcm.frames} of ${info.samples} samples (cut short)`);
    return planarToPcm(pcm);
  }
  if (info.format === 'BINKA') return planarToPcm(withoutCut(decodeBinka(payload, info.name, opts.partial ? opts.maxSeconds : undefined), opts));
  if (info.format !== 'PCM' && info.format !== 'ADPCM') throw new FormatError(info.name, what, 0, `${info.format} is a format PakScope does not decode`);
  if (!isRiffWave(payload)) {
    if (info.format !== 'PCM') throw new FormatError(info.name, what, 0, 'an ADPCM payload without a RIFF/WAVE header');
    checkShape(info.sampleRate, info.channels, info.name, what);
    const frames = Math.floor(payload.length / 2 / info.channels);
    return { sampleRate: info.sampleRate, channels: info.channels, samples: pcm16(payload.subarray(0, frames * info.channels * 2)) };
  }
  const wav = parseWav(payload, info.name, what);
  checkShape(wav.sampleRate, wav.channels, info.name, `${what} fmt chunk`);
  if (wav.truncated && !opts.partial) throw new FormatError(info.name, `${what} data chunk`, payload.length, 'the data chunk runs past the payload\'s end (a chunk is missing or cut short)');
  const frames = info.samples > 0 ? info.samples : undefined;
  // The first chunks of a PCM WAV end anywhere: whole frames only.
  if (wav.truncated) wav.data = wav.data.subarray(0, wav.data.length - (wav.data.length % Math.max(1, wav.blockAlign)));
  const samples = wavSamples(wav, info.name, what, frames);
  return { sampleRate: wav.sampleRate, channels: wav.channels, samples };
}

export interface DecodeOptions {
  /**
   * The payload is the first chunks of the sound only (playback starting while the rest
   * decodes): its cut end is expected, not an error.
   */
  partial?: boolean;
  /** With `partial`: decode this many seconds at most (where the format lets the rest be skipped). */
  maxSeconds?: number;
}

/** A partial payload's decode without the error its cut end makes (the cut is always the last one named). */
function withoutCut<T extends PlanarPcm & { cut?: boolean }>(p: T, opts: DecodeOptions): T {
  return opts.partial && p.cut ? { ...p, errors: p.errors.slice(0, -1) } : p;
}

function checkShape(rate: number, channels: number, file: string, what: string): void {
  if (!Number.isInteger(rate) || rate <= 0 || rate > MAX_SAMPLE_RATE) throw new FormatError(file, what, 0, `sample rate ${rate} Hz is impossible (1 to ${MAX_SAMPLE_RATE})`);
  if (!Number.isInteger(channels) || channels <= 0 || channels > MAX_CHANNELS) throw new FormatError(file, what, 0, `channel count ${channels} is impossible (1 to ${MAX_CHANNELS})`);
}

function pcm16(b: Uint8Array): Int16Array {
  const out = new Int16Array(b.length >> 1);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = v.getInt16(i * 2, true);
  return out;
}

function wavSamples(wav: WavFile, file: string, what: string, frames?: number): Int16Array {
  const tag = wav.formatTag === 0xfffe && wav.extra.length >= 10 ? wav.extra[6]! | (wav.extra[7]! << 8) : wav.formatTag;
  if (tag === 1) {
    if (wav.bitsPerSample === 16) return pcm16(wav.data.subarray(0, wav.data.length - (wav.data.length % (2 * wav.channels))));
    if (wav.bitsPerSample === 8) return Int16Array.from(wav.data, (x) => (x - 128) << 8);
    throw new FormatError(file, `${what} fmt chunk`, 0, `${wav.bitsPerSample}-bit PCM is not supported (8 or 16)`);
  }
  if (tag === 2) return decodeMsAdpcm(wav, file, frames);
  if (tag === 0x11) return decodeImaAdpcm(wav, file, frames);
  throw new FormatError(file, `${what} fmt chunk`, 0, `WAVE format tag 0x${tag.toString(16)} is not PCM, MS-ADPCM or IMA ADPCM`);
}
