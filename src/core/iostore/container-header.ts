/**
 * The IoStore container header (chunk type ContainerHeader; the seeds' "depsFile"): the container
 * id, every package's store entry (its imported packages: the container's dependency graph without
 * parsing a package), optional-segment packages, localized packages and redirects, and from UE5.5
 * soft package references.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { bytesToHex } from '../io/hex.js';
import { FormatError } from '../errors.js';
import { ContainerHeaderVersion } from '../engine-versions.js';
import { hexWords } from '../hash/cityhash64.js';
import { readHex64 } from '../zen/object-index.js';
import { readNameBatch, readNamePairs, displayName } from '../zen/name-batch.js';

export { ContainerHeaderVersion };

/** "IoCn" little-endian: the header starts with it from UE5.0 (LocalizedPackages) on. */
export const CONTAINER_HEADER_MAGIC = 0x496f436e;

/** One package's FFilePackageStoreEntry; fields absent in a version are left out. */
export interface StoreEntry {
  /** UE4.26/27 (Initial): bytes of the package's export bundles (its whole chunk). */
  exportBundlesSize?: number;
  /** UE4.26/27 (Initial). */
  loadOrder?: number;
  /** Up to UE5.2 (before NoExportInfo). */
  exportCount?: number;
  exportBundleCount?: number;
  /** Package ids (16 hex digits) this package imports, in import order. */
  importedPackages: string[];
  /** UE5.0+: shader map hashes (40 hex digits, SHA-1). */
  shaderMapHashes: string[];
}

export interface LocalizedPackage {
  sourcePackageId: string;
  /** The source package's name from the container name map ("/Game/L10N/..." base). */
  sourcePackageName: string;
}

export interface PackageRedirect {
  sourcePackageId: string;
  targetPackageId: string;
  /** From UE5.0 on. */
  sourcePackageName?: string;
}

export interface CulturePackages {
  culture: string;
  packages: { sourcePackageId: string; localizedPackageId: string }[];
}

export interface SoftPackageReferences {
  /** The distinct soft-referenced package ids. */
  packageIds: string[];
  /**
   * Per store entry (same order as `packageIds` of the header), indices into `packageIds`.
   * Empty when the buffer does not hold one view per package.
   */
  perPackage: number[][];
  /** The raw PackageIndices buffer. */
  indicesBuffer: Uint8Array;
}

export interface ContainerHeader {
  file: string;
  version: ContainerHeaderVersion;
  /** Whether the version was forced by the caller rather than read or detected. */
  versionForced: boolean;
  containerId: string;
  /** Package ids (16 hex digits), parallel to storeEntries. */
  packageIds: string[];
  storeEntries: StoreEntry[];
  /** UE5.1+ (OptionalSegmentPackages). */
  optionalSegmentPackageIds: string[];
  optionalSegmentStoreEntries: StoreEntry[];
  /** The container's own name map (redirect and localization names). */
  containerNames: string[];
  /** UE5.0+. */
  localizedPackages: LocalizedPackage[];
  /** UE4.26/27: culture → localized package ids. */
  culturePackageMap: CulturePackages[];
  packageRedirects: PackageRedirect[];
  /** UE5.5+ when present. */
  softPackageReferences?: SoftPackageReferences;
  /** Bytes the header occupies (the chunk may be padded after it). */
  byteLength: number;
}

export interface ContainerHeaderOptions {
  /** Force a version (PreInitial for UE4.25 headers, which carry no version field). */
  version?: ContainerHeaderVersion;
  /** Check container name hashes (default true). */
  verifyNameHashes?: boolean;
}

/**
 * A segment's package ids and the ids each imports, as numbers instead of hex strings, the imported
 * ids left in place in the header's bytes: the whole-install dependency graph reads millions of
 * imported ids, and a string (plus an array and an object per package) for each costs more than
 * everything else it does.
 */
export interface PackageImportTable {
  /** Packages in the segment. */
  count: number;
  /** Package i's id: high word ids[2i], low word ids[2i + 1]. */
  ids: Uint32Array;
  /**
   * The segment's store entry bytes: package i imports importCounts[i] package ids, u64
   * little-endian each, from byte importOffsets[i] on (checked to lie inside).
   */
  importData: DataView;
  importOffsets: Uint32Array;
  importCounts: Uint32Array;
}

