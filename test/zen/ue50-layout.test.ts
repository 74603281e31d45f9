// The corpus has no UE5.0-5.2 Zen package, so these tests build one field by field as the engine
// writes it (FZenPackageSummary with GraphDataOffset, the name batch, UE5.2's bulk data map, the
// imported public export hashes, the import map, 72-byte FExportMapEntry records, the export
// bundle entries and the graph data, then the export data at HeaderSize; the layout as CUE4Parse's
// IoPackage reads it for GAME_UE5_0 to GAME_UE5_2) from values chosen here, and check the reader
// gives back those values. Nothing is taken from the reader's own output.
import { describe, expect, it } from 'vitest';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import { ZenLayout } from '../../src/core/engine-versions.js';
import { FormatError } from '../../src/core/errors.js';
// The name hashes the batch stores are checked by the reader; CityHash64 has its own reference
// vectors (test/hash), so it is used here only to write valid ones.
import { nameHash } from '../../src/core/zen/name-batch.js';

class Out {
  bytes: number[] = [];
  get pos(): number { return this.bytes.length; }
  u8(v: number): this { this.bytes.push(v & 0xff); return this; }
  u32(v: number): this { for (let i = 0; i < 4; i++) this.bytes.push((v >>> (8 * i)) & 0xff); return this; }
  u64(hi: number, lo: number): this { return this.u32(lo).u32(hi); }
  /** A u64 from 16 hex digits. */
  hex64(h: string): this { return this.u64(parseInt(h.slice(0, 8), 16), parseInt(h.slice(8), 16)); }
  num64(v: number): this { return this.u64(Math.floor(v / 0x100000000), v % 0x100000000); }
  raw(b: Iterable<number>): this { for (const x of b) this.bytes.push(x); return this; }
  set(at: number, v: number): void { for (let i = 0; i < 4; i++) this.bytes[at + i] = (v >>> (8 * i)) & 0xff; }
}

const NAMES = ['/Game/Test/Pkg', 'Pkg', 'Sub', 'None'];
const SCRIPT_CLASS = '4000000012345678'; // FPackageObjectIndex type 1 (ScriptImport), a made-up hash
const PACKAGE_IMPORT = '8000000000000000'; // type 2 (PackageImport): imported package 0, public export hash 0
const NULL_INDEX = 'ffffffffffffffff';
const IMPORTED_HASH = '1122334455667788';
const IMPORTED_PACKAGE = '0123456789abcdef';
/** Two exports: "Sub_1" (outer: export 1) and "Pkg" (a public export), with their data. */
const EXPORTS = [
  { name: 2, number: 2, outer: '0000000000000001', publicHash: '0000000000000000', flags: 0x00080000, filter: 0, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] },
  { name: 1, number: 0, outer: NULL_INDEX, publicHash: 'aabbccddeeff0011', flags: 0x00000001, filter: 2, data: Array.from({ length: 24 }, (_, i) => 0xa0 + i) },
];
const BULK = [
  { serialOffset: 4096, duplicateSerialOffset: -1, serialSize: 65536, flags: 0x10, cookedIndex: 0 },
  { serialOffset: 69632, duplicateSerialOffset: -1, serialSize: 1000, flags: 0x11, cookedIndex: 3 },
];

/** The package as UE5.0 (or, with `bulk`, UE5.2) writes it. */
function ue50Package(bulk: boolean): Uint8Array {
  const o = new Out();
  // FZenPackageSummary, UE5.0-5.2: 44 bytes.
  o.u32(0); // bHasVersioningInfo
  const headerSizeAt = o.pos;
  o.u32(0); // HeaderSize: patched
  o.u32(0).u32(0); // Name: FMappedName (name 0, number 0)
  o.u32(0x80000000); // PackageFlags: PKG_FilterEditorOnly
  o.u32(1234); // CookedHeaderSize
  const fields = o.pos;
  for (let i = 0; i < 5; i++) o.u32(0); // imported hashes, import map, export map, bundle entries, graph data offsets
  // Name batch: count, string bytes, hash version, hashes, big-endian 2-byte headers, the strings.
  o.u32(NAMES.length).u32(NAMES.reduce((n, s) => n + s.length, 0));
  o.u64(0x00000000, 0xc1640000);
  for (const n of NAMES) o.hex64(nameHash(n, false));
  for (const n of NAMES) o.u8(n.length >> 8).u8(n.length & 0xff);
  for (const n of NAMES) o.raw(Buffer.from(n, 'latin1'));
  if (bulk) {
    // UE5.2 (DATA_RESOURCES): i64 size of the map, then 32-byte FBulkDataMapEntry records.
    o.num64(BULK.length * 32);
    for (const b of BULK) {
      o.num64(b.serialOffset).u64(0xffffffff, 0xffffffff).num64(b.serialSize).u32(b.flags).u8(b.cookedIndex).u8(0).u8(0).u8(0);
    }
  }
  const put = (i: number): void => o.set(fields + i * 4, o.pos);
  put(0); o.hex64(IMPORTED_HASH);
  put(1); o.hex64(SCRIPT_CLASS).hex64(PACKAGE_IMPORT);
  put(2);
  let serialOffset = 0;
  for (const e of EXPORTS) {
    o.num64(serialOffset).num64(e.data.length); // CookedSerialOffset, CookedSerialSize
    o.u32(e.name).u32(e.number); // ObjectName
    o.hex64(e.outer).hex64(SCRIPT_CLASS).hex64(NULL_INDEX).hex64(NULL_INDEX); // outer, class, super, template
    o.hex64(e.publicHash).u32(e.flags).u8(e.filter).u8(0).u8(0).u8(0);
    serialOffset += e.data.length;
  }
  put(3);
  // Create both, then serialize both (EExportCommandType: 0 Create, 1 Serialize).
  o.u32(0).u32(0).u32(1).u32(0).u32(0).u32(1).u32(1).u32(1);
  put(4);
  // Graph data: one FExportBundleHeader {SerialOffset u64, FirstEntryIndex, EntryCount}, no
  // internal arcs, and an empty arc list for the one imported package.
  o.num64(0).u32(0).u32(4);
  o.u32(0);
  o.u32(0);
  o.set(headerSizeAt, o.pos);
  for (const e of EXPORTS) o.raw(e.data);
  return Uint8Array.from(o.bytes);
}

