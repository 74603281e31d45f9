/**
 * One shape for every package format (Zen, classic .uasset, UE1/2), so one package view and one
 * `pakscope info` serve them all. Format parsers keep their full-fidelity types; these models
 * are what the app and the CLI show. Everything here is plain JSON except thumbnail bytes.
 */
import { FormatError } from './errors.js';
import { uassetToPackageModel } from './uasset/model.js';
import { parseUAsset } from './uasset/parse.js';
import type { UAssetPackage, UAssetParseOptions } from './uasset/package.js';
import { PACKAGE_FILE_TAG, UE3_FIRST_FILE_VERSION, hex32, olderEngineDescription } from './uasset/versions.js';
import { ue12ToPackageModel } from './ue12/model.js';
import { parseUe12Package, type Ue12Package } from './ue12/package.js';

export type PackageFormat = 'zen' | 'uasset' | 'ue12';

export interface PackageModelImport {
  /** Position in the import table (FPackageIndex -index-1 points here). */
  index: number;
  /** Full path: "/Script/Engine.Actor", "Engine.Brush". */
  path: string;
  /** Short class name: "Class", "Package". */
  class: string;
  /** Class with its package where the format stores it ("/Script/CoreUObject.Class"). */
  classPath?: string;
  objectName: string;
  /** The outer's path; null for a package. */
  outer: string | null;
  optional?: boolean;
}

export interface PackageModelExport {
  /** Position in the export table (FPackageIndex index+1 points here). */
  index: number;
  name: string;
  /** Short class name: "Blueprint", "StaticMesh". */
  class: string;
  classPath?: string;
  /** The outer's path; null for an object directly in the package. */
  outer: string | null;
  path: string;
  /** As stored (a cooked split package counts across .uasset + .uexp). */
  serialOffset: number;
  serialSize: number;
  super?: string | null;
  template?: string | null;
  /** Object flags decoded to names. */
  flags?: string[];
  objectFlags?: number;
  isAsset?: boolean;
  /** Which file holds the export's bytes: "uasset", "uexp", "missing" (a .uexp not given), ... */
  dataFile?: string;
  /** Offset of the bytes inside dataFile. */
  dataFileOffset?: number;
}

export interface PackageModelThumbnail {
  /** Object path without the package ("TestMaterial"). */
  object: string;
  class: string;
  format: 'png' | 'jpeg' | 'empty' | 'unknown';
  width: number;
  height: number;
  /** Where the image bytes are in the package file. */
  dataOffset: number;
  dataSize: number;
  /** The image bytes, when the package bytes were given to toPackageModel. */
  data?: Uint8Array;
}

/** What an export depends on, as paths (null entries: index 0). */
export interface PackageModelDependency {
  export: number;
  /** The depends map (uncooked packages). */
  dependsOn: string[];
  /** Cooked packages' preload dependencies, by kind. */
  preload?: {
    serializeBeforeSerialize: string[];
    createBeforeSerialize: string[];
    serializeBeforeCreate: string[];
    createBeforeCreate: string[];
  };
}

export interface PackageModel {
  format: PackageFormat;
  /** Package name ("/Game/Maps/Entry"; the file's base name for UE1/2). */
  name: string;
  fileName: string;
  /** Format versions: file/object versions, licensee, engine release, custom versions. */
  version: Record<string, unknown>;
  /** The header's other fields, as stored. */
  summary: Record<string, unknown>;
  packageFlags: { value: number; names: string[] };
  /** Every table in stored order. */
  names: string[];
  imports: PackageModelImport[];
  exports: PackageModelExport[];
  dependencies: PackageModelDependency[];
  /** Packages referenced softly (by path). */
  softReferences: string[];
  thumbnails: PackageModelThumbnail[];
  /** Byte ranges of the header, in file order (for a hex view). */
  sections: { name: string; offset: number; size: number }[];
  /** Format-specific extras (soft object paths, asset registry data, trailer, heritage...). */
  details: Record<string, unknown>;
  /** Sections that could not be read; the rest of the package was. */
  issues: { structure: string; offset: number; detail: string }[];
  warnings: string[];
}

/** What `pakscope info --json` prints for a package. */
export interface PackageInfoJson {
  format: PackageFormat;
  name: string;
  version: Record<string, unknown>;
  names: string[];
  imports: { path: string; class: string }[];
  exports: { name: string; class: string; outer: string | null; path: string; serialOffset: number; serialSize: number }[];
}

export function packageInfoJson(m: PackageModel): PackageInfoJson {
  return {
    format: m.format,
    name: m.name,
    version: m.version,
    names: m.names,
    imports: m.imports.map((i) => ({ path: i.path, class: i.class })),
    exports: m.exports.map((e) => ({ name: e.name, class: e.class, outer: e.outer, path: e.path, serialOffset: e.serialOffset, serialSize: e.serialSize })),
  };
}

/**
 * The shared model of a parsed classic package. Pass the package's bytes to get the thumbnail
 * images attached (views, not copies).
 */
export function toPackageModel(pkg: UAssetPackage | Ue12Package, bytes?: Uint8Array): PackageModel {
  return pkg.format === 'uasset' ? uassetToPackageModel(pkg, bytes) : ue12ToPackageModel(pkg);
}

export type ClassicPackageKind = 'uasset' | 'ue12' | 'ue3' | 'unknown';

/**
 * What kind of classic package these bytes start: the package tag, then a negative
 * LegacyFileVersion (UE4/UE5) or a positive file version (UE1/2 below 178, UE3 from there).
 */
export function detectClassicPackage(bytes: Uint8Array): { kind: ClassicPackageKind; fileVersion: number | null; licensee: number | null } {
  if (bytes.length < 8) return { kind: 'unknown', fileVersion: null, licensee: null };
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== PACKAGE_FILE_TAG) return { kind: 'unknown', fileVersion: null, licensee: null };
  const field = v.getInt32(4, true);
  if (field < 0) return { kind: 'uasset', fileVersion: field, licensee: null };
  const fileVersion = field & 0xffff, licensee = field >>> 16;
  return { kind: fileVersion >= UE3_FIRST_FILE_VERSION ? 'ue3' : 'ue12', fileVersion, licensee };
}

/**
 * Parses any classic package (.uasset/.umap or UE1/2) into the shared model. UE3 packages and
 * files that are no package fail with a FormatError that says so.
 */
export function parseClassicPackageModel(bytes: Uint8Array, fileName: string, opts: UAssetParseOptions = {}): PackageModel {
  const kind = detectClassicPackage(bytes);
  switch (kind.kind) {
    case 'uasset': return toPackageModel(parseUAsset(bytes, fileName, opts), bytes);
    case 'ue12': return toPackageModel(parseUe12Package(bytes, fileName), bytes);
    case 'ue3':
      throw new FormatError(fileName, 'package header', 4, olderEngineDescription(kind.fileVersion!, kind.licensee!));
    default:
      throw new FormatError(fileName, 'package header', 0, `not an Unreal package (no package tag ${hex32(PACKAGE_FILE_TAG)})`);
  }
}