/** What parseContainerImports reads: the package graph of a container header, nothing else kept. */
export interface ContainerImports {
  file: string;
  version: ContainerHeaderVersion;
  containerId: string;
  main: PackageImportTable;
  /** UE5.1+ (OptionalSegmentPackages); empty before. */
  optionalSegment: PackageImportTable;
  byteLength: number;
}

const V = ContainerHeaderVersion;

/** Entry size and where the ImportedPackages view sits in it. */
function storeEntryLayout(version: ContainerHeaderVersion): { size: number; importsAt: number } {
  switch (version) {
    case V.PreInitial: return { size: 16, importsAt: 8 };
    case V.Initial: return { size: 32, importsAt: 24 };
    case V.LocalizedPackages:
    case V.OptionalSegmentPackages: return { size: 24, importsAt: 8 };
    default: return { size: 16, importsAt: 0 };
  }
}

/**
 * A TFilePackageStoreEntryCArrayView {u32 count, u32 offset from the view itself} read at `at`
 * in the entries buffer, checked against the buffer. Returns the data's offset in the buffer.
 */
function readView(buf: BinaryReader, at: number, elemSize: number, what: string): { count: number; dataAt: number } {
  buf.seek(at);
  const count = buf.u32();
  const rel = buf.u32();
  const dataAt = at + rel;
  if (count === 0) return { count, dataAt };
  if (dataAt + count * elemSize > buf.length) {
    throw buf.error(`${what} view (${count} × ${elemSize} B at +${rel}) runs past the ${buf.length}-byte store entry buffer`, at);
  }
  return { count, dataAt };
}

/**
 * The data offset of the store entry view at `viewAt`, checked as readView checks it and as a seek
 * to its data would (an empty view's offset too must lie in the buffer); the errors are theirs.
 */
function viewData(buf: BinaryReader, v: DataView, viewAt: number, elemSize: number, entry: number, what: string): number {
  const count = v.getUint32(viewAt, true);
  const dataAt = viewAt + v.getUint32(viewAt + 4, true);
  if ((count !== 0 && dataAt + count * elemSize > buf.length) || dataAt > buf.length) {
    readView(buf, viewAt, elemSize, `store entry ${entry} ${what}`);
    buf.seek(dataAt);
  }
  return dataAt;
}

/** One segment's store entries: the import table always, the StoreEntry objects when read in full. */
interface Segment {
  table: PackageImportTable;
  /** Empty unless read in full. */
  entries: StoreEntry[];
}

/** n u64 ids at the reader's position, as [high, low] word pairs (the count is checked by the caller). */
function readIdWords(r: BinaryReader, n: number): Uint32Array {
  const bytes = r.bytesView(8 * n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = view.getUint32(8 * i + 4, true);
    out[2 * i + 1] = view.getUint32(8 * i, true);
  }
  return out;
}

