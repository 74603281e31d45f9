/**
 * UE5.0+ Zen packages: FZenPackageSummary, versioning info, (5.6+) cell offsets, the name batch,
 * (5.2+) the bulk data map, then the tables the summary's offsets delimit; graph data up to 5.2,
 * dependency bundles and imported package names from 5.3.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { FormatError } from '../errors.js';
import { ZenLayout, ObjectVersionUE5 } from '../engine-versions.js';
import { packageIdFromName } from '../hash/cityhash64.js';
import { readNameBatch, displayName } from './name-batch.js';
import { MappedNameType, mappedNameText, readHex64, readMappedName, type MappedName } from './object-index.js';
import {
  checkBundleCoverage, readBundleEntries, readDependencyEntries, readDependencyHeaders, readGraphData,
} from './graph-data.js';
import { EXPORT_ENTRY_SIZE, TableLayout, checkReferences, readExports, readObjectRefs } from './package-tables.js';
import type { ZenPackage, ZenVersioningInfo } from './types.js';
import type { ZenPackageContext } from './zen-package.js';

const CELL_EXPORT_ENTRY_SIZE = 40;
const BULK_DATA_ENTRY_SIZE = 32;
const DEPENDENCY_HEADER_SIZE = 20;

type OffsetName =
  | 'imported public export hashes' | 'import map' | 'export map' | 'cell import map' | 'cell export map'
  | 'export bundle entries' | 'graph data' | 'dependency bundle headers' | 'dependency bundle entries' | 'imported package names';

/** The table offsets of the summary (and the cell offsets), with where each was read for errors. */
class Offsets {
  private readonly values = new Map<OffsetName, { value: number; at: number }>();
  readonly order: OffsetName[] = [];
  read(r: BinaryReader, name: OffsetName): void {
    const at = r.pos;
    this.values.set(name, { value: r.i32(), at });
    this.order.push(name);
  }
  /** Without cell maps both cell offsets equal the bundle entries offset (empty tables). */
  alias(name: OffsetName, to: OffsetName): void {
    this.values.set(name, this.values.get(to)!);
  }
  value(name: OffsetName): number { return this.values.get(name)!.value; }
  at(name: OffsetName): number { return this.values.get(name)!.at; }
}

function readVersioningInfo(r: BinaryReader): ZenVersioningInfo {
  r.struct('versioning info');
  const zenVersion = r.u32();
  const fileVersionUE4 = r.i32();
  const fileVersionUE5 = r.i32();
  const licenseeVersion = r.i32();
  const n = r.count(20, 'custom version count');
  const customVersions: ZenVersioningInfo['customVersions'] = [];
  for (let i = 0; i < n; i++) customVersions.push({ guid: r.guid(), version: r.i32() });
  return { zenVersion, fileVersionUE4, fileVersionUE5, licenseeVersion, customVersions };
}

/** FZenPackageSummary: 44 bytes up to UE5.2 (graph data), 52 from UE5.3 (dependency bundles). */
function readSummary(r: BinaryReader, pkg: ZenPackage, off: Offsets): { name: MappedName; hasVersioningInfo: boolean } {
  r.struct('zen package summary');
  const hasVersioningInfo = r.bool32();
  const headerSizeAt = r.pos;
  pkg.headerSize = r.u32();
  const name = readMappedName(r);
  pkg.packageFlags = r.u32();
  pkg.cookedHeaderSize = r.u32();
  for (const k of ['imported public export hashes', 'import map', 'export map', 'export bundle entries'] as const) off.read(r, k);
  if (pkg.layout >= ZenLayout.DependencyBundles) {
    for (const k of ['dependency bundle headers', 'dependency bundle entries', 'imported package names'] as const) off.read(r, k);
  } else {
    off.read(r, 'graph data');
  }
  if (pkg.headerSize < r.pos || pkg.headerSize > r.length) {
    throw r.error(`header size ${pkg.headerSize} is outside ${r.pos}..${r.length} (the bytes available)`, headerSizeAt);
  }
  return { name, hasVersioningInfo };
}

