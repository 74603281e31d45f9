// Every classic package in corpus/uncooked and corpus/cooked (retoc*, uapi*): header fields as
// MANIFEST.tsv states them, export data ranges, thumbnails, no issues.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import type { UAssetPackage } from '../../src/core/uasset/package.js';
import { corpus } from '../support/corpus.js';
import { intField, manifest } from './manifest.js';
import { oracleCounts } from './summary-oracle.js';

function packageFiles(): string[] {
  const out: string[] = [];
  for (const dir of ['uncooked', 'cooked']) {
    for (const f of readdirSync(corpus(dir)).sort()) {
      if (/\.(uasset|umap)$/.test(f) && !f.startsWith('zen')) out.push(`${dir}/${f}`);
    }
  }
  return out;
}

const FILES = packageFiles();
const uexpOf = (rel: string): string => corpus(rel.replace(/\.(uasset|umap)$/, '.uexp'));

function parse(rel: string): { pkg: UAssetPackage; bytes: Uint8Array; uexp: Uint8Array | null } {
  const bytes = readFileSync(corpus(rel));
  const uexpPath = uexpOf(rel);
  const uexp = existsSync(uexpPath) ? readFileSync(uexpPath) : null;
  const pkg = parseUAsset(bytes, rel, uexp ? { uexpSize: uexp.length } : {});
  return { pkg, bytes, uexp };
}

const TAG = [0xc1, 0x83, 0x2a, 0x9e];
const endsWithTag = (b: Uint8Array): boolean => b.length >= 4 && TAG.every((x, i) => b[b.length - 4 + i] === x);

/** Width and height an image's own header states (PNG IHDR, JPEG SOFn). */
function imageSize(data: Uint8Array): { width: number; height: number } | null {
  const be16 = (i: number): number => (data[i]! << 8) | data[i + 1]!;
  const be32 = (i: number): number => be16(i) * 65536 + be16(i + 2);
  if (data[0] === 0x89 && data[1] === 0x50) return { width: be32(16), height: be32(20) };
  if (data[0] === 0xff && data[1] === 0xd8) {
    for (let i = 2; i + 9 < data.length;) {
      if (data[i] !== 0xff) return null;
      const marker = data[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: be16(i + 7), height: be16(i + 5) };
      }
      i += 2 + be16(i + 2);
    }
  }
  return null;
}

