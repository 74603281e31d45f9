/**
 * Game data views of plain files (api.ts names the methods): the localization of an install
 * (every culture of a target side by side) and an asset registry's assets.
 */

/** One .locres file of the view, read or with the reason it does not read. */
export interface LocalizationFile {
  path: string;
  culture: string;
  /** "OptimizedCityHash64Utf16" ... */
  version?: string;
  entries?: number;
  error?: string;
}

export interface LocalizationRow {
  namespace: string;
  key: string;
  /** One per culture of the view, in `cultures` order; null where the culture has no entry (untranslated). */
  texts: (string | null)[];
}

export interface LocalizationView {
  /** The localization target folder (".../Localization/Game"), or "" for every .locres of the install. */
  target: string;
  /** Cultures in column order: the native one first (from the .locmeta, else "en" when present), then by name. */
  cultures: string[];
  nativeCulture: string | null;
  files: LocalizationFile[];
  /** Every namespace and key of any culture, sorted by namespace then key. */
  rows: LocalizationRow[];
  /** Per culture (in `cultures` order), how many rows it has no entry for. */
  untranslated: number[];
}

export interface RegistryAssetView {
  object: string;
  class: string;
  package: string;
  /** Tag name and value pairs as stored. */
  tags: [string, string][];
  /** Tree path of the package in this install, where it holds it (a click opens it). */
  packagePath: string | null;
}

export interface RegistryView {
  path: string;
  version: number;
  versionName: string;
  assets: RegistryAssetView[];
  /** Every class with its asset count, most assets first. */
  classes: { class: string; count: number }[];
  packages: number;
  dependencyNodes: number;
  warnings: string[];
}

/**
 * What the install's asset registry says of one package's asset, without opening the package:
 * its class and tags (a texture's "Dimensions", a mesh's "Triangles", ...).
 */
export interface RegistryFact {
  /** The AssetRegistry.bin it comes from. */
  registry: string;
  /** "/Game/Path/Asset.Asset". */
  object: string;
  /** Class path ("/Script/Engine.Texture2D") or name, as the registry stores it. */
  class: string;
  tags: [string, string][];
}
