/**
 * The Wwise integration's media assets (2019.2-2021.1: "Media/<id>.uasset"), each one .wem held in
 * bulk data. A package holds two objects:
 *
 *   AkMediaAsset { Id, MediaName, ... }, then natively the media data it uses:
 *     cooked    CurrentMediaAssetData (FPackageIndex, i32) after UObject's own native data
 *     editor    the platform map MediaAssetDataPerPlatform (platform -> AkMediaAssetData), a
 *               property from the integrations that made it one (UE5's), else serialized natively
 *   AkMediaAssetData { IsStreamed, UseDeviceMemory, Language, AssetPlatform, ... }, then natively
 *     DataChunks: count (i32), each { IsPrefetch (bool32), FByteBulkData }
 *
 * A streamed medium keeps a prefetch chunk (its first bytes, loaded early) beside the chunk with
 * the whole file: the .wem is the chunks that are not prefetch, end to end (a medium with only a
 * prefetch chunk gives that). The bulk data is read as the texture and sound readers read it.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { PropertyEntry, PropertyValue } from '../../../properties/types.js';
import { readBulkData, readBulkPayload, type BulkDataRef, type BulkFiles } from '../../texture/read/bulk-data.js';
import type { SourceExport, TextureSource } from '../../texture/read/package-source.js';
import { memoryPayload } from '../../texture/read/payload.js';
import type { Sound } from '../types.js';
import { wemSound } from './wem.js';

/** The media asset classes (localized and external media are media assets too). */
export const WWISE_MEDIA_CLASSES: readonly string[] = ['AkMediaAsset', 'AkLocalizedMediaAsset', 'AkExternalMediaAsset'];
const DATA_CLASS = 'AkMediaAssetData';
/** Chunks a medium has at most (a prefetch and the whole file; more is corrupt data). */
const MAX_CHUNKS = 64;

export interface MediaChunk { prefetch: boolean; bulk: BulkDataRef }

const prop = (entries: readonly PropertyEntry[], name: string): PropertyValue | undefined =>
  entries.find((e) => e.name.toLowerCase() === name.toLowerCase())?.value;

/** The export a reference names ("/Game/X/1.1:AkMediaAssetData_0"). */
function exportNamed(source: TextureSource, ref: PropertyValue | undefined): SourceExport | undefined {
  if (typeof ref !== 'string' || ref === '') return undefined;
  const name = ref.slice(Math.max(ref.lastIndexOf(':'), ref.lastIndexOf('.')) + 1);
  return source.exports.find((e) => e.name === name && e.class === DATA_CLASS);
}

/** Where an export's native data starts: after its properties and UObject's GUID flag (and GUID). */
function nativeReader(exp: SourceExport, what: string): BinaryReader {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" ${what}`);
  r.seek(exp.properties.propertyStart + exp.properties.propertyBytes);
  if (r.bool32()) r.skip(16);
  return r;
}

/**
 * The AkMediaAssetData a media asset uses: the one its cooked CurrentMediaAssetData names, else its
 * platform map's (Windows first, else the first), else the package's only one.
 */
