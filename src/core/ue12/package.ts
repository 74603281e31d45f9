import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { type FlagTable, decodeFlags } from '../uasset/flags.js';
import { type ResolvedObject, indexPath, resolveObjects } from '../uasset/resolve.js';
import { seekTable } from '../uasset/table.js';
import { Ue12ObjectFlags, Ue12PackageFlags } from './flags.js';
import { PACKAGE_FILE_TAG, PACKAGE_FILE_TAG_SWAPPED, hex32, olderEngineDescription } from '../uasset/versions.js';
import { Ue12Version, ue12Generation } from './versions.js';

/** The package header (FPackageFileSummary of Unreal Engine 1 and 2). */
export interface Ue12Header {
  tag: number;
  /** Low 16 bits of the version field. */
  fileVersion: number;
  /** High 16 bits of the version field. */
  licenseeVersion: number;
  packageFlags: number;
  nameCount: number;
  nameOffset: number;
  exportCount: number;
  exportOffset: number;
  importCount: number;
  importOffset: number;
  /** Before version 68: the heritage table (GUIDs of the package's earlier versions). */
  heritageCount: number | null;
  heritageOffset: number | null;
  /** From version 68. */
  guid: string | null;
  generations: { exportCount: number; nameCount: number }[];
  /** Bytes the header takes. */
  size: number;
}

export interface Ue12Name {
  name: string;
  /** Object flags of the name (RF_*). */
  flags: number;
  offset: number;
}

export interface Ue12Import extends ResolvedObject {
  index: number;
  classPackage: string;
  className: string;
  /** The object this one lives in: 0 none, < 0 import, > 0 export (int32 on disk). */
  outerIndex: number;
  objectName: string;
  offset: number;
}

export interface Ue12Export extends ResolvedObject {
  index: number;
  /** Compact indices: 0 none, < 0 import, > 0 export. */
  classIndex: number;
  superIndex: number;
  outerIndex: number;
  objectName: string;
  objectFlags: number;
  objectFlagNames: string[];
  serialSize: number;
  /** 0 when the export has no data (the offset is not stored then). */
  serialOffset: number;
  superPath: string | null;
  offset: number;
}

export interface Ue12Package {
  format: 'ue12';
  fileName: string;
  /** UE1/2 packages are named by their file. */
  packageName: string;
  fileSize: number;
  header: Ue12Header;
  /** "Unreal Engine 1" or "Unreal Engine 2". */
  generation: string;
  /** A game known to write this version and licensee, when known. */
  knownGame: string | null;
  packageFlagNames: string[];
  heritage: string[];
  names: Ue12Name[];
  imports: Ue12Import[];
  exports: Ue12Export[];
  /** Byte ranges of the header and tables, in file order. */
  sections: { name: string; offset: number; size: number }[];
  issues: { structure: string; offset: number; detail: string }[];
}

const KNOWN_GAMES: { version: number; licensee: number; game: string }[] = [
  { version: 69, licensee: 0, game: 'Unreal Tournament (UT99)' },
  { version: 128, licensee: 29, game: 'Unreal Tournament 2004' },
];

/** Longest name UE1/2 allow (NAME_SIZE is 64; some licensees doubled it). */
const MAX_NAME_BYTES = 1024;

