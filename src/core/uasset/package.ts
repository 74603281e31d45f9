import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { type FlagTable, ObjectFlags, PackageFlags, decodeFlags } from './flags.js';
import type { AssumedVersions } from './layout.js';
import { nameHashesMatch } from './name-hash.js';
import { type NameEntry, nameMapHasHashes, readNameMap } from './names.js';
import {
  type ObjectExport, type ObjectImport, exportEntrySize, importEntrySize, readExport, readImport,
} from './object-resources.js';
import { type ResolvedObject, indexPath, resolveObjects, ue4PathStyle } from './resolve.js';
import {
  type AssetRegistryData, type DataResource, type GatherableText, type SoftObjectPath,
  readAssetRegistryData, readDataResources, readDependsMap, readGatherableText, readPackageIndexes,
  readSearchableNames, readSoftObjectPaths, readSoftPackageReferences,
} from './sections.js';
import { type PackageFileSummary, readSummary } from './summary.js';
import { seekTable } from './table.js';
import { type Thumbnail, readThumbnails } from './thumbnails.js';
import { type PackageTrailer, readPackageTrailer } from './trailer.js';
import { PACKAGE_FILE_TAG, UE4Version, UE5Version, hex32 } from './versions.js';
import { FortniteMainBranchObjectVersion, customVersionOf } from './custom-versions.js';

export interface UAssetParseOptions {
  /**
   * Engine release ("4.27", "5.3") for an unversioned package. Its layout is tried first and kept
   * when it fits the bytes (no other layout is tried then: pass the engine the first package of
   * an archive revealed to read the rest fast); when it does not fit, the bytes decide. Ignored
   * for versioned packages.
   */
  engine?: string;
  /** Size of the .uexp beside a cooked .uasset, when there is one. */
  uexpSize?: number;
  /** The package's name ("/Game/Maps/Entry"); found in the name map otherwise. */
  packageName?: string;
  /** The version of the .pak it was read from: tells UE6.0 from 5.7-5.8, which save alike. */
  pakVersion?: number;
}

export interface UAssetImport extends ObjectImport, ResolvedObject {
  index: number;
}

/** Where an export's serialized bytes are: in the .uasset, in the .uexp, or in a .uexp we do not have. */
export type ExportDataFile = 'uasset' | 'uexp' | 'missing';

export interface UAssetExport extends ObjectExport, ResolvedObject {
  index: number;
  superPath: string | null;
  templatePath: string | null;
  objectFlagNames: string[];
  dataFile: ExportDataFile;
  /** Offset of the bytes inside dataFile (SerialOffset less the header size for a .uexp). */
  dataFileOffset: number;
}

/** A byte range of the header, in file order, for a hex view. */
export interface HeaderSection { name: string; offset: number; size: number }

/** A section that could not be read; the rest of the package still is. `detail` is the FormatError's, without file, structure or offset. */
export interface SectionIssue { structure: string; offset: number; detail: string }

/** An issue as one line of a layout's problems: its structure, offset and detail. */
export const issueText = (i: SectionIssue): string => `${i.structure} at byte ${i.offset}: ${i.detail}`;

export interface UAssetVersionInfo {
  legacyFileVersion: number;
  legacyUE3Version: number | null;
  fileVersionUE4: number;
  fileVersionUE5: number | null;
  licensee: number;
  unversioned: boolean;
  /** The versions the header was read with. */
  ue4: number;
  ue5: number;
  /**
   * header: stored in the package; layout: the only layouts that fit the bytes;
   * engine-option: the caller's engine, among several layouts that fit.
   */
  source: 'header' | 'layout' | 'engine-option';
  /** "5.3", "4.26-4.27", or null when nothing narrows it down. */
  engine: string | null;
  /**
   * Unversioned: the releases whose layout fits the bytes (with a fitting opts.engine: the
   * releases sharing its layout). Versioned: the releases that save with these versions.
   */
  engineCandidates: string[];
}

