/**
 * The package and graph views' plain logic: which files open as packages, the tables' filter /
 * sort / outer tree, finding the region under an offset, the built-in layered graph layout, and
 * revealing a file in the tree.
 */
import { describe, expect, it } from 'vitest';
import type { PackageByteRegion, TreeEntry } from '../../src/shared/api.js';
import { dagreLayout, layeredLayout } from '../../src/renderer/src/lib/graph-layout.js';
import { columnTrack, headerWidth, isMainPackageEntry, isPackageEntry, regionIndexAt, regionsByRef, shownRows, type TableRow } from '../../src/renderer/src/lib/package-view.js';
import { TreeModel } from '../../src/renderer/src/lib/tree-model.js';
import { revealPath } from '../../src/renderer/src/lib/tree-reveal.js';

describe('which files open as packages', () => {
  it('takes packages of every format and their companions, and IoStore package chunks only', () => {
    for (const p of ['Game/Maps/Entry.umap', 'A/B.uasset', 'Maps/DM-Deck16][.unr', 'System/Botpack.u', 'Textures/X.UTX', 'A/B.uexp', 'A/B.ubulk']) expect(isPackageEntry(p), p).toBe(true);
    for (const p of ['Config/DefaultGame.ini', 'A/B.json', 'A/uasset', 'Movies/x.bk2']) expect(isPackageEntry(p), p).toBe(false);
    expect(isPackageEntry('A/B.uasset', 'ExportBundleData')).toBe(true);
    expect(isPackageEntry('A/B.ubulk', 'BulkData')).toBe(false);
  });
});

describe('table rows', () => {
  const rows: TableRow[] = [
    { cells: [0, 'Botpack', 'Package'], key: 'Botpack', parent: null },
    { cells: [1, 'Ammocount', 'Package'], key: 'Botpack.Ammocount', parent: 'Botpack' },
    { cells: [2, 'AmmoLed', 'ScriptedTexture'], key: 'Botpack.Ammocount.AmmoLed', parent: 'Botpack.Ammocount' },
    { cells: [3, 'Engine', 'Package'], key: 'Engine', parent: null },
    { cells: [4, 'Brush', 'Class'], key: 'Engine.Brush', parent: 'Engine' },
    { cells: [5, 'Orphan', null], key: 'X.Orphan', parent: 'X' },
  ];
  const q = { filter: '', sortColumn: -1, sortDescending: false, tree: false, collapsed: new Set<string>() };
  const names = (list: ReturnType<typeof shownRows>) => list.map((s) => `${'  '.repeat(s.depth)}${s.row.cells[1]}`);

  it('filters on any cell and sorts by a column, nulls last', () => {
    expect(names(shownRows(rows, { ...q, filter: 'PACKAGE' }))).toEqual(['Botpack', 'Ammocount', 'Engine']);
    expect(names(shownRows(rows, { ...q, sortColumn: 2 }))).toEqual(['Brush', 'Botpack', 'Ammocount', 'Engine', 'AmmoLed', 'Orphan']);
    expect(names(shownRows(rows, { ...q, sortColumn: 0, sortDescending: true }))[0]).toBe('Orphan');
  });

  it('nests rows under their outer, collapses, and keeps the rows above a match', () => {
    expect(names(shownRows(rows, { ...q, tree: true }))).toEqual(['Botpack', '  Ammocount', '    AmmoLed', 'Engine', '  Brush', 'Orphan']);
    expect(names(shownRows(rows, { ...q, tree: true, collapsed: new Set(['Botpack']) }))).toEqual(['Botpack', 'Engine', '  Brush', 'Orphan']);
    expect(names(shownRows(rows, { ...q, tree: true, filter: 'ammoled', collapsed: new Set(['Botpack']) }))).toEqual(['Botpack', '  Ammocount', '    AmmoLed']);
    const top = shownRows(rows, { ...q, tree: true })[0]!;
    expect(top).toMatchObject({ hasChildren: true, expanded: true });
  });

  it('survives an outer cycle', () => {
    const cyclic: TableRow[] = [{ cells: [0, 'A'], key: 'A', parent: 'B' }, { cells: [1, 'B'], key: 'B', parent: 'A' }];
    expect(names(shownRows(cyclic, { ...q, tree: true })).sort()).toEqual(['A', 'B']);
  });
});

