/**
 * The header of a cooked Zen package (an ExportBundleData chunk): UE4.26/27 FPackageSummary and
 * UE5.0+ FZenPackageSummary with every table after it, each count and offset checked against the
 * bytes, and where each export's data lies in the chunk.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { FormatError } from '../errors.js';
import { ZenLayout, ObjectVersionUE5, engineRelease, type EngineVersion } from '../engine-versions.js';
import { hexWords, packageIdFromName } from '../hash/cityhash64.js';
import type { StoreEntry } from '../iostore/container-header.js';
import { readNameBatch, readNamePairs, displayName } from './name-batch.js';
import { MappedNameType, mappedNameText, readHex64, readMappedName, readObjectRef, type ObjectRef } from './object-index.js';
import {
  checkBundleCoverage, readBundleEntries, readDependencyEntries, readDependencyHeaders, readGraphData, readLegacyBundles,
  readLegacyGraph,
} from './graph-data.js';
import type { BulkDataEntry, CellExport, ZenExport, ZenPackage, ZenRegion, ZenVersioningInfo } from './types.js';

export interface ZenPackageContext {
  /** From zenLayoutFor(container header version, .utoc version). */
  layout: ZenLayout;
  /** An explicit engine version overrides `layout`. */
  engine?: EngineVersion;
  /**
   * The package's store entry from its container header: the imported package ids UE5.0-5.2
   * package imports index into (and the bundle count those versions' graph data needs).
   */
  storeEntry?: StoreEntry;
  /** Size of the whole chunk when `bytes` holds only its first part (at least the header). */
  chunkSize?: number;
  /** Check name hashes (default true). */
  verifyNameHashes?: boolean;
}

/** The package tag (PACKAGE_FILE_TAG) UE5.3+ chunks end with: C1 83 2A 9E. */
export const PACKAGE_FILE_TAG = 0x9e2a83c1;

const EXPORT_ENTRY_SIZE = 72;
const CELL_EXPORT_ENTRY_SIZE = 40;
const BULK_DATA_ENTRY_SIZE = 32;
/** FPackageSummary (UE4.26/27) is 64 bytes. */
const LEGACY_SUMMARY_SIZE = 64;

