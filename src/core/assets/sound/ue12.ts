/**
 * Unreal Engine 1/2 sounds (.uax, and Sound exports inside .u/.unr/...): after a Sound export's
 * properties, its FileType (a name: WAV, OGG, ...), in UT2004-era packages of licensee 2 and up
 * a float Likelihood, then the file itself as a lazy array (from package version 63 an int32
 * offset just past it, a compact byte count, the bytes). The file is what the game plays: a
 * RIFF/WAVE of PCM or ADPCM mostly, an Ogg Vorbis in some UE2 games.
 *
 * Whether the Likelihood float is there is not told by the versions alone (licensees differ), so
 * both layouts are tried and the one whose lazy array lands on its own end offset wins.
 */
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';
import { ue12ExportProperties } from '../../properties/ue12.js';
import { parseUe12Package } from '../../ue12/index.js';
import { DECODABLE_FORMATS, MAX_CHANNELS, MAX_SAMPLE_RATE, storedExtensionOf } from './read.js';
import type { Sound } from './types.js';
import { isRiffWave, parseWav } from './wav.js';

export const UE12_SOUND_CLASSES: readonly string[] = ['Sound'];
/** Package version from which lazy arrays start with the file offset past them. */
const LAZY_SKIP_VERSION = 63;

/** Reads Sound export `exportIndex` (default: the first) of a UE1/2 package's bytes. */
export function readUe12Sound(bytes: Uint8Array, path: string, exportIndex?: number): Sound {
  const pkg = parseUe12Package(bytes, path);
  const index = exportIndex ?? pkg.exports.findIndex((e) => UE12_SOUND_CLASSES.includes(e.className));
  const exp = pkg.exports[index];
  if (!exp || !UE12_SOUND_CLASSES.includes(exp.className)) {
    throw new FormatError(path, 'export table', 0, exportIndex === undefined ? 'the package holds no Sound export' : `export ${exportIndex} is no Sound`);
  }
  const what = `Sound "${exp.objectName}"`;
  const p = ue12ExportProperties(pkg, bytes, index);
  if (p.errorData) throw FormatError.within(null, p.errorData, 'the property stream stops there, so the sound data cannot be found');
  const end = exp.serialOffset + exp.serialSize;
  const r = new BinaryReader(bytes.subarray(0, end), path).struct(`${what} data`);
  r.seek(exp.serialOffset + p.propertyStart + p.propertyBytes);
  const nameAt = r.pos;
  const fileTypeIndex = r.compactIndex();
  const fileType = pkg.names[fileTypeIndex]?.name;
  if (fileType === undefined) throw r.error(`file type name ${fileTypeIndex} is outside the ${pkg.names.length} names`, nameAt);
  const after = r.pos;
  let data: Uint8Array | undefined;
  let lastError = '';
  for (const likelihood of [false, true]) {
    r.seek(after);
    if (likelihood) {
      if (r.pos + 4 > end) break;
      r.skip(4);
    }
    if (r.pos + (pkg.header.fileVersion >= LAZY_SKIP_VERSION ? 5 : 1) > end) { lastError = 'the sound data is cut short'; continue; }
    const skipTo = pkg.header.fileVersion >= LAZY_SKIP_VERSION ? r.i32() : undefined;
    const length = r.compactIndex();
    const start = r.pos;
    if (length < 0 || start + length > end) { lastError = `${length} bytes of sound data at ${start}, past the export's end at ${end}`; continue; }
    if (skipTo !== undefined && skipTo !== start + length) { lastError = `the sound data ends at ${start + length}, its lazy array says ${skipTo}`; continue; }
    data = bytes.subarray(start, start + length);
    break;
  }
  if (!data) throw new FormatError(path, `${what} data`, after, lastError || 'no sound data');
  const payload = data;

  const notes: string[] = [`stored as ${fileType} (${payload.length} bytes)`];
  let format = fileType.toUpperCase();
  let sampleRate = 0;
  let channels = 0;
  let samples = 0;
  if (isRiffWave(payload)) {
    const wav = parseWav(payload, path, `${what} WAVE file`);
    const tag = wav.formatTag === 0xfffe && wav.extra.length >= 10 ? wav.extra[6]! | (wav.extra[7]! << 8) : wav.formatTag;
    format = tag === 1 ? 'PCM' : tag === 2 || tag === 0x11 ? 'ADPCM' : `WAVE 0x${tag.toString(16)}`;
    if (wav.sampleRate < 1 || wav.sampleRate > MAX_SAMPLE_RATE) throw new FormatError(path, `${what} WAVE fmt chunk`, payload.byteOffset, `sample rate ${wav.sampleRate} Hz is impossible (1 to ${MAX_SAMPLE_RATE})`);
    if (wav.channels < 1 || wav.channels > MAX_CHANNELS) throw new FormatError(path, `${what} WAVE fmt chunk`, payload.byteOffset, `channel count ${wav.channels} is impossible (1 to ${MAX_CHANNELS})`);
    sampleRate = wav.sampleRate;
    channels = wav.channels;
    if (tag === 1 && wav.bitsPerSample > 0) samples = Math.floor(wav.data.length / (channels * Math.ceil(wav.bitsPerSample / 8)));
    if (wav.truncated) notes.push('its data chunk claims more bytes than are stored');
  } else if (payload.length >= 4 && String.fromCharCode(...payload.subarray(0, 4)) === 'OggS') {
    format = 'OGG';
  }
  const decodable = DECODABLE_FORMATS.includes(format);
  if (!decodable) notes.push(`${format} is a format PakScope does not decode: it is saved as stored (.${storedExtensionOf(format)})`);
  return {
    class: exp.className, name: exp.objectName, format, sampleRate, channels, samples,
    durationS: sampleRate > 0 ? samples / sampleRate : 0,
    looping: false, streaming: false, chunks: 1, cuePoints: [],
    decodable, storedExtension: storedExtensionOf(format), notes,
    async readPayload() {
      return payload.slice();
    },
    async readChunk(i: number) {
      if (i !== 0) throw new RangeError(`${what}: no chunk ${i} (it has 1)`);
      return payload.slice();
    },
  };
}
