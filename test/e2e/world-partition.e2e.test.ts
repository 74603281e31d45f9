/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens
 * WorldPartition.umap on its Level tab: the runtime hash (a RuntimeHashSet, cooked), its grids
 * (MainPartition with its cells measuring 12800 x 12800 and the streaming data's loading range
 * 25600, the HLOD layers' 51200 and 102400), the one spatially loaded cell of MainPartition with
 * its cell bounds (values from CUE4Parse's FixtureWorldAssetTests.cs and the property dump), and
 * its generated package (the manifest's testContainerPackages) as a link that opens the cell
 * with PartitionedMesh, a StaticMeshActor (WorldPartitionRuntimeCellLoadsPartitionedActor).
 * With "Sublevels and cells" ticked, the 3D view draws the cell's mesh with the map.
 * Screenshots (1280x800) in test-artifacts/e2e-level-partition.png, e2e-level-partition-3d.png.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree, WEBGL_ARGS } from './web-session.js';

const MAPS = 'CUE4ParseFixtures/Content/Fixtures/Maps';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

describe.skipIf(skipBrowser)('World Partition in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'), WEBGL_ARGS);

  it('shows WorldPartition\'s runtime hash, grids and cell, and opens the cell\'s package', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'WorldPartition', `${MAPS}/WorldPartition.umap`);
    await poll(() => page.getByTestId('level-name').textContent()).toBe('WorldPartition');
    const section = page.getByTestId('level-partition');
    await poll(() => section.locator('h3').first().textContent()).toMatch(/World Partition\s*cooked/);
    expect(await page.getByTestId('level-runtime-hash').textContent()).toContain('WorldPartitionRuntimeHashSet · 4 grids');
    const facts = (name: string) => section.locator(`[data-testid="level-grid"][data-name="${name}"] [data-testid="level-grid-facts"]`).textContent().then((t) => t?.replace(/\s+/g, ' ').trim());
    expect(await facts('MainPartition')).toBe('cell default (12800 × 12800) · range 25600');
    expect(await facts('HLODLayer_Instanced')).toBe('cell default · range 51200');
    expect(await facts('HLODLayer_Merged')).toBe('cell default · range 102400');
    const cell = page.getByTestId('level-cell');
    expect(await cell.count()).toBe(1);
    expect(await cell.getAttribute('data-name')).toBe('1WD4NAK7SVY0JF8AXYPOSA7U8');
    expect((await cell.textContent())?.replace(/\s+/g, ' ')).toContain('MainPartition · spatial');
    expect(await page.getByTestId('level-cell-bounds').textContent()).toBe('cell (0, -12800) – (12800, 0)');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-partition.png') });

    // All cells in 3D: the map places no mesh; with its cells, the cell's PartitionedMesh is drawn.
    const canvas = page.getByTestId('level-3d-canvas');
    await poll(() => canvas.getAttribute('data-drawn')).toBe('0');
    await page.getByTestId('level-3d-kinds').locator('summary').click();
    await page.getByTestId('level-3d-sublevels').check();
    await poll(() => canvas.getAttribute('data-drawn')).toBe('1');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-partition-3d.png') });

    await page.getByTestId('level-cell-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Maps/WorldPartition/_Generated_/1WD4NAK7SVY0JF8AXYPOSA7U8');
    await poll(() => page.getByTestId('level-actor').filter({ hasText: 'PartitionedMesh' }).count()).toBe(1);
    expect(await page.getByTestId('level-actor').filter({ hasText: 'PartitionedMesh' }).textContent()).toContain('StaticMeshActor');
  });
});
