/**
 * The IoStore container header (chunk type ContainerHeader; the seeds' "depsFile"): the container
 * id, every package's store entry (its imported packages: the container's dependency graph without
 * parsing a package), optional-segment packages, localized packages and redirects, and from UE5.5
 * soft package references.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { FormatError } from '../errors.js';
import { ContainerHeaderVersion } from '../engine-versions.js';
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

function readStoreEntries(r: BinaryReader, version: ContainerHeaderVersion, what: string): { ids: string[]; entries: StoreEntry[] } {
  r.struct(`${what} package ids`);
  const n = r.count(8, 'package id count');
  const ids: string[] = new Array(n);
  for (let i = 0; i < n; i++) ids[i] = readHex64(r);

  r.struct(`${what} store entries`);
  const size = r.count(1, 'store entry buffer size');
  const buf = r.sub(size, `${what} store entries`);
  const layout = storeEntryLayout(version);
  if (n * layout.size > size) {
    throw buf.error(`${n} store entries of ${layout.size} B need ${n * layout.size} bytes but the buffer has ${size}`, 0);
  }
  const entries: StoreEntry[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const at = i * layout.size;
    const e: StoreEntry = { importedPackages: [], shaderMapHashes: [] };
    buf.seek(at);
    if (version === V.Initial) e.exportBundlesSize = buf.u64n('export bundles size');
    if (version < V.NoExportInfo) {
      e.exportCount = buf.i32();
      e.exportBundleCount = buf.i32();
      if (e.exportCount < 0 || e.exportBundleCount < 0) {
        throw buf.error(`store entry ${i} has export count ${e.exportCount} and bundle count ${e.exportBundleCount}`, at);
      }
    }
    if (version === V.Initial) {
      e.loadOrder = buf.u32();
      buf.u32(); // padding
    }
    const imports = readView(buf, at + layout.importsAt, 8, `store entry ${i} imported packages`);
    buf.seek(imports.dataAt);
    for (let k = 0; k < imports.count; k++) e.importedPackages.push(readHex64(buf));
    if (version >= V.LocalizedPackages) {
      const shaders = readView(buf, at + layout.importsAt + 8, 20, `store entry ${i} shader map hashes`);
      buf.seek(shaders.dataAt);
      for (let k = 0; k < shaders.count; k++) e.shaderMapHashes.push(Buffer.from(buf.bytesView(20)).toString('hex'));
    }
    entries[i] = e;
  }
  return { ids, entries };
}

function mappedName(r: BinaryReader, names: string[], what: string): string {
  const at = r.pos;
  const indexAndType = r.u32();
  const number = r.u32();
  const index = indexAndType & 0x3fffffff;
  if (index >= names.length) throw r.error(`${what} name index ${index} is outside the ${names.length} container names`, at);
  return displayName(names[index]!, number);
}

function readSoftReferences(r: BinaryReader, packageCount: number): SoftPackageReferences {
  r.struct('soft package references');
  const n = r.count(8, 'soft package id count');
  const packageIds: string[] = new Array(n);
  for (let i = 0; i < n; i++) packageIds[i] = readHex64(r);
  const size = r.count(1, 'soft package index buffer size');
  const buf = r.sub(size, 'soft package indices');
  const perPackage: number[][] = [];
  // PackageIndices holds one {count, offset-from-this} view of u32 indices per store entry.
  if (size >= packageCount * 8 && packageCount > 0) {
    for (let i = 0; i < packageCount; i++) {
      const v = readView(buf, i * 8, 4, `package ${i} soft references`);
      buf.seek(v.dataAt);
      const list: number[] = new Array(v.count);
      for (let k = 0; k < v.count; k++) {
        const at = buf.pos;
        const idx = buf.u32();
        if (idx >= n) throw buf.error(`soft reference index ${idx} is outside the ${n} soft package ids`, at);
        list[k] = idx;
      }
      perPackage.push(list);
    }
  }
  return { packageIds, perPackage, indicesBuffer: buf.bytes };
}

function parseWithVersion(bytes: Uint8Array, file: string, version: ContainerHeaderVersion, hasMagic: boolean,
  forced: boolean, opts: ContainerHeaderOptions): ContainerHeader {
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

  const main = readStoreEntries(r, version, 'container');
  if (declaredCount >= 0 && declaredCount !== main.ids.length) {
    throw new FormatError(file, 'container header', countAt, `package count ${declaredCount} differs from the ${main.ids.length} package ids`);
  }
  let optional = { ids: [] as string[], entries: [] as StoreEntry[] };
  if (version >= V.OptionalSegmentPackages) optional = readStoreEntries(r, version, 'optional segment');

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
    if (r.bool32()) softPackageReferences = readSoftReferences(r, main.ids.length);
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
      if (sub.bool32()) softPackageReferences = readSoftReferences(sub, main.ids.length);
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
    file, version, versionForced: forced, containerId,
    packageIds: main.ids, storeEntries: main.entries,
    optionalSegmentPackageIds: optional.ids, optionalSegmentStoreEntries: optional.entries,
    containerNames, localizedPackages, culturePackageMap, packageRedirects, softPackageReferences, byteLength,
  };
}

/**
 * Parses a container header chunk of any version from -1 (PreInitial, UE4.25) to 5
 * (SoftPackageReferencesOffset, UE5.6+). With the magic the version is read; without it the
 * header is UE4.25-4.27 and Initial or PreInitial is decided by which one reads consistently
 * (`opts.version` forces one).
 */
export function parseContainerHeader(bytes: Uint8Array, fileName: string, opts: ContainerHeaderOptions = {}): ContainerHeader {
  const r = new BinaryReader(bytes, fileName).struct('container header');
  const magic = r.u32();
  const forced = opts.version;
  if (forced !== undefined && forced <= V.Initial) {
    return parseWithVersion(bytes, fileName, forced, false, true, opts);
  }
  if (magic === CONTAINER_HEADER_MAGIC) {
    const version = r.i32();
    if (version < V.LocalizedPackages || version > V.SoftPackageReferencesOffset) {
      throw r.error(`container header version ${version} is not one PakScope knows (1 to 5)`, 4);
    }
    if (forced !== undefined && forced !== version) {
      throw r.error(`container header says version ${version}, but version ${forced} was requested`, 4);
    }
    return parseWithVersion(bytes, fileName, version, true, forced !== undefined, opts);
  }
  if (forced !== undefined) {
    throw r.error(`version ${forced} headers start with the magic 0x${CONTAINER_HEADER_MAGIC.toString(16)}, found 0x${magic.toString(16)}`, 0);
  }
  // No magic: UE4.26/27 (Initial) unless only the UE4.25 layout (PreInitial) reads consistently.
  try {
    return parseWithVersion(bytes, fileName, V.Initial, false, false, opts);
  } catch (initialError) {
    try {
      return parseWithVersion(bytes, fileName, V.PreInitial, false, false, opts);
    } catch {
      throw initialError;
    }
  }
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
