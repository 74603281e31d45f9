/**
 * Ogg Vorbis to PCM, through the @wasm-audio-decoders/ogg-vorbis build of libvorbis (no native
 * code: worker threads and any renderer). The engine's OGG format stores a plain Ogg Vorbis
 * file; Wwise's Vorbis is rebuilt into one before it comes here. Channels come in the stream's
 * order (Vorbis order: for 5.1, FL FC FR BL BR LFE).
 */
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { FormatError } from '../../errors.js';
import type { PlanarPcm } from './planar.js';

const isOgg = (b: Uint8Array): boolean => b.length >= 4 && b[0] === 0x4f && b[1] === 0x67 && b[2] === 0x67 && b[3] === 0x53;

/** A whole Ogg Vorbis file to one Float32Array per channel; `file` names it in errors. */
export async function decodeOggVorbis(bytes: Uint8Array, file = 'Ogg Vorbis stream'): Promise<PlanarPcm> {
  if (!isOgg(bytes)) throw new FormatError(file, 'Ogg Vorbis stream', 0, 'no "OggS" page at the start');
  const decoder = new OggVorbisDecoder();
  await decoder.ready;
  try {
    let got;
    try {
      got = await decoder.decodeFile(bytes);
    } catch (e) {
      // The library throws plain Errors (another codec in the Ogg, a broken setup header).
      throw new FormatError(file, 'Ogg Vorbis stream', 0, e instanceof Error ? e.message : String(e));
    }
    const errors = got.errors.map((e) => `Vorbis packet ${e.frameNumber}: ${e.message.replace(/\s+/g, ' ').trim()}`);
    if (got.samplesDecoded === 0 || got.channelData.length === 0) {
      throw new FormatError(file, 'Ogg Vorbis stream', 0, `no audio decoded${errors.length > 0 ? ` (${errors[0]})` : ' (no Vorbis headers or packets found)'}`);
    }
    return { sampleRate: got.sampleRate, channelData: got.channelData, frames: got.samplesDecoded, errors };
  } finally {
    decoder.free();
  }
}