describe('classic packages in the corpus', () => {
  it('covers every .uasset/.umap there is, each listed in MANIFEST.tsv', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(60);
    for (const f of FILES) expect(manifest().has(f), f).toBe(true);
  });

  it('has counts from an independent reader for every file, and the Python oracle agrees with the manifest', () => {
    const oracle = oracleCounts(FILES);
    expect(oracle.size).toBe(FILES.length);
    let compared = 0;
    for (const f of FILES) {
      const m = manifest().get(f)!;
      for (const [key, field] of [['names', 'Names'], ['imports', 'Imports'], ['exports', 'Exports']] as const) {
        const stated = intField(m, field);
        if (stated === undefined) continue;
        expect(oracle.get(f)![key], `${f} ${field}`).toBe(stated);
        compared++;
      }
    }
    // The manifest states 123 counts; the two independent readings agree on every one.
    expect(compared).toBe(123);
  });

  for (const rel of FILES) {
    it(rel, () => {
      const { pkg, bytes, uexp } = parse(rel);
      const s = pkg.summary;
      const m = manifest().get(rel)!;
      const want = (key: string): number | undefined => intField(m, key);

      // Header fields as the manifest's independent reading has them.
      if (want('LegacyFileVersion') !== undefined) expect(s.legacyFileVersion).toBe(want('LegacyFileVersion'));
      if (want('LegacyUE3Version') !== undefined) expect(s.legacyUE3Version).toBe(want('LegacyUE3Version'));
      if (want('FileVersionUE4') !== undefined) expect(s.fileVersionUE4).toBe(want('FileVersionUE4'));
      if (want('FileVersionUE5') !== undefined) expect(s.fileVersionUE5).toBe(want('FileVersionUE5'));
      if (want('Licensee') !== undefined) expect(s.fileVersionLicenseeUE).toBe(want('Licensee'));
      if (want('CustomVersions') !== undefined) expect(s.customVersions).toHaveLength(want('CustomVersions')!);
      if (want('TotalHeaderSize') !== undefined) expect(s.totalHeaderSize).toBe(want('TotalHeaderSize'));
      // Table sizes: the manifest's reading where it has one, else the Python oracle's; every file has one.
      const counts = oracleCounts(FILES).get(rel)!;
      expect(pkg.names).toHaveLength(want('Names') ?? counts.names);
      expect(pkg.imports).toHaveLength(want('Imports') ?? counts.imports);
      expect(pkg.exports).toHaveLength(want('Exports') ?? counts.exports);
      if (want('PackageFlags') !== undefined) expect(s.packageFlags).toBe(want('PackageFlags'));
      if (want('ThumbnailTable') !== undefined) {
        expect(s.thumbnailTableOffset).toBe(want('ThumbnailTable'));
        expect(pkg.thumbnails).toHaveLength(want('ThumbnailCount')!);
        const t = pkg.thumbnails[0]!;
        expect(`${t.objectClass}:${t.objectPath}`).toBe(m.fields.get('ThumbnailFirst'));
      }
      if (m.notes.includes('no thumbnail table')) expect(s.thumbnailTableOffset).toBe(0);
      if (m.fields.has('FileVersionUE4')) expect(s.unversioned).toBe(m.notes.includes('(unversioned)'));
      // Every table entry is there, with hashes that fit the names where the package stores them.
      expect(pkg.names.length).toBe(s.nameCount);
      expect(pkg.nameHashes.mismatched).toEqual([]);
      expect(pkg.issues).toEqual([]);
      expect(pkg.warnings).toEqual([]);

      // Export data: back to back from the end of the header to where the data ends.
      const withData = [...pkg.exports].filter((e) => e.serialSize > 0).sort((a, b) => a.serialOffset - b.serialOffset);
      expect(withData.length).toBeGreaterThan(0);
      let at = s.totalHeaderSize;
      for (const e of withData) {
        expect(e.serialOffset, `${e.path} starts where the previous export ends`).toBe(at);
        at += e.serialSize;
      }
      if (uexp) {
        // Split cooked package: offsets count across .uasset + .uexp; the .uexp ends with the tag where it has one.
        expect(bytes.length).toBe(s.totalHeaderSize);
        expect(at).toBe(s.totalHeaderSize + uexp.length - (endsWithTag(uexp) ? 4 : 0));
        expect(endsWithTag(uexp)).toBe(!m.notes.includes('NOT end with package tag') && !manifest().get(rel.replace(/\.(uasset|umap)$/, '.uexp'))!.notes.includes('NOT end with package tag'));
        for (const e of withData) {
          expect(e.dataFile).toBe('uexp');
          expect(e.dataFileOffset).toBe(e.serialOffset - s.totalHeaderSize);
        }
        expect(pkg.exportData).toMatchObject({ start: s.totalHeaderSize, end: at, file: 'uexp', uexpSize: uexp.length });
        expect(s.bulkDataStartOffset).toBe(at);
      } else {
        // Single file: the data is in the .uasset, then bulk data (texture sources...) up to the
        // package tag (UE5: up to the package trailer, which ends with the tag too).
        expect(withData.every((e) => e.dataFile === 'uasset')).toBe(true);
        expect(endsWithTag(bytes)).toBe(true);
        expect(s.bulkDataStartOffset).toBe(at);
        const end = pkg.trailer ? pkg.trailer.offset : bytes.length - 4;
        expect(at).toBeLessThanOrEqual(end);
        if (pkg.trailer) expect(pkg.trailer.offset + pkg.trailer.trailerLength).toBe(bytes.length);
      }

      // Thumbnails: PNG or JPEG whose own header has the stored size, or empty.
      for (const t of pkg.thumbnails) {
        const data = bytes.subarray(t.dataOffset, t.dataOffset + t.dataSize);
        if (t.format === 'empty') {
          expect(t.dataSize).toBe(0);
          continue;
        }
        expect(['png', 'jpeg']).toContain(t.format);
        expect(imageSize(data)).toEqual({ width: t.width, height: t.height });
      }
      const image = m.fields.get('thumbnailImage');
      if (image === 'PNG' || image === 'JPEG') expect(pkg.thumbnails[0]!.format).toBe(image.toLowerCase());
      if (image?.startsWith('none-found')) expect(pkg.thumbnails.every((t) => t.format === 'empty')).toBe(true);
    });
  }
});

describe('thumbnails', () => {
  it('finds uapi427_TestMaterial\'s 256x256 PNG where the table points', () => {
    const { pkg, bytes } = parse('uncooked/uapi427_TestMaterial.uasset');
    expect(pkg.thumbnails).toHaveLength(1);
    const t = pkg.thumbnails[0]!;
    expect(t).toMatchObject({ objectClass: 'Material', objectPath: 'TestMaterial', format: 'png', width: 256, height: 256 });
    const png = bytes.subarray(t.dataOffset, t.dataOffset + t.dataSize);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // A PNG ends with its IEND chunk.
    expect(Buffer.from(png.subarray(png.length - 8, png.length - 4)).toString('latin1')).toBe('IEND');
  });

  it('finds a JPEG in a UE5 package (ue55_Fall-Sheet: a 256x32 sprite sheet)', () => {
    const { pkg, bytes } = parse('uncooked/ue55_Fall-Sheet.uasset');
    const t = pkg.thumbnails[0]!;
    expect(t).toMatchObject({ format: 'jpeg', width: 256, height: 32 });
    const jpg = bytes.subarray(t.dataOffset, t.dataOffset + t.dataSize);
    expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...jpg.subarray(jpg.length - 2)]).toEqual([0xff, 0xd9]);
  });
});

describe('the largest header in the corpus', () => {
  it('is ue4old_M_FPGun and parses', () => {
    const sizes = FILES.map((f) => ({ f, size: parseUAsset(readFileSync(corpus(f)), f, existsSync(uexpOf(f)) ? { uexpSize: statSync(uexpOf(f)).size } : {}).summary.totalHeaderSize }));
    const largest = sizes.sort((a, b) => b.size - a.size)[0]!;
    expect(largest.f).toBe('uncooked/ue4old_M_FPGun.uasset');
    const bytes = readFileSync(corpus(largest.f));
    expect(largest.size).toBe(135410);
    expect(parseUAsset(bytes, largest.f).exports.length).toBeGreaterThan(0);
  });
});