export interface UAssetPackage {
  format: 'uasset';
  fileName: string;
  packageName: string;
  packageNameSource: 'option' | 'name map' | 'summary' | 'file name';
  /** Bytes of the .uasset given. */
  fileSize: number;
  summary: PackageFileSummary;
  version: UAssetVersionInfo;
  packageFlagNames: string[];
  /** PKG_FilterEditorOnly: editor-only data is stripped (cooked). */
  cooked: boolean;
  names: NameEntry[];
  /** Name map hashes: how many match their names, how many are stored as zeros, which do not match. */
  nameHashes: { matched: number; zeroed: number; mismatched: number[] };
  imports: UAssetImport[];
  exports: UAssetExport[];
  softObjectPaths: SoftObjectPath[];
  gatherableText: GatherableText[];
  /** Per export, the objects it depends on (paths; null entries for index 0). */
  dependsMap: number[][];
  softPackageReferences: string[];
  searchableNames: { index: number; names: string[] }[];
  thumbnails: Thumbnail[];
  assetRegistry: (AssetRegistryData & { offset: number }) | null;
  /** World composition tile info: only located, not decoded. */
  worldTileInfo: { offset: number } | null;
  preloadDependencies: number[];
  dataResources: { version: number; resources: DataResource[] } | null;
  trailer: PackageTrailer | null;
  /** Export data: where it starts and ends in the (.uasset + .uexp) stream. */
  exportData: {
    start: number;
    end: number;
    file: ExportDataFile;
    /** The .uexp's size, when given. */
    uexpSize: number | null;
  };
  bulkDataStartOffset: number;
  sections: HeaderSection[];
  issues: SectionIssue[];
  warnings: string[];
}

/**
 * The package's own name ("/Game/Maps/Entry"): the caller's, the summary's (UE5 stores it), or a
 * /Path/Name in the name map whose last part is the file's base name, or (for renamed files) the
 * name of a top-level export the base name ends with; the base name itself otherwise.
 */
function findPackageName(
  fileName: string, names: readonly NameEntry[], summary: PackageFileSummary, exports: readonly ObjectExport[], option?: string,
): { name: string; source: UAssetPackage['packageNameSource'] } {
  if (option) return { name: option, source: 'option' };
  if (summary.packageName.startsWith('/')) return { name: summary.packageName, source: 'summary' };
  const base = fileName.replace(/\\/g, '/').split('/').pop()!.replace(/\.[^.]*$/, '');
  const paths = names.filter((n) => n.name.startsWith('/') && !n.name.includes('.')).map((n) => n.name);
  const lastPart = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  const exact = paths.find((p) => lastPart(p).toLowerCase() === base.toLowerCase());
  if (exact) return { name: exact, source: 'name map' };
  const topLevel = new Set(exports.filter((e) => e.outerIndex === 0).map((e) => e.objectName));
  const renamed = paths.filter((p) => topLevel.has(lastPart(p)) && base.endsWith(`_${lastPart(p)}`))
    .sort((a, b) => lastPart(b).length - lastPart(a).length)[0];
  if (renamed) return { name: renamed, source: 'name map' };
  if (summary.packageName && summary.packageName !== 'None') return { name: summary.packageName, source: 'summary' };
  return { name: base, source: 'file name' };
}

/** Runs a secondary section reader; a FormatError becomes an issue instead of failing the package. */
function section<T>(issues: SectionIssue[], read: () => T, fallback: T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    issues.push({ structure: e.structure, offset: e.offset, detail: e.detail });
    return fallback;
  }
}

/** How far a layout got before the bytes stopped fitting it (a later stage is a better fit). */
export const LayoutStage = { Summary: 0, Names: 1, Imports: 2, Exports: 3, Objects: 4, ExportData: 5, Sections: 6, All: 7 } as const;

export interface LayoutReading {
  /** Null when probing stopped at a problem. */
  pkg: UAssetPackage | null;
  /** Ways the header does not hang together in this layout. */
  problems: string[];
  /** The stage the first problem was found at (LayoutStage.All: none). */
  stage: number;
}

/**
 * Reads the whole header with one layout. Core tables (summary, names, imports, exports, object
 * resolution) throw; later sections report issues. `probe` stops at the first problem and builds
 * no package: it is how an unversioned package's layout is found (parse.ts).
 */
