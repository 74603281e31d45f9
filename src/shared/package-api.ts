/**
 * What the package view and the dependency graph view get from the backend (api.ts names the
 * methods). Plain JSON: no bigint, no byte arrays (thumbnails travel as base64 text), and every
 * list that can be huge is capped with its full count beside it.
 */
import type { PackageFormat, PackageModel, PackageModelThumbnail } from '../core/package-model.js';

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
