/**
 * The one place that knows which engine release wrote which IoStore formats: the .utoc version,
 * the container header version and the Zen package layout. Parsers take these versions as
 * inputs; nothing else compares engine numbers.
 */

// The .utoc versions are the .utoc reader's (iostore/toc-version.ts); this table maps releases to them.
import { TocVersion } from './iostore/toc-version.js';
import { PakVersion } from './pak/version.js';

export { TocVersion };

/** EIoContainerHeaderVersion. PreInitial is PakScope's (and retoc's) name for UE4.25's unversioned header. */
export enum ContainerHeaderVersion {
  PreInitial = -1,
  Initial = 0,
  LocalizedPackages = 1,
  OptionalSegmentPackages = 2,
  NoExportInfo = 3,
  SoftPackageReferences = 4,
  SoftPackageReferencesOffset = 5,
}

/**
 * How a cooked Zen package header is laid out. Each member names what that layout added, so
 * `layout >= ZenLayout.DependencyBundles` reads like the format's history.
 */
export enum ZenLayout {
  /**
   * UE4.26-4.27: FPackageSummary (64 B), separate names and hashes buffers, export bundles, graph
   * data. UE4.25 packages are read the same way, as retoc and CUE4Parse do (no sample to check).
   */
  PackageSummary = 0,
  /** UE5.0-5.1: FZenPackageSummary, name batch, imported public export hashes, graph data. */
  ZenSummary = 1,
  /** UE5.2: a bulk data map after the name batch. */
  BulkDataMap = 2,
  /** UE5.3: one export bundle; dependency bundles and imported package names replace graph data. */
  DependencyBundles = 3,
  /** UE5.4-5.5: the bulk data map is preceded by a padding length and padding to 8 bytes. */
  BulkDataMapPadding = 4,
  /** UE5.6+: cell (Verse VM) import and export map offsets after the versioning info. */
  VerseCells = 5,
}

/** Engine releases, numbered so they order (UE5_4 > UE5_3). */
export enum EngineVersion {
  UE4_25 = 425,
  UE4_26 = 426,
  UE4_27 = 427,
  UE5_0 = 500,
  UE5_1 = 501,
  UE5_2 = 502,
  UE5_3 = 503,
  UE5_4 = 504,
  UE5_5 = 505,
  UE5_6 = 506,
  UE5_7 = 507,
  UE5_8 = 508,
  UE6_0 = 600,
}

/** EUnrealEngineObjectUE5Version members the Zen header reader looks at. */
export enum ObjectVersionUE5 {
  InitialVersion = 1000,
  LargeWorldCoordinates = 1004,
  AddSoftObjectPathList = 1008,
  DataResources = 1009,
  PropertyTagCompleteTypeName = 1012,
  AssetRegistryPackageBuildDependencies = 1013,
  VerseCells = 1015,
  PackageSavedHash = 1016,
  OsSubObjectShadowSerialization = 1017,
  ImportTypeHierarchies = 1018,
}

export interface EngineRelease {
  engine: EngineVersion;
  /** "UE5.4" */
  label: string;
  tocVersion: TocVersion;
  containerHeaderVersion: ContainerHeaderVersion;
  zenLayout: ZenLayout;
  /** FPackageFileVersion the release cooks with (UE4 part, UE5 part; 0 = none). */
  fileVersionUE4: number;
  fileVersionUE5: number;
}

const release = (engine: EngineVersion, tocVersion: TocVersion, containerHeaderVersion: ContainerHeaderVersion,
  zenLayout: ZenLayout, fileVersionUE4: number, fileVersionUE5: number): EngineRelease => ({
  engine, label: `UE${Math.floor(engine / 100)}.${engine % 100}`, tocVersion, containerHeaderVersion, zenLayout,
  fileVersionUE4, fileVersionUE5,
});

const T = TocVersion, H = ContainerHeaderVersion, Z = ZenLayout, V = ObjectVersionUE5;

/** Which formats each release writes (retoc's version.rs, checked against corpus/ where marked in formats.md). */
export const ENGINE_RELEASES: readonly EngineRelease[] = [
  release(EngineVersion.UE4_25, T.DirectoryIndex, H.PreInitial, Z.PackageSummary, 518, 0),
  release(EngineVersion.UE4_26, T.DirectoryIndex, H.Initial, Z.PackageSummary, 522, 0),
  release(EngineVersion.UE4_27, T.PartitionSize, H.Initial, Z.PackageSummary, 522, 0),
  release(EngineVersion.UE5_0, T.PerfectHashWithOverflow, H.LocalizedPackages, Z.ZenSummary, 522, V.LargeWorldCoordinates),
  release(EngineVersion.UE5_1, T.PerfectHashWithOverflow, H.OptionalSegmentPackages, Z.ZenSummary, 522, V.AddSoftObjectPathList),
  release(EngineVersion.UE5_2, T.PerfectHashWithOverflow, H.OptionalSegmentPackages, Z.BulkDataMap, 522, V.DataResources),
  release(EngineVersion.UE5_3, T.PerfectHashWithOverflow, H.NoExportInfo, Z.DependencyBundles, 522, V.DataResources),
  release(EngineVersion.UE5_4, T.OnDemandMetaData, H.NoExportInfo, Z.BulkDataMapPadding, 522, V.PropertyTagCompleteTypeName),
  release(EngineVersion.UE5_5, T.ReplaceIoChunkHashWithIoHash, H.SoftPackageReferences, Z.BulkDataMapPadding, 522, V.AssetRegistryPackageBuildDependencies),
  release(EngineVersion.UE5_6, T.ReplaceIoChunkHashWithIoHash, H.SoftPackageReferencesOffset, Z.VerseCells, 522, V.OsSubObjectShadowSerialization),
  release(EngineVersion.UE5_7, T.ReplaceIoChunkHashWithIoHash, H.SoftPackageReferencesOffset, Z.VerseCells, 522, V.ImportTypeHierarchies),
  // Checked on corpus/cue58 (UE5.8.1): same .utoc, container header and Zen layout as 5.7.
  release(EngineVersion.UE5_8, T.ReplaceIoChunkHashWithIoHash, H.SoftPackageReferencesOffset, Z.VerseCells, 522, V.ImportTypeHierarchies),
  // UE6.0 (CUE4Parse's GAME_UE6_0): the .utoc gains source hashes and the encryption method
  // (v9, v10: UE5.8.1 still writes v8); container header, Zen layout and object versions as 5.8.
  release(EngineVersion.UE6_0, T.ContainerEncryptionMethod, H.SoftPackageReferencesOffset, Z.VerseCells, 522, V.ImportTypeHierarchies),
];

