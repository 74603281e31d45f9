import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseZenPackage, type ZenPackageContext } from '../../src/core/zen/zen-package.js';
import { resolvePackage } from '../../src/core/zen/resolve.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { ZenLayout } from '../../src/core/engine-versions.js';
import { FormatError } from '../../src/core/errors.js';
import { corpus } from '../support/corpus.js';

const load = (file: string): Uint8Array => Uint8Array.from(readFileSync(corpus('cooked', file)));
const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const setU32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0, true);

/** Parses and expects a FormatError naming the file, the structure and the offset. */
function expectError(bytes: Uint8Array, ctx: ZenPackageContext, structure: string, offset: number, detail?: RegExp): FormatError {
  let err: unknown;
  try { parseZenPackage(bytes, 'bad.uzenasset', ctx); } catch (e) { err = e; }
  expect(err, 'should throw').toBeInstanceOf(FormatError);
  const fe = err as FormatError;
  expect(fe.file).toBe('bad.uzenasset');
  expect(fe.structure).toBe(structure);
  expect(fe.offset).toBe(offset);
  expect(fe.message).toMatch(/^bad\.uzenasset: /);
  if (detail) expect(fe.message).toMatch(detail);
  return fe;
}

// zen56_SM_Cube (UE5.6 layout, unversioned): summary fields at fixed offsets.
const SUMMARY = { headerSize: 4, importMap: 28, exportMap: 32, bundleEntries: 36, cellImports: 52, nameCount: 60 };
const UE56 = { layout: ZenLayout.VerseCells };

describe('Zen package: bad input', () => {
  it('rejects summary offsets out of order', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    setU32(b, SUMMARY.exportMap, u32(b, SUMMARY.importMap) - 8);
    expectError(b, UE56, 'zen package summary', SUMMARY.exportMap, /out of order/);
  });

  it('rejects a header size past the chunk, and a chunk cut inside the header', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    setU32(b, SUMMARY.headerSize, b.length + 100);
    expectError(b, UE56, 'zen package summary', SUMMARY.headerSize);
    const good = load('zen56_SM_Cube.uzenasset');
    expect(() => parseZenPackage(good.subarray(0, 500), 'cut', UE56)).toThrow(FormatError);
  });

  it('rejects a table that is not a whole number of entries', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    setU32(b, SUMMARY.cellImports, u32(b, SUMMARY.cellImports) - 4);
    expectError(b, UE56, 'zen package summary', SUMMARY.exportMap, /export map spans .* not a whole number of 72-byte entries/);
  });

  it('rejects an export whose outer chain loops', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    const exportMap = u32(b, SUMMARY.exportMap);
    // SM_Cube (export 2) is the outer of BodySetup_1 (export 0); make export 0 the outer of export 2.
    setU32(b, exportMap + 2 * 72 + 24, 0);
    setU32(b, exportMap + 2 * 72 + 28, 0);
    const fe = expectError(b, UE56, 'export map', exportMap + 0 * 72 + 24, /own outer/);
    expect(fe.message).toContain('0 → 2 → 0');
  });

  it('rejects object indices that point outside the package', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    const exportMap = u32(b, SUMMARY.exportMap);
    setU32(b, exportMap + 32, 7); // export 0's class: export 7 of 3
    setU32(b, exportMap + 36, 0);
    expectError(b, UE56, 'export map', exportMap + 32, /class names export 7 of 3/);

    const c = load('zen56_SM_Cube.uzenasset');
    const importMap = u32(c, SUMMARY.importMap);
    // Import 4 is the package import; point it at imported public export hash 99 of 1.
    expect(u32(c, importMap + 4 * 8 + 4) >>> 30).toBe(2);
    setU32(c, importMap + 4 * 8, 99);
    expectError(c, UE56, 'import map', importMap + 4 * 8, /hash 99 of 1/);

    const d = load('zen56_SM_Cube.uzenasset');
    setU32(d, importMap + 4 * 8 + 4, 0x80000005); // imported package 5 of 1
    expectError(d, UE56, 'import map', importMap + 4 * 8, /imported package 5 of 1/);

    const e = load('zen56_SM_Cube.uzenasset');
    setU32(e, importMap, 0); // import 0 as an export reference
    setU32(e, importMap + 4, 0);
    expectError(e, UE56, 'import map', importMap, /export reference/);

    const f = load('zen56_SM_Cube.uzenasset');
    setU32(f, importMap + 4, 0xc0000000); // null type with other bits
    expectError(f, UE56, 'import map', importMap, /null type/);
  });

  it('rejects a name batch with wrong counts or a wrong hash', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    setU32(b, SUMMARY.nameCount, u32(b, SUMMARY.nameCount) + 1);
    expectError(b, UE56, 'name batch', SUMMARY.nameCount + 4, /declares/);

    const c = load('zen56_SM_Cube.uzenasset');
    setU32(c, SUMMARY.nameCount, 0x10000000);
    expectError(c, UE56, 'name batch', SUMMARY.nameCount, /name count/);

    const d = load('zen56_SM_Cube.uzenasset');
    const count = u32(d, SUMMARY.nameCount);
    const hashesAt = SUMMARY.nameCount + 16;
    const stringsAt = hashesAt + count * 10;
    expect(String.fromCharCode(d[stringsAt]!)).toBe('B'); // "BlockAll"
    d[stringsAt] = 'C'.charCodeAt(0);
    expectError(d, UE56, 'name batch', hashesAt, /"ClockAll" has hash/);
  });

  it('rejects export data that runs past the chunk or overlaps', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    const exportMap = u32(b, SUMMARY.exportMap);
    setU32(b, exportMap + 2 * 72 + 8, u32(b, exportMap + 2 * 72 + 8) + 100); // SM_Cube's size
    expectError(b, UE56, 'export map', exportMap + 2 * 72, /runs past/);

    const c = load('zen56_SM_Cube.uzenasset');
    setU32(c, exportMap + 1 * 72, 0); // NavCollision at BodySetup's offset
    expectError(c, UE56, 'export map', exportMap + 1 * 72, /overlaps/);
  });

  it('rejects bad export bundle commands', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    const entries = u32(b, SUMMARY.bundleEntries);
    setU32(b, entries + 4, 5);
    expectError(b, UE56, 'export bundle entries', entries + 4, /neither Create/);
    // Two Create commands for one export (and none for another).
    const c = load('zen56_SM_Cube.uzenasset');
    const n = (u32(c, 40) - entries) / 8;
    const creates = [...Array(n).keys()].filter((i) => u32(c, entries + i * 8 + 4) === 0);
    setU32(c, entries + creates[1]! * 8, u32(c, entries + creates[0]! * 8));
    expectError(c, UE56, 'export bundle entries', entries, /two create commands/);
  });

  it('says when the layout does not fit the package', () => {
    const b = load('zen56_SM_Cube.uzenasset');
    expect(() => parseZenPackage(b, 'bad', { layout: ZenLayout.BulkDataMapPadding })).toThrow(FormatError);
    const c = load('zen55_SM_Cube.uzenasset');
    expect(() => parseZenPackage(c, 'bad', { layout: ZenLayout.DependencyBundles })).toThrow(/Zen layout DependencyBundles/);
  });

  it('rejects UE4.27 name hashes that do not match the names', () => {
    const b = load('zen427_T_Emissive.uasset');
    // FPackageSummary: NameMapHashesOffset at 32, NameMapHashesSize at 36.
    const hashesAt = u32(b, 32);
    b[hashesAt + 8] = b[hashesAt + 8]! ^ 1; // first name's hash
    expectError(b, { layout: ZenLayout.PackageSummary }, 'name hashes', hashesAt + 8, /has hash/);
    const c = load('zen427_T_Emissive.uasset');
    setU32(c, 36, u32(c, 36) - 8);
    expectError(c, { layout: ZenLayout.PackageSummary }, 'name hashes', hashesAt, /14 name hashes for 15 names/);
  });

  it('never fails with anything but a FormatError on random corruption, and never hangs', () => {
    let seed = 12345;
    const rand = (n: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
    const files: [string, ZenLayout][] = [
      ['zen56_SM_Cube.uzenasset', ZenLayout.VerseCells], ['zen55_BP_ThirdPersonCharacter.uzenasset', ZenLayout.BulkDataMapPadding],
      ['zen427_BP_SpicyChoppingDamage.uasset', ZenLayout.PackageSummary],
    ];
    let rejected = 0;
    for (const [file, layout] of files) {
      const good = load(file);
      const headerSize = layout === ZenLayout.PackageSummary ? u32(good, 52) + u32(good, 56) : u32(good, 4);
      for (let k = 0; k < 150; k++) {
        const b = Uint8Array.from(good);
        for (let m = 0; m < 1 + rand(4); m++) b[rand(headerSize)] = rand(256);
        try {
          parseZenPackage(b, file, { layout });
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          rejected++;
        }
      }
    }
    expect(rejected).toBeGreaterThan(200);
  });
});