describe('regions', () => {
  const regions: PackageByteRegion[] = [
    { start: 0, end: 4, label: 'tag', group: 'summary', ref: 'field:tag' },
    { start: 4, end: 8, label: 'version', group: 'summary' },
    { start: 16, end: 20, label: 'name 0: None', group: 'name map', ref: 'name:0' },
  ];
  it('finds the region under an offset, none in a gap', () => {
    expect([0, 3, 4, 7, 8, 15, 16, 19, 20].map((o) => regionIndexAt(regions, o))).toEqual([0, 0, 1, 1, -1, -1, 2, 2, -1]);
    expect(regionIndexAt([], 0)).toBe(-1);
    expect(regionsByRef(regions)).toEqual(new Map([['field:tag', 0], ['name:0', 2]]));
  });
});

describe('the built-in layered layout', () => {
  it('puts layers left to right, centres each, and routes forward edges right to left side', () => {
    const nodes = [
      { id: 'r', width: 100, height: 40, layer: -1 },
      { id: 'c', width: 120, height: 40, layer: 0 },
      { id: 'd1', width: 100, height: 40, layer: 1 },
      { id: 'd2', width: 140, height: 40, layer: 1 },
    ];
    const edges = [{ from: 'r', to: 'c' }, { from: 'c', to: 'd1' }, { from: 'c', to: 'd2' }, { from: 'd1', to: 'd2' }];
    const out = layeredLayout(nodes, edges, { layerGap: 50, nodeGap: 10 });
    const p = (id: string) => out.positions.get(id)!;
    expect(p('r').x).toBe(0);
    expect(p('c').x).toBe(150);
    expect(p('d1').x).toBeGreaterThanOrEqual(320);
    expect(out.width).toBe(100 + 50 + 120 + 50 + 140);
    expect(out.height).toBe(90);
    expect(p('c').y).toBe(25); // centred against the two-node column
    const toD1 = out.edges.find((e) => e.to === 'd1')!;
    expect(toD1.points[0]).toEqual({ x: 270, y: 45 });
    expect(toD1.points[1]).toEqual({ x: p('d1').x, y: p('d1').y + 20 });
    expect(out.edges).toHaveLength(4);
  });

  it('orders a layer by its neighbours to avoid crossings', () => {
    const nodes = [
      { id: 'a', width: 10, height: 10, layer: 0 }, { id: 'b', width: 10, height: 10, layer: 0 },
      { id: 'y', width: 10, height: 10, layer: 1 }, { id: 'x', width: 10, height: 10, layer: 1 },
    ];
    const out = layeredLayout(nodes, [{ from: 'a', to: 'x' }, { from: 'b', to: 'y' }]);
    const y = (id: string) => out.positions.get(id)!.y;
    // Given in crossing order (y above x): the edges a→x and b→y no longer cross.
    expect(y('a') < y('b')).toBe(y('x') < y('y'));
  });
});

