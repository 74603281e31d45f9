// The corpus has no UE5.0-5.2 Zen package, so these tests re-lay a real UE5.5 package in the
// UE5.0 (graph data) and UE5.2 (graph data + bulk data map) layouts, the way retoc writes them,
// and check the reader finds the same tables and export bytes.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { ZenLayout } from '../../src/core/engine-versions.js';
import { FormatError } from '../../src/core/errors.js';
import { corpus } from '../support/corpus.js';

const region = (pkg: ZenPackage, bytes: Uint8Array, name: string): Uint8Array => {
  const r = pkg.regions.find((x) => x.name === name);
  return r ? bytes.subarray(r.offset, r.offset + r.size) : new Uint8Array(0);
};

class Out {
  bytes: number[] = [];
  get pos(): number { return this.bytes.length; }
  u32(v: number): this { for (let i = 0; i < 4; i++) this.bytes.push((v >>> (8 * i)) & 0xff); return this; }
  u64(v: number): this { this.u32(v % 0x100000000); return this.u32(Math.floor(v / 0x100000000)); }
  raw(b: Uint8Array): this { for (const x of b) this.bytes.push(x); return this; }
  set(at: number, v: number): void { for (let i = 0; i < 4; i++) this.bytes[at + i] = (v >>> (8 * i)) & 0xff; }
}

/** A UE5.0 (or, with `bulk`, UE5.2) Zen package holding the tables and exports of `src`. */
function relayout(src: ZenPackage, bytes: Uint8Array, bulk: boolean): Uint8Array {
  const o = new Out();
  o.u32(0).u32(0); // bHasVersioningInfo, HeaderSize (patched)
  o.raw(bytes.subarray(8, 24)); // Name, PackageFlags, CookedHeaderSize
  const fields = o.pos;
  for (let i = 0; i < 5; i++) o.u32(0); // hashes, imports, exports, bundle entries, graph data offsets
  o.raw(region(src, bytes, 'name batch'));
  if (bulk) {
    o.u64(src.bulkData.length * 32);
    const map = region(src, bytes, 'bulk data map');
    o.raw(map.subarray(map.length - src.bulkData.length * 32));
  }
  const put = (i: number): void => o.set(fields + i * 4, o.pos);
  put(0); o.raw(region(src, bytes, 'imported public export hashes'));
  put(1); o.raw(region(src, bytes, 'import map'));
  put(2); o.raw(region(src, bytes, 'export map'));
  put(3); o.raw(region(src, bytes, 'export bundle entries'));
  put(4);
  // Graph data: one bundle with every entry, no internal arcs, an empty arc list per imported package.
  o.u64(0).u32(0).u32(src.exportBundleEntries.length);
  o.u32(0);
  for (let i = 0; i < src.importedPackageIds.length; i++) o.u32(0);
  o.set(4, o.pos);
  // Export data in bundle order.
  for (const e of src.exportBundleEntries) {
    if (e.command !== 'serialize') continue;
    const x = src.exports[e.exportIndex]!;
    o.raw(bytes.subarray(x.dataOffset, x.dataOffset + x.cookedSerialSize));
  }
  return Uint8Array.from(o.bytes);
}

describe('UE5.0-5.2 layouts (graph data)', () => {
  const bytes = readFileSync(corpus('cooked/zen55_SM_Cube.uzenasset'));
  const src = parseZenPackage(bytes, 'zen55_SM_Cube', { layout: ZenLayout.BulkDataMapPadding });
  const storeEntry = { exportCount: 3, exportBundleCount: 1, importedPackages: src.importedPackageIds, shaderMapHashes: [] };

  for (const bulk of [false, true]) {
    it(`reads a UE5.${bulk ? 2 : 0} package and finds its ${bulk ? 'bulk data map and ' : ''}export bytes`, () => {
      const ue50 = relayout(src, bytes, bulk);
      const pkg = parseZenPackage(ue50, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry });
      expect(pkg.layout).toBe(bulk ? ZenLayout.BulkDataMap : ZenLayout.ZenSummary);
      expect(pkg.name).toBe('/Game/Meshes/SM_Cube');
      expect(pkg.names).toEqual(src.names);
      expect(pkg.imports).toEqual(src.imports);
      expect(pkg.exports.map((e) => e.name)).toEqual(['BodySetup_0', 'NavCollision_0', 'SM_Cube']);
      expect(pkg.bulkData).toEqual(bulk ? src.bulkData : []);
      expect(pkg.exportBundleHeaders).toEqual([{ serialOffset: 0, firstEntryIndex: 0, entryCount: 6 }]);
      expect(pkg.graphData).toEqual({ internalArcs: [], externalArcs: [[], []] });
      expect(pkg.importedPackageIds).toEqual(src.importedPackageIds);
      expect(pkg.importedPackageCount).toBe(2);
      expect(pkg.hasPackageTag).toBeUndefined();
      expect(pkg.exportDataEnd).toBe(ue50.length);
      for (const [i, e] of pkg.exports.entries()) {
        const want = src.exports[i]!;
        expect(Buffer.compare(ue50.subarray(e.dataOffset, e.dataOffset + e.cookedSerialSize), bytes.subarray(want.dataOffset, want.dataOffset + want.cookedSerialSize))).toBe(0);
      }
      // Without the store entry the bundle and import counts come from the graph data itself.
      const alone = parseZenPackage(ue50, 'ue50', { layout: ZenLayout.ZenSummary });
      expect(alone.exportBundleHeaders.length).toBe(1);
      expect(alone.importedPackageCount).toBe(2);
      expect(alone.importedPackageIds).toEqual([]);
    });
  }

  it('rejects graph data whose bundles do not cover the entries', () => {
    const ue50 = relayout(src, bytes, false);
    const graphAt = new DataView(ue50.buffer).getUint32(40, true);
    new DataView(ue50.buffer).setUint32(graphAt + 12, 5, true); // the bundle holds 5 of 6 entries
    expect(() => parseZenPackage(ue50, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry })).toThrow(FormatError);
    expect(() => parseZenPackage(ue50, 'ue50', { layout: ZenLayout.ZenSummary, storeEntry })).toThrow(/cover 5 of 6 entries/);
  });
});