/** The 16 hex digit strings of [high, low] word pairs. */
function hexIds(words: Uint32Array): string[] {
  const out: string[] = new Array(words.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = hexWords(words[2 * i]!, words[2 * i + 1]!);
  return out;
}

/**
 * A segment's package ids and store entries. Every entry is checked the same way whether it is
 * read in full or only for its imports, so both readers accept exactly the same headers.
 */
function readSegment(r: BinaryReader, version: ContainerHeaderVersion, what: string, full: boolean): Segment {
  r.struct(`${what} package ids`);
  const n = r.count(8, 'package id count');
  const ids = readIdWords(r, n);

  r.struct(`${what} store entries`);
  const size = r.count(1, 'store entry buffer size');
  const buf = r.sub(size, `${what} store entries`);
  const layout = storeEntryLayout(version);
  if (n * layout.size > size) {
    throw buf.error(`${n} store entries of ${layout.size} B need ${n * layout.size} bytes but the buffer has ${size}`, 0);
  }
  const entries: StoreEntry[] = full ? new Array(n) : [];
  // Entries are read straight from the bytes (each lies inside the buffer, checked above); a view
  // that fails its checks is read again through readView/seek for their exact error.
  const v = new DataView(buf.bytes.buffer, buf.bytes.byteOffset, size);
  // Where each entry's imported ids are, checked first; the ids are copied once the total is known.
  const importCounts = new Uint32Array(n);
  const importAts = new Uint32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const at = i * layout.size;
    const e: StoreEntry | undefined = full ? { importedPackages: [], shaderMapHashes: [] } : undefined;
    let field = at;
    if (version === V.Initial) {
      if (v.getUint32(at + 4, true) > 0x1fffff) buf.seek(at).u64n('export bundles size'); // past 2^53: throws
      if (e) e.exportBundlesSize = v.getUint32(at + 4, true) * 2 ** 32 + v.getUint32(at, true);
      field += 8;
    }
    if (version < V.NoExportInfo) {
      const exportCount = v.getInt32(field, true), exportBundleCount = v.getInt32(field + 4, true);
      if (exportCount < 0 || exportBundleCount < 0) {
        throw buf.error(`store entry ${i} has export count ${exportCount} and bundle count ${exportBundleCount}`, at);
      }
      if (e) { e.exportCount = exportCount; e.exportBundleCount = exportBundleCount; }
    }
    if (version === V.Initial && e) e.loadOrder = v.getUint32(field + 8, true);
    const importsAt = at + layout.importsAt;
    importAts[i] = viewData(buf, v, importsAt, 8, i, 'imported packages');
    importCounts[i] = v.getUint32(importsAt, true);
    total += importCounts[i]!;
    if (version >= V.LocalizedPackages) {
      const shadersAt = viewData(buf, v, importsAt + 8, 20, i, 'shader map hashes');
      if (e) {
        for (let k = 0, count = v.getUint32(importsAt + 8, true); k < count; k++) {
          e.shaderMapHashes.push(bytesToHex(buf.bytes.subarray(shadersAt + 20 * k, shadersAt + 20 * k + 20)));
        }
      }
    }
    if (e) entries[i] = e;
  }
  // The engine writes each entry's ids once: views overlapping this much would only multiply memory.
  if (total > size) throw buf.error(`${n} store entries list ${total} imported packages, more than their ${size}-byte buffer can hold`, 0);
  if (full) {
    for (let i = 0; i < n; i++) {
      const list: string[] = (entries[i]!.importedPackages = new Array(importCounts[i]!));
      for (let k = 0, at = importAts[i]!; k < list.length; k++, at += 8) list[k] = hexWords(v.getUint32(at + 4, true), v.getUint32(at, true));
    }
  }
  return { table: { count: n, ids, importData: v, importOffsets: importAts, importCounts }, entries };
}

function mappedName(r: BinaryReader, names: string[], what: string): string {
  const at = r.pos;
  const indexAndType = r.u32();
  const number = r.u32();
  const index = indexAndType & 0x3fffffff;
  if (index >= names.length) throw r.error(`${what} name index ${index} is outside the ${names.length} container names`, at);
  return displayName(names[index]!, number);
}

/** The soft references, checked; built only when `full` (one list per package otherwise wasted). */
function readSoftReferences(r: BinaryReader, packageCount: number, full: boolean): SoftPackageReferences | undefined {
  r.struct('soft package references');
  const n = r.count(8, 'soft package id count');
  let packageIds: string[] = [];
  if (full) packageIds = hexIds(readIdWords(r, n));
  else r.skip(8 * n);
  const size = r.count(1, 'soft package index buffer size');
  const buf = r.sub(size, 'soft package indices');
  const perPackage: number[][] = [];
  // PackageIndices holds one {count, offset-from-this} view of u32 indices per store entry.
  if (size >= packageCount * 8 && packageCount > 0) {
    for (let i = 0; i < packageCount; i++) {
      const v = readView(buf, i * 8, 4, `package ${i} soft references`);
      buf.seek(v.dataAt);
      const list: number[] = full ? new Array(v.count) : [];
      for (let k = 0; k < v.count; k++) {
        const at = buf.pos;
        const idx = buf.u32();
        if (idx >= n) throw buf.error(`soft reference index ${idx} is outside the ${n} soft package ids`, at);
        if (full) list[k] = idx;
      }
      if (full) perPackage.push(list);
    }
  }
  return full ? { packageIds, perPackage, indicesBuffer: buf.bytes } : undefined;
}

/** Everything a header holds; the store entries as objects only when read in full. */
interface ParsedHeader {
  version: ContainerHeaderVersion;
  forced: boolean;
  containerId: string;
  main: Segment;
  optional: Segment;
  containerNames: string[];
  localizedPackages: LocalizedPackage[];
  culturePackageMap: CulturePackages[];
  packageRedirects: PackageRedirect[];
  softPackageReferences?: SoftPackageReferences;
  byteLength: number;
}

