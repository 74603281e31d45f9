import type { BinaryReader } from '../io/binary-reader.js';
import { type CustomVersion, readCustomVersions } from './custom-versions.js';
import type { AssumedVersions, PackageLayout } from './layout.js';
import { PackageFlags } from './flags.js';
import {
  LEGACY_FILE_VERSION_LATEST, LegacyFileVersion, PACKAGE_FILE_TAG, PACKAGE_FILE_TAG_SWAPPED,
  UE4_LATEST, UE4Version, UE5_LATEST, UE5Version, hex32, olderEngineDescription,
} from './versions.js';

/** FEngineVersion: the engine build that saved the package. */
export interface EngineVersionStamp {
  major: number;
  minor: number;
  patch: number;
  changelist: number;
  /** The changelist is a licensee's (top bit set). */
  licensee: boolean;
  branch: string;
  /** "5.3.2-29314046+++UE5+Release-5.3" as the engine prints it. */
  text: string;
}

export interface GenerationInfo { exportCount: number; nameCount: number }

/**
 * FPackageFileSummary, every field the versions allow. A field the package's versions do not
 * have is null (an offset field the version has but the package leaves empty is 0).
 */
export interface PackageFileSummary {
  tag: number;
  legacyFileVersion: number;
  /** 864 in versioned packages, 0 in unversioned ones; absent at LegacyFileVersion -4. */
  legacyUE3Version: number | null;
  /** As stored: 0 in an unversioned package. */
  fileVersionUE4: number;
  /** As stored (LegacyFileVersion -8 on): 0 in an unversioned package. */
  fileVersionUE5: number | null;
  fileVersionLicenseeUE: number;
  /** All stored versions are zero: the layout comes from elsewhere. */
  unversioned: boolean;
  /** The versions the header was read with (stored, or assumed for an unversioned package). */
  layout: PackageLayout;
  /** FIoHash of the package, 20 bytes as hex (UE5 PACKAGE_SAVED_HASH on). */
  savedHash: string | null;
  totalHeaderSize: number;
  customVersions: CustomVersion[];
  /** FolderName / PackageName (usually "None"). */
  packageName: string;
  packageFlags: number;
  nameCount: number;
  nameOffset: number;
  softObjectPathsCount: number | null;
  softObjectPathsOffset: number | null;
  /** Editor-only (absent when the package filters editor-only data). */
  localizationId: string | null;
  gatherableTextDataCount: number | null;
  gatherableTextDataOffset: number | null;
  exportCount: number;
  exportOffset: number;
  importCount: number;
  importOffset: number;
  cellExportCount: number | null;
  cellExportOffset: number | null;
  cellImportCount: number | null;
  cellImportOffset: number | null;
  metaDataOffset: number | null;
  dependsOffset: number;
  softPackageReferencesCount: number | null;
  softPackageReferencesOffset: number | null;
  searchableNamesOffset: number | null;
  thumbnailTableOffset: number;
  importTypeHierarchiesCount: number | null;
  importTypeHierarchiesOffset: number | null;
  /** Package GUID (before PACKAGE_SAVED_HASH). */
  guid: string | null;
  /** Editor-only. */
  persistentGuid: string | null;
  /** Editor-only, only between ADDED_PACKAGE_OWNER and NON_OUTER_PACKAGE_IMPORT. */
  ownerPersistentGuid: string | null;
  generations: GenerationInfo[];
  savedByEngineVersion: EngineVersionStamp | null;
  /** Before ENGINE_VERSION_OBJECT only a changelist was stored. */
  engineChangelist: number | null;
  compatibleWithEngineVersion: EngineVersionStamp | null;
  compressionFlags: number;
  packageSource: number;
  additionalPackagesToCook: string[];
  /** Present while LegacyFileVersion > -7; must be 0. */
  numTextureAllocations: number | null;
  assetRegistryDataOffset: number;
  bulkDataStartOffset: number;
  worldTileInfoDataOffset: number | null;
  chunkIds: number[];
  preloadDependencyCount: number | null;
  preloadDependencyOffset: number | null;
  namesReferencedFromExportDataCount: number | null;
  payloadTocOffset: number | null;
  dataResourceOffset: number | null;
  /** Bytes the summary takes (the name map normally starts here). */
  size: number;
  /** Where each field starts in the file, for error messages and a hex view. */
  fieldOffsets: Record<string, number>;
}

/** Bytes as lowercase hex (FIoHash and SHA values). */
export function hexBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Non-fatal findings while reading the summary. */
export interface SummaryNotes { warnings: string[] }