describe('resolution of hostile packages', () => {
  it('stops at cycles across packages and prints what it knows', () => {
    const pkg = (name: string, id: string, outerRaw: string, imported: string[]): ZenPackage => ({
      file: name, layout: ZenLayout.VerseCells, name, packageId: id, packageFlags: 0, cookedHeaderSize: 0, headerSize: 0,
      chunkSize: 0, names: [], importedPublicExportHashes: ['00000000000000aa'], imports: [],
      exports: [{
        index: 0, name: 'X', cookedSerialOffset: 0, cookedSerialSize: 0, dataOffset: 0,
        outer: { kind: 'package', raw: outerRaw, packageIndex: 0, hashIndex: 0 },
        class: { kind: 'script', raw: '4000000000000001' }, super: { kind: 'null', raw: 'ffffffffffffffff' },
        template: { kind: 'null', raw: 'ffffffffffffffff' }, publicExportHash: '00000000000000aa', isPublic: true,
        objectFlags: 0, filterFlags: 0, entryOffset: 0,
      }],
      exportBundleHeaders: [], exportBundleEntries: [], importedPackageIds: imported, importedPackageNames: [],
      legacyPackageArcs: [], dependencyBundleHeaders: [], dependencyBundleEntries: [], bulkData: [], cellImports: [],
      cellExports: [], exportDataEnd: 0, regions: [], warnings: [],
    });
    // A's export 0 lives in B's export 0, which lives in A's export 0.
    const a = pkg('/Game/A', '000000000000000a', '8000000000000000', ['000000000000000b']);
    const b = pkg('/Game/B', '000000000000000b', '8000000000000000', ['000000000000000a']);
    const map = new Map([[a.packageId, a], [b.packageId, b]]);
    const r = resolvePackage(a, { importedPackages: map });
    expect(r.exports[0]!.path).toMatch(/^\?\./);
    expect(r.exports[0]!.path.endsWith('.X')).toBe(true);
    expect(r.exports[0]!.classPath).toBe('/Script/?0x4000000000000001');
  });
});
