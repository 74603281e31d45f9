/**
 * The cooked USoundWave reader. After the property stream a SoundWave serializes:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   flags (u32, bit 0: cooked)
 *   UE5.4+ cooked: the platform cue points, TArray<FSoundWaveCuePoint> (read when empty; else found past)
 *   streamed: FGuid CompressedDataGuid, then FStreamedAudioPlatformData: NumChunks (i32),
 *     the format FName, NumChunks x FStreamedAudioChunk (flags u32 -- bit 1: a seek offset follows;
 *     FByteBulkData; DataSize i32; AudioDataSize i32; [SeekOffsetInAudioFrames u32])
 *   not streamed: FFormatContainer (count, then FName + FByteBulkData per format), then the FGuid
 *
 * The package is opened as the texture reader opens it (its bulk data code reads FByteBulkData
 * in every form: inline, .ubulk, Zen bulk chunks). Which layout a package has is not told by its
 * versions alone, so each is tried and the one that reads to the export's end wins.
 */
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';
import type { InstallPackages } from '../../package/open-package.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { readFNameOf } from '../../uasset/names.js';
import { scriptImportIndex } from '../../zen/object-index.js';
import { type BulkDataRef, type BulkFiles, readBulkData, readBulkPayload } from '../texture/read/bulk-data.js';
import { type SourceExport, type TextureReadOptions as PackageReadOptions, type TextureSource as PackageSource, fileTextureSource, installTextureSource } from '../texture/read/package-source.js';
import { memoryPayload } from '../texture/read/payload.js';
import { MAX_CHANNELS, MAX_SAMPLE_RATE } from './limits.js';
import type { Sound, SoundCuePoint } from './types.js';

export { MAX_CHANNELS, MAX_SAMPLE_RATE };

export const SOUND_CLASSES: readonly string[] = ['SoundWave'];
export type SoundReadOptions = PackageReadOptions;


/** Stored payload extension by format name; formats not listed keep their name lowercased. */
const STORED_EXTENSION: Record<string, string> = { PCM: 'wav', ADPCM: 'wav', OPUS: 'opus', OGG: 'ogg', BINKA: 'binka', RADA: 'rada' };
export const storedExtensionOf = (format: string): string => STORED_EXTENSION[format] ?? format.toLowerCase().replace(/[^a-z0-9]/g, '');
/** Formats PakScope decodes to PCM. */
export const DECODABLE_FORMATS: readonly string[] = ['PCM', 'ADPCM', 'OPUS', 'OGG', 'BINKA'];

interface AudioChunk { bulk: BulkDataRef; dataSize: number; audioDataSize: number; seekOffset?: number }
interface NativeSound { format: string; chunks: AudioChunk[]; streaming: boolean; cuePointCount: number; otherFormats: string[] }

let classByHash: Map<string, string> | undefined;
function soundClassName(cls: string): string {
  const m = /\?0x([0-9a-f]{16})$/.exec(cls);
  if (!m) return cls;
  classByHash ??= new Map(SOUND_CLASSES.map((c) => [scriptImportIndex(`/Script/Engine.${c}`), c]));
  return classByHash.get(m[1]!) ?? cls;
}

export async function readInstallSound(packages: InstallPackages, ref: string, opts: SoundReadOptions = {}): Promise<Sound> {
  return soundOf(await installTextureSource(packages, ref, opts), opts);
}

export async function readSoundFile(path: string, opts: SoundReadOptions = {}): Promise<Sound> {
  return soundOf(await fileTextureSource(path, opts), opts);
}


type Layout = { cuePoints: boolean; streamed: boolean };
const LAYOUTS: Layout[] = [
  { cuePoints: true, streamed: true }, { cuePoints: false, streamed: true },
  { cuePoints: true, streamed: false }, { cuePoints: false, streamed: false },
];

