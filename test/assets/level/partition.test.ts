/**
 * World Partition: cue58's WorldPartition.umap (IoStore, tagged and unversioned with the fixture
 * mappings) against CUE4Parse's FixtureWorldAssetTests.cs (WorldPartitionMapPreservesRuntimeHashAndCells:
 * bCooked, a RuntimeHashSet with runtime partitions and streaming data, exactly one cell, a
 * spatially loaded level streaming cell with cell data and a level streaming;
 * WorldPartitionRuntimeCellLoadsPartitionedActor: the cell package, named by the manifest's
 * testContainerPackages, places PartitionedMesh, a StaticMeshActor of SM_Fixture;
 * RuntimeDataLayerPreservesTypeFilterAndColor: DLA_Runtime is Runtime, load filter None, alpha 255).
 * The grid values (names, loading ranges, HLOD indices, the cell's bounds) are those the
 * property dump (`pakscope props`) shows for the same exports.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mergeCells, readLevelWithCells } from '../../../src/core/assets/level/cells.js';
import { levelNativeReader, type NativeLevelObject } from '../../../src/core/assets/level/native.js';
import { readDataLayerAsset } from '../../../src/core/assets/level/partition.js';
import { levelOfPackage, readLevel } from '../../../src/core/assets/level/read.js';
import type { LevelAsset } from '../../../src/core/assets/level/types.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { PropertyReader } from '../../../src/core/properties/reader.js';
import type { ExportProperties, PackageProperties, PropertyEntry } from '../../../src/core/properties/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');
const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Zlib', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];
const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { testContainerPackages: string[] };
const CELL_PACKAGE = manifest.testContainerPackages.filter((p) => p.includes('/Maps/WorldPartition/_Generated_/'));
const MAP = '/Game/Fixtures/Maps/WorldPartition';

describe.each(VARIANTS)('cue58 %s', (_label, root, usmap) => {
  const opts = usmap ? { mappings: usmap } : {};

  it('WorldPartition.umap: cooked, its runtime hash set with its grids and streaming data, its one cell', async () => {
    const l = await withInstall(corpus(root), (packages) => readLevel({ packages, ref: MAP }, undefined, opts));
    expect(l.notes).toEqual([]);
    const p = l.partition!;
    expect(p.cooked).toBe(true);
    const h = p.runtimeHash!;
    expect(h.class).toBe('WorldPartitionRuntimeHashSet');
    // One runtime partition (MainPartition): its main layer and three HLOD setups' layers.
    expect(h.grids.map((g) => [g.name, g.partition, g.class, g.spatiallyLoaded, g.loadingRange, g.hlodIndex])).toEqual([
      ['MainPartition', 'MainPartition', 'RuntimePartitionLHGrid', true, undefined, undefined],
      ['HLODLayer_Instanced', 'MainPartition', 'RuntimePartitionLHGrid', true, 51200, 0],
      ['HLODLayer_Merged', 'MainPartition', 'RuntimePartitionLHGrid', true, 102400, 1],
      ['RuntimePartitionPersistent_1', 'MainPartition', 'RuntimePartitionPersistent', false, 0, undefined],
    ]);
    expect(h.grids[0]!.debugColor!.a).toBe(1);
    expect(h.streamingData).toHaveLength(1);
    const data = h.streamingData[0]!;
    expect([data.name, data.loadingRange, data.nonSpatialCells]).toEqual(['MainPartition', 25600, []]);
    // Exactly one cell, listed by the streaming data, a spatially loaded level streaming cell.
    expect(data.spatialCells).toHaveLength(1);
    expect(l.cells).toHaveLength(1);
    const cell = l.cells[0]!;
    expect(cell.path).toBe(data.spatialCells[0]);
    expect(cell.class).toBe('WorldPartitionRuntimeLevelStreamingCell');
    expect(cell.spatiallyLoaded).toBe(true);
    expect(cell.levelStreaming).not.toBeNull();
    expect([cell.package]).toEqual(CELL_PACKAGE);
    expect(cell.grid).toBe('MainPartition');
    expect(cell.dataLayers).toEqual([]);
    expect(cell.cellBounds!.min.x).toBe(0);
    expect(cell.cellBounds!.max.x).toBe(12800);
    expect(cell.cellBounds!.min.y).toBe(-12800);
    expect(cell.contentBounds!.min.z).toBe(250);
    expect(cell.contentBounds!.max.z).toBe(280);
    // PartitionedMesh, at (3200, -1600, 250) in its cell, is inside the cell's content bounds.
    expect(cell.contentBounds!.min.x).toBeLessThan(3200);
    expect(cell.contentBounds!.max.x).toBeGreaterThan(3200);
    expect(p.dataLayers).toEqual([]);
  });

  it('--all-cells: the map\'s actors and its cell\'s PartitionedMesh of SM_Fixture, marked with the cell', async () => {
    const l = await withInstall(corpus(root), (packages) => readLevelWithCells(packages, MAP, undefined, opts));
    expect(l.mergedCells).toEqual(CELL_PACKAGE);
    const mesh = l.actors.find((a) => a.name === 'PartitionedMesh')!;
    expect(mesh.class).toBe('StaticMeshActor');
    expect(mesh.cell).toBe(l.cells[0]!.name);
    expect(mesh.components.find((c) => c.path === mesh.rootComponent)!.staticMesh).toBe('/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture');
    expect(l.actors.filter((a) => !a.cell).map((a) => a.class).sort()).toEqual(['WorldDataLayers', 'WorldSettings']);
    expect(l.counts.meshComponents).toBe(1);
  });

  it('DLA_Runtime: a Runtime data layer, load filter None, its debug colour opaque', async () => {
    const d = await withInstall(corpus(root), (packages) => readDataLayerAsset(packages, '/Game/Fixtures/WorldPartition/DLA_Runtime.DLA_Runtime', opts));
    expect(d.class).toBe('DataLayerAsset');
    expect(d.type).toBe('Runtime');
    expect(d.loadFilter).toBe('None');
    expect(d.debugColor!.a).toBe(255);
  });
});

describe('World Partition, bad input', () => {
  const PKG = '/Game/Maps/Bad';
  const LEVEL = `${PKG}.Bad:PersistentLevel`;
  let index = 0;
  const exp = (name: string, cls: string, path: string, properties: PropertyEntry[], native: object = {}): ExportProperties => ({
    index: index++, name, class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: 0, encoding: 'tagged', error: null, native: { path, ...native },
  });
  const prop = (name: string, value: PropertyEntry['value']): PropertyEntry => ({ name, type: 'ObjectProperty', value });
  const pkg = (more: ExportProperties[]): PackageProperties => {
    index = 0;
    return {
      package: PKG,
      exports: [
        exp('Bad', 'World', `${PKG}.Bad`, [], { world: { persistentLevel: LEVEL, streamingLevels: [] } }),
        exp('PersistentLevel', 'Level', LEVEL, [], { actors: [] }),
        ...more,
      ],
    };
  };

  it('a runtime hash that is not an export, partitions of the wrong type: notes, never a throw', () => {
    const wp = `${LEVEL}.WorldSettings.WP`;
    const l = levelOfPackage(pkg([exp('WP', 'WorldPartition', wp, [prop('RuntimeHash', `${wp}.Missing`)])]), 'Bad.umap', undefined);
    expect(l.partition!.runtimeHash).toBeNull();
    expect(l.notes.some((n) => /runtime hash .*Missing is not among/.test(n))).toBe(true);
    const l2 = levelOfPackage(pkg([
      exp('WP', 'WorldPartition', wp, [prop('RuntimeHash', `${wp}.H`)]),
      exp('H', 'WorldPartitionRuntimeHashSet', `${wp}.H`, [prop('RuntimePartitions', 7), prop('RuntimeStreamingData', [{ Name: 'G', SpatiallyLoadedCells: 'x' }])]),
    ]), 'Bad.umap', undefined);
    expect(l2.partition!.runtimeHash!.grids).toEqual([]);
    expect(l2.partition!.runtimeHash!.streamingData[0]!.spatialCells).toEqual([]);
    expect(l2.notes.some((n) => /RuntimePartitions is not an array/.test(n))).toBe(true);
    expect(l2.notes.some((n) => /SpatiallyLoadedCells is not an array/.test(n))).toBe(true);
  });

  it('cells whose packages name each other or the map itself are each read once', async () => {
    const cell = (name: string, pkgName: string) => ({ name, path: `x.${name}`, class: 'WorldPartitionRuntimeLevelStreamingCell', spatiallyLoaded: true, levelStreaming: null, package: pkgName, worldAsset: null, dataLayers: [] });
    const level = (name: string, cells: ReturnType<typeof cell>[]): LevelAsset => ({
      package: name, world: 'W', persistentLevel: null, partitioned: true,
      actors: [{ name: `A_${name}`, path: `${name}.A`, class: 'Actor', rootComponent: null, parentActor: null, components: [] }],
      streamingLevels: [], cells, partition: null,
      counts: { actors: 1, actorsByClass: {}, components: 0, meshComponents: 0, meshes: 0, instances: 0, lights: 0 }, notes: [],
    });
    // /Map's cells: /C1 twice, /Map itself, /C2 (whose own cells name /Map and /C1 again), one that does not read.
    const all: Record<string, LevelAsset> = {
      '/Map': level('/Map', [cell('a', '/C1'), cell('b', '/C1'), cell('self', '/Map'), cell('c', '/C2'), cell('d', '/Gone')]),
      '/C1': level('/C1', []),
      '/C2': level('/C2', [cell('back', '/Map'), cell('again', '/C1')]),
    };
    const reads: string[] = [];
    const map = all['/Map']!;
    await mergeCells(map, async (p) => {
      reads.push(p);
      const l = all[p];
      if (!l) throw new Error('no such package');
      return l;
    });
    expect(reads).toEqual(['/C1', '/C2', '/Gone']);
    expect(map.mergedCells).toEqual(['/C1', '/C2']);
    expect(map.actors.map((a) => `${a.name}${a.cell ? `@${a.cell}` : ''}`)).toEqual(['A_/Map', 'A_/C1@a', 'A_/C2@c']);
    expect(map.notes.some((n) => /cell d: its package \/Gone does not read/.test(n))).toBe(true);
    expect(map.counts.actors).toBe(3);
  });

  it('a World Partition whose bCooked is set but whose streaming policy runs past its bytes', () => {
    const pr = new PropertyReader({
      file: 'Bad.umap', names: ['None'], objectPath: (i) => (i === 0 ? null : undefined),
      versions: { ue4: 522, ue5: 1010, custom: null, cooked: true }, unversioned: false,
    });
    const read = (words: number[]) => levelNativeReader(pr, new BinaryReader(new Uint8Array(new Int32Array(words).buffer), 'Bad.umap'), { index: 0, name: 'WP', class: 'WorldPartition', properties: [] }) as NativeLevelObject;
    expect(read([0, 1]).error).toMatch(/Bad\.umap: data at byte 8: needs 4 bytes/);
    expect(read([0, 1, 0]).worldPartition).toEqual({ cooked: true, streamingPolicy: null });
    expect(read([0, 0]).worldPartition).toEqual({ cooked: false, streamingPolicy: null });
    expect(read([0, 7]).error).toMatch(/bool is 7/);
  });
});
