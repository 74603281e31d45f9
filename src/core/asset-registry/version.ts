/**
 * FAssetRegistryVersion: the version an AssetRegistry.bin states after its GUID. Each member says
 * what the version added; the reader guards every field by the version that introduced it.
 */
export enum AssetRegistryVersion {
  /** Before file versioning (UE4.1x): no GUID, a layout PakScope does not read. */
  PreVersioning = 0,
  /** The first runtime registry with a version. */
  HardSoftDependencies,
  /** FNames through a name table at an offset stated after the header (before it, FStrings). */
  AddAssetRegistryState,
  ChangedAssetData,
  /** Package data lost its MD5 hash; asset data lost its group names. */
  RemovedMD5Hash,
  /** Dependency nodes count hard-manage references apart from soft ones. */
  AddedHardManage,
  /** Package data holds the cooked package's MD5 hash. */
  AddedCookedMD5Hash,
  /** Dependencies carry property flags, in a section with its size stated first. */
  AddedDependencyFlags,
  /** Names as a name batch, tag values in one deduplicated store (UE4.27). */
  FixedTags,
  /** Package data holds the package's file versions, flags and custom versions. */
  WorkspaceDomain,
  PackageImportedClasses,
  /** Package data states the UE5 file version beside the UE4 one. */
  PackageFileSummaryVersionChange,
  ObjectResourceOptionalVersionChange,
  /** Package data holds a hash per IoStore chunk. */
  AddedChunkHashes,
  /** Classes as paths (/Script/Engine.StaticMesh), not short names. */
  ClassPaths,
  /** Asset data lost its object path (it is the package and asset name); bundles hold top-level paths. */
  RemoveAssetPathFNames,
  /** A header with the bFilterEditorOnlyData flag. */
  AddedHeader,
  AssetPackageDataHasExtension,
  AssetPackageDataHasPackageLocation,
  /** Localized text in the tag store as UTF-8. */
  MarshalledTextAsUTF8String,
  /** Package data holds the package's saved hash (FIoHash) instead of its GUID. */
  PackageSavedHash,
  ExternalActorToWorldIsEditorOnly,
  /** Manage dependencies carry a cook rule (three bits each). */
  ManageDependenciesCookRule,
  TagSetMapSupports64BitStringNum,
  /** The tag store is aligned to 16 bytes in the file, for memory mapping (UE5.7 on). */
  MemoryMappedTagDataStore,
}

/** The newest version PakScope reads (UE5.8 and UE6.0 write it). */
export const LATEST_ASSET_REGISTRY_VERSION = AssetRegistryVersion.MemoryMappedTagDataStore;

/** The version's name, or "version N" for one PakScope does not know. */
export function assetRegistryVersionName(v: number): string {
  return AssetRegistryVersion[v] ?? `version ${v}`;
}