function readNative(exp: SourceExport, source: PackageSource, start: number, layout: Layout): NativeSound {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const flagsAt = r.pos;
  const flags = r.u32();
  if ((flags & 1) === 0) throw r.error('the sound is not cooked (its source audio is editor data)', flagsAt);
  if (flags > 0xff) throw r.error(`sound wave flags 0x${flags.toString(16)}`, flagsAt);
  let cuePointCount = 0;
  if (layout.cuePoints) {
    cuePointCount = r.i32();
    // Cue points are property-serialized structs: only an empty list is stepped over.
    if (cuePointCount !== 0) throw r.error(`${cuePointCount} platform cue points`, r.pos - 4);
  }
  const chunks: AudioChunk[] = [];
  let format: string;
  const otherFormats: string[] = [];
  if (layout.streamed) {
    r.skip(16);
    const countAt = r.pos;
    const count = r.i32();
    r.checkCount(count, 16, 'streamed audio chunks', countAt);
    if (count === 0) throw r.error('no streamed audio chunks', countAt);
    format = readFNameOf(r, source.names);
    for (let i = 0; i < count; i++) {
      const chunkFlags = r.u32();
      if (chunkFlags > 7) throw r.error(`chunk ${i} flags 0x${chunkFlags.toString(16)}`, r.pos - 4);
      const bulk = readBulkData(r, source.bulk);
      const dataSize = r.i32();
      const audioDataSize = r.i32();
      if (dataSize < 0 || audioDataSize < 0 || audioDataSize > dataSize || dataSize > bulk.elementCount) {
        throw r.error(`chunk ${i}: audio data ${audioDataSize} bytes, data ${dataSize}, bulk data ${bulk.elementCount}`, r.pos - 8);
      }
      chunks.push({ bulk, dataSize, audioDataSize, ...(chunkFlags & 2 ? { seekOffset: r.u32() } : {}) });
    }
  } else {
    const countAt = r.pos;
    const count = r.i32();
    r.checkCount(count, 12, 'compressed formats', countAt);
    if (count === 0) throw r.error('no compressed formats', countAt);
    format = '';
    for (let i = 0; i < count; i++) {
      const name = readFNameOf(r, source.names);
      const bulk = readBulkData(r, source.bulk);
      if (i === 0) {
        format = name;
        chunks.push({ bulk, dataSize: bulk.elementCount, audioDataSize: bulk.elementCount });
      } else otherFormats.push(name);
    }
    r.skip(16);
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} bytes are left after the sound data`);
  return { format, chunks, streaming: layout.streamed, cuePointCount, otherFormats };
}

function tryLayouts(exp: SourceExport, source: PackageSource, start: number): NativeSound | FormatError {
  let first: FormatError | undefined;
  for (const layout of LAYOUTS) {
    try {
      return readNative(exp, source, start, layout);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  return first!;
}

/** Bytes of an export searched for its sound data when its properties cannot be read. */
const SCAN_LIMIT = 1 << 20;

/**
 * The native data when the property stream cannot be read (unversioned without mappings): the
 * first offset from which a layout reads to the export's end,
 * starting with bHasGuid 0/1 and the cooked flag.
 */
function findNative(exp: SourceExport, source: PackageSource, from: number): NativeSound | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = from; p + 8 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1 || p + (guid ? 24 : 8) > b.length || (v.getUint32(p + (guid ? 20 : 4), true) & 1) === 0) continue;
    for (const layout of LAYOUTS) {
      try {
        return readNative(exp, source, p, layout);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
      }
    }
  }
  return undefined;
}

const prop = (entries: readonly PropertyEntry[], name: string): PropertyValue | undefined => entries.find((p) => p.name === name)?.value;
const num = (v: PropertyValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const ref = (v: PropertyValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function pickExport(source: PackageSource, opts: SoundReadOptions): SourceExport {
  for (const e of source.exports) e.class = soundClassName(e.class);
  if (opts.exportIndex !== undefined) {
    const e = source.exports[opts.exportIndex];
    if (!e) throw new FormatError(source.path, 'export map', 0, `no export ${opts.exportIndex} (the package has ${source.exports.length})`);
    if (!SOUND_CLASSES.includes(e.class)) throw new FormatError(source.path, `export ${e.index} "${e.name}"`, e.base, `a ${e.class}, not a sound class PakScope reads (${SOUND_CLASSES.join(', ')})`);
    return e;
  }
  const e = source.exports.find((x) => SOUND_CLASSES.includes(x.class));
  if (!e) throw new FormatError(source.path, 'export map', 0, `no sound export (its exports are ${source.exports.map((x) => `${x.name}: ${x.class}`).join(', ') || 'none'})`);
  return e;
}

/** The sound export of an opened package (the entry points above; tests build sources directly). */
export function soundOf(source: PackageSource, opts: SoundReadOptions): Sound {
  const exp = pickExport(source, opts);
  const p = exp.properties;
  const notes = [...source.warnings];
  const propsRead = !p.error && !(p.encoding === 'unversioned' && p.properties.length === 0);
  const nativeStart = p.propertyStart + p.propertyBytes;
  const what = `${exp.class} "${exp.name}"`;
  let native: NativeSound | undefined;
  let firstError: FormatError | undefined;
  if (propsRead) {
    const got = tryLayouts(exp, source, nativeStart);
    if (got instanceof FormatError) firstError = got;
    else native = got;
  }
  native ??= findNative(exp, source, propsRead ? nativeStart : 0);
  if (!native) {
    if (firstError) throw firstError;
    if (p.errorData) throw FormatError.within(null, p.errorData, 'the property stream stops there, so the sound data cannot be found');
    throw new FormatError(exp.file, `${what} properties`, exp.base, 'unversioned properties: the sound data was not found without the game\'s mappings (.usmap); pass them');
  }
  if (!propsRead) notes.push('the properties were not read (unversioned, without mappings): sample rate, channels, duration and loop flag come from the payload where it tells, else are unknown');
  if (native.otherFormats.length > 0) notes.push(`also cooked as ${native.otherFormats.join(', ')} (not read)`);
  const props = p.properties;
  const sampleRate = num(prop(props, 'SampleRate')) ?? 0;
  const channels = num(prop(props, 'NumChannels')) ?? 0;
  const totalSamples = num(prop(props, 'TotalSamples'));
  const duration = num(prop(props, 'Duration'));
  if (propsRead) {
    if (!Number.isInteger(sampleRate) || sampleRate <= 0 || sampleRate > MAX_SAMPLE_RATE) throw new FormatError(exp.file, what, exp.base, `sample rate ${sampleRate} Hz is impossible (1 to ${MAX_SAMPLE_RATE})`);
    if (!Number.isInteger(channels) || channels <= 0 || channels > MAX_CHANNELS) throw new FormatError(exp.file, what, exp.base, `channel count ${channels} is impossible (1 to ${MAX_CHANNELS})`);
  }
  const samples = totalSamples !== undefined && totalSamples >= 0 ? Math.round(totalSamples) : duration !== undefined && sampleRate > 0 ? Math.round(duration * sampleRate) : 0;
  const cuePoints: SoundCuePoint[] = [];
  const cues = prop(props, 'CuePoints');
  if (Array.isArray(cues)) {
    for (const c of cues) {
      if (!Array.isArray(c)) continue;
      const entries = c as PropertyEntry[];
      const label = prop(entries, 'Label');
      const pos = num(prop(entries, 'FramePosition'));
      cuePoints.push({ label: typeof label === 'string' ? label : '', ...(pos !== undefined ? { framePosition: pos } : {}) });
    }
  }
  if (native.cuePointCount > cuePoints.length) notes.push(`${native.cuePointCount} platform cue points are stored (not read)`);
  const files: BulkFiles = { ...source.files, inline: memoryPayload(exp.file, exp.bytes) };
  const format = native.format;
  const decodable = DECODABLE_FORMATS.includes(format);
  if (!decodable) notes.push(`${format} is a format PakScope does not decode: it is saved as stored (.${storedExtensionOf(format)})`);
  const chunks = native.chunks;
  return {
    class: exp.class, name: exp.name, format, sampleRate, channels, samples,
    durationS: duration ?? (sampleRate > 0 ? samples / sampleRate : 0),
    looping: prop(props, 'bLooping') === true,
    streaming: native.streaming, chunks: chunks.length, cuePoints,
    ...(ref(prop(props, 'SoundClassObject')) ? { soundClass: ref(prop(props, 'SoundClassObject'))! } : {}),
    ...(ref(prop(props, 'AttenuationSettings')) ? { attenuation: ref(prop(props, 'AttenuationSettings'))! } : {}),
    decodable, storedExtension: storedExtensionOf(format), notes,
    async readChunk(i: number, signal?: AbortSignal) {
      const c = chunks[i];
      if (!c) throw new RangeError(`${what}: no chunk ${i} (it has ${chunks.length})`);
      const bytes = await readBulkPayload(c.bulk, files, `${what} audio chunk ${i}`, signal);
      if (bytes.length < c.audioDataSize) throw new FormatError(exp.file, `${what} audio chunk ${i}`, c.bulk.headerAt, `${bytes.length} bytes where the chunk holds ${c.audioDataSize} of audio`);
      return bytes.subarray(0, c.audioDataSize);
    },
    async readPayload(signal) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < chunks.length; i++) parts.push(await this.readChunk!(i, signal));
      const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
      let at = 0;
      for (const x of parts) { out.set(x, at); at += x.length; }
      return out;
    },
  };
}