/** Every table must start after what precedes it and end inside the header, in file order. */
function checkOffsetOrder(pkg: ZenPackage, off: Offsets, from: number): void {
  const names: OffsetName[] = ['imported public export hashes', 'import map', 'export map'];
  if (off.order.includes('cell import map')) names.push('cell import map', 'cell export map');
  names.push('export bundle entries');
  names.push(...(pkg.layout >= ZenLayout.DependencyBundles
    ? ['dependency bundle headers', 'dependency bundle entries', 'imported package names'] as const : ['graph data'] as const));
  let prev = from;
  for (const k of names) {
    const value = off.value(k);
    if (value < prev || value > pkg.headerSize) {
      throw new FormatError(pkg.file, 'zen package summary', off.at(k), `${k} offset ${value} is out of order (after ${prev}) or past the header's end at ${pkg.headerSize}`);
    }
    prev = value;
  }
}

/**
 * The bulk data map: UE5.2+ (an unversioned UE5.0-5.2 package shows it by the gap before the
 * imported export hashes), preceded from UE5.4 by a u64 padding length and padding.
 */
function readBulkDataMap(r: BinaryReader, pkg: ZenPackage, layout: TableLayout, hashesOffset: number): void {
  const ue5 = pkg.versioning?.fileVersionUE5;
  const hasBulk = ue5 !== undefined ? ue5 >= ObjectVersionUE5.DataResources
    : pkg.layout >= ZenLayout.DependencyBundles || hashesOffset > r.pos;
  const hasPadding = ue5 !== undefined ? ue5 >= ObjectVersionUE5.PropertyTagCompleteTypeName : pkg.layout >= ZenLayout.BulkDataMapPadding;
  const hint = ` (is the Zen layout ${ZenLayout[pkg.layout]} right for this package?)`;
  if (hasBulk) {
    r.struct('bulk data map');
    const start = r.pos;
    if (hasPadding) {
      const padAt = r.pos;
      const pad = r.u64();
      if (pad > 7n) throw r.error(`bulk data padding ${pad} is more than 7 bytes${hint}`, padAt);
      r.skip(Number(pad));
    }
    const sizeAt = r.pos;
    const size = r.i64();
    if (size < 0n || size % BigInt(BULK_DATA_ENTRY_SIZE) !== 0n || size > BigInt(r.remaining)) {
      throw r.error(`bulk data map size ${size} is not a multiple of ${BULK_DATA_ENTRY_SIZE} within the ${r.remaining} bytes left${hint}`, sizeAt);
    }
    for (let i = 0; i < Number(size) / BULK_DATA_ENTRY_SIZE; i++) {
      pkg.bulkData.push({
        serialOffset: r.i64n('bulk data serial offset'),
        duplicateSerialOffset: r.i64n('bulk data duplicate serial offset'),
        serialSize: r.i64n('bulk data serial size'),
        flags: r.u32(),
        cookedIndex: r.u8(),
      });
      r.skip(3);
    }
    layout.add('bulk data map', start, r.pos - start);
    if (pkg.layout < ZenLayout.BulkDataMap) pkg.layout = ZenLayout.BulkDataMap;
  }
  if (r.pos !== hashesOffset) {
    throw r.error(`the ${hasBulk ? 'bulk data map' : 'name batch'} ends at ${r.pos}, but the imported public export hashes start at ${hashesOffset}${hint}`);
  }
}