/** Tracks the tables read, in file order, for regions and the order check. */
class Layout {
  readonly regions: ZenRegion[] = [];
  constructor(private readonly r: BinaryReader) {}
  add(name: string, offset: number, size: number): void {
    if (size > 0) this.regions.push({ name, offset, size });
  }
  /** A table between two summary offsets: its element count, checked. */
  table(name: string, start: number, end: number, elemSize: number, fieldAt: number): number {
    if (start < 0 || end < start || end > this.r.length) {
      throw this.r.error(`${name} spans ${start}..${end}, outside the ${this.r.length}-byte header or out of order`, fieldAt);
    }
    if ((end - start) % elemSize !== 0) {
      throw this.r.error(`${name} spans ${end - start} bytes, not a whole number of ${elemSize}-byte entries`, fieldAt);
    }
    this.add(name, start, end - start);
    return (end - start) / elemSize;
  }
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

function readExports(r: BinaryReader, count: number, names: readonly string[], legacy: boolean): ZenExport[] {
  r.struct('export map');
  const out: ZenExport[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const entryOffset = r.pos;
    const cookedSerialOffset = r.u64n('cooked serial offset');
    const cookedSerialSize = r.u64n('cooked serial size');
    const nameAt = r.pos;
    const name = mappedNameText(r, readMappedName(r), names, `export ${i}`, nameAt, MappedNameType.Package);
    const outer = readObjectRef(r, legacy);
    const cls = readObjectRef(r, legacy);
    const sup = readObjectRef(r, legacy);
    const template = readObjectRef(r, legacy);
    const hashLo = r.u32();
    const hashHi = r.u32();
    const objectFlags = r.u32();
    const filterAt = r.pos;
    const filterFlags = r.u8();
    if (filterFlags > 2) throw r.error(`export ${i} filter flags ${filterFlags} are not None, NotForClient or NotForServer`, filterAt);
    r.skip(3);
    const publicExportHash = hexWords(hashHi, hashLo);
    // UE4 stores the global import index here (all ones when not public); UE5 the export hash (0 when not public).
    const isPublic = legacy ? (hashHi & hashLo) !== -1 : (hashHi | hashLo) !== 0;
    out[i] = {
      index: i, name, cookedSerialOffset, cookedSerialSize, dataOffset: -1, outer, class: cls, super: sup, template,
      publicExportHash, isPublic, objectFlags, filterFlags, entryOffset,
    };
  }
  return out;
}

function readObjectRefs(r: BinaryReader, count: number, legacy: boolean): ObjectRef[] {
  const out: ObjectRef[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = readObjectRef(r, legacy);
  return out;
}

/** Checks a reference held by an export or import against the package's tables. */
function checkRef(r: BinaryReader, ref: ObjectRef, at: number, what: string, pkg: {
  exportCount: number; hashCount: number; importedPackageCount: number | undefined;
}): void {
  if (ref.kind === 'export' && ref.index >= pkg.exportCount) {
    throw r.error(`${what} names export ${ref.index} of ${pkg.exportCount}`, at);
  }
  if (ref.kind === 'package') {
    if (ref.hashIndex >= pkg.hashCount) {
      throw r.error(`${what} names imported public export hash ${ref.hashIndex} of ${pkg.hashCount}`, at);
    }
    if (pkg.importedPackageCount !== undefined && ref.packageIndex >= pkg.importedPackageCount) {
      throw r.error(`${what} names imported package ${ref.packageIndex} of ${pkg.importedPackageCount}`, at);
    }
  }
}

function checkReferences(r: BinaryReader, pkg: ZenPackage, importMapOffset: number): void {
  r.struct('export map');
  const ctx = { exportCount: pkg.exports.length, hashCount: pkg.importedPublicExportHashes.length, importedPackageCount: pkg.importedPackageCount };
  pkg.imports.forEach((ref, i) => {
    if (ref.kind === 'export') throw r.error(`import ${i} is an export reference (0x${ref.raw})`, importMapOffset + i * 8);
    checkRef(r, ref, importMapOffset + i * 8, `import ${i}`, ctx);
  });
  for (const e of pkg.exports) {
    const at = e.entryOffset;
    checkRef(r, e.outer, at + 24, `export ${e.index} (${e.name}) outer`, ctx);
    checkRef(r, e.class, at + 32, `export ${e.index} (${e.name}) class`, ctx);
    checkRef(r, e.super, at + 40, `export ${e.index} (${e.name}) super`, ctx);
    checkRef(r, e.template, at + 48, `export ${e.index} (${e.name}) template`, ctx);
    if (e.class.kind === 'null') throw r.error(`export ${e.index} (${e.name}) has no class`, at + 32);
  }
  // Outer chains among exports must end: colour walk, each export visited once.
  const state = new Uint8Array(pkg.exports.length); // 0 new, 1 on the current path, 2 done
  for (let start = 0; start < pkg.exports.length; start++) {
    const path: number[] = [];
    let i = start;
    while (state[i] === 0) {
      state[i] = 1;
      path.push(i);
      const outer = pkg.exports[i]!.outer;
      if (outer.kind !== 'export') break;
      i = outer.index;
      if (state[i] === 1) {
        const e = pkg.exports[i]!;
        throw r.error(`export ${i} (${e.name}) is its own outer through ${path.slice(path.indexOf(i)).join(' → ')} → ${i}`, e.entryOffset + 24);
      }
    }
    for (const p of path) state[p] = 2;
  }
}

/** Places each export's bytes: sequentially through the bundles before UE5.3, at HeaderSize + CookedSerialOffset after. */
function placeExportData(r: BinaryReader, pkg: ZenPackage, dataEnd: number): void {
  r.struct('export data');
  const ranges: { start: number; end: number; what: string; at: number }[] = [];
  if (pkg.layout >= ZenLayout.DependencyBundles) {
    for (const e of pkg.exports) {
      e.dataOffset = pkg.headerSize + e.cookedSerialOffset;
      ranges.push({ start: e.dataOffset, end: e.dataOffset + e.cookedSerialSize, what: `export ${e.index} (${e.name})`, at: e.entryOffset });
    }
    for (const [i, c] of pkg.cellExports.entries()) {
      c.dataOffset = pkg.headerSize + c.cookedSerialOffset;
      ranges.push({ start: c.dataOffset, end: c.dataOffset + c.cookedSerialSize, what: `cell export ${i}`, at: c.dataOffset });
    }
  } else {
    let pos = pkg.headerSize;
    for (const [b, h] of pkg.exportBundleHeaders.entries()) {
      if (h.serialOffset !== undefined && h.serialOffset !== pos - pkg.headerSize) {
        pkg.warnings.push(`export bundle ${b} says its data starts at +${h.serialOffset}, the exports before it end at +${pos - pkg.headerSize}`);
      }
      for (let k = h.firstEntryIndex; k < h.firstEntryIndex + h.entryCount; k++) {
        const entry = pkg.exportBundleEntries[k]!;
        if (entry.command !== 'serialize') continue;
        const e = pkg.exports[entry.exportIndex]!;
        e.dataOffset = pos;
        ranges.push({ start: pos, end: pos + e.cookedSerialSize, what: `export ${e.index} (${e.name})`, at: e.entryOffset });
        pos += e.cookedSerialSize;
      }
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  let end = pkg.headerSize;
  for (const x of ranges) {
    if (x.end > dataEnd) {
      throw new FormatError(pkg.file, 'export map', x.at, `${x.what} data ${x.start}..${x.end} runs past the export data's end at ${dataEnd}`);
    }
    if (x.start < end) {
      throw new FormatError(pkg.file, 'export map', x.at, `${x.what} data at ${x.start} overlaps the previous export's data (ends at ${end})`);
    }
    end = x.end;
  }
  pkg.exportDataEnd = end;
  if (end > pkg.headerSize) pkg.regions.push({ name: 'export data', offset: pkg.headerSize, size: end - pkg.headerSize });
}

function emptyPackage(file: string, layout: ZenLayout, chunkSize: number): ZenPackage {
  return {
    file, layout, name: '', packageId: '', packageFlags: 0, cookedHeaderSize: 0, headerSize: 0, chunkSize,
    names: [], importedPublicExportHashes: [], imports: [], exports: [], exportBundleHeaders: [], exportBundleEntries: [],
    importedPackageIds: [], importedPackageNames: [], legacyPackageArcs: [], dependencyBundleHeaders: [],
    dependencyBundleEntries: [], bulkData: [], cellImports: [], cellExports: [], exportDataEnd: 0, regions: [], warnings: [],
  };
}

/** UE4.25-4.27: FPackageSummary and the tables after it. */
function parseLegacy(r: BinaryReader, pkg: ZenPackage, ctx: ZenPackageContext): void {
  r.struct('package summary');
  const name = readMappedName(r);
  const sourceName = readMappedName(r);
  pkg.packageFlags = r.u32();
  pkg.cookedHeaderSize = r.u32();
  const fields = ['names offset', 'names size', 'name hashes offset', 'name hashes size', 'import map offset',
    'export map offset', 'export bundles offset', 'graph data offset', 'graph data size'];
  const v: number[] = [];
  for (const f of fields) {
    const at = r.pos;
    const x = r.i32();
    if (x < 0) throw r.error(`${f} ${x} is negative`, at);
    v.push(x);
  }
  r.skip(4);
  const [namesOffset, namesSize, hashesOffset, hashesSize, importMapOffset, exportMapOffset, bundlesOffset, graphOffset, graphSize] = v as [number, number, number, number, number, number, number, number, number];
  pkg.headerSize = graphOffset + graphSize;
  if (pkg.headerSize > r.length) throw r.error(`header size ${pkg.headerSize} (graph data end) exceeds the ${r.length} bytes available`, 52);
  const order = [LEGACY_SUMMARY_SIZE, namesOffset, namesOffset + namesSize, hashesOffset, hashesOffset + hashesSize,
    importMapOffset, exportMapOffset, bundlesOffset, graphOffset, pkg.headerSize];
  for (let i = 1; i < order.length; i++) {
    if (order[i]! < order[i - 1]!) throw r.error(`package summary offsets are out of order (${order.join(', ')})`, 24);
  }
  const layout = new Layout(r);
  layout.add('package summary', 0, LEGACY_SUMMARY_SIZE);
  layout.add('names', namesOffset, namesSize);
  layout.add('name hashes', hashesOffset, hashesSize);
  pkg.names = readNamePairs(r.slice(namesOffset, namesSize, 'names'), r.slice(hashesOffset, hashesSize, 'name hashes'),
    { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
  r.struct('package summary');
  pkg.name = mappedNameText(r, name, pkg.names, 'package', 0, MappedNameType.Package);
  pkg.sourceName = mappedNameText(r, sourceName, pkg.names, 'source package', 8, MappedNameType.Package);

  const importCount = layout.table('import map', importMapOffset, exportMapOffset, 8, 40);
  r.seek(importMapOffset).struct('import map');
  pkg.imports = readObjectRefs(r, importCount, true);
  const exportCount = layout.table('export map', exportMapOffset, bundlesOffset, EXPORT_ENTRY_SIZE, 44);
  r.seek(exportMapOffset);
  pkg.exports = readExports(r, exportCount, pkg.names, true);

  const slots = layout.table('export bundles', bundlesOffset, graphOffset, 8, 48);
  r.seek(bundlesOffset).struct('export bundles');
  const bundles = readLegacyBundles(r, slots, exportCount);
  pkg.exportBundleHeaders = bundles.headers;
  pkg.exportBundleEntries = bundles.entries;
  checkBundleCoverage(r, bundles.entries, exportCount, bundlesOffset);
  if (ctx.storeEntry?.exportBundleCount !== undefined && ctx.storeEntry.exportBundleCount !== bundles.headers.length) {
    throw r.error(`${bundles.headers.length} export bundles, but the store entry says ${ctx.storeEntry.exportBundleCount}`, bundlesOffset);
  }

  layout.add('graph data', graphOffset, graphSize);
  const graph = r.slice(graphOffset, graphSize, 'graph data');
  pkg.legacyPackageArcs = readLegacyGraph(graph, bundles.headers.length);
  if (graph.remaining !== 0) throw graph.error(`${graph.remaining} bytes left after the graph data`);
  pkg.importedPackageIds = ctx.storeEntry?.importedPackages ?? pkg.legacyPackageArcs.map((p) => p.packageId);
  pkg.regions = layout.regions;
  checkReferences(r, pkg, importMapOffset);
}

/** UE5.0+: FZenPackageSummary and the tables after it. */
function parseZen(r: BinaryReader, pkg: ZenPackage, ctx: ZenPackageContext): void {
  r.struct('zen package summary');
  const hasVersioningInfo = r.bool32();
  const headerSizeAt = r.pos;
  pkg.headerSize = r.u32();
  const name = readMappedName(r);
  pkg.packageFlags = r.u32();
  pkg.cookedHeaderSize = r.u32();
  const off: Record<string, { value: number; at: number }> = {};
  const field = (key: string): number => {
    const at = r.pos;
    const value = r.i32();
    off[key] = { value, at };
    return value;
  };
  field('imported public export hashes');
  field('import map');
  field('export map');
  field('export bundle entries');
  if (pkg.layout >= ZenLayout.DependencyBundles) {
    field('dependency bundle headers');
    field('dependency bundle entries');
    field('imported package names');
  } else {
    field('graph data');
  }
  const summaryEnd = r.pos;
  if (pkg.headerSize < summaryEnd || pkg.headerSize > r.length) {
    throw r.error(`header size ${pkg.headerSize} is outside ${summaryEnd}..${r.length} (the bytes available)`, headerSizeAt);
  }
  const layout = new Layout(r);
  layout.add('zen package summary', 0, summaryEnd);

  let infoStart = r.pos;
  if (hasVersioningInfo) {
    pkg.versioning = readVersioningInfo(r);
    layout.add('versioning info', infoStart, r.pos - infoStart);
  }
  const ue5 = pkg.versioning?.fileVersionUE5;
  // The engine decides these by the package version when the package carries one.
  const hasCells = ue5 !== undefined ? ue5 >= ObjectVersionUE5.VerseCells : pkg.layout >= ZenLayout.VerseCells;
  const bundleEntriesOffset = off['export bundle entries']!.value;
  let cellImportsOffset = bundleEntriesOffset;
  let cellExportsOffset = bundleEntriesOffset;
  if (hasCells) {
    r.struct('cell offsets');
    infoStart = r.pos;
    off['cell import map'] = { value: cellImportsOffset = r.i32(), at: infoStart };
    off['cell export map'] = { value: cellExportsOffset = r.i32(), at: infoStart + 4 };
    layout.add('cell offsets', infoStart, 8);
  }

  // Everything after the summary must sit inside the header, in file order.
  const ordered = ['imported public export hashes', 'import map', 'export map', ...(hasCells ? ['cell import map', 'cell export map'] : []),
    'export bundle entries', ...(pkg.layout >= ZenLayout.DependencyBundles
      ? ['dependency bundle headers', 'dependency bundle entries', 'imported package names'] : ['graph data'])];
  let prev = r.pos;
  for (const k of ordered) {
    const { value, at } = off[k]!;
    if (value < prev || value > pkg.headerSize) {
      throw new FormatError(pkg.file, 'zen package summary', at, `${k} offset ${value} is out of order (after ${prev}) or past the header's end at ${pkg.headerSize}`);
    }
    prev = value;
  }

  r.struct('name batch');
  const namesStart = r.pos;
  pkg.names = readNameBatch(r, { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
  layout.add('name batch', namesStart, r.pos - namesStart);
  pkg.name = mappedNameText(r, name, pkg.names, 'package', 8, MappedNameType.Package);

  // Bulk data map: UE5.2+ (a UE5.0-5.2 package without versioning info shows it by the gap before
  // the imported export hashes), padded to 8 bytes from UE5.4.
  const hashesOffset = off['imported public export hashes']!.value;
  const hasBulk = ue5 !== undefined ? ue5 >= ObjectVersionUE5.DataResources
    : pkg.layout >= ZenLayout.DependencyBundles || hashesOffset > r.pos;
  const hasPadding = ue5 !== undefined ? ue5 >= ObjectVersionUE5.PropertyTagCompleteTypeName : pkg.layout >= ZenLayout.BulkDataMapPadding;
  if (hasBulk) {
    r.struct('bulk data map');
    const start = r.pos;
    if (hasPadding) {
      const padAt = r.pos;
      const pad = r.u64();
      if (pad > 7n) throw r.error(`bulk data padding ${pad} is more than 7 bytes`, padAt);
      r.skip(Number(pad));
    }
    const sizeAt = r.pos;
    const size = r.i64n('bulk data map size');
    if (size < 0 || size % BULK_DATA_ENTRY_SIZE !== 0) throw r.error(`bulk data map size ${size} is not a multiple of ${BULK_DATA_ENTRY_SIZE}`, sizeAt);
    r.checkCount(size / BULK_DATA_ENTRY_SIZE, BULK_DATA_ENTRY_SIZE, 'bulk data entry count', sizeAt);
    for (let i = 0; i < size / BULK_DATA_ENTRY_SIZE; i++) {
      const e: BulkDataEntry = {
        serialOffset: r.i64n('bulk data serial offset'),
        duplicateSerialOffset: r.i64n('bulk data duplicate serial offset'),
        serialSize: r.i64n('bulk data serial size'),
        flags: r.u32(),
        cookedIndex: r.u8(),
      };
      r.skip(3);
      pkg.bulkData.push(e);
    }
    layout.add('bulk data map', start, r.pos - start);
    if (pkg.layout < ZenLayout.BulkDataMap) pkg.layout = ZenLayout.BulkDataMap;
  }
  if (r.pos !== hashesOffset) {
    throw r.error(`the ${hasBulk ? 'bulk data map' : 'name batch'} ends at ${r.pos}, but the imported public export hashes start at ${hashesOffset}` +
      ` (is the Zen layout ${ZenLayout[pkg.layout]} right for this package?)`);
  }

  const hashCount = layout.table('imported public export hashes', hashesOffset, off['import map']!.value, 8, off['imported public export hashes']!.at);
  r.seek(hashesOffset).struct('imported public export hashes');
  for (let i = 0; i < hashCount; i++) pkg.importedPublicExportHashes.push(readHex64(r));

  const importMapOffset = off['import map']!.value;
  const importCount = layout.table('import map', importMapOffset, off['export map']!.value, 8, off['import map']!.at);
  r.seek(importMapOffset).struct('import map');
  pkg.imports = readObjectRefs(r, importCount, false);

  const exportMapOffset = off['export map']!.value;
  const exportCount = layout.table('export map', exportMapOffset, cellImportsOffset, EXPORT_ENTRY_SIZE, off['export map']!.at);
  r.seek(exportMapOffset);
  pkg.exports = readExports(r, exportCount, pkg.names, false);

  if (hasCells) {
    const cellImportCount = layout.table('cell import map', cellImportsOffset, cellExportsOffset, 8, off['cell import map']!.at);
    r.seek(cellImportsOffset).struct('cell import map');
    pkg.cellImports = readObjectRefs(r, cellImportCount, false);
    const cellExportCount = layout.table('cell export map', cellExportsOffset, bundleEntriesOffset, CELL_EXPORT_ENTRY_SIZE, off['cell export map']!.at);
    r.seek(cellExportsOffset).struct('cell export map');
    for (let i = 0; i < cellExportCount; i++) {
      const cookedSerialOffset = r.u64n('cell serial offset');
      const cookedSerialLayoutSize = r.u64n('cell serial layout size');
      const cookedSerialSize = r.u64n('cell serial size');
      const at = r.pos;
      const cppClassInfo = mappedNameText(r, readMappedName(r), pkg.names, `cell export ${i} class info`, at, MappedNameType.Package);
      pkg.cellExports.push({ cookedSerialOffset, cookedSerialLayoutSize, cookedSerialSize, cppClassInfo, publicExportHash: readHex64(r), dataOffset: -1 });
    }
  }

  // Export bundle entries: a Create and a Serialize command per export (and per cell export).
  const bundleEnd = pkg.layout >= ZenLayout.DependencyBundles ? off['dependency bundle headers']!.value : off['graph data']!.value;
  const entryCount = layout.table('export bundle entries', bundleEntriesOffset, bundleEnd, 8, off['export bundle entries']!.at);
  const objects = exportCount + pkg.cellExports.length;
  r.seek(bundleEntriesOffset).struct('export bundle entries');
  if (entryCount !== objects * 2) {
    throw r.error(`${entryCount} export bundle entries for ${objects} exports: each needs a Create and a Serialize command`, off['export bundle entries']!.at);
  }
  pkg.exportBundleEntries = readBundleEntries(r, entryCount, objects);
  checkBundleCoverage(r, pkg.exportBundleEntries, objects, bundleEntriesOffset);

  const store = ctx.storeEntry;
  if (pkg.layout >= ZenLayout.DependencyBundles) {
    const depHeaders = off['dependency bundle headers']!.value;
    const depEntries = off['dependency bundle entries']!.value;
    const namesOffset = off['imported package names']!.value;
    const headerCount = layout.table('dependency bundle headers', depHeaders, depEntries, 20, off['dependency bundle headers']!.at);
    const depEntryCount = layout.table('dependency bundle entries', depEntries, namesOffset, 4, off['dependency bundle entries']!.at);
    r.seek(depHeaders).struct('dependency bundle headers');
    pkg.dependencyBundleHeaders = readDependencyHeaders(r, headerCount, depEntryCount);
    r.seek(depEntries).struct('dependency bundle entries');
    pkg.dependencyBundleEntries = readDependencyEntries(r, depEntryCount, importCount, exportCount);

    r.seek(namesOffset).struct('imported package names');
    const names = readNameBatch(r, { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
    r.checkCount(names.length, 4, 'imported package name numbers');
    pkg.importedPackageNames = names.map((n) => displayName(n, r.i32()));
    if (r.pos !== pkg.headerSize) {
      throw r.error(`imported package names end at ${r.pos}, but the header ends at ${pkg.headerSize}`);
    }
    layout.add('imported package names', namesOffset, r.pos - namesOffset);
    pkg.importedPackageCount = pkg.importedPackageNames.length;
    pkg.importedPackageIds = store?.importedPackages ?? pkg.importedPackageNames.map(packageIdFromName);
    if (store && store.importedPackages.length !== pkg.importedPackageNames.length) {
      pkg.warnings.push(`the store entry lists ${store.importedPackages.length} imported packages, the header names ${pkg.importedPackageNames.length}`);
    }
  } else {
    const graphOffset = off['graph data']!.value;
    layout.add('graph data', graphOffset, pkg.headerSize - graphOffset);
    const graph = r.slice(graphOffset, pkg.headerSize - graphOffset, 'graph data');
    const { headers, graph: data } = readGraphData(graph, entryCount, store?.exportBundleCount, store?.importedPackages.length);
    if (graph.remaining !== 0) throw graph.error(`${graph.remaining} bytes left after the graph data`);
    pkg.exportBundleHeaders = headers;
    pkg.graphData = data;
    pkg.importedPackageCount = data.externalArcs.length;
    pkg.importedPackageIds = store?.importedPackages ?? [];
    for (const list of data.externalArcs) {
      for (const arc of list) {
        if (arc.fromImport >= importCount) throw graph.error(`external arc from import ${arc.fromImport} of ${importCount}`);
      }
    }
  }
  if (pkg.layout >= ZenLayout.DependencyBundles) {
    pkg.exportBundleHeaders = [{ firstEntryIndex: 0, entryCount }];
  }
  pkg.regions = layout.regions.sort((a, b) => a.offset - b.offset);
  checkReferences(r, pkg, importMapOffset);
}

/** Reads the header size from the first bytes of a chunk, to read only the header of a large package. */
export function peekZenHeaderSize(prefix: Uint8Array, fileName: string, layout: ZenLayout): number {
  const r = new BinaryReader(prefix, fileName).struct(layout === ZenLayout.PackageSummary ? 'package summary' : 'zen package summary');
  if (layout === ZenLayout.PackageSummary) {
    r.seek(52);
    return r.u32() + r.u32();
  }
  r.seek(4);
  return r.u32();
}

/**
 * Parses the header of a Zen package chunk. `bytes` is the chunk, or its first `headerSize` or
 * more bytes with `ctx.chunkSize` giving the whole size.
 */
export function parseZenPackage(bytes: Uint8Array, fileName: string, ctx: ZenPackageContext): ZenPackage {
  const layout = ctx.engine !== undefined ? engineRelease(ctx.engine).zenLayout : ctx.layout;
  const chunkSize = ctx.chunkSize ?? bytes.length;
  if (chunkSize < bytes.length) throw new FormatError(fileName, 'zen package', 0, `chunk size ${chunkSize} is smaller than the ${bytes.length} bytes given`);
  const pkg = emptyPackage(fileName, layout, chunkSize);
  const r = new BinaryReader(bytes, fileName);
  if (layout === ZenLayout.PackageSummary) parseLegacy(r, pkg, ctx);
  else parseZen(r, pkg, ctx);
  pkg.packageId = packageIdFromName(pkg.name);

  // UE5.3+ chunks end with the package tag after the export data.
  let dataEnd = chunkSize;
  if (pkg.layout >= ZenLayout.DependencyBundles && bytes.length === chunkSize) {
    const tagAt = chunkSize - 4;
    pkg.hasPackageTag = tagAt >= pkg.headerSize && new DataView(bytes.buffer, bytes.byteOffset).getUint32(tagAt, true) === PACKAGE_FILE_TAG;
    if (pkg.hasPackageTag) {
      dataEnd = tagAt;
      pkg.regions.push({ name: 'package tag', offset: tagAt, size: 4 });
    } else {
      pkg.warnings.push('the chunk does not end with the package tag C1 83 2A 9E');
    }
  }
  placeExportData(r, pkg, dataEnd);
  pkg.regions.sort((a, b) => a.offset - b.offset);
  return pkg;
}
