/** What an AssetRegistry.bin holds, as PakScope reads it (core/asset-registry/read.ts). */
import type { AssetRegistryVersion } from './version.js';

export interface RegistryAsset {
  /** "/Game/Path/Asset.Asset". */
  object: string;
  /** "/Game/Path/Asset". */
  package: string;
  /** "/Game/Path". */
  packagePath: string;
  /** "Asset". */
  name: string;
  /** The class path from ClassPaths on ("/Script/Engine.Texture2D"), else its short name ("Texture2D"). */
  class: string;
  /** Tag name -> value as the editor shows it (numbers, names, export paths, NSLOCTEXT(...)). */
  tags: Record<string, string>;
  /** Asset bundles (primary assets): bundle name -> the asset paths in it. */
  bundles: { name: string; assets: string[] }[];
  chunkIds: number[];
  /** The package's EPackageFlags. */
  packageFlags: number;
}

/** What a dependency node stands for: a package, a primary asset id, a searchable name. */
export interface AssetIdentifier {
  packageName?: string;
  primaryAssetType?: string;
  objectName?: string;
  valueName?: string;
}

/** A package dependency: the node depended on and how (EDependencyProperty bit sets). */
export interface PackageDependency {
  node: number;
  /**
   * Each a set of Hard (1), Game (2) and Build (4); a dependency may be made in several ways
   * (a hard reference from one property, a soft one from another). Empty where the registry
   * states no properties (before AddedDependencyFlags: hard dependencies get [1], soft ones [0]).
   */
  properties: number[];
}

export interface DependsNode {
  id: AssetIdentifier;
  packages: PackageDependency[];
  /** Nodes of searchable names this node refers to. */
  names: number[];
  /** Nodes this node manages (primary asset rules: chunks and cooking). */
  manages: number[];
  /** Nodes that depend on this one. */
  referencers: number[];
}

export interface RegistryPackage {
  /** "/Game/Path/Asset". */
  name: string;
  diskSize: number;
  /** Before PackageSavedHash: the package's GUID (32 hex digits). */
  guid?: string;
  /** From PackageSavedHash on: the saved package's hash (40 hex digits). */
  savedHash?: string;
  /** The cooked package's MD5 (32 hex digits), where the registry stores one. */
  cookedHash?: string;
  /** From WorkspaceDomain on. */
  fileVersionUE4?: number;
  fileVersionUE5?: number;
  fileVersionLicensee?: number;
  flags?: number;
  customVersions?: { guid: string; version: number }[];
  /** From PackageImportedClasses on: the classes the package imports. */
  importedClasses?: string[];
  /** From AssetPackageDataHasExtension on: ".uasset", ".umap". */
  extension?: string;
}

export interface AssetRegistry {
  version: AssetRegistryVersion;
  /** The version's name ("MemoryMappedTagDataStore"). */
  versionName: string;
  /** A cooked (runtime) registry: editor-only data left out. */
  filterEditorOnly: boolean;
  assets: RegistryAsset[];
  dependencies: DependsNode[];
  packages: RegistryPackage[];
  /** What did not read, with the rest still given (a dependency section whose layout is not known). */
  warnings: string[];
}