/**
 * The first .pak version UE6.0 writes and no earlier release does: the flat sorted directory
 * index (13), then the pakchunk index (14) and the encryption method (15) came with CUE4Parse's
 * UE6 versioning; UE5.8.1 writes Utf8PakDirectory (12, corpus/cue58).
 */
export const FIRST_UE6_PAK_VERSION = PakVersion.SortedDirectoryIndex;

/**
 * Whether the release ("5.8", "6.0") may have written a .pak of this version: the pak is what
 * tells a UE6.0 cooked .uasset from a 5.7 or 5.8 one, whose object versions are the same.
 */
export function releaseWritesPakVersion(release: string, pakVersion: number): boolean {
  const engine = parseEngineVersion(release);
  const ue6 = engine !== undefined && engine >= EngineVersion.UE6_0;
  return ue6 ? pakVersion >= FIRST_UE6_PAK_VERSION : pakVersion < FIRST_UE6_PAK_VERSION;
}

export function engineRelease(engine: EngineVersion): EngineRelease {
  const r = ENGINE_RELEASES.find((e) => e.engine === engine);
  if (!r) throw new RangeError(`unknown engine version ${engine}`);
  return r;
}

/** "5.4", "UE5.4", "4.27" → EngineVersion, or undefined. */
export function parseEngineVersion(text: string): EngineVersion | undefined {
  const m = /^(?:ue)?\s*(\d)[._](\d{1,2})$/i.exec(text.trim());
  if (!m) return undefined;
  const v = Number(m[1]) * 100 + Number(m[2]);
  return ENGINE_RELEASES.some((r) => r.engine === v) ? (v as EngineVersion) : undefined;
}

/**
 * The Zen package layout of a container's packages. An explicit engine version decides; otherwise
 * the container header version does (formats.md "Package layout follows..."), with the .utoc
 * version telling UE5.3 from UE5.4 where both write header version 3. For header version 2 this
 * says ZenSummary: the reader sees from the offsets whether a UE5.2 bulk data map is there.
 */
export function zenLayoutFor(info: {
  containerHeaderVersion?: ContainerHeaderVersion;
  tocVersion?: number;
  engine?: EngineVersion;
}): ZenLayout {
  if (info.engine !== undefined) return engineRelease(info.engine).zenLayout;
  const h = info.containerHeaderVersion;
  if (h === undefined) {
    // Without a container header: the .utoc version alone narrows it down to a range; pick the
    // layout of the oldest release writing that .utoc version.
    const toc = info.tocVersion ?? TocVersion.ReplaceIoChunkHashWithIoHash;
    const r = ENGINE_RELEASES.find((e) => e.tocVersion >= toc) ?? ENGINE_RELEASES[ENGINE_RELEASES.length - 1]!;
    return r.zenLayout;
  }
  if (h <= ContainerHeaderVersion.Initial) return ZenLayout.PackageSummary;
  if (h <= ContainerHeaderVersion.OptionalSegmentPackages) return ZenLayout.ZenSummary;
  if (h === ContainerHeaderVersion.NoExportInfo) {
    return (info.tocVersion ?? TocVersion.PerfectHashWithOverflow) >= TocVersion.OnDemandMetaData
      ? ZenLayout.BulkDataMapPadding : ZenLayout.DependencyBundles;
  }
  if (h === ContainerHeaderVersion.SoftPackageReferences) return ZenLayout.BulkDataMapPadding;
  return ZenLayout.VerseCells;
}

/** The container header version a release writes (for a headerless guess or a forced version). */
export function containerHeaderVersionFor(engine: EngineVersion): ContainerHeaderVersion {
  return engineRelease(engine).containerHeaderVersion;
}

/**
 * The releases that write this combination, oldest first (several: 5.0-5.3 share a .utoc
 * version; 5.6-5.8 share everything here but the .utoc version UE6.0 moved on from).
 */
export function enginesFor(info: { tocVersion?: number; containerHeaderVersion?: ContainerHeaderVersion }): EngineRelease[] {
  return ENGINE_RELEASES.filter((r) =>
    (info.tocVersion === undefined || r.tocVersion === info.tocVersion) &&
    (info.containerHeaderVersion === undefined || r.containerHeaderVersion === info.containerHeaderVersion));
}
