/**
 * The level scene's "Sublevels and cells" reads each cell's package: a World Partition map of
 * more cells than the --all-cells merge takes (MAX_MERGED_CELLS) reads that many and says so,
 * instead of every one (a large open world names tens of thousands). The map is made in memory:
 * its view stubbed, each cell's package one the service cannot find (counted as it is asked).
 */
import { describe, expect, it, vi } from 'vitest';
import { LevelService } from '../../src/backend/asset-level.js';
import type { PackageService } from '../../src/backend/packages.js';
import { MAX_MERGED_CELLS } from '../../src/core/assets/level/cells.js';
import type { LevelAsset, PartitionCell } from '../../src/core/assets/level/types.js';
import type { InstallPackages } from '../../src/core/package/open-package.js';
import type { LevelView } from '../../src/shared/asset-api.js';

describe('levelScene with sublevels', () => {
  it(`reads at most ${MAX_MERGED_CELLS} cell packages, the rest named in a note`, async () => {
    const n = MAX_MERGED_CELLS + 5;
    const cells = Array.from({ length: n }, (_, i): PartitionCell => ({
      name: `Cell_${i}`, path: `/Game/Map.Map:PersistentLevel.WP.Cell_${i}`, class: 'WorldPartitionRuntimeLevelStreamingCell',
      spatiallyLoaded: true, levelStreaming: null, package: `/Game/Map/_Generated_/Cell_${i}`, worldAsset: null, dataLayers: [],
    }));
    const level = { package: '/Game/Map', world: 'Map', actors: [], streamingLevels: [], cells, notes: [] } as unknown as LevelAsset;
    const links = Object.fromEntries(cells.map((c) => [c.package!, `Game/Map/_Generated_/Cell_${c.name}.umap`]));
    const view: LevelView = { path: 'Game/Map.umap', exportIndex: 0, level, links, json: '' };
    const svc = new LevelService();
    vi.spyOn(svc, 'view').mockResolvedValue(view);
    let asked = 0;
    const service = { locate: () => { asked++; throw new Error('not in this install'); } } as unknown as PackageService;
    const s = await svc.scene({} as InstallPackages, service, { installId: 'i', path: 'Game/Map.umap', sublevels: true }, undefined);
    expect(asked).toBe(MAX_MERGED_CELLS);
    expect(s.notes.filter((x) => /not in this install/.test(x))).toHaveLength(MAX_MERGED_CELLS);
    expect(s.notes[0]).toBe(`the map has ${n} sublevels and cells: only the first ${MAX_MERGED_CELLS} are drawn`);
  });
});