describe('the dagre layout the view uses', () => {
  it('keeps the given layers as columns left to right, without overlaps, and routes every edge', () => {
    const nodes = [
      { id: 'r1', width: 100, height: 40, layer: -1 }, { id: 'r2', width: 100, height: 40, layer: -1 },
      { id: 'c', width: 120, height: 40, layer: 0 },
      { id: 'd1', width: 100, height: 40, layer: 1 }, { id: 'd2', width: 140, height: 40, layer: 1 },
      { id: 'dd', width: 90, height: 40, layer: 2 },
    ];
    const edges = [{ from: 'r1', to: 'c' }, { from: 'r2', to: 'c' }, { from: 'c', to: 'd1' }, { from: 'c', to: 'd2' }, { from: 'd2', to: 'dd' }, { from: 'r1', to: 'dd' }];
    const out = dagreLayout(nodes, edges, { layerGap: 50, nodeGap: 10 });
    const p = (id: string) => out.positions.get(id)!;
    const centreX = (id: string) => p(id).x + nodes.find((n) => n.id === id)!.width / 2;
    expect(centreX('r1')).toBe(centreX('r2'));
    expect(centreX('d1')).toBe(centreX('d2'));
    expect(centreX('r1')).toBeLessThan(centreX('c'));
    expect(centreX('c')).toBeLessThan(centreX('d1'));
    expect(centreX('d1')).toBeLessThan(centreX('dd'));
    // Same-column nodes do not overlap.
    const [top, bottom] = [p('d1'), p('d2')].sort((a, b) => a.y - b.y);
    expect(bottom!.y - top!.y).toBeGreaterThanOrEqual(40);
    expect(out.edges).toHaveLength(6);
    for (const e of out.edges) expect(e.points.length).toBeGreaterThanOrEqual(2);
    // A backwards-given edge (r1 -> dd spans three columns) still starts at its source's side.
    const long = out.edges.find((e) => e.from === 'r1' && e.to === 'dd')!;
    expect(long.points[0]!.x).toBeLessThan(long.points[long.points.length - 1]!.x);
    expect(out.width).toBeGreaterThan(0);
  });
});

describe('revealing a file in the tree', () => {
  it('opens the folders above it and selects it', async () => {
    const dir = (path: string): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: true, size: 0, fileCount: 1 });
    const file = (path: string): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: false, size: 1, fileCount: 1 });
    const listing: Record<string, TreeEntry[]> = { '': [dir('G')], G: [dir('G/C'), file('G/x.ini')], 'G/C': [file('G/C/A.uasset'), file('G/C/B.uasset')] };
    const m = new TreeModel({ list: async (p) => listing[p] ?? [], onChange: () => undefined });
    await m.reset();
    expect(await revealPath(m, 'G/C/B.uasset')).toBe(true);
    expect(m.selectedRow?.entry.path).toBe('G/C/B.uasset');
    expect(await revealPath(m, 'G/Nope/A.uasset')).toBe(false);
  });
});

describe('table columns (issue 24, 12: headers never clipped)', () => {
  it('widens a column to its header label, keeping wider ones and flexible tracks', () => {
    const dup = headerWidth('Duplicate offset');
    expect(dup).toBeGreaterThan(96);
    expect(columnTrack({ key: 'd', label: 'Duplicate offset', numeric: true, width: '96px' })).toBe(`${dup}px`);
    expect(columnTrack({ key: 'i', label: '#', numeric: true, width: '64px' })).toBe('64px');
    expect(columnTrack({ key: 'c', label: 'Cooked index', width: 'minmax(40px, 1fr)' })).toBe(`minmax(${headerWidth('Cooked index')}px, 1fr)`);
    expect(columnTrack({ key: 'p', label: 'Path', width: 'minmax(200px, 2fr)' })).toBe('minmax(200px, 2fr)');
  });
});

describe('isMainPackageEntry (issue 24, 7: a .ubulk selected shows as a file)', () => {
  const file = (path: string): TreeEntry => ({ name: path, path, isDir: false, size: 1, fileCount: 1 });
  it('takes a package file, not its companions', () => {
    expect(isMainPackageEntry(file('A/SW_Inline.uasset'))).toBe(true);
    expect(isMainPackageEntry(file('A/Map.umap'))).toBe(true);
    expect(isMainPackageEntry(file('A/SW_Inline.ubulk'))).toBe(false);
    expect(isMainPackageEntry(file('A/SW_Inline.uexp'))).toBe(false);
    expect(isPackageEntry('A/SW_Inline.ubulk')).toBe(true); // Enter on it still opens its package
  });
});