function parseWithVersion(bytes: Uint8Array, file: string, version: ContainerHeaderVersion, hasMagic: boolean,
  forced: boolean, opts: ContainerHeaderOptions, full: boolean): ParsedHeader {
  const r = new BinaryReader(bytes, file).struct('container header');
  if (hasMagic) r.skip(8);
  const containerId = readHex64(r);
  let declaredCount = -1;
  const countAt = r.pos;
  if (version < V.OptionalSegmentPackages) declaredCount = r.u32();

  const nameOpts = { verifyHashes: opts.verifyNameHashes };
  let containerNames: string[] = [];
  if (version <= V.Initial) {
    r.struct('container names');
    const namesSize = r.count(1, 'names buffer size');
    const names = r.sub(namesSize, 'container names');
    const hashesSize = r.count(1, 'name hashes buffer size');
    const hashes = r.sub(hashesSize, 'container name hashes');
    containerNames = readNamePairs(names, hashes, nameOpts);
  }

  const main = readSegment(r, version, 'container', full);
  if (declaredCount >= 0 && declaredCount !== main.table.count) {
    throw new FormatError(file, 'container header', countAt, `package count ${declaredCount} differs from the ${main.table.count} package ids`);
  }
  const optional = version >= V.OptionalSegmentPackages ? readSegment(r, version, 'optional segment', full) : EMPTY_SEGMENT;

  const localizedPackages: LocalizedPackage[] = [];
  const packageRedirects: PackageRedirect[] = [];
  const culturePackageMap: CulturePackages[] = [];
  if (version > V.Initial) {
    r.struct('container names');
    containerNames = readNameBatch(r, nameOpts);
    if (version >= V.LocalizedPackages) {
      r.struct('localized packages');
      const n = r.count(16, 'localized package count');
      for (let i = 0; i < n; i++) {
        const sourcePackageId = readHex64(r);
        localizedPackages.push({ sourcePackageId, sourcePackageName: mappedName(r, containerNames, `localized package ${i}`) });
      }
    }
    r.struct('package redirects');
    const n = r.count(24, 'package redirect count');
    for (let i = 0; i < n; i++) {
      const sourcePackageId = readHex64(r);
      const targetPackageId = readHex64(r);
      packageRedirects.push({ sourcePackageId, targetPackageId, sourcePackageName: mappedName(r, containerNames, `package redirect ${i}`) });
    }
  } else {
    r.struct('culture package map');
    const cultures = r.count(12, 'culture count');
    for (let i = 0; i < cultures; i++) {
      const culture = r.fstring(1024);
      const n = r.count(16, `culture ${culture} package count`);
      const packages: CulturePackages['packages'] = [];
      for (let k = 0; k < n; k++) packages.push({ sourcePackageId: readHex64(r), localizedPackageId: readHex64(r) });
      culturePackageMap.push({ culture, packages });
    }
    r.struct('package redirects');
    const n = r.count(16, 'package redirect count');
    for (let i = 0; i < n; i++) packageRedirects.push({ sourcePackageId: readHex64(r), targetPackageId: readHex64(r) });
  }

  let softPackageReferences: SoftPackageReferences | undefined;
  if (version === V.SoftPackageReferences) {
    r.struct('soft package references');
    if (r.bool32()) softPackageReferences = readSoftReferences(r, main.table.count, full);
  } else if (version >= V.SoftPackageReferencesOffset) {
    r.struct('soft package references serial info');
    const infoAt = r.pos;
    const offset = r.i64n('soft package references offset');
    const size = r.i64n('soft package references size');
    if (size > 0) {
      if (offset !== r.pos || offset + size > bytes.length) {
        throw r.error(`soft package references at ${offset} (${size} B) should start right after their serial info, at ${r.pos}`, infoAt);
      }
      const sub = r.sub(size, 'soft package references');
      if (sub.bool32()) softPackageReferences = readSoftReferences(sub, main.table.count, full);
      if (sub.remaining !== 0) throw sub.error(`${sub.remaining} bytes left inside the soft package references`);
    } else if (size < 0) {
      throw r.error(`soft package references size ${size} is negative`, infoAt);
    }
  }

  const byteLength = r.pos;
  // Chunks are sometimes padded; anything after the header must be zero padding.
  for (let i = byteLength; i < bytes.length; i++) {
    if (bytes[i] !== 0) throw new FormatError(file, 'container header', i, `${bytes.length - byteLength} bytes after the header's end at ${byteLength} are not padding`);
  }

  return {
    version, forced, containerId, main, optional,
    containerNames, localizedPackages, culturePackageMap, packageRedirects, softPackageReferences, byteLength,
  };
}

