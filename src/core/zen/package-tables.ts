/**
 * The tables every Zen package layout shares: the export map, object index lists, the checks of
 * every reference, and where each export's bytes lie.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { FormatError } from '../errors.js';
import { ZenLayout } from '../engine-versions.js';
import { hexWords } from '../hash/cityhash64.js';
import { MappedNameType, mappedNameText, readMappedName, readObjectRef, type ObjectRef } from './object-index.js';
import type { ZenExport, ZenPackage, ZenRegion } from './types.js';

export const EXPORT_ENTRY_SIZE = 72;

/** Tracks the tables read, in file order, for regions and the order check. */
export class TableLayout {
  readonly regions: ZenRegion[] = [];
  /** `summary` names the structure holding the offsets, for errors about them. */
  constructor(private readonly r: BinaryReader, private readonly summary: string) {}
  add(name: string, offset: number, size: number): void {
    if (size > 0) this.regions.push({ name, offset, size });
  }
  /** A table between two summary offsets: its element count, checked. */
  table(name: string, start: number, end: number, elemSize: number, fieldAt: number): number {
    if (start < 0 || end < start || end > this.r.length) {
      throw new FormatError(this.r.file, this.summary, fieldAt, `${name} spans ${start}..${end}, outside the ${this.r.length}-byte header or out of order`);
    }
    if ((end - start) % elemSize !== 0) {
      throw new FormatError(this.r.file, this.summary, fieldAt, `${name} spans ${end - start} bytes, not a whole number of ${elemSize}-byte entries`);
    }
    this.add(name, start, end - start);
    return (end - start) / elemSize;
  }
}

export function readExports(r: BinaryReader, count: number, names: readonly string[], legacy: boolean): ZenExport[] {
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

export function readObjectRefs(r: BinaryReader, count: number, legacy: boolean): ObjectRef[] {
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

export function checkReferences(r: BinaryReader, pkg: ZenPackage, importMapOffset: number): void {
  r.struct('import map');
  const ctx = { exportCount: pkg.exports.length, hashCount: pkg.importedPublicExportHashes.length, importedPackageCount: pkg.importedPackageCount };
  pkg.imports.forEach((ref, i) => {
    if (ref.kind === 'export') throw r.error(`import ${i} is an export reference (0x${ref.raw})`, importMapOffset + i * 8);
    checkRef(r, ref, importMapOffset + i * 8, `import ${i}`, ctx);
  });
  r.struct('export map');
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
export function placeExportData(r: BinaryReader, pkg: ZenPackage, dataEnd: number): void {
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

export function emptyPackage(file: string, layout: ZenLayout, chunkSize: number): ZenPackage {
  return {
    file, layout, name: '', packageId: '', packageFlags: 0, cookedHeaderSize: 0, headerSize: 0, chunkSize,
    names: [], importedPublicExportHashes: [], imports: [], exports: [], exportBundleHeaders: [], exportBundleEntries: [],
    importedPackageIds: [], importedPackageNames: [], legacyPackageArcs: [], dependencyBundleHeaders: [],
    dependencyBundleEntries: [], bulkData: [], cellImports: [], cellExports: [], exportDataEnd: 0, regions: [], warnings: [],
  };
}

