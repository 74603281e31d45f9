import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  CONTAINER_HEADER_MAGIC, ContainerHeaderVersion, findStoreEntry, parseContainerHeader, parseContainerImports,
  type ContainerHeader, type ContainerHeaderOptions, type PackageImportTable,
} from '../../src/core/iostore/container-header.js';
import { FormatError } from '../../src/core/errors.js';
import { cityHash64Words, hexWords } from '../../src/core/hash/cityhash64.js';
import { corpus } from '../support/corpus.js';
import { readMiniChunk, readMiniToc } from '../zen/mini-utoc.js';

const V = ContainerHeaderVersion;
const header = (name: string, opts = {}): { bytes: Uint8Array; h: ContainerHeader } => {
  const bytes = readFileSync(corpus('headers', name));
  return { bytes, h: parseContainerHeader(bytes, name, opts) };
};
const totalImports = (h: ContainerHeader): number => h.storeEntries.reduce((s, e) => s + e.importedPackages.length, 0);

/** retoc's metadata.json store entry, with the u64 ids kept exact (JSON numbers would round them). */
function retocStoreEntry(name: string): { exportCount: number; exportBundleCount: number; exportBundlesSize: number; loadOrder: number; imports: string[] } {
  const text = readFileSync(corpus('cooked', name), 'utf8');
  const num = (key: string): number => Number(new RegExp(`"${key}":\\s*(\\d+)`).exec(text)![1]);
  const list = /"imported_packages":\s*\[([^\]]*)\]/.exec(text)![1]!.match(/\d+/g) ?? [];
  return {
    exportCount: num('export_count'), exportBundleCount: num('export_bundle_count'),
    exportBundlesSize: num('export_bundles_size'), loadOrder: num('load_order'),
    imports: list.map((d) => BigInt(d).toString(16).padStart(16, '0')),
  };
}