export function mediaDataExport(source: TextureSource, media: SourceExport): SourceExport {
  const notes: string[] = [];
  const datas = source.exports.filter((e) => e.class === DATA_CLASS);
  const p = media.properties.properties;
  // Cooked: an FPackageIndex after the object's native start; positive is an export. (Where the
  // properties did not read, or are unversioned without mappings, that start is not known.)
  const propsRead = !media.properties.error && !(media.properties.encoding === 'unversioned' && p.length === 0);
  if (propsRead) {
    try {
      const r = nativeReader(media, 'native data');
      if (r.remaining >= 4) {
        const at = r.pos;
        const index = r.i32();
        const named = index > 0 ? source.exports[index - 1] : undefined;
        if (named?.class === DATA_CLASS) return named;
        if (index > 0 && index <= source.exports.length) notes.push(`CurrentMediaAssetData at ${at} names export ${index - 1}, a ${source.exports[index - 1]!.class}`);
      }
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  const current = exportNamed(source, prop(p, 'CurrentMediaAssetData'));
  if (current) return current;
  const perPlatform = prop(p, 'MediaAssetDataPerPlatform');
  if (Array.isArray(perPlatform)) {
    const pairs = perPlatform.filter((x): x is { key: PropertyValue; value: PropertyValue } => x !== null && typeof x === 'object' && !Array.isArray(x) && 'key' in x && 'value' in x);
    const windows = pairs.find((x) => typeof x.key === 'string' && x.key.toLowerCase() === 'windows');
    for (const pair of windows ? [windows, ...pairs] : pairs) {
      const found = exportNamed(source, pair.value);
      if (found) return found;
    }
  }
  if (datas.length >= 1) return datas[0]!;
  throw new FormatError(media.file, `${media.class} "${media.name}"`, media.base, `the package has no ${DATA_CLASS} export holding the medium's data${notes.length ? ` (${notes.join('; ')})` : ''}`);
}

/** Bytes of a data export searched for its chunks when its properties cannot be read. */
const SCAN_LIMIT = 1 << 16;

/** DataChunks read from `start` (UObject's GUID flag first); `end` is where they stop. */
function chunksAt(source: TextureSource, data: SourceExport, start: number): { chunks: MediaChunk[]; end: number } {
  const r = new BinaryReader(data.bytes, data.file, data.base).struct(`${data.class} "${data.name}" data chunks`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const countAt = r.pos;
  const count = r.i32();
  r.checkCount(count, 8, 'data chunks', countAt);
  if (count > MAX_CHUNKS) throw r.error(`${count} data chunks (a medium has one or two)`, countAt);
  const chunks: MediaChunk[] = [];
  for (let i = 0; i < count; i++) {
    const flagAt = r.pos;
    const flag = r.u32();
    if (flag > 1) throw r.error(`chunk ${i}: IsPrefetch is ${flag}, not a bool`, flagAt);
    chunks.push({ prefetch: flag === 1, bulk: readBulkData(r, source.bulk) });
  }
  return { chunks, end: r.pos };
}

/**
 * An AkMediaAssetData's DataChunks, after its properties. Unversioned properties read without the
 * game's mappings do not say where they end: the chunks are then the first that read from an
 * offset to the export's end, holding at least one chunk.
 */
export function readMediaChunks(source: TextureSource, data: SourceExport): MediaChunk[] {
  const p = data.properties;
  if (p.errorData) throw FormatError.within(null, p.errorData, 'the property stream stops there, so the data chunks cannot be found');
  if (!(p.encoding === 'unversioned' && p.properties.length === 0)) return chunksAt(source, data, p.propertyStart + p.propertyBytes).chunks;
  for (let at = 0; at + 12 <= Math.min(data.bytes.length, SCAN_LIMIT); at++) {
    try {
      const got = chunksAt(source, data, at);
      if (got.chunks.length > 0 && got.end === data.bytes.length) return got.chunks;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  throw new FormatError(data.file, `${data.class} "${data.name}"`, data.base, 'unversioned properties: the data chunks were not found without the game\'s mappings (.usmap); pass them');
}

/** The .wem bytes of the chunks: those not prefetch, end to end (a prefetch alone when that is all). */
export async function mediaChunksBytes(chunks: readonly MediaChunk[], files: BulkFiles, what: string, signal?: AbortSignal): Promise<Uint8Array> {
  const whole = chunks.filter((c) => !c.prefetch);
  const parts: Uint8Array[] = [];
  for (const [i, c] of (whole.length > 0 ? whole : chunks).entries()) parts.push(await readBulkPayload(c.bulk, files, `${what} data chunk ${i}`, signal));
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of parts) { out.set(x, at); at += x.length; }
  return out;
}

/**
 * The medium of media asset export `media` of an opened package, as a Sound (the .wem's codec,
 * rate, channels, decoded through the Wwise decoders); its MediaName is its original file.
 */
export async function mediaAssetSound(source: TextureSource, media: SourceExport, signal?: AbortSignal): Promise<Sound & { codec: string }> {
  const data = mediaDataExport(source, media);
  const chunks = readMediaChunks(source, data);
  const what = `${data.class} "${data.name}"`;
  if (chunks.length === 0) throw new FormatError(data.file, what, data.base, 'no data chunks: the medium is not in this package');
  const files: BulkFiles = { ...source.files, inline: memoryPayload(data.file, data.bytes) };
  const bytes = await mediaChunksBytes(chunks, files, what, signal);
  const mediaName = prop(media.properties.properties, 'MediaName');
  const sound = wemSound(bytes, media.name, `${source.path} (${what})`);
  const notes = [...source.warnings, ...sound.notes];
  const prefetch = chunks.filter((c) => c.prefetch).length;
  if (prefetch > 0) notes.push(prefetch < chunks.length ? 'streamed: its prefetch chunk is left out (the other chunk is the whole file)' : 'only a prefetch chunk is stored: the medium may be cut short');
  // MediaName is the file the medium was made from, without its extension.
  return { ...sound, class: media.class, notes, ...(typeof mediaName === 'string' && mediaName !== '' ? { originalFile: mediaName } : {}) };
}