/** UE5.6+ Verse VM cells: imports (object indices) and exports (40 B entries). */
function readCellMaps(r: BinaryReader, pkg: ZenPackage, layout: TableLayout, off: Offsets): void {
  const importsAt = off.value('cell import map');
  const exportsAt = off.value('cell export map');
  const importCount = layout.table('cell import map', importsAt, exportsAt, 8, off.at('cell import map'));
  r.seek(importsAt).struct('cell import map');
  pkg.cellImports = readObjectRefs(r, importCount, false);
  const exportCount = layout.table('cell export map', exportsAt, off.value('export bundle entries'), CELL_EXPORT_ENTRY_SIZE, off.at('cell export map'));
  r.seek(exportsAt).struct('cell export map');
  for (let i = 0; i < exportCount; i++) {
    const cookedSerialOffset = r.u64n('cell serial offset');
    const cookedSerialLayoutSize = r.u64n('cell serial layout size');
    const cookedSerialSize = r.u64n('cell serial size');
    const at = r.pos;
    const cppClassInfo = mappedNameText(r, readMappedName(r), pkg.names, `cell export ${i} class info`, at, MappedNameType.Package);
    pkg.cellExports.push({ cookedSerialOffset, cookedSerialLayoutSize, cookedSerialSize, cppClassInfo, publicExportHash: readHex64(r), dataOffset: -1 });
  }
}

