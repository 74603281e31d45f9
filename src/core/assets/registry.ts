/**
 * The one converter registry: export class -> the asset kind that reads it, the view the app
 * shows for it and the files it converts to. The app's preview tabs, the CLI's asset commands,
 * `extract --format convert` and the export dialog all ask this table; none of them tests a
 * class name itself. Each kind (texture, sound, mesh, table, ...) registers itself from its own
 * folder under src/core/assets/<kind>/.
 */

import type { Install } from '../install/install.js';
import type { InstallPackages } from '../package/open-package.js';
import { scriptImportIndex } from '../zen/object-index.js';
import type { Usmap } from '../usmap/types.js';
import type { WorkerPool } from '../workers/pool.js';
import type { MaterialReads } from './material/read.js';

/** Where an asset's package is: a package of an install (a name, an `ls` path or an id), or a package file on disk. */
export type AssetSource =
  | { packages: InstallPackages; ref: string }
  | { file: string };

/** What a conversion may need besides the asset; a kind ignores what does not apply to it. */
export interface ConvertOptions {
  /** The game's mappings, for unversioned packages. */
  mappings?: Usmap;
  /** Engine release ("5.4") where the package's own versions do not tell. */
  engine?: string;
  /** Decode in these workers (else on the calling thread). */
  pool?: WorkerPool;
  signal?: AbortSignal;
  /** Kinds with mips (textures): the one to write; default the largest. */
  mip?: number;
  /**
   * Kinds with slices (cube faces, array layers, volume depth): write only this one (0-based);
   * default every slice, one file each.
   */
  slice?: number;
  /** Kinds with levels of detail (meshes): the one to write; default 0, the finest. */
  lod?: number;
  /** The install a plain file is in, for kinds named by its other files (a bank's media by the Wwise metadata beside it). */
  install?: Install;
  /** Materials opened already in this conversion (a level's meshes share them): each read once. */
  materialReads?: MaterialReads;
}

/** One file a conversion makes. */
export interface ConvertedFile {
  /** Added to the asset's name: "" for the only file, "_3" for slice 3 of several. */
  suffix: string;
  /** Without the dot: "png", "dds". */
  extension: string;
  data: Uint8Array;
  /**
   * A name of its own (without the extension, "/" between folders), for assets that name
   * themselves: the file goes in a folder named after its package ("Classes/EnergySword" for a
   * UE1/2 class's script). Without it the file is named after its package (and export).
   */
  name?: string;
  /** What the user should know about it ("PF_XYZ cannot be decoded: written as .dds"). */
  note?: string;
}

/** A plain file (no package) a kind reads by its extension: a .wem, a .bnk. */
export interface PlainFile {
  /** Its path as `ls` prints it (or on disk); names it in errors. */
  path: string;
  bytes: Uint8Array;
}

export interface AssetKind {
  /** "texture", "sound", "mesh", "table", ... */
  kind: string;
  /** The app's preview tab for it ("texture"); the renderer maps it to a component. */
  view: string;
  /** Export classes (short names, as the package model gives them) this kind reads. */
  classes: readonly string[];
  /**
   * The script package of those classes, "/Script/Engine" when absent ("/Script/Niagara"): a Zen
   * package read without the global container names them by the hash of "<package>.<class>".
   */
  scriptPackage?: string;
  /**
   * Classes of other script packages than scriptPackage, by their whole path
   * ("/Script/TemplateSequence.TemplateSequence"), for kinds whose classes span packages.
   */
  scriptClassPaths?: readonly string[];
  /** File extensions it converts to, the one `--format convert` writes first ("png", "dds", "hdr"). */
  converts: readonly string[];
  /**
   * It reads its classes in Unreal Engine 1/2 packages too (a reader of their own). Other kinds
   * are not offered for UE1/2 exports whose class they share by name (UE2's StaticMesh is not UE4's).
   */
  ue12?: boolean;
  /**
   * Makes files of export `exportIndex` (0-based, in the package's export table) of `source`:
   * `extension` one of `converts`, or undefined for the kind's default (the first it can make
   * of this asset). Throws FormatError for bad input, RangeError for options that do not fit.
   */
  convert?(source: AssetSource, exportIndex: number, extension: string | undefined, opts: ConvertOptions): Promise<ConvertedFile[]>;
  /** Plain files (not packages) this kind reads, by extension without the dot, lowercase ("wem"). */
  fileExtensions?: readonly string[];
  /** Plain files this kind reads by their whole name, lowercase ("assetregistry.bin"): for names whose extension says nothing. */
  fileNames?: readonly string[];
  /** Makes files of a plain file of one of `fileExtensions` or `fileNames`, as `convert` does of an export. */
  convertFile?(file: PlainFile, extension: string | undefined, opts: ConvertOptions): Promise<ConvertedFile[]>;
}