export function readPackageWithLayout(
  bytes: Uint8Array, fileName: string, assume: AssumedVersions | undefined, opts: UAssetParseOptions, probe = false,
  /** Updated as reading goes on, so a caller knows how far a layout got when it throws. */
  progress: { stage: number } = { stage: 0 },
): LayoutReading {
  const r = new BinaryReader(bytes, fileName);
  const warnings: string[] = [];
  const issues: SectionIssue[] = [];
  const problems: string[] = [];
  let stage: number = LayoutStage.Summary;
  const enter = (next: number): void => { stage = next; progress.stage = next; };
  /** In probe mode: stop at the first problem. */
  const stop = (): boolean => probe && problems.length > 0;
  const stopped = (): LayoutReading => ({ pkg: null, problems, stage });

  const s = readSummary(r, assume, { warnings });
  const f = s.fieldOffsets;
  const layout = s.layout;

  if (bytes.length < s.totalHeaderSize) {
    throw new FormatError(fileName, 'package summary', f.totalHeaderSize ?? 0,
      `TotalHeaderSize is ${s.totalHeaderSize} but the file has only ${bytes.length} bytes (truncated?)`);
  }
  const filterEditorOnly = (s.packageFlags & PackageFlags.PKG_FilterEditorOnly) !== 0;
  const unversionedProperties = (s.packageFlags & PackageFlags.PKG_UnversionedProperties) !== 0;
  const sections: HeaderSection[] = [{ name: 'summary', offset: 0, size: s.size }];
  const span = (name: string, offset: number, end: number): void => { if (end > offset) sections.push({ name, offset, size: end - offset }); };

  // Each table must end where the next section starts: a wrong layout rarely manages that.
  const offsets = [
    s.nameOffset, s.softObjectPathsOffset, s.gatherableTextDataOffset, s.importOffset, s.exportOffset,
    s.cellExportOffset, s.cellImportOffset, s.metaDataOffset, s.dependsOffset, s.softPackageReferencesOffset,
    s.searchableNamesOffset, s.thumbnailTableOffset, s.importTypeHierarchiesOffset, s.assetRegistryDataOffset,
    s.worldTileInfoDataOffset, s.preloadDependencyOffset, s.dataResourceOffset, s.totalHeaderSize,
  ].filter((o): o is number => o !== null && o > 0);
  const checkEnd = (what: string, count: number, start: number, end: number): void => {
    if (count <= 0) return;
    let next = Infinity;
    for (const o of offsets) if (o > start && o < next) next = o;
    if (Number.isFinite(next) && end !== next) problems.push(`the ${what} ends at ${end} but the next section starts at ${next}`);
  };

  // Name map, import map, export map: the tables everything else refers to.
  if (s.nameCount > 0 && s.size !== s.nameOffset) problems.push(`the summary ends at ${s.size} but the name map starts at ${s.nameOffset}`);
  if (stop()) return stopped();
  enter(LayoutStage.Names);
  seekTable(r, 'name map', s.nameCount, s.nameOffset, nameMapHasHashes(layout) ? 8 : 4, f.nameCount, f.nameOffset);
  const names = readNameMap(r, s.nameCount, layout);
  const namesEnd = s.nameCount > 0 ? r.pos : s.nameOffset;
  span('name map', s.nameOffset, namesEnd);
  checkEnd('name map', s.nameCount, s.nameOffset, namesEnd);
  if (stop()) return stopped();

  enter(LayoutStage.Imports);
  const importSize = importEntrySize(layout, filterEditorOnly);
  seekTable(r, 'import map', s.importCount, s.importOffset, importSize, f.importCount, f.importOffset);
  const rawImports: ObjectImport[] = [];
  for (let i = 0; i < s.importCount; i++) rawImports.push(readImport(r, names, layout, filterEditorOnly));
  const importsEnd = s.importOffset + s.importCount * importSize;
  span('import map', s.importOffset, importsEnd);
  checkEnd('import map', s.importCount, s.importOffset, importsEnd);
  if (stop()) return stopped();

  enter(LayoutStage.Exports);
  const exportSize = exportEntrySize(layout, unversionedProperties);
  seekTable(r, 'export map', s.exportCount, s.exportOffset, exportSize, f.exportCount, f.exportOffset);
  const rawExports: ObjectExport[] = [];
  for (let i = 0; i < s.exportCount; i++) rawExports.push(readExport(r, names, layout, unversionedProperties));
  const exportsEnd = s.exportOffset + s.exportCount * exportSize;
  span('export map', s.exportOffset, exportsEnd);
  // UE4.14-4.15 left DependsOffset at 0 and wrote the depends map right after the export map.
  const dependsOffset = s.dependsOffset === 0 && s.exportCount > 0 &&
    layout.ue4 > UE4Version.PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS && layout.ue4 < UE4Version.EXPORTMAP_64BIT_SERIALSIZES
    ? exportsEnd : s.dependsOffset;
  if (dependsOffset !== s.dependsOffset) offsets.push(dependsOffset);
  checkEnd('export map', s.exportCount, s.exportOffset, exportsEnd);
  if (stop()) return stopped();

  enter(LayoutStage.Objects);
  const { name: packageName, source: packageNameSource } = findPackageName(fileName, names, s, rawExports, opts.packageName);
  const resolved = resolveObjects(fileName, ue4PathStyle(packageName), rawImports, rawExports);

  // Export data: in this file when it is longer than the header, else in the .uexp.
  enter(LayoutStage.ExportData);
  const inUasset = bytes.length > s.totalHeaderSize;
  const dataFile: ExportDataFile = inUasset ? 'uasset' : opts.uexpSize !== undefined ? 'uexp' : 'missing';
  const dataLimit = inUasset ? bytes.length : opts.uexpSize !== undefined ? s.totalHeaderSize + opts.uexpSize : Infinity;
  // Cooked export data is the exports' bytes back to back right after the header.
  const withData = rawExports.filter((e) => e.serialSize > 0).sort((a, b) => a.serialOffset - b.serialOffset);
  let dataEnd = s.totalHeaderSize;
  for (const e of withData) {
    if (filterEditorOnly && e.serialOffset !== dataEnd) problems.push(`export "${e.objectName}" data starts at ${e.serialOffset}, not at ${dataEnd} where the previous ends`);
    dataEnd = Math.max(dataEnd, e.serialOffset + e.serialSize);
  }
  const dataStart = withData[0]?.serialOffset ?? s.totalHeaderSize;
  if (stop()) return stopped();

  // Later sections.
  enter(LayoutStage.Sections);
  const softObjectPaths = section(issues, () => {
    const n = s.softObjectPathsCount ?? 0;
    if (n === 0) return [];
    seekTable(r, 'soft object paths', n, s.softObjectPathsOffset ?? 0, 20, f.softObjectPathsCount, f.softObjectPathsOffset);
    // Unversioned packages have no custom versions: UE5.6 (OS_SUB_OBJECT_SHADOW_SERIALIZATION) is where sub-paths became UTF-8.
    const utf8 = s.unversioned ? layout.ue5 >= UE5Version.OS_SUB_OBJECT_SHADOW_SERIALIZATION
      : customVersionOf(s.customVersions, FortniteMainBranchObjectVersion.GUID) >= FortniteMainBranchObjectVersion.SoftObjectPathUtf8SubPaths;
    const out = readSoftObjectPaths(r, n, names, utf8);
    span('soft object paths', s.softObjectPathsOffset!, r.pos);
    return out;
  }, [] as SoftObjectPath[]);
  const gatherableText = section(issues, () => {
    const n = s.gatherableTextDataCount ?? 0;
    if (n === 0) return [];
    seekTable(r, 'gatherable text', n, s.gatherableTextDataOffset ?? 0, 20, f.gatherableTextDataCount, f.gatherableTextDataOffset);
    const out = readGatherableText(r, n);
    span('gatherable text', s.gatherableTextDataOffset!, r.pos);
    return out;
  }, [] as GatherableText[]);
  const dependsMap = section(issues, () => {
    if (dependsOffset <= 0 || s.exportCount === 0) return [];
    seekTable(r, 'depends map', s.exportCount, dependsOffset, 4, f.exportCount, f.dependsOffset);
    const out = readDependsMap(r, s.exportCount);
    span('depends map', dependsOffset, r.pos);
    return out;
  }, [] as number[][]);
  const softPackageReferences = section(issues, () => {
    const n = s.softPackageReferencesCount ?? 0;
    if (n === 0) return [];
    seekTable(r, 'soft package references', n, s.softPackageReferencesOffset ?? 0, 4, f.softPackageReferencesCount, f.softPackageReferencesOffset);
    const out = readSoftPackageReferences(r, n, names, layout);
    span('soft package references', s.softPackageReferencesOffset!, r.pos);
    return out;
  }, [] as string[]);
  const searchableNames = section(issues, () => {
    if (!s.searchableNamesOffset || s.searchableNamesOffset <= 0) return [];
    seekTable(r, 'searchable names', 1, s.searchableNamesOffset, 4, undefined, f.searchableNamesOffset);
    const out = readSearchableNames(r, names);
    span('searchable names', s.searchableNamesOffset, r.pos);
    return out;
  }, [] as { index: number; names: string[] }[]);
  const thumbnails = section(issues, () => {
    if (s.thumbnailTableOffset <= 0) return [];
    seekTable(r, 'thumbnail table', 1, s.thumbnailTableOffset, 4, undefined, f.thumbnailTableOffset);
    const out = readThumbnails(r);
    span('thumbnail table', s.thumbnailTableOffset, r.pos);
    for (const t of out) span(`thumbnail ${t.objectPath}`, t.offset, t.dataOffset + t.dataSize);
    return out;
  }, [] as Thumbnail[]);
  const assetRegistry = section(issues, () => {
    if (s.assetRegistryDataOffset <= 0) return null;
    seekTable(r, 'asset registry data', 1, s.assetRegistryDataOffset, 4, undefined, f.assetRegistryDataOffset);
    const data = readAssetRegistryData(r, layout, filterEditorOnly);
    span('asset registry data', s.assetRegistryDataOffset, r.pos);
    return { offset: s.assetRegistryDataOffset, ...data };
  }, null);
  const worldTileInfo = s.worldTileInfoDataOffset && s.worldTileInfoDataOffset > 0 ? { offset: s.worldTileInfoDataOffset } : null;
  const preloadDependencies = section(issues, () => {
    const n = s.preloadDependencyCount ?? -1;
    if (n <= 0 || !s.preloadDependencyOffset) return [];
    seekTable(r, 'preload dependencies', n, s.preloadDependencyOffset, 4, f.preloadDependencyCount, f.preloadDependencyOffset);
    const out = readPackageIndexes(r, n);
    span('preload dependencies', s.preloadDependencyOffset, r.pos);
    return out;
  }, [] as number[]);
  const dataResources = section(issues, () => {
    if (!s.dataResourceOffset || s.dataResourceOffset <= 0) return null;
    seekTable(r, 'data resources', 1, s.dataResourceOffset, 8, undefined, f.dataResourceOffset);
    const out = readDataResources(r);
    span('data resources', s.dataResourceOffset, r.pos);
    return out;
  }, null);
  const trailer = section(issues, () => {
    if (filterEditorOnly || !s.payloadTocOffset || s.payloadTocOffset <= 0) return null;
    seekTable(r, 'package trailer', 1, s.payloadTocOffset, 48, undefined, f.payloadTocOffset);
    const out = readPackageTrailer(r);
    span('package trailer', s.payloadTocOffset, r.pos);
    return out;
  }, null);
  // Secondary sections that fail to read count against a layout too.
  for (const i of issues) if (!problems.includes(issueText(i))) problems.push(issueText(i));
  // Data past the end of the file (or of the .uexp the caller sized) is the data's fault, not the layout's.
  rawExports.forEach((e, index) => {
    if (e.serialSize > 0 && (e.serialOffset < s.totalHeaderSize || e.serialOffset + e.serialSize > dataLimit)) {
      issues.push({ structure: 'export map', offset: e.offset, detail: `export ${index} "${e.objectName}" data ${e.serialOffset}+${e.serialSize} is outside the export data (${s.totalHeaderSize}..${dataLimit})` });
    }
  });
  if (stop()) return stopped();
  enter(LayoutStage.All);
  if (probe) return { pkg: null, problems, stage };

  // An uncooked package ends with the package tag (the trailer's footer ends with it too).
  const endsWithTag = bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true) === PACKAGE_FILE_TAG;
  if (!filterEditorOnly && !endsWithTag) warnings.push(`the package does not end with the package tag ${hex32(PACKAGE_FILE_TAG)}`);
  // What follows the header in this file: export data, bulk data (uncooked), the tag.
  if (inUasset) {
    span('export data', dataStart, dataEnd);
    const bulkEnd = trailer ? trailer.offset : endsWithTag ? bytes.length - 4 : bytes.length;
    if (s.bulkDataStartOffset >= dataEnd) span('bulk data', s.bulkDataStartOffset, bulkEnd);
    if (endsWithTag && !trailer) span('package tag', bytes.length - 4, bytes.length);
  }
  sections.sort((a, b) => a.offset - b.offset);

  const nameHashes = { matched: 0, zeroed: 0, mismatched: [] as number[] };
  names.forEach((n, i) => {
    const ok = nameHashesMatch(n.name, n.nonCasePreservingHash, n.casePreservingHash);
    if (ok === true) nameHashes.matched++;
    else if (ok === null) { if (n.nonCasePreservingHash !== null) nameHashes.zeroed++; } else nameHashes.mismatched.push(i);
  });
  // Non-ASCII names are hashed with the engine's own case tables, which this does not reproduce.
  for (const i of nameHashes.mismatched) {
    const n = names[i]!;
    if (/^[\x20-\x7e]*$/.test(n.name)) issues.push({ structure: 'name map', offset: n.offset, detail: `name ${i} "${n.name}": stored hashes do not match the name` });
  }

  const imports: UAssetImport[] = rawImports.map((imp, index) => Object.assign(imp, resolved.imports[index]!, { index }));
  const exports: UAssetExport[] = rawExports.map((exp, index) => Object.assign(exp, resolved.exports[index]!, {
    index,
    superPath: indexPath(exp.superIndex, resolved.imports, resolved.exports),
    templatePath: exp.templateIndex === null ? null : indexPath(exp.templateIndex, resolved.imports, resolved.exports),
    objectFlagNames: decodeFlags(exp.objectFlags, ObjectFlags as FlagTable),
    dataFile,
    dataFileOffset: dataFile === 'uasset' ? exp.serialOffset : exp.serialOffset - s.totalHeaderSize,
  }));

  const pkg: UAssetPackage = {
    format: 'uasset', fileName, packageName, packageNameSource, fileSize: bytes.length, summary: s,
    version: {
      legacyFileVersion: s.legacyFileVersion, legacyUE3Version: s.legacyUE3Version, fileVersionUE4: s.fileVersionUE4,
      fileVersionUE5: s.fileVersionUE5, licensee: s.fileVersionLicenseeUE, unversioned: s.unversioned,
      ue4: layout.ue4, ue5: layout.ue5, source: 'header', engine: null, engineCandidates: [],
    },
    packageFlagNames: decodeFlags(s.packageFlags, PackageFlags as FlagTable),
    cooked: filterEditorOnly, names, nameHashes, imports, exports, softObjectPaths, gatherableText, dependsMap,
    softPackageReferences, searchableNames, thumbnails, assetRegistry, worldTileInfo, preloadDependencies,
    dataResources, trailer,
    exportData: { start: dataStart, end: dataEnd, file: dataFile, uexpSize: opts.uexpSize ?? null },
    bulkDataStartOffset: s.bulkDataStartOffset, sections, issues, warnings,
  };
  return { pkg, problems, stage };
}
