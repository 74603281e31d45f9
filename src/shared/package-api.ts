/**
 * What the package view and the dependency graph view get from the backend (api.ts names the
 * methods). Plain JSON: no bigint, no byte arrays (thumbnails travel as base64 text), and every
 * list that can be huge is capped with its full count beside it.
 */
import type { PackageFormat, PackageModel, PackageModelThumbnail } from '../core/package-model.js';
import type { ExportProperties } from '../core/properties/types.js';
import type { PackageAsset } from './asset-api.js';

// What the renderer uses of the core, through here only: property values and package file names.
export type { PropertyEntry, PropertyValue } from '../core/properties/types.js';
export { COMPANION_EXTENSIONS, isPackageFileName } from '../core/package/package-files.js';

export type { PackageFormat };

/** A byte range of the package stream and what it is, for the hex view. */
export interface PackageByteRegion {
  /** Offsets in the package stream (the Zen chunk, or the .uasset followed by its .uexp). */
  start: number;
  end: number;
  /** What the bytes are: "export 3 (Foo): class", "name 12: Bar", "headerSize". */
  label: string;
  /** The section it is part of: "export map", "name batch", "summary". */
  group: string;
  /**
   * The row of a table it is, for the tables' "show bytes": "name:12", "import:3", "export:5"
   * (its map entry), "export-data:5", "thumbnail:0", "field:<summary key>".
   */
  ref?: string;
}

/** One file making up the package stream (a cooked package is its .uasset then its .uexp). */
export interface PackageStreamPart {
  /** Tree path of the file. */
  path: string;
  offset: number;
  size: number;
}

export interface PackageThumbnailView extends Omit<PackageModelThumbnail, 'data'> {
  /** The PNG or JPEG image, base64; absent for an empty or unknown one. */
  base64?: string;
}

/** The parsed package as the JSON tab shows it: thumbnails without their bytes, long lists capped. */
export type PackageModelView = Omit<PackageModel, 'thumbnails'> & { thumbnails: PackageThumbnailView[] };

/** A format-specific table (export bundles, depends map, imported packages, ...). */
export interface PackageTableView {
  id: string;
  title: string;
  columns: { key: string; label: string; numeric?: boolean }[];
  /** One cell per column; `ref` links the row to its bytes (PackageByteRegion.ref). */
  rows: { cells: (string | number | null)[]; ref?: string }[];
  /** Rows before the cap. */
  total: number;
}

export interface PackageView {
  installId: string;
  /** Tree path of the package file ("#<package id>" for an IoStore package no path names). */
  path: string;
  /** The container (or loose folder) it was read from, on disk. */
  container: string;
  format: PackageFormat;
  name: string;
  /** 16 hex digits (IoStore packages; classic packages: the hash of the name). */
  packageId: string | null;
  /** The engine release it was read with when one was asked for; null: the package's own versions decided. */
  engine: string | null;
  model: PackageModelView;
  /** Counts before the caps on model.names / imports / exports and on regions. */
  totals: { names: number; imports: number; exports: number; regions: number };
  /** Field- and entry-level byte regions, in offset order (capped: see totals.regions). */
  regions: PackageByteRegion[];
  /** Bytes of the whole package stream. */
  size: number;
  parts: PackageStreamPart[];
  /** Tables the format has besides names, imports and exports. */
  tables: PackageTableView[];
  /** Exports the converter registry knows, with their preview and conversions (the view's first tabs). */
  assets: PackageAsset[];
  /** What could not be read or named (no global container, missing imported packages, ...). */
  warnings: string[];
}

export type GraphDirection = 'dependencies' | 'referencers' | 'both';

export interface GraphNode {
  /** Package id, 16 hex digits. */
  id: string;
  /** Package name where known; null: shown by its id. */
  name: string | null;
  /** The install holds it (rather than only referencing it). */
  held: boolean;
  /** Tree path of its file, where the install has one. */
  path: string | null;
  /** Steps from the centre: > 0 what it needs, < 0 what needs it, 0 the centre. */
  depth: number;
  /** Packages importing it. */
  referencedBy: number;
  /** Packages it imports. */
  imports: number;
}

export interface PackageGraphView {
  center: GraphNode;
  nodes: GraphNode[];
  /** `from` imports `to`; only edges between the nodes given. */
  edges: { from: string; to: string }[];
  /** How many packages each walk reached before the node cap. */
  dependencyCount: number;
  referencerCount: number;
  /** Some nodes were left out (cap on nodes). */
  truncated: boolean;
  /** Set when the view is not from the install's graph (a loose package outside a Content folder): why. */
  note?: string;
}

export interface GraphStatsView {
  packages: number;
  referencedOnly: number;
  edges: number;
  named: number;
  mostReferenced: (GraphNode & { count: number })[];
  /** What could not be read while building (container headers, classic packages skipped). */
  problems: string[];
}

export interface GraphPathView {
  /** from → ... → to, each importing the next; null when `from` does not need `to`. */
  path: GraphNode[] | null;
}

export interface GraphFindView {
  matches: GraphNode[];
  total: number;
}

// ---- properties (backend/properties.ts) ----

/** Where an object path named by a property value leads. */
export interface PropertyLink {
  /** An import or export of this package; `package`: another package of the install (a soft reference). */
  kind: 'import' | 'export' | 'package';
  /** Import or export index (absent for kind package). */
  index?: number;
  /** Short class name ("Texture2D"); '' when not known. */
  class: string;
  /** The package holding the object ("/Game/Maps/Entry", "/Script/Engine"). */
  package: string;
  /** Tree path of that package in this install, to open it; null for this package, /Script and packages the install lacks. */
  packagePath: string | null;
}

/** One export's properties (entries carry `range` and `elements`, offsets from the export's start). */
export interface ExportPropertiesView extends ExportProperties {
  /** Where the export's bytes start in the package stream (readPackageBytes, the Hex tab). */
  streamOffset: number;
  path: string;
  /** The outer's path; null for an object directly in the package. */
  outer: string | null;
  flags?: string[];
}

export interface PackagePropertiesView {
  installId: string;
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  /** Package name ("/Game/Maps/Entry"). */
  package: string;
  format: PackageFormat;
  exports: ExportPropertiesView[];
  /** Object paths the values name (object and soft references), and where each leads. */
  links: Record<string, PropertyLink>;
  /** The .usmap unversioned properties were read with; null when none is chosen for the install. */
  mappings: string | null;
  /** The cultures of the install's .locres files: what texts can be shown in. */
  cultures: string[];
  /** The culture literal texts are shown in (their entries note the stored string); null: as stored. */
  culture: string | null;
  /** How many texts the culture translated. */
  localizedTexts: number;
  /** Some export's unversioned properties could not be read for want of mappings. */
  mappingsNeeded: boolean;
  /** What the reader could not name or read. */
  warnings: string[];
}

/** The mappings (.usmap) chosen for an install. */
export interface MappingsStatus {
  /** The file; null when none is chosen. */
  path: string | null;
  /** What the file holds; absent when none is chosen or it does not read. */
  summary?: { version: number; compression: string; structs: number; enums: number };
  /** The chosen file does not read (moved, damaged): why. */
  error?: string;
  /** pickMappings opens a native file dialog (Electron); elsewhere the path is typed for setMappings. */
  canPick: boolean;
}