function readEngineVersion(r: BinaryReader): EngineVersionStamp {
  const major = r.u16(), minor = r.u16(), patch = r.u16();
  const raw = r.u32();
  const branch = r.fstring(1024);
  const changelist = raw & 0x7fffffff;
  return {
    major, minor, patch, changelist, licensee: (raw & 0x80000000) !== 0, branch,
    text: `${major}.${minor}.${patch}-${changelist}${branch ? `+${branch}` : ''}`,
  };
}

/**
 * Reads FPackageFileSummary from the start of a .uasset/.umap. For an unversioned package the
 * layout comes from `assume` (a candidate or the caller's engine); without it the newest known
 * layout for the LegacyFileVersion is used.
 */
export function readSummary(r: BinaryReader, assume: AssumedVersions | undefined, notes: SummaryNotes): PackageFileSummary {
  r.struct('package summary').seek(0);
  const fieldOffsets: Record<string, number> = {};
  const at = (name: string): void => { fieldOffsets[name] = r.pos; };

  at('tag');
  const tag = r.u32();
  if (tag === PACKAGE_FILE_TAG_SWAPPED) throw r.error('big-endian (console) packages are not supported', 0);
  if (tag !== PACKAGE_FILE_TAG) {
    throw r.error(`tag is ${hex32(tag)}, not the package tag ${hex32(PACKAGE_FILE_TAG)}`, 0);
  }
  at('legacyFileVersion');
  const legacyFileVersion = r.i32();
  if (legacyFileVersion >= 0) throw r.error(olderEngineDescription(legacyFileVersion & 0xffff, legacyFileVersion >>> 16), 4);
  if (legacyFileVersion < LEGACY_FILE_VERSION_LATEST) {
    throw r.error(`LegacyFileVersion ${legacyFileVersion} is newer than any known (${LEGACY_FILE_VERSION_LATEST})`, 4);
  }

  let legacyUE3Version: number | null = null;
  if (legacyFileVersion !== LegacyFileVersion.UE3_VERSION_REMOVED) { at('legacyUE3Version'); legacyUE3Version = r.i32(); }
  at('fileVersionUE4');
  const fileVersionUE4 = r.i32();
  let fileVersionUE5: number | null = null;
  if (legacyFileVersion <= LegacyFileVersion.UE5_VERSION) { at('fileVersionUE5'); fileVersionUE5 = r.i32(); }
  at('fileVersionLicenseeUE');
  const fileVersionLicenseeUE = r.i32();

  const unversioned = fileVersionUE4 === 0 && (fileVersionUE5 ?? 0) === 0;
  let layout: PackageLayout;
  if (unversioned) {
    const fallback: AssumedVersions = legacyFileVersion <= LegacyFileVersion.UE5_VERSION
      ? { ue4: UE4_LATEST, ue5: UE5_LATEST, importPackageNameAlways: false, engines: [] }
      : { ue4: UE4_LATEST, ue5: 0, importPackageNameAlways: false, engines: [] };
    const a = assume ?? fallback;
    layout = { legacyFileVersion, ue4: a.ue4, ue5: a.ue5, importPackageNameAlways: a.importPackageNameAlways };
  } else {
    if (fileVersionUE4 < UE4Version.OLDEST_LOADABLE_PACKAGE) {
      throw r.error(`UE4 version ${fileVersionUE4} is older than the oldest loadable package version ${UE4Version.OLDEST_LOADABLE_PACKAGE}`, fieldOffsets.fileVersionUE4);
    }
    const ue5 = fileVersionUE5 ?? 0;
    if (ue5 !== 0 && ue5 < UE5Version.INITIAL_VERSION) {
      throw r.error(`UE5 version ${ue5} is not a UE5 version (1000 on)`, fieldOffsets.fileVersionUE5);
    }
    if (fileVersionUE4 > UE4_LATEST) notes.warnings.push(`UE4 version ${fileVersionUE4} is newer than any known (${UE4_LATEST}); read as ${UE4_LATEST}`);
    if (ue5 > UE5_LATEST) notes.warnings.push(`UE5 version ${ue5} is newer than any known (${UE5_LATEST}); read as ${UE5_LATEST}`);
    // A versioned package states every version but the one UE5.8 added without a version: the caller may assume it.
    layout = {
      legacyFileVersion, ue4: Math.min(fileVersionUE4, UE4_LATEST), ue5: Math.min(ue5, UE5_LATEST),
      importPackageNameAlways: assume?.importPackageNameAlways ?? false,
    };
  }
  const ue4 = layout.ue4, ue5 = layout.ue5;

  let savedHash: string | null = null;
  let totalHeaderSize = -1;
  if (ue5 >= UE5Version.PACKAGE_SAVED_HASH) {
    at('savedHash');
    savedHash = hexBytes(r.bytesView(20));
    at('totalHeaderSize');
    totalHeaderSize = r.i32();
  }
  at('customVersions');
  const customVersions = readCustomVersions(r, legacyFileVersion);
  if (ue5 < UE5Version.PACKAGE_SAVED_HASH) { at('totalHeaderSize'); totalHeaderSize = r.i32(); }
  if (totalHeaderSize < 0) throw r.error(`TotalHeaderSize ${totalHeaderSize} is negative`, fieldOffsets.totalHeaderSize);
  at('packageName');
  const packageName = r.fstring(4096);
  at('packageFlags');
  const packageFlags = r.u32();
  const filterEditorOnly = (packageFlags & PackageFlags.PKG_FilterEditorOnly) !== 0;

  at('nameCount');
  const nameCount = r.i32();
  at('nameOffset');
  const nameOffset = r.i32();
  let softObjectPathsCount: number | null = null, softObjectPathsOffset: number | null = null;
  if (ue5 >= UE5Version.ADD_SOFTOBJECTPATH_LIST) {
    at('softObjectPathsCount'); softObjectPathsCount = r.i32();
    at('softObjectPathsOffset'); softObjectPathsOffset = r.i32();
  }
  let localizationId: string | null = null;
  if (!filterEditorOnly && ue4 >= UE4Version.ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID) { at('localizationId'); localizationId = r.fstring(4096); }
  let gatherableTextDataCount: number | null = null, gatherableTextDataOffset: number | null = null;
  if (ue4 >= UE4Version.SERIALIZE_TEXT_IN_PACKAGES) {
    at('gatherableTextDataCount'); gatherableTextDataCount = r.i32();
    at('gatherableTextDataOffset'); gatherableTextDataOffset = r.i32();
  }
  at('exportCount'); const exportCount = r.i32();
  at('exportOffset'); const exportOffset = r.i32();
  at('importCount'); const importCount = r.i32();
  at('importOffset'); const importOffset = r.i32();
  let cellExportCount: number | null = null, cellExportOffset: number | null = null;
  let cellImportCount: number | null = null, cellImportOffset: number | null = null;
  if (ue5 >= UE5Version.VERSE_CELLS) {
    at('cellExportCount'); cellExportCount = r.i32();
    at('cellExportOffset'); cellExportOffset = r.i32();
    at('cellImportCount'); cellImportCount = r.i32();
    at('cellImportOffset'); cellImportOffset = r.i32();
  }
  let metaDataOffset: number | null = null;
  if (ue5 >= UE5Version.METADATA_SERIALIZATION_OFFSET) { at('metaDataOffset'); metaDataOffset = r.i32(); }
  at('dependsOffset'); const dependsOffset = r.i32();
  let softPackageReferencesCount: number | null = null, softPackageReferencesOffset: number | null = null;
  if (ue4 >= UE4Version.ADD_STRING_ASSET_REFERENCES_MAP) {
    at('softPackageReferencesCount'); softPackageReferencesCount = r.i32();
    at('softPackageReferencesOffset'); softPackageReferencesOffset = r.i32();
  }
  let searchableNamesOffset: number | null = null;
  if (ue4 >= UE4Version.ADDED_SEARCHABLE_NAMES) { at('searchableNamesOffset'); searchableNamesOffset = r.i32(); }
  at('thumbnailTableOffset'); const thumbnailTableOffset = r.i32();
  let importTypeHierarchiesCount: number | null = null, importTypeHierarchiesOffset: number | null = null;
  if (ue5 >= UE5Version.IMPORT_TYPE_HIERARCHIES) {
    at('importTypeHierarchiesCount'); importTypeHierarchiesCount = r.i32();
    at('importTypeHierarchiesOffset'); importTypeHierarchiesOffset = r.i32();
  }
  let guid: string | null = null;
  if (ue5 < UE5Version.PACKAGE_SAVED_HASH) { at('guid'); guid = r.guid(); }
  let persistentGuid: string | null = null, ownerPersistentGuid: string | null = null;
  if (!filterEditorOnly) {
    if (ue4 >= UE4Version.ADDED_PACKAGE_OWNER) { at('persistentGuid'); persistentGuid = r.guid(); } else persistentGuid = guid;
    if (ue4 >= UE4Version.ADDED_PACKAGE_OWNER && ue4 < UE4Version.NON_OUTER_PACKAGE_IMPORT) { at('ownerPersistentGuid'); ownerPersistentGuid = r.guid(); }
  }
  at('generations');
  const generationCount = r.count(8, 'generation count');
  const generations: GenerationInfo[] = [];
  for (let i = 0; i < generationCount; i++) generations.push({ exportCount: r.i32(), nameCount: r.i32() });

  let savedByEngineVersion: EngineVersionStamp | null = null, engineChangelist: number | null = null;
  at('savedByEngineVersion');
  if (ue4 >= UE4Version.ENGINE_VERSION_OBJECT) savedByEngineVersion = readEngineVersion(r);
  else engineChangelist = r.u32();
  let compatibleWithEngineVersion: EngineVersionStamp | null = savedByEngineVersion;
  if (ue4 >= UE4Version.PACKAGE_SUMMARY_HAS_COMPATIBLE_ENGINE_VERSION) {
    at('compatibleWithEngineVersion'); compatibleWithEngineVersion = readEngineVersion(r);
  }
  at('compressionFlags'); const compressionFlags = r.u32();
  at('compressedChunks');
  const compressedChunks = r.count(16, 'compressed chunk count');
  if (compressedChunks > 0) throw r.error(`package-level compression (${compressedChunks} compressed chunks) is not supported`, fieldOffsets.compressedChunks);
  at('packageSource'); const packageSource = r.u32();
  at('additionalPackagesToCook');
  const additionalCount = r.count(4, 'additional packages to cook count');
  const additionalPackagesToCook: string[] = [];
  for (let i = 0; i < additionalCount; i++) additionalPackagesToCook.push(r.fstring(4096));
  let numTextureAllocations: number | null = null;
  if (legacyFileVersion > LegacyFileVersion.TEXTURE_ALLOCATIONS_REMOVED) {
    at('numTextureAllocations');
    numTextureAllocations = r.i32();
    if (numTextureAllocations !== 0) throw r.error(`${numTextureAllocations} texture allocations: this pre-release layout is not supported`, fieldOffsets.numTextureAllocations);
  }
  at('assetRegistryDataOffset'); const assetRegistryDataOffset = r.i32();
  at('bulkDataStartOffset'); const bulkDataStartOffset = r.i64n('BulkDataStartOffset');
  let worldTileInfoDataOffset: number | null = null;
  if (ue4 >= UE4Version.WORLD_LEVEL_INFO) { at('worldTileInfoDataOffset'); worldTileInfoDataOffset = r.i32(); }
  let chunkIds: number[] = [];
  if (ue4 >= UE4Version.CHANGED_CHUNKID_TO_BE_AN_ARRAY_OF_CHUNKIDS) {
    at('chunkIds');
    const n = r.count(4, 'chunk id count');
    chunkIds = Array.from({ length: n }, () => r.i32());
  } else if (ue4 >= UE4Version.ADDED_CHUNKID_TO_ASSETDATA_AND_UPACKAGE) {
    at('chunkIds');
    const id = r.i32();
    chunkIds = id < 0 ? [] : [id];
  }
  let preloadDependencyCount: number | null = null, preloadDependencyOffset: number | null = null;
  if (ue4 >= UE4Version.PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS) {
    at('preloadDependencyCount'); preloadDependencyCount = r.i32();
    at('preloadDependencyOffset'); preloadDependencyOffset = r.i32();
  }
  let namesReferencedFromExportDataCount: number | null = null;
  if (ue5 >= UE5Version.NAMES_REFERENCED_FROM_EXPORT_DATA) { at('namesReferencedFromExportDataCount'); namesReferencedFromExportDataCount = r.i32(); }
  let payloadTocOffset: number | null = null;
  if (ue5 >= UE5Version.PAYLOAD_TOC) { at('payloadTocOffset'); payloadTocOffset = r.i64n('PayloadTocOffset'); }
  let dataResourceOffset: number | null = null;
  if (ue5 >= UE5Version.DATA_RESOURCES) { at('dataResourceOffset'); dataResourceOffset = r.i32(); }

  return {
    tag, legacyFileVersion, legacyUE3Version, fileVersionUE4, fileVersionUE5, fileVersionLicenseeUE, unversioned, layout,
    savedHash, totalHeaderSize, customVersions, packageName, packageFlags, nameCount, nameOffset,
    softObjectPathsCount, softObjectPathsOffset, localizationId, gatherableTextDataCount, gatherableTextDataOffset,
    exportCount, exportOffset, importCount, importOffset, cellExportCount, cellExportOffset, cellImportCount, cellImportOffset,
    metaDataOffset, dependsOffset, softPackageReferencesCount, softPackageReferencesOffset, searchableNamesOffset,
    thumbnailTableOffset, importTypeHierarchiesCount, importTypeHierarchiesOffset, guid, persistentGuid, ownerPersistentGuid,
    generations, savedByEngineVersion, engineChangelist, compatibleWithEngineVersion, compressionFlags, packageSource,
    additionalPackagesToCook, numTextureAllocations, assetRegistryDataOffset, bulkDataStartOffset, worldTileInfoDataOffset,
    chunkIds, preloadDependencyCount, preloadDependencyOffset, namesReferencedFromExportDataCount, payloadTocOffset,
    dataResourceOffset, size: r.pos, fieldOffsets,
  };
}