function readHeader(r: BinaryReader): Ue12Header {
  r.struct('package header');
  const tag = r.u32();
  if (tag === PACKAGE_FILE_TAG_SWAPPED) throw r.error('big-endian (console) packages are not supported', 0);
  if (tag !== PACKAGE_FILE_TAG) throw r.error(`tag is ${hex32(tag)}, not the package tag ${hex32(PACKAGE_FILE_TAG)}`, 0);
  const versionField = r.i32();
  if (versionField < 0) throw r.error(`LegacyFileVersion ${versionField} makes this a UE4/UE5 package (.uasset), not a UE1/2 one`, 4);
  const fileVersion = versionField & 0xffff;
  const licenseeVersion = versionField >>> 16;
  if (fileVersion >= Ue12Version.UE3) throw r.error(olderEngineDescription(fileVersion, licenseeVersion), 4);
  if (fileVersion < Ue12Version.OLDEST_SUPPORTED) {
    throw r.error(`file version ${fileVersion} is older than the oldest supported (${Ue12Version.OLDEST_SUPPORTED})`, 4);
  }
  const packageFlags = r.u32();
  const nameCount = r.i32(), nameOffset = r.i32();
  const exportCount = r.i32(), exportOffset = r.i32();
  const importCount = r.i32(), importOffset = r.i32();
  let heritageCount: number | null = null, heritageOffset: number | null = null, guid: string | null = null;
  const generations: Ue12Header['generations'] = [];
  if (fileVersion < Ue12Version.HERITAGE_TABLE_DEPRECATED) {
    heritageCount = r.i32();
    heritageOffset = r.i32();
  } else {
    guid = r.guid();
    const n = r.count(8, 'generation count');
    for (let i = 0; i < n; i++) generations.push({ exportCount: r.i32(), nameCount: r.i32() });
  }
  return {
    tag, fileVersion, licenseeVersion, packageFlags, nameCount, nameOffset, exportCount, exportOffset,
    importCount, importOffset, heritageCount, heritageOffset, guid, generations, size: r.pos,
  };
}

function readName(r: BinaryReader, version: number): string {
  if (version < Ue12Version.NAMES_LENGTH_PREFIXED) return r.cstring(MAX_NAME_BYTES);
  const at = r.pos;
  const n = r.compactIndex();
  if (n === 0) return '';
  if (Math.abs(n) > MAX_NAME_BYTES) throw r.error(`name length ${n} is implausible`, at);
  // Negative: UTF-16 code units (some UE2 builds); both counts include the terminator.
  const text = n > 0 ? r.latin1(n) : r.utf16(-n);
  if (text.charCodeAt(text.length - 1) !== 0) throw r.error('name is not NUL-terminated', at);
  return text.slice(0, -1);
}

/** A compact index naming an entry of the name table. */
function readNameRef(r: BinaryReader, names: readonly Ue12Name[]): string {
  const at = r.pos;
  const i = r.compactIndex();
  const n = names[i];
  if (n === undefined) throw r.error(`name index ${i} is outside the name table (${names.length} names)`, at);
  return n.name;
}

/**
 * Parses an Unreal Engine 1 or 2 package (.u .utx .unr .uax .umx .usx .ukx ...): header, name,
 * import and export tables, with every object's path worked out from its outer chain. UE3 and
 * UE4+ packages fail with a FormatError saying what they are.
 */