const storeEntry = { exportCount: 2, exportBundleCount: 1, importedPackages: [IMPORTED_PACKAGE], shaderMapHashes: [] };

describe('UE5.0-5.2 layouts (graph data)', () => {
  for (const bulk of [false, true]) {
    it(`reads a UE5.${bulk ? 2 : 0} package field by field${bulk ? ', with its bulk data map' : ''}`, () => {
      const bytes = ue50Package(bulk);
      const pkg = parseZenPackage(bytes, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry });
      expect(pkg.layout).toBe(bulk ? ZenLayout.BulkDataMap : ZenLayout.ZenSummary);
      expect(pkg.name).toBe('/Game/Test/Pkg');
      expect(pkg.names).toEqual(NAMES);
      expect(pkg.importedPublicExportHashes).toEqual([IMPORTED_HASH]);
      expect(pkg.imports).toEqual([
        { kind: 'script', raw: SCRIPT_CLASS },
        { kind: 'package', raw: PACKAGE_IMPORT, packageIndex: 0, hashIndex: 0 },
      ]);
      expect(pkg.exports.map((e) => ({
        name: e.name, size: e.cookedSerialSize, offset: e.cookedSerialOffset, outer: e.outer.kind, class: e.class.raw,
        super: e.super.kind, template: e.template.kind, hash: e.publicExportHash, flags: e.objectFlags, filter: e.filterFlags,
      }))).toEqual([
        { name: 'Sub_1', size: 16, offset: 0, outer: 'export', class: SCRIPT_CLASS, super: 'null', template: 'null', hash: '0000000000000000', flags: 0x00080000, filter: 0 },
        { name: 'Pkg', size: 24, offset: 16, outer: 'null', class: SCRIPT_CLASS, super: 'null', template: 'null', hash: 'aabbccddeeff0011', flags: 1, filter: 2 },
      ]);
      expect(pkg.exports[0]!.outer).toMatchObject({ kind: 'export', index: 1 });
      expect(pkg.bulkData).toEqual(bulk ? BULK : []);
      expect(pkg.exportBundleHeaders).toEqual([{ serialOffset: 0, firstEntryIndex: 0, entryCount: 4 }]);
      expect(pkg.graphData).toEqual({ internalArcs: [], externalArcs: [[]] });
      expect(pkg.importedPackageIds).toEqual([IMPORTED_PACKAGE]);
      expect(pkg.importedPackageCount).toBe(1);
      expect(pkg.hasPackageTag).toBeUndefined();
      expect(pkg.exportDataEnd).toBe(bytes.length);
      // The export data, in bundle order after HeaderSize.
      const dataStart = bytes.length - 40;
      expect(pkg.exports.map((e) => e.dataOffset)).toEqual([dataStart, dataStart + 16]);
      for (const [i, e] of pkg.exports.entries()) {
        expect([...bytes.subarray(e.dataOffset, e.dataOffset + e.cookedSerialSize)]).toEqual(EXPORTS[i]!.data);
      }
      // Without the store entry the bundle and import counts come from the graph data itself.
      const alone = parseZenPackage(bytes, 'ue50', { layout: ZenLayout.ZenSummary });
      expect(alone.exportBundleHeaders.length).toBe(1);
      expect(alone.importedPackageCount).toBe(1);
      expect(alone.importedPackageIds).toEqual([]);
    });
  }

  it('rejects graph data whose bundles do not cover the entries', () => {
    const bytes = ue50Package(false);
    const graphAt = new DataView(bytes.buffer).getUint32(40, true);
    new DataView(bytes.buffer).setUint32(graphAt + 12, 3, true); // the bundle holds 3 of 4 entries
    expect(() => parseZenPackage(bytes, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry })).toThrow(FormatError);
    expect(() => parseZenPackage(bytes, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry })).toThrow(/cover 3 of 4 entries/);
  });
});