/** UE5.3+: dependency bundle headers and entries, then the imported package names up to the header's end. */
function readDependencyBundles(r: BinaryReader, pkg: ZenPackage, layout: TableLayout, off: Offsets, ctx: ZenPackageContext): void {
  const headersAt = off.value('dependency bundle headers');
  const entriesAt = off.value('dependency bundle entries');
  const namesAt = off.value('imported package names');
  const headerCount = layout.table('dependency bundle headers', headersAt, entriesAt, DEPENDENCY_HEADER_SIZE, off.at('dependency bundle headers'));
  const entryCount = layout.table('dependency bundle entries', entriesAt, namesAt, 4, off.at('dependency bundle entries'));
  r.seek(headersAt).struct('dependency bundle headers');
  pkg.dependencyBundleHeaders = readDependencyHeaders(r, headerCount, entryCount);
  r.seek(entriesAt).struct('dependency bundle entries');
  pkg.dependencyBundleEntries = readDependencyEntries(r, entryCount, pkg.imports.length, pkg.exports.length);

  r.seek(namesAt).struct('imported package names');
  const names = readNameBatch(r, { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
  r.checkCount(names.length, 4, 'imported package name numbers');
  pkg.importedPackageNames = names.map((n) => displayName(n, r.i32()));
  if (r.pos !== pkg.headerSize) throw r.error(`imported package names end at ${r.pos}, but the header ends at ${pkg.headerSize}`);
  layout.add('imported package names', namesAt, r.pos - namesAt);

  const store = ctx.storeEntry;
  pkg.importedPackageCount = pkg.importedPackageNames.length;
  pkg.importedPackageIds = store?.importedPackages ?? pkg.importedPackageNames.map(packageIdFromName);
  if (store && store.importedPackages.length !== pkg.importedPackageNames.length) {
    pkg.warnings.push(`the store entry lists ${store.importedPackages.length} imported packages, the header names ${pkg.importedPackageNames.length}`);
  }
  pkg.exportBundleHeaders = [{ firstEntryIndex: 0, entryCount: pkg.exportBundleEntries.length }];
}

/** UE5.0-5.2: the graph data (bundle headers and arcs) up to the header's end. */
function readGraph(r: BinaryReader, pkg: ZenPackage, layout: TableLayout, off: Offsets, ctx: ZenPackageContext): void {
  const at = off.value('graph data');
  layout.add('graph data', at, pkg.headerSize - at);
  const graph = r.slice(at, pkg.headerSize - at, 'graph data');
  const store = ctx.storeEntry;
  const { headers, graph: data } = readGraphData(graph, pkg.exportBundleEntries.length, store?.exportBundleCount, store?.importedPackages.length);
  if (graph.remaining !== 0) throw graph.error(`${graph.remaining} bytes left after the graph data`);
  for (const list of data.externalArcs) {
    for (const arc of list) {
      if (arc.fromImport >= pkg.imports.length) throw graph.error(`external arc from import ${arc.fromImport} of ${pkg.imports.length}`);
    }
  }
  pkg.exportBundleHeaders = headers;
  pkg.graphData = data;
  pkg.importedPackageCount = data.externalArcs.length;
  pkg.importedPackageIds = store?.importedPackages ?? [];
}

/** UE5.0+: FZenPackageSummary and the tables after it. */
export function readUE5Package(r: BinaryReader, pkg: ZenPackage, ctx: ZenPackageContext): void {
  const off = new Offsets();
  const { name, hasVersioningInfo } = readSummary(r, pkg, off);
  const layout = new TableLayout(r, 'zen package summary');
  layout.add('zen package summary', 0, r.pos);

  if (hasVersioningInfo) {
    const start = r.pos;
    pkg.versioning = readVersioningInfo(r);
    layout.add('versioning info', start, r.pos - start);
  }
  // The engine reads the cell offsets by the package version when the package carries one.
  const ue5 = pkg.versioning?.fileVersionUE5;
  const hasCells = ue5 !== undefined ? ue5 >= ObjectVersionUE5.VerseCells : pkg.layout >= ZenLayout.VerseCells;
  if (hasCells) {
    r.struct('cell offsets');
    layout.add('cell offsets', r.pos, 8);
    off.read(r, 'cell import map');
    off.read(r, 'cell export map');
  } else {
    off.alias('cell import map', 'export bundle entries');
    off.alias('cell export map', 'export bundle entries');
  }
  checkOffsetOrder(pkg, off, r.pos);

  r.struct('name batch');
  const namesStart = r.pos;
  pkg.names = readNameBatch(r, { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
  layout.add('name batch', namesStart, r.pos - namesStart);
  pkg.name = mappedNameText(r, name, pkg.names, 'package', 8, MappedNameType.Package);

  const hashesAt = off.value('imported public export hashes');
  readBulkDataMap(r, pkg, layout, hashesAt);

  const hashCount = layout.table('imported public export hashes', hashesAt, off.value('import map'), 8, off.at('imported public export hashes'));
  r.seek(hashesAt).struct('imported public export hashes');
  for (let i = 0; i < hashCount; i++) pkg.importedPublicExportHashes.push(readHex64(r));

  const importMapAt = off.value('import map');
  const importCount = layout.table('import map', importMapAt, off.value('export map'), 8, off.at('import map'));
  r.seek(importMapAt).struct('import map');
  pkg.imports = readObjectRefs(r, importCount, false);

  const exportMapAt = off.value('export map');
  const exportCount = layout.table('export map', exportMapAt, off.value('cell import map'), EXPORT_ENTRY_SIZE, off.at('export map'));
  r.seek(exportMapAt);
  pkg.exports = readExports(r, exportCount, pkg.names, false);
  if (hasCells) readCellMaps(r, pkg, layout, off);

  // Export bundle entries: a Create and a Serialize command per export (and per cell export).
  const entriesAt = off.value('export bundle entries');
  const entriesEnd = off.value(pkg.layout >= ZenLayout.DependencyBundles ? 'dependency bundle headers' : 'graph data');
  const entryCount = layout.table('export bundle entries', entriesAt, entriesEnd, 8, off.at('export bundle entries'));
  const objects = exportCount + pkg.cellExports.length;
  r.seek(entriesAt).struct('export bundle entries');
  if (entryCount !== objects * 2) {
    throw r.error(`${entryCount} export bundle entries for ${objects} exports: each needs a Create and a Serialize command`, off.at('export bundle entries'));
  }
  pkg.exportBundleEntries = readBundleEntries(r, entryCount, objects);
  checkBundleCoverage(r, pkg.exportBundleEntries, objects, entriesAt);

  if (pkg.layout >= ZenLayout.DependencyBundles) readDependencyBundles(r, pkg, layout, off, ctx);
  else readGraph(r, pkg, layout, off, ctx);
  pkg.regions = layout.regions.sort((a, b) => a.offset - b.offset);
  checkReferences(r, pkg, importMapAt);
}