function expectFormatError(f: () => unknown, structure: string | RegExp, offset?: number): FormatError {
  let err: unknown;
  try { f(); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(FormatError);
  const fe = err as FormatError;
  if (typeof structure === 'string') expect(fe.structure).toBe(structure); else expect(fe.structure).toMatch(structure);
  if (offset !== undefined) expect(fe.offset).toBe(offset);
  expect(fe.message).toContain(fe.file);
  return fe;
}

describe('container header: real headers', () => {
  it('reads a UE4.27 header (Initial, no magic) to its end', () => {
    const { bytes, h } = header('retoc427_ContainerHeader.bin');
    expect(h.version).toBe(V.Initial);
    expect(h.versionForced).toBe(false);
    expect(h.containerId).toBe('9403ca6a2f5a5899');
    expect(h.packageIds.length).toBe(52583);
    expect(h.storeEntries.length).toBe(52583);
    expect(h.byteLength).toBe(bytes.length);
    expect(totalImports(h)).toBe(193557);
    expect(h.packageIds[0]).toBe('00006c1df85c08d9');
    expect(h.packageIds.at(-1)).toBe('ffff1a13f5721d1a');
    expect(h.storeEntries[0]).toEqual({ exportBundlesSize: 2297, exportCount: 1, exportBundleCount: 1, loadOrder: 52541, importedPackages: [], shaderMapHashes: [] });
    expect(h.containerNames).toEqual([]);
    expect(h.culturePackageMap).toEqual([]);
  });

  it('holds the store entries retoc recorded for the zen427 packages', () => {
    const { h } = header('retoc427_ContainerHeader.bin');
    for (const [meta, id] of [['zen427_BP_SpicyChoppingDamage.metadata.json', '22fd32646e72d32d'], ['zen427_T_Emissive.metadata.json', '7b688c86ccf36760']] as const) {
      const want = retocStoreEntry(meta);
      const e = findStoreEntry(h, id)!;
      expect(e, meta).toBeDefined();
      expect(e.exportCount).toBe(want.exportCount);
      expect(e.exportBundleCount).toBe(want.exportBundleCount);
      expect(e.exportBundlesSize).toBe(want.exportBundlesSize);
      expect(e.loadOrder).toBe(want.loadOrder);
      expect(e.importedPackages).toEqual(want.imports);
    }
    expect(findStoreEntry(h, '22fd32646e72d32d')!.importedPackages).toEqual(['c6c0df0096a21d37', '1ab317fd99266914', '27dd07ff85f1a390']);
  });

  it('reads a UE5.0 header (LocalizedPackages) with shader map hashes', () => {
    const { bytes, h } = header('retoc50_ContainerHeader.bin');
    expect(h.version).toBe(V.LocalizedPackages);
    expect(h.containerId).toBe('ad7c3066f190536a');
    expect(h.packageIds.length).toBe(22559);
    expect(h.byteLength).toBe(bytes.length);
    expect(totalImports(h)).toBe(51610);
    expect(h.storeEntries.reduce((s, e) => s + e.shaderMapHashes.length, 0)).toBe(2126);
    expect(h.storeEntries.reduce((s, e) => s + e.exportCount!, 0)).toBe(382251);
    expect(h.packageIds[1]).toBe('0003f207e24c4980');
    expect(h.storeEntries[1]).toEqual({ exportCount: 10, exportBundleCount: 1, importedPackages: ['43c1efce7a0c7d59', '594cb6e558415e12', 'bdfed28cecaf0747'], shaderMapHashes: [] });
    expect(h.storeEntries.find((e) => e.shaderMapHashes.length)!.shaderMapHashes[0]).toMatch(/^[0-9a-f]{40}$/);
    expect(h.localizedPackages).toEqual([]);
    expect(h.packageRedirects).toEqual([]);
  });

  it('reads a UE5.3 header (NoExportInfo: two-view entries)', () => {
    const { bytes, h } = header('retoc53_ContainerHeader.bin');
    expect(h.version).toBe(V.NoExportInfo);
    expect(h.containerId).toBe('152d75aae002767a');
    expect(h.packageIds.length).toBe(3786);
    expect(h.byteLength).toBe(bytes.length);
    expect(totalImports(h)).toBe(1139);
    expect(h.storeEntries.reduce((s, e) => s + e.shaderMapHashes.length, 0)).toBe(236);
    expect(h.packageIds[17]).toBe('01bbc9fae21a7573');
    expect(h.storeEntries[17]).toEqual({ importedPackages: ['18ddea28b9f66396', '37f3287a3ec89072', '6e814665ba975bdf', '7abba1fded1bc410'], shaderMapHashes: [] });
    expect(h.storeEntries[0]!.exportCount).toBeUndefined();
  });

  it('reads UE4.25 headers (PreInitial) with the version forced, and detects them without', () => {
    const { bytes, h } = header('retoc_issue7_ContainerHeader.bin', { version: V.PreInitial });
    expect(h.version).toBe(V.PreInitial);
    expect(h.versionForced).toBe(true);
    expect(h.containerId).toBe('90dab7b6ce3fdb9b');
    expect(h.packageIds.length).toBe(40307);
    expect(h.byteLength).toBe(bytes.length);
    expect(totalImports(h)).toBe(89791);
    expect(h.storeEntries[0]).toEqual({ exportCount: 8, exportBundleCount: 1, importedPackages: ['cc4966557569887e', '55bbffd6df5bd2fe'], shaderMapHashes: [] });
    expect(h.culturePackageMap.length).toBe(11);
    expect(h.culturePackageMap[0]!.culture).toBe('zh-hant-tw');
    expect(h.culturePackageMap[0]!.packages.length).toBe(2);
    // Without the forced version the Initial layout does not read consistently, PreInitial does.
    expect(header('retoc_issue7_ContainerHeader.bin').h.version).toBe(V.PreInitial);
  });

  it('reads a zero-padded PreInitial header to its real end', () => {
    const { bytes, h } = header('retoc_issue18_ContainerHeader.bin', { version: V.PreInitial });
    expect(h.containerId).toBe('8fa7ae270b85f529');
    expect(h.packageIds.length).toBe(182);
    expect(totalImports(h)).toBe(40);
    expect(h.storeEntries.reduce((s, e) => s + e.exportCount!, 0)).toBe(302);
    expect(h.byteLength).toBe(4732);
    expect(bytes.length).toBe(65536);
    expect(bytes.subarray(4732).every((b) => b === 0)).toBe(true);
  });

  it('reads the container headers inside real UE5.4 and UE5.8 containers', () => {
    for (const [base, version, count, id] of [
      ['iostore/isle_pakchunk999-WindowsClient_P', V.NoExportInfo, 12, '943e1fc4578fa48e'],
      ['cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows', V.SoftPackageReferencesOffset, 97, '8e31e2f0b7de84f2'],
    ] as const) {
      const toc = readMiniToc(corpus(`${base}.utoc`));
      const chunk = toc.chunks.find((c) => c.type === 6)!;
      const h = parseContainerHeader(readMiniChunk(toc, corpus(`${base}.ucas`), chunk), base);
      expect(h.version).toBe(version);
      expect(h.packageIds.length).toBe(count);
      expect(h.containerId).toBe(id);
      expect(h.containerId).toBe(toc.containerId.toString(16).padStart(16, '0'));
      // Every package of the container has its ExportBundleData chunk under the same id.
      const chunkIds = new Set(toc.chunks.filter((c) => c.type === 1).map((c) => c.id.toString(16).padStart(16, '0')));
      expect(h.packageIds.every((p) => chunkIds.has(p))).toBe(true);
    }
  });
});

/** A small writer for UE5 container headers, to build inputs the corpus does not have. */
class Writer {
  private bytes: number[] = [];
  get pos(): number { return this.bytes.length; }
  u8(v: number): this { this.bytes.push(v & 0xff); return this; }
  u32(v: number): this { for (let i = 0; i < 4; i++) this.u8(v >>> (8 * i)); return this; }
  u64(v: bigint): this { this.u32(Number(v & 0xffffffffn)); return this.u32(Number(v >> 32n)); }
  raw(b: ArrayLike<number>): this { for (let i = 0; i < b.length; i++) this.u8(b[i]!); return this; }
  patchU32(at: number, v: number): void { for (let i = 0; i < 4; i++) this.bytes[at + i] = (v >>> (8 * i)) & 0xff; }
  done(): Uint8Array { return Uint8Array.from(this.bytes); }
}

/** A name batch of ASCII names with the engine's hashes (CityHash64 of the lowercase). */
function nameBatch(w: Writer, names: string[], hashes: bigint[]): void {
  w.u32(names.length);
  if (!names.length) return;
  w.u32(names.reduce((s, n) => s + n.length, 0)).u64(0xc1640000n);
  hashes.forEach((h) => w.u64(h));
  names.forEach((n) => w.u8(n.length >> 8).u8(n.length));
  names.forEach((n) => w.raw(Buffer.from(n, 'latin1')));
}

/**
 * A UE5.1+ header: two packages (the second imports the first), one localized package, one
 * redirect; version 2 adds an optional-segment package and a shader map hash, versions 4 and 5
 * soft references (package 0 → soft 0 and 1).
 */
function syntheticHeader(version: 2 | 4 | 5): { bytes: Uint8Array; softInfoAt: number } {
  const hashOf = (s: string): bigint => { const [h, l] = cityHash64Words(Buffer.from(s.toLowerCase(), 'latin1')); return (BigInt(h) << 32n) | BigInt(l); };
  const w = new Writer().u32(CONTAINER_HEADER_MAGIC).u32(version).u64(0x1122334455667788n);
  w.u32(2).u64(0xaaaan).u64(0xbbbbn); // package ids
  const entries = new Writer();
  if (version === 2) {
    // 24-byte entries {export count, bundle count, imports view, shader hashes view}, then the arrays.
    entries.u32(1).u32(1).u32(0).u32(0).u32(0).u32(0);
    entries.u32(3).u32(1).u32(1).u32(48 - 32).u32(1).u32(56 - 40);
    entries.u64(0xaaaan);
    entries.raw(Array.from({ length: 20 }, (_, i) => i));
  } else {
    // 16-byte entries {imports view, shader hashes view}, then the arrays.
    entries.u32(0).u32(0).u32(0).u32(0);
    entries.u32(1).u32(32 - 16).u32(0).u32(0); // package 1: one import at byte 32 (view at 16)
    entries.u64(0xaaaan);
  }
  w.u32(entries.pos).raw(entries.done());
  if (version === 2) {
    const optional = new Writer().u32(2).u32(1).u32(0).u32(0).u32(0).u32(0); // export count 2, 1 bundle
    w.u32(1).u64(0xaaaan).u32(optional.pos).raw(optional.done());
  } else {
    w.u32(0).u32(0); // no optional segment packages
  }
  nameBatch(w, ['/Game/L10N/X', '/Game/Old'], [hashOf('/Game/L10N/X'), hashOf('/Game/Old')]);
  w.u32(1).u64(0xccccn).u32(0x40000000).u32(0); // localized: source id, container name 0
  w.u32(1).u64(0xddddn).u64(0xaaaan).u32(0x40000001).u32(3); // redirect: name 1, number 3 → "_2"
  const softInfoAt = w.pos;
  if (version === 2) return { bytes: w.done(), softInfoAt };
  const soft = new Writer().u32(1); // bContainsSoftPackageReferences
  soft.u32(2).u64(0xeeeen).u64(0xffffn);
  const indices = new Writer();
  indices.u32(2).u32(16); // package 0: 2 indices at byte 16
  indices.u32(0).u32(0); // package 1: none
  indices.u32(0).u32(1);
  soft.u32(indices.pos).raw(indices.done());
  if (version === 5) {
    w.u64(0n).u64(0n);
    w.patchU32(softInfoAt, w.pos);
    w.patchU32(softInfoAt + 8, soft.pos);
  }
  w.raw(soft.done());
  return { bytes: w.done(), softInfoAt };
}

describe('container header: versions the corpus lacks', () => {
  for (const version of [2, 4, 5] as const) {
    it(`reads version ${version} store entries, localized packages, redirects${version > 2 ? ' and soft references' : ' and optional segments'}`, () => {
      const { bytes } = syntheticHeader(version);
      const h = parseContainerHeader(bytes, `v${version}.bin`);
      expect(h.version).toBe(version);
      expect(h.containerId).toBe('1122334455667788');
      expect(h.packageIds).toEqual(['000000000000aaaa', '000000000000bbbb']);
      expect(h.storeEntries[1]!.importedPackages).toEqual(['000000000000aaaa']);
      expect(h.containerNames).toEqual(['/Game/L10N/X', '/Game/Old']);
      expect(h.localizedPackages).toEqual([{ sourcePackageId: '000000000000cccc', sourcePackageName: '/Game/L10N/X' }]);
      expect(h.packageRedirects).toEqual([{ sourcePackageId: '000000000000dddd', targetPackageId: '000000000000aaaa', sourcePackageName: '/Game/Old_2' }]);
      expect(h.byteLength).toBe(bytes.length);
      if (version === 2) {
        expect(h.storeEntries[1]).toEqual({
          exportCount: 3, exportBundleCount: 1, importedPackages: ['000000000000aaaa'],
          shaderMapHashes: ['000102030405060708090a0b0c0d0e0f10111213'],
        });
        expect(h.optionalSegmentPackageIds).toEqual(['000000000000aaaa']);
        expect(h.optionalSegmentStoreEntries).toEqual([{ exportCount: 2, exportBundleCount: 1, importedPackages: [], shaderMapHashes: [] }]);
        expect(h.softPackageReferences).toBeUndefined();
        // The optional segment's entry is found by id, after the main one.
        expect(findStoreEntry(h, '000000000000aaaa')!.exportCount).toBe(1);
      } else {
        expect(h.softPackageReferences!.packageIds).toEqual(['000000000000eeee', '000000000000ffff']);
        expect(h.softPackageReferences!.perPackage).toEqual([[0, 1], []]);
      }
    });
  }

  it('rejects version 5 soft references that do not follow their serial info', () => {
    const { bytes, softInfoAt } = syntheticHeader(5);
    const bad = Uint8Array.from(bytes);
    new DataView(bad.buffer).setUint32(softInfoAt, softInfoAt + 20, true);
    expectFormatError(() => parseContainerHeader(bad, 'v5.bin'), 'soft package references serial info', softInfoAt);
    const truncated = Uint8Array.from(bytes.subarray(0, bytes.length - 3));
    expectFormatError(() => parseContainerHeader(truncated, 'v5.bin'), 'soft package references serial info', softInfoAt);
  });
});

describe('container header: bad input', () => {
  const good = readFileSync(corpus('headers/retoc53_ContainerHeader.bin'));

  it('rejects a truncated header naming where it ran out', () => {
    const fe = expectFormatError(() => parseContainerHeader(good.subarray(0, 40_000), 'cut.bin'), /store entries/);
    expect(fe.message).toContain('cut.bin');
  });

  it('rejects an imported-packages view that points past the store entry buffer', () => {
    const bad = Uint8Array.from(good);
    const dv = new DataView(bad.buffer);
    // Layout: magic, version, container id (8), package ids (u32 count + 8 each), buffer size, entries.
    const count = dv.getUint32(16, true);
    const entriesAt = 20 + count * 8 + 4;
    dv.setUint32(entriesAt, 5, true); // package 0: 5 imports ...
    dv.setUint32(entriesAt + 4, 0x7fffff00, true); // ... far beyond the buffer
    expectFormatError(() => parseContainerHeader(bad, 'view.bin'), 'container store entries', entriesAt);
  });

  it('rejects an unknown version after the magic, and a forced version that contradicts it', () => {
    const bad = Uint8Array.from(good);
    new DataView(bad.buffer).setUint32(4, 9, true);
    expectFormatError(() => parseContainerHeader(bad, 'v9.bin'), 'container header', 4);
    expectFormatError(() => parseContainerHeader(good, 'v3.bin', { version: V.SoftPackageReferences }), 'container header', 4);
  });

  it('rejects a package count that differs from the package ids', () => {
    const bytes = readFileSync(corpus('headers/retoc427_ContainerHeader.bin'));
    const bad = Uint8Array.from(bytes);
    new DataView(bad.buffer).setUint32(8, 5, true);
    expectFormatError(() => parseContainerHeader(bad, 'count.bin', { version: V.Initial }), 'container header', 8);
  });

  it('rejects bytes after the header that are not zero padding', () => {
    const bytes = readFileSync(corpus('headers/retoc_issue18_ContainerHeader.bin'));
    const bad = Uint8Array.from(bytes);
    bad[5000] = 1;
    expectFormatError(() => parseContainerHeader(bad, 'tail.bin', { version: V.PreInitial }), 'container header', 5000);
  });

  it('never fails with anything but a FormatError on random corruption', () => {
    let seed = 777;
    const rand = (n: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
    const small = syntheticHeader(5).bytes;
    let rejected = 0;
    for (const [bytes, span] of [[good, 4096], [small, small.length]] as const) {
      for (let k = 0; k < 150; k++) {
        const b = Uint8Array.from(bytes);
        for (let m = 0; m < 1 + rand(3); m++) b[rand(span)] = rand(256);
        try {
          parseContainerHeader(b, 'fuzz.bin');
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          rejected++;
        }
      }
    }
    expect(rejected).toBeGreaterThan(100);
  });

  it('rejects a huge package id count before allocating for it', () => {
    const bad = Uint8Array.from(good.subarray(0, 64));
    new DataView(bad.buffer).setUint32(16, 0x7fffffff, true);
    expectFormatError(() => parseContainerHeader(bad, 'huge.bin'), 'container package ids', 16);
  });
});

/** A segment's import table as parseContainerHeader spells it: [package id, its imported ids][]. */
function tableAsHex(t: PackageImportTable): [string, string[]][] {
  return Array.from({ length: t.count }, (_, i): [string, string[]] => [
    hexWords(t.ids[2 * i]!, t.ids[2 * i + 1]!),
    Array.from({ length: t.importCounts[i]! }, (_, k) => {
      const at = t.importOffsets[i]! + 8 * k;
      return hexWords(t.importData.getUint32(at + 4, true), t.importData.getUint32(at, true));
    }),
  ]);
}

/** The same of a full header. */
function entriesAsHex(ids: string[], entries: { importedPackages: string[] }[]): [string, string[]][] {
  return ids.map((id, i) => [id, entries[i]!.importedPackages]);
}

/** The FormatError a parse throws (its structure and offset), or 'ok'. */
function outcome(parse: () => unknown): string {
  try {
    parse();
    return 'ok';
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return `${e.structure} @${e.offset}: ${e.message}`;
  }
}

describe('container header: the import tables alone (parseContainerImports)', () => {
  const files: [string, ContainerHeaderOptions][] = [
    ['retoc427_ContainerHeader.bin', {}], ['retoc50_ContainerHeader.bin', {}], ['retoc53_ContainerHeader.bin', {}],
    ['retoc_issue7_ContainerHeader.bin', { version: V.PreInitial }], ['retoc_issue18_ContainerHeader.bin', {}],
  ];

  it('gives every real header\'s package ids and imported ids as parseContainerHeader reads them', () => {
    for (const [name, opts] of files) {
      const { bytes, h } = header(name, opts);
      const t = parseContainerImports(bytes, name, opts);
      expect(t.version, name).toBe(h.version);
      expect(t.containerId, name).toBe(h.containerId);
      expect(t.byteLength, name).toBe(h.byteLength);
      expect(t.main.count, name).toBe(h.packageIds.length);
      // Compared as text: toEqual over 52,583 entries is slow.
      const mismatch = tableAsHex(t.main).findIndex(([id, imports], i) => id !== h.packageIds[i] || imports.join() !== h.storeEntries[i]!.importedPackages.join());
      expect(mismatch, name).toBe(-1);
      expect(t.optionalSegment.count, name).toBe(0);
    }
    // Spot values, as the full parser reads them above.
    const t = parseContainerImports(readFileSync(corpus('headers/retoc53_ContainerHeader.bin')), 'retoc53');
    expect(tableAsHex(t.main)[17]).toEqual(['01bbc9fae21a7573', ['18ddea28b9f66396', '37f3287a3ec89072', '6e814665ba975bdf', '7abba1fded1bc410']]);
    expect(t.main.importCounts.reduce((a, b) => a + b, 0)).toBe(1139);
  });

  it('reads the optional segment and skips localized packages, redirects and soft references (versions 2, 4, 5)', () => {
    for (const version of [2, 4, 5] as const) {
      const { bytes } = syntheticHeader(version);
      const h = parseContainerHeader(bytes, `v${version}.bin`);
      const t = parseContainerImports(bytes, `v${version}.bin`);
      expect(tableAsHex(t.main)).toEqual([['000000000000aaaa', []], ['000000000000bbbb', ['000000000000aaaa']]]);
      expect(tableAsHex(t.optionalSegment)).toEqual(entriesAsHex(h.optionalSegmentPackageIds, h.optionalSegmentStoreEntries));
      expect(t.optionalSegment.count).toBe(version === 2 ? 1 : 0);
      expect(t.byteLength).toBe(bytes.length);
    }
  });

  it('accepts and rejects exactly what parseContainerHeader does, with the same error', () => {
    const good = readFileSync(corpus('headers/retoc53_ContainerHeader.bin'));
    const cases: [string, Uint8Array, ContainerHeaderOptions][] = [
      ['truncated', good.subarray(0, 40_000), {}],
      ['huge count', (() => { const b = Uint8Array.from(good.subarray(0, 64)); new DataView(b.buffer).setUint32(16, 0x7fffffff, true); return b; })(), {}],
      ['bad version', (() => { const b = Uint8Array.from(good); new DataView(b.buffer).setUint32(4, 9, true); return b; })(), {}],
    ];
    const count = new DataView(good.buffer, good.byteOffset).getUint32(16, true);
    const entriesAt = 20 + count * 8 + 4;
    for (const [field, value] of [[0, 5], [4, 0x7fffff00], [4, 0x10000], [8, 2], [12, 0x7fffff00]] as const) {
      // Views of entry 0: imports {count, offset}, shader map hashes {count, offset}; an empty view pointing outside too.
      const b = Uint8Array.from(good);
      new DataView(b.buffer).setUint32(entriesAt + field, value, true);
      cases.push([`entry 0 +${field} = ${value}`, b, {}]);
    }
    const initial = readFileSync(corpus('headers/retoc427_ContainerHeader.bin'));
    cases.push(['initial count', (() => { const b = Uint8Array.from(initial); new DataView(b.buffer).setUint32(8, 5, true); return b; })(), { version: V.Initial }]);
    const padded = Uint8Array.from(readFileSync(corpus('headers/retoc_issue18_ContainerHeader.bin')));
    padded[5000] = 1;
    cases.push(['tail', padded, { version: V.PreInitial }]);
    let seed = 99;
    const rand = (n: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
    for (const [bytes, span] of [[good, 4096], [syntheticHeader(2).bytes, 200], [syntheticHeader(5).bytes, 200]] as const) {
      for (let k = 0; k < 40; k++) {
        const b = Uint8Array.from(bytes);
        for (let m = 0; m < 1 + rand(3); m++) b[rand(Math.min(span, b.length))] = rand(256);
        cases.push([`random ${k}`, b, {}]);
      }
    }
    let rejected = 0;
    for (const [what, bytes, opts] of cases) {
      const full = outcome(() => parseContainerHeader(bytes, 'x.bin', opts));
      expect(outcome(() => parseContainerImports(bytes, 'x.bin', opts)), what).toBe(full);
      if (full !== 'ok') rejected++;
    }
    expect(rejected).toBeGreaterThan(50);
  });

  it('rejects store entries whose import views overlap so much that they list more ids than their buffer holds', () => {
    const good = readFileSync(corpus('headers/retoc53_ContainerHeader.bin'));
    const bad = Uint8Array.from(good);
    const dv = new DataView(bad.buffer);
    const count = dv.getUint32(16, true);
    const size = dv.getUint32(20 + count * 8, true);
    const entriesAt = 20 + count * 8 + 4;
    // Every entry (16 bytes, imports view first) lists the whole buffer's last 8 × 100 bytes.
    for (let i = 0; i < count; i++) {
      const at = i * 16;
      dv.setUint32(entriesAt + at, 100, true);
      dv.setUint32(entriesAt + at + 4, size - 800 - at, true);
    }
    const message = /list 378600 imported packages, more than their \d+-byte buffer can hold/;
    expect(() => parseContainerImports(bad, 'overlap.bin')).toThrow(message);
    expect(() => parseContainerHeader(bad, 'overlap.bin')).toThrow(message);
  });
});
