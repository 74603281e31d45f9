/**
 * Writes a cooked UE5.5 Zen package (an ExportBundleData chunk, ZenLayout.BulkDataMapPadding) as
 * src/core/zen/zen-package.ts reads it: FZenPackageSummary without versioning info, the name
 * batch, the padded bulk data map, imported public export hashes, import map, export map (72 B per
 * export), export bundle entries (Create and Serialize per export), dependency bundles, imported
 * package names, then the export data and the package tag. Laid out like
 * corpus/cooked/zen55_SM_Cube.uzenasset.
 */
import { cityHash64Words, hexWords, lowerUtf16leBytes } from '../src/core/hash/cityhash64.js';
import { PACKAGE_FILE_TAG } from '../src/core/zen/zen-package.js';
import { ByteWriter } from '../test/fixtures/byte-writer.js';
import { writeNameBatch } from './name-batch-writer.js';

/** An FPackageObjectIndex as 16 hex digits. */
export type ObjectIndexHex = string;

export const NULL_INDEX: ObjectIndexHex = 'ffffffffffffffff';

export function exportIndex(i: number): ObjectIndexHex {
  return hexWords(0, i);
}

/** A UE5 package import: imported package `packageIndex`, public export hash `hashIndex`. */
export function packageImportIndex(packageIndex: number, hashIndex: number): ObjectIndexHex {
  return hexWords(((2 << 30) | packageIndex) >>> 0, hashIndex);
}

/** FPublicExportHash: CityHash64 of the export's path inside its package, lowercased, as UTF-16LE. */
export function publicExportHash(relativePath: string): string {
  const [h, l] = cityHash64Words(lowerUtf16leBytes(relativePath));
  return hexWords(h, l);
}

export interface ZenExportSpec {
  /** Base name; `number` n > 0 prints as name_(n-1), as FName does. */
  name: string;
  number: number;
  outer: ObjectIndexHex;
  classIndex: ObjectIndexHex;
  superIndex: ObjectIndexHex;
  templateIndex: ObjectIndexHex;
  /** Public exports (assets) carry their hash; others '0000000000000000'. */
  publicExportHash: string;
  objectFlags: number;
  /** Bytes of this export in `exportData`, in export order. */
  serialSize: number;
}

export interface ZenBulkDataSpec {
  serialOffset: number;
  serialSize: number;
  flags: number;
}

export interface ZenPackageSpec {
  /** "/Game/Characters/Hero/Meshes/SK_Hero_012" */
  name: string;
  packageFlags: number;
  /** Other names the export data refers to (property names, ...). */
  extraNames: readonly string[];
  exports: ZenExportSpec[];
  imports: ObjectIndexHex[];
  importedPublicExportHashes: string[];
  importedPackageNames: string[];
  bulkData: ZenBulkDataSpec[];
  /** All exports' bytes back to back (sum of serialSize). */
  exportData: Uint8Array;
}

const EXPORT_ENTRY_SIZE = 72;

/** Builds the chunk; returns its bytes and the header size. */
export function writeZenPackage(spec: ZenPackageSpec): { bytes: Uint8Array; headerSize: number } {
  const nameIndex = new Map<string, number>();
  const names: string[] = [];
  const addName = (n: string): void => {
    if (!nameIndex.has(n)) { nameIndex.set(n, names.length); names.push(n); }
  };
  for (const n of spec.extraNames) addName(n);
  for (const e of spec.exports) addName(e.name);
  addName(spec.name);
  const mapped = (n: string): number => nameIndex.get(n)!; // type bits 0: a package name

  const dataSize = spec.exports.reduce((s, e) => s + e.serialSize, 0);
  if (dataSize !== spec.exportData.length) throw new Error(`${spec.name}: export sizes add up to ${dataSize}, data has ${spec.exportData.length}`);

  const w = new ByteWriter(4096 + dataSize);
  // FZenPackageSummary (52 bytes); offsets are patched once known.
  w.u32(0); // bHasVersioningInfo
  const headerSizeAt = w.length; w.u32(0);
  w.u32(mapped(spec.name)).u32(0);
  w.u32(spec.packageFlags);
  const cookedHeaderSizeAt = w.length; w.u32(0);
  const offsetsAt = w.length;
  for (let i = 0; i < 7; i++) w.i32(0);

  writeNameBatch(w, names);

  // Bulk data map, UE5.4+: u64 padding length, padding to 8, i64 map size, 32-byte entries.
  const pad = (8 - ((w.length + 8) % 8)) % 8;
  w.u64(pad).zeros(pad);
  w.i64(spec.bulkData.length * 32);
  for (const b of spec.bulkData) {
    w.i64(b.serialOffset).i64(-1).i64(b.serialSize).u32(b.flags).u8(0).zeros(3);
  }

  const hashesOffset = w.length;
  for (const h of spec.importedPublicExportHashes) w.hex64(h);
  const importMapOffset = w.length;
  for (const i of spec.imports) w.hex64(i);
  const exportMapOffset = w.length;
  let serialOffset = 0;
  for (const e of spec.exports) {
    const at = w.length;
    w.u64(serialOffset).u64(e.serialSize);
    w.u32(mapped(e.name)).u32(e.number);
    w.hex64(e.outer).hex64(e.classIndex).hex64(e.superIndex).hex64(e.templateIndex);
    w.hex64(e.publicExportHash);
    w.u32(e.objectFlags).u8(0).zeros(3);
    if (w.length - at !== EXPORT_ENTRY_SIZE) throw new Error('export map entry size');
    serialOffset += e.serialSize;
  }
  const bundleEntriesOffset = w.length;
  spec.exports.forEach((_, i) => w.u32(i).u32(0)); // Create
  spec.exports.forEach((_, i) => w.u32(i).u32(1)); // Serialize

  // Dependency bundles: per export, create its outer first; serialize after its class import.
  const headers: number[][] = [];
  const entries: number[] = [];
  const importOf = new Map(spec.imports.map((x, i) => [x, i]));
  spec.exports.forEach((e) => {
    const first = entries.length;
    let createBeforeCreate = 0;
    let createBeforeSerialize = 0;
    if (e.outer !== NULL_INDEX) { entries.push(parseInt(e.outer.slice(8), 16) + 1); createBeforeCreate++; }
    const classImport = importOf.get(e.classIndex);
    if (classImport !== undefined) { entries.push(-classImport - 1); createBeforeSerialize++; }
    headers.push([first, createBeforeCreate, 0, createBeforeSerialize, 0]);
  });
  const depHeadersOffset = w.length;
  for (const h of headers) { w.i32(h[0]!); for (const c of h.slice(1)) w.u32(c); }
  const depEntriesOffset = w.length;
  for (const x of entries) w.i32(x);
  const importedNamesOffset = w.length;
  writeNameBatch(w, spec.importedPackageNames);
  for (let i = 0; i < spec.importedPackageNames.length; i++) w.i32(0);
  const headerSize = w.length;

  w.bytes(spec.exportData);
  w.u32(PACKAGE_FILE_TAG);

  w.patchU32(headerSizeAt, headerSize);
  // The classic header this package would have had: bigger than the Zen one.
  w.patchU32(cookedHeaderSizeAt, Math.round(headerSize * 1.6));
  [hashesOffset, importMapOffset, exportMapOffset, bundleEntriesOffset, depHeadersOffset, depEntriesOffset, importedNamesOffset]
    .forEach((v, i) => w.patchI32(offsetsAt + i * 4, v));
  return { bytes: w.finish(), headerSize };
}