const EMPTY_SEGMENT: Segment = {
  table: { count: 0, ids: new Uint32Array(0), importData: new DataView(new ArrayBuffer(0)), importOffsets: new Uint32Array(0), importCounts: new Uint32Array(0) },
  entries: [],
};

/** Reads the version (or detects it) and the header, in full or for its package graph only. */
function parseAnyVersion(bytes: Uint8Array, fileName: string, opts: ContainerHeaderOptions, full: boolean): ParsedHeader {
  const r = new BinaryReader(bytes, fileName).struct('container header');
  const magic = r.u32();
  const forced = opts.version;
  if (forced !== undefined && forced <= V.Initial) {
    return parseWithVersion(bytes, fileName, forced, false, true, opts, full);
  }
  if (magic === CONTAINER_HEADER_MAGIC) {
    const version = r.i32();
    if (version < V.LocalizedPackages || version > V.SoftPackageReferencesOffset) {
      throw r.error(`container header version ${version} is not one PakScope knows (1 to 5)`, 4);
    }
    if (forced !== undefined && forced !== version) {
      throw r.error(`container header says version ${version}, but version ${forced} was requested`, 4);
    }
    return parseWithVersion(bytes, fileName, version, true, forced !== undefined, opts, full);
  }
  if (forced !== undefined) {
    throw r.error(`version ${forced} headers start with the magic 0x${CONTAINER_HEADER_MAGIC.toString(16)}, found 0x${magic.toString(16)}`, 0);
  }
  // No magic: UE4.26/27 (Initial) unless only the UE4.25 layout (PreInitial) reads consistently.
  try {
    return parseWithVersion(bytes, fileName, V.Initial, false, false, opts, full);
  } catch (initialError) {
    try {
      return parseWithVersion(bytes, fileName, V.PreInitial, false, false, opts, full);
    } catch {
      throw initialError;
    }
  }
}

/**
 * Parses a container header chunk of any version from -1 (PreInitial, UE4.25) to 5
 * (SoftPackageReferencesOffset, UE5.6+). With the magic the version is read; without it the
 * header is UE4.25-4.27 and Initial or PreInitial is decided by which one reads consistently
 * (`opts.version` forces one).
 */
export function parseContainerHeader(bytes: Uint8Array, fileName: string, opts: ContainerHeaderOptions = {}): ContainerHeader {
  const p = parseAnyVersion(bytes, fileName, opts, true);
  return {
    file: fileName, version: p.version, versionForced: p.forced, containerId: p.containerId,
    packageIds: hexIds(p.main.table.ids), storeEntries: p.main.entries,
    optionalSegmentPackageIds: hexIds(p.optional.table.ids), optionalSegmentStoreEntries: p.optional.entries,
    containerNames: p.containerNames, localizedPackages: p.localizedPackages, culturePackageMap: p.culturePackageMap,
    packageRedirects: p.packageRedirects, softPackageReferences: p.softPackageReferences, byteLength: p.byteLength,
  };
}

/**
 * The package graph of a container header: each package's id and the ids it imports, as word
 * pairs (see PackageImportTable). Checks the whole header as parseContainerHeader does and fails
 * the same way, but builds no string or object per package.
 */
export function parseContainerImports(bytes: Uint8Array, fileName: string, opts: ContainerHeaderOptions = {}): ContainerImports {
  const p = parseAnyVersion(bytes, fileName, opts, false);
  return { file: fileName, version: p.version, containerId: p.containerId, main: p.main.table, optionalSegment: p.optional.table, byteLength: p.byteLength };
}

const indexCache = new WeakMap<ContainerHeader, Map<string, StoreEntry>>();

/** The store entry of a package id (main or optional segment), or undefined. */
export function findStoreEntry(header: ContainerHeader, packageId: string): StoreEntry | undefined {
  let index = indexCache.get(header);
  if (!index) {
    index = new Map();
    header.optionalSegmentPackageIds.forEach((id, i) => index!.set(id, header.optionalSegmentStoreEntries[i]!));
    header.packageIds.forEach((id, i) => index!.set(id, header.storeEntries[i]!));
    indexCache.set(header, index);
  }
  return index.get(packageId);
}
