/**
 * Localization resources (.locres) of every version, and .locmeta.
 *
 * .locres (FTextLocalizationResource):
 *   Legacy (no magic): u32 namespace count; per namespace FString name, u32 key count; per key
 *     FString key, u32 source string hash, FString translation.
 *   From Compact on: the magic GUID 7574140E-FC034A67-9D90154A-1B7F37C3 and a u8 version, then
 *     i64 offset of the string array (i32 count of FString, from Optimized_CRC32 each with an i32
 *     reference count); Optimized_CRC32 and later store a u32 entry count and a hash before each
 *     namespace and key (CRC32, from Optimized_CityHash64_UTF16 CityHash64 of UTF-16); keys hold
 *     an i32 index into the string array instead of the string. Strings are UTF-16 or ASCII
 *     FStrings (their length's sign says which).
 * .locmeta (FTextLocalizationMetaDataResource): magic A14CEE4F-83554868-BD464C6C-7C50DA70, u8
 *   version, FString native culture, FString native .locres path, from version 1 an array of the
 *   compiled cultures.
 */
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';

export enum LocresVersion {
  Legacy = 0,
  Compact = 1,
  OptimizedCrc32 = 2,
  OptimizedCityHash64Utf16 = 3,
}

const LOCRES_MAGIC = [0x7574140e, 0xfc034a67, 0x9d90154a, 0x1b7f37c3];
const LOCMETA_MAGIC = [0xa14cee4f, 0x83554868, 0xbd464c6c, 0x7c50da70];

export interface LocresEntry {
  namespace: string;
  key: string;
  /** The translation. */
  text: string;
  /** Hash of the source string the translation was made from. */
  sourceHash: number;
}

export interface Locres {
  version: LocresVersion;
  entries: LocresEntry[];
}

export interface Locmeta {
  version: number;
  nativeCulture: string;
  nativeLocres: string;
  compiledCultures: string[];
}

function hasMagic(r: BinaryReader, magic: readonly number[]): boolean {
  if (r.length < 17) return false;
  for (let i = 0; i < 4; i++) if (new DataView(r.bytes.buffer, r.bytes.byteOffset + i * 4, 4).getUint32(0, true) !== magic[i]) return false;
  return true;
}

/** Reads a .locres file. Every count and offset is checked against the file: a bad one throws FormatError. */
export function parseLocres(bytes: Uint8Array, file: string): Locres {
  const r = new BinaryReader(bytes, file).struct('locres header');
  let version = LocresVersion.Legacy;
  if (hasMagic(r, LOCRES_MAGIC)) {
    r.skip(16);
    const at = r.pos;
    version = r.u8();
    if (version > LocresVersion.OptimizedCityHash64Utf16) throw r.error(`locres version ${version} is newer than the versions PakScope reads (0 to 3)`, at);
  }
  let strings: string[] | undefined;
  if (version >= LocresVersion.Compact) {
    const at = r.pos;
    const offset = r.i64n('string array offset');
    if (offset < r.pos || offset > bytes.length - 4) throw r.error(`the string array offset ${offset} is outside the file (${bytes.length} bytes)`, at);
    const back = r.pos;
    r.seek(offset).struct('locres string array');
    const count = r.count(version >= LocresVersion.OptimizedCrc32 ? 8 : 4, 'string count');
    strings = [];
    for (let i = 0; i < count; i++) {
      strings.push(r.fstring());
      if (version >= LocresVersion.OptimizedCrc32) r.i32(); // reference count
    }
    r.seek(back).struct('locres entries');
  }
  if (version >= LocresVersion.OptimizedCrc32) r.u32(); // entry count, a reservation hint
  const hashed = version >= LocresVersion.OptimizedCrc32;
  const entries: LocresEntry[] = [];
  const namespaces = r.count(hashed ? 12 : 8, 'namespace count');
  for (let n = 0; n < namespaces; n++) {
    if (hashed) r.u32();
    const namespace = r.fstring();
    const keys = r.count(hashed ? 16 : 12, `key count of namespace "${namespace}"`);
    for (let k = 0; k < keys; k++) {
      if (hashed) r.u32();
      const key = r.fstring();
      const sourceHash = r.u32();
      let text: string;
      if (strings) {
        const at = r.pos;
        const index = r.i32();
        const s = strings[index];
        if (s === undefined) throw r.error(`string index ${index} of "${namespace}"/"${key}" is outside the ${strings.length} strings`, at);
        text = s;
      } else {
        text = r.fstring();
      }
      entries.push({ namespace, key, text, sourceHash });
    }
  }
  return { version, entries };
}

/** Reads a .locmeta file. */
export function parseLocmeta(bytes: Uint8Array, file: string): Locmeta {
  const r = new BinaryReader(bytes, file).struct('locmeta');
  if (!hasMagic(r, LOCMETA_MAGIC)) throw new FormatError(file, 'locmeta', 0, 'not a .locmeta file (its magic is missing)');
  r.skip(16);
  const version = r.u8();
  const nativeCulture = r.fstring();
  const nativeLocres = r.fstring();
  const compiledCultures: string[] = [];
  if (version >= 1) {
    const n = r.count(4, 'culture count');
    for (let i = 0; i < n; i++) compiledCultures.push(r.fstring());
  }
  return { version, nativeCulture, nativeLocres, compiledCultures };
}

/** The culture of a .locres path: the folder it is in (Localization/<target>/<culture>/<name>.locres). */
export function cultureOf(path: string): string {
  const parts = path.replaceAll('\\', '/').split('/');
  return parts.length >= 2 ? parts[parts.length - 2]! : '';
}