const kinds: AssetKind[] = [];
const byClass = new Map<string, AssetKind>();
/** Script import hash of "/Script/Engine.<class>" -> kind, for classes a package names only by hash. */
const byClassHash = new Map<string, AssetKind>();

const byExtension = new Map<string, AssetKind>();
const byFileName = new Map<string, AssetKind>();

/** Adds a kind; a class or file extension already claimed by another kind is a programming error. */
export function registerAssetKind(kind: AssetKind): void {
  for (const c of kind.classes) {
    const other = byClass.get(c);
    if (other && other !== kind) throw new Error(`class ${c} is claimed by both ${other.kind} and ${kind.kind}`);
  }
  for (const e of kind.fileExtensions ?? []) {
    const other = byExtension.get(e);
    if (other && other !== kind) throw new Error(`.${e} files are claimed by both ${other.kind} and ${kind.kind}`);
  }
  for (const n of kind.fileNames ?? []) {
    const other = byFileName.get(n);
    if (other && other !== kind) throw new Error(`${n} is claimed by both ${other.kind} and ${kind.kind}`);
  }
  kinds.push(kind);
  for (const e of kind.fileExtensions ?? []) byExtension.set(e, kind);
  for (const n of kind.fileNames ?? []) byFileName.set(n, kind);
  for (const c of kind.classes) {
    byClass.set(c, kind);
    byClassHash.set(scriptImportIndex(`${kind.scriptPackage ?? '/Script/Engine'}.${c}`), kind);
  }
  for (const p of kind.scriptClassPaths ?? []) byClassHash.set(scriptImportIndex(p), kind);
}

/**
 * The kind that reads exports of class `className`, if any. A Zen package read without the
 * global container names its classes by script import hash ("/Script/?0x5b93bca796d1fa6f", or
 * "?0x5b93bca796d1fa6f" in short): those of the engine's classes are known too.
 */
export function assetKindOf(className: string): AssetKind | undefined {
  const known = byClass.get(className);
  if (known) return known;
  const hash = /\?0x([0-9a-f]{16})$/.exec(className)?.[1];
  return hash ? byClassHash.get(hash) : undefined;
}

/** The kind that reads an export of class `className` in a package of `format` (see AssetKind.ue12). */
export function assetKindOfExport(className: string, format: string | undefined): AssetKind | undefined {
  const kind = assetKindOf(className);
  return kind && (format !== 'ue12' || kind.ue12) ? kind : undefined;
}

/**
 * `className` as one of `classes` (of script package `scriptPackage`) names it: itself, or the
 * class its script import hash ("/Script/?0x45d7f0fff13ee9be") stands for; undefined for others.
 * For readers, which check their export's class without the registry.
 */
export function knownClass(className: string, classes: readonly string[], scriptPackage = '/Script/Engine'): string | undefined {
  if (classes.includes(className)) return className;
  const hash = /\?0x([0-9a-f]{16})$/.exec(className)?.[1];
  return hash ? classes.find((c) => scriptImportIndex(`${scriptPackage}.${c}`) === hash) : undefined;
}

/** The kind that reads plain files named like `path` (by its whole name, else its extension), if any. */
export function assetKindOfFile(path: string): AssetKind | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = byFileName.get(name);
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? byExtension.get(name.slice(dot + 1)) : undefined;
}

/** Every registered kind, in registration order. */
export const assetKinds = (): readonly AssetKind[] => kinds;