export function parseUe12Package(bytes: Uint8Array, fileName: string): Ue12Package {
  const r = new BinaryReader(bytes, fileName);
  const h = readHeader(r);
  const v = h.fileVersion;
  const sections: Ue12Package['sections'] = [{ name: 'header', offset: 0, size: h.size }];
  const issues: Ue12Package['issues'] = [];
  // Header field offsets, for errors that point at a count or an offset.
  const F = { nameCount: 12, nameOffset: 16, exportCount: 20, exportOffset: 24, importCount: 28, importOffset: 32, heritageCount: 36, heritageOffset: 40 };

  const heritage: string[] = [];
  if (h.heritageCount !== null && h.heritageOffset !== null) {
    seekTable(r, 'heritage table', h.heritageCount, h.heritageOffset, 16, F.heritageCount, F.heritageOffset);
    for (let i = 0; i < h.heritageCount; i++) heritage.push(r.guid());
    if (h.heritageCount > 0) sections.push({ name: 'heritage table', offset: h.heritageOffset, size: h.heritageCount * 16 });
  }

  seekTable(r, 'name table', h.nameCount, h.nameOffset, 5, F.nameCount, F.nameOffset);
  const names: Ue12Name[] = [];
  for (let i = 0; i < h.nameCount; i++) {
    const offset = r.pos;
    names.push({ name: readName(r, v), flags: r.u32(), offset });
  }
  if (h.nameCount > 0) sections.push({ name: 'name table', offset: h.nameOffset, size: r.pos - h.nameOffset });

  seekTable(r, 'import table', h.importCount, h.importOffset, 7, F.importCount, F.importOffset);
  const rawImports: { classPackage: string; className: string; outerIndex: number; objectName: string; offset: number }[] = [];
  for (let i = 0; i < h.importCount; i++) {
    const offset = r.pos;
    const classPackage = readNameRef(r, names);
    const className = readNameRef(r, names);
    const outerIndex = r.i32();
    const objectName = readNameRef(r, names);
    rawImports.push({ classPackage, className, outerIndex, objectName, offset });
  }
  if (h.importCount > 0) sections.push({ name: 'import table', offset: h.importOffset, size: r.pos - h.importOffset });

  seekTable(r, 'export table', h.exportCount, h.exportOffset, 12, F.exportCount, F.exportOffset);
  const rawExports: { classIndex: number; superIndex: number; outerIndex: number; objectName: string; objectFlags: number; serialSize: number; serialOffset: number; offset: number }[] = [];
  for (let i = 0; i < h.exportCount; i++) {
    const offset = r.pos;
    const classIndex = r.compactIndex();
    const superIndex = r.compactIndex();
    const outerIndex = r.i32();
    const objectName = readNameRef(r, names);
    const objectFlags = r.u32();
    const sizeAt = r.pos;
    const serialSize = r.compactIndex();
    if (serialSize < 0) throw r.error(`export ${i} "${objectName}" has negative serial size ${serialSize}`, sizeAt);
    // The offset is only stored for exports that have data.
    const serialOffset = serialSize > 0 ? r.compactIndex() : 0;
    if (serialSize > 0 && (serialOffset < 0 || serialOffset + serialSize > bytes.length)) {
      issues.push({ structure: 'export table', offset, detail: `export ${i} "${objectName}" data ${serialOffset}+${serialSize} is outside the ${bytes.length}-byte file` });
    }
    rawExports.push({ classIndex, superIndex, outerIndex, objectName, objectFlags, serialSize, serialOffset, offset });
  }
  if (h.exportCount > 0) sections.push({ name: 'export table', offset: h.exportOffset, size: r.pos - h.exportOffset });

  const resolved = resolveObjects(fileName, {
    packageName: null, subobjectDelimiter: false, nullClass: { className: 'Class', classPath: 'Core.Class' },
    tables: { imports: 'import table', exports: 'export table' },
  }, rawImports, rawExports);
  // Super indices are checked like class and outer ones.
  rawExports.forEach((e, i) => {
    if (e.superIndex < -rawImports.length || e.superIndex > rawExports.length) {
      throw new FormatError(fileName, 'export table', e.offset, `export ${i} "${e.objectName}": super index ${e.superIndex} points past the tables`);
    }
  });

  // Objects built field by field: spreading these records is several times slower.
  const imports: Ue12Import[] = rawImports.map((imp, index) => {
    const res = resolved.imports[index]!;
    return {
      index, classPackage: imp.classPackage, className: imp.className, outerIndex: imp.outerIndex, objectName: imp.objectName,
      offset: imp.offset, path: res.path, outer: res.outer, classPath: res.classPath,
    };
  });
  const exports: Ue12Export[] = rawExports.map((exp, index) => {
    const res = resolved.exports[index]!;
    return {
      index, classIndex: exp.classIndex, superIndex: exp.superIndex, outerIndex: exp.outerIndex, objectName: exp.objectName,
      objectFlags: exp.objectFlags, objectFlagNames: decodeFlags(exp.objectFlags, Ue12ObjectFlags as FlagTable),
      serialSize: exp.serialSize, serialOffset: exp.serialOffset, offset: exp.offset,
      path: res.path, outer: res.outer, className: res.className, classPath: res.classPath,
      superPath: indexPath(exp.superIndex, resolved.imports, resolved.exports),
    };
  });
  sections.sort((a, b) => a.offset - b.offset);
  const base = fileName.replace(/\\/g, '/').split('/').pop()!;
  return {
    format: 'ue12', fileName, packageName: base.replace(/\.[^.]*$/, ''), fileSize: bytes.length, header: h,
    generation: ue12Generation(v),
    knownGame: KNOWN_GAMES.find((g) => g.version === v && g.licensee === h.licenseeVersion)?.game ?? null,
    packageFlagNames: decodeFlags(h.packageFlags, Ue12PackageFlags as FlagTable),
    heritage, names, imports, exports, sections, issues,
  };
}
