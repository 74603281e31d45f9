import type { ZenLayout } from '../engine-versions.js';
import type { ObjectRef } from './object-index.js';

export type { ObjectRef };

/** EExportCommandType. */
export type ExportCommand = 'create' | 'serialize';

export interface ZenExport {
  index: number;
  /** Object name with its number printed the engine's way (Name_N-1). */
  name: string;
  /** As stored: UE5.3+ relative to the export data (HeaderSize); before, the legacy .uasset/.uexp offset. */
  cookedSerialOffset: number;
  cookedSerialSize: number;
  /** Where the export's bytes lie in the chunk (-1 when the export has no Serialize command). */
  dataOffset: number;
  outer: ObjectRef;
  class: ObjectRef;
  super: ObjectRef;
  template: ObjectRef;
  /**
   * UE5: the public export hash (16 hex digits; all zeros = not public). UE4.26/27: the raw global
   * import index other packages import this export by (all ones = not public).
   */
  publicExportHash: string;
  isPublic: boolean;
  /** EObjectFlags. */
  objectFlags: number;
  /** EExportFilterFlags: 0 none, 1 not for client, 2 not for server. */
  filterFlags: number;
  /** Offset of the export map entry in the chunk. */
  entryOffset: number;
}

export interface ExportBundleEntry {
  exportIndex: number;
  command: ExportCommand;
}

/** Before UE5.3 a package has one or more export bundles. */
export interface ExportBundleHeader {
  /** UE5.0-5.2: offset of the bundle's first export relative to the export data (HeaderSize). */
  serialOffset?: number;
  firstEntryIndex: number;
  entryCount: number;
}

/** UE4.26/27 graph data: which export bundles of an imported package this package's bundles wait for. */
export interface LegacyPackageArcs {
  packageId: string;
  arcs: { fromExportBundle: number; toExportBundle: number }[];
}

/** UE5.0-5.2 graph data. */
export interface GraphData {
  internalArcs: { fromExportBundle: number; toExportBundle: number }[];
  /** One list per imported package, in import order. */
  externalArcs: { fromImport: number; fromCommand: ExportCommand; toExportBundle: number }[][];
}

/** UE5.3+: per export, how many dependency entries of each kind (before create/serialize of this export). */
export interface DependencyBundleHeader {
  firstEntryIndex: number;
  createBeforeCreate: number;
  serializeBeforeCreate: number;
  createBeforeSerialize: number;
  serializeBeforeSerialize: number;
}

export interface BulkDataEntry {
  serialOffset: number;
  duplicateSerialOffset: number;
  serialSize: number;
  flags: number;
  cookedIndex: number;
}

/** UE5.6+ Verse VM cell export. */
export interface CellExport {
  cookedSerialOffset: number;
  cookedSerialLayoutSize: number;
  cookedSerialSize: number;
  /** CppClassInfo name. */
  cppClassInfo: string;
  publicExportHash: string;
  dataOffset: number;
}

export interface ZenVersioningInfo {
  /** EZenPackageVersion: 0 Initial, 1 DataResourceTable, 2 ImportedPackageNames, 3 ExportDependencies. */
  zenVersion: number;
  fileVersionUE4: number;
  fileVersionUE5: number;
  licenseeVersion: number;
  customVersions: { guid: string; version: number }[];
}

/** A named byte range of the chunk, for hex views and reports. */
export interface ZenRegion {
  name: string;
  offset: number;
  size: number;
}

export interface ZenPackage {
  file: string;
  /** The layout the header was read with (after versioning info and detection). */
  layout: ZenLayout;
  /** Package name, e.g. "/Game/Maps/Start". */
  name: string;
  /** UE4.26/27: the source package name of a localized package ("None" otherwise). */
  sourceName?: string;
  /** FPackageId of `name`, 16 hex digits. */
  packageId: string;
  packageFlags: number;
  cookedHeaderSize: number;
  /** Bytes of the header; export data starts here. */
  headerSize: number;
  /** Size of the whole chunk (may exceed the bytes parsed when only the header was read). */
  chunkSize: number;
  versioning?: ZenVersioningInfo;
  names: string[];
  importedPublicExportHashes: string[];
  imports: ObjectRef[];
  exports: ZenExport[];
  exportBundleHeaders: ExportBundleHeader[];
  exportBundleEntries: ExportBundleEntry[];
  /**
   * Imported package ids (16 hex digits) in the order UE5 package imports index them: from the
   * store entry when given, else the UE5.3+ imported package names, else (UE4) the graph data.
   * Empty when unknown (UE5.0-5.2 without a store entry).
   */
  importedPackageIds: string[];
  /** UE5.3+: imported package names with their numbers printed. */
  importedPackageNames: string[];
  /** How many packages this one imports, when the header tells (graph data arrays, names). */
  importedPackageCount?: number;
  legacyPackageArcs: LegacyPackageArcs[];
  graphData?: GraphData;
  dependencyBundleHeaders: DependencyBundleHeader[];
  /** FPackageIndex values: > 0 export index + 1, < 0 -(import index + 1). */
  dependencyBundleEntries: number[];
  bulkData: BulkDataEntry[];
  cellImports: ObjectRef[];
  cellExports: CellExport[];
  /** Where export data ends (the package tag follows in UE5.3+). */
  exportDataEnd: number;
  /** UE5.3+: the chunk ends with C1 83 2A 9E. Undefined when the end was not read. */
  hasPackageTag?: boolean;
  regions: ZenRegion[];
  warnings: string[];
}
