// The size map: the squarified layout (the example of Bruls, Huizing and van Wijk's paper: 6, 6,
// 4, 3, 2, 2, 1 in a 6 x 4 box, whose first row is the two 6s as 3 x 2 halves of the left side),
// the map of cue58's install tiling each box by size, and `pakscope tree --top` against `ls`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { largestEntries, SizeMap, squarify } from '../../src/core/install/size-map.js';
import { buildCli, pakscope } from '../cli/run-cli.js';
import { corpus } from '../support/corpus.js';

const ZLIB = corpus('cue58/IoStore/Tagged/Zlib');
const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
let install: Install;
beforeAll(async () => {
  buildCli();
  install = await openInstall([ZLIB]);
});
afterAll(() => install.close());

describe('squarify', () => {
  it('lays out the paper\'s example: the two 6s first as the left half, each 3 x 2; areas by value', () => {
    const out: number[][] = [];
    squarify([6, 6, 4, 3, 2, 2, 1], 0, 0, 6, 4, (k, x, y, w, h) => { out[k] = [x, y, w, h]; });
    expect(out[0]).toEqual([0, 0, 3, 2]);
    expect(out[1]).toEqual([0, 2, 3, 2]);
    [6, 6, 4, 3, 2, 2, 1].forEach((v, k) => expect(out[k]![2]! * out[k]![3]!).toBeCloseTo(v, 9));
    // Every rectangle inside the box, none overlapping.
    for (const [i, a] of out.entries()) {
      expect(a[0]! >= -1e-9 && a[1]! >= -1e-9 && a[0]! + a[2]! <= 6 + 1e-9 && a[1]! + a[3]! <= 4 + 1e-9).toBe(true);
      for (const b of out.slice(i + 1)) {
        const overlap = Math.min(a[0]! + a[2]!, b[0]! + b[2]!) - Math.max(a[0]!, b[0]!) > 1e-9 && Math.min(a[1]! + a[3]!, b[1]! + b[3]!) - Math.max(a[1]!, b[1]!) > 1e-9;
        expect(overlap).toBe(false);
      }
    }
  });
});

describe('size map of an install', () => {
  it('the top level fills the box, each entry by its share of the total; folders drill down', () => {
    const map = new SizeMap(install.treeArrays());
    const top = map.layout({ width: 800, height: 600, minSide: 0 });
    expect(top.total).toBe(install.totalSize);
    const level0 = top.rects.filter((r) => r.depth === 0);
    expect(level0.map((r) => r.path)).toEqual(install.listDir('').map((e) => e.path));
    const textures = map.layout({ folder: 'CUE4ParseFixtures/Content/Fixtures/Textures', width: 400, height: 300, minSide: 0 });
    const listed = install.listDir('CUE4ParseFixtures/Content/Fixtures/Textures');
    expect(textures.rects.map((r) => r.path).sort()).toEqual(listed.map((e) => e.path).sort());
    const total = listed.reduce((n, e) => n + e.size, 0);
    for (const r of textures.rects) expect(r.w * r.h).toBeCloseTo((r.size / total) * 400 * 300, 6);
    expect(textures.rects.find((r) => r.name === 'T_Streaming.ubulk')?.kind).toBe('bulk');
  });

  it('stored sizes: an uncompressed container stores each file as its size; zlib stores less in all', async () => {
    const plain = await openInstall([UNCOMPRESSED]);
    try {
      const { files } = largestEntries(new SizeMap(plain.treeArrays()), 1000, 'stored');
      expect(files.length).toBe(plain.fileCount);
      for (const f of files) expect(f.stored).toBe(f.size);
    } finally {
      await plain.close();
    }
    const zlib = largestEntries(new SizeMap(install.treeArrays()), 1)['folders'][0]!;
    expect(zlib.stored).toBeLessThan(zlib.size);
  });

  it('lays out every file of the whole tree', () => {
    const t = install.treeArrays();
    const all = new SizeMap(t).layoutAll(1000, 1000);
    let area = 0;
    for (let id = 0; id < t.fileCount; id++) area += all[(t.folderCount + id) * 4 + 2]! * all[(t.folderCount + id) * 4 + 3]!;
    expect(area).toBeCloseTo(1000 * 1000, -1);
  });
});

describe('pakscope tree --top', () => {
  it('--json lists the N largest files and folders, as ls and tree size them', async () => {
    const r = await pakscope(['tree', ZLIB, '--top', '3', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const top = JSON.parse(r.out) as { files: { path: string; size: number }[]; folders: { path: string; size: number; fileCount: number }[] };
    const ls = JSON.parse((await pakscope(['ls', ZLIB, '--json'])).out) as { files: { path: string; size: number }[] };
    const bySize = [...ls.files].sort((a, b) => b.size - a.size).slice(0, 3);
    expect(top.files.map((f) => [f.path, f.size])).toEqual(bySize.map((f) => [f.path, f.size]));
    expect(top.folders[0]).toMatchObject({ path: 'CUE4ParseFixtures', size: ls.files.reduce((n, f) => n + f.size, 0), fileCount: ls.files.length });
    const text = await pakscope(['tree', ZLIB, '--top', '1']);
    expect(text.out).toContain(`  ${bySize[0]!.path}`);
    expect((await pakscope(['tree', ZLIB, '--top', '0'])).code).toBe(2);
  });
});
