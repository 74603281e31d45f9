/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens Instancing.umap
 * on its Level tab (the converter registry offers it): the outliner's actors, ISM_Fixture's 4
 * instances with their custom data and HISM_Fixture's 12 (values from CUE4Parse's
 * FixtureExtendedAssetTests.cs); clicking the mesh opens SM_Fixture on its Mesh tab. Then
 * Streaming.umap: AttachmentChild under AttachmentRoot at socket FixtureSocket, relative (11, 22,
 * 33), and the sublevel as a link that opens Streaming_Sublevel.
 * The 3D view (WebGL through SwiftShader): Instancing's SM_Fixture drawn at its 21 placements
 * (one mesh loaded), the foliage actor's 5 hidden and shown again by its class's toggle, a click
 * on a drawn placement selecting its actor and marking its component, and the actor selected in
 * the list tinted in 3D; Streaming's sublevel drawn with it (StreamedMesh under its LevelTransform)
 * and picked by a click; Landscape's terrain drawn.
 * Screenshots (1280x800) in test-artifacts/e2e-level.png, e2e-level-mesh.png, e2e-level-streaming.png,
 * e2e-level-3d.png, e2e-level-3d-picked.png, e2e-level-3d-sublevel.png, e2e-level-3d-landscape.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, canvasPixels, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree, WEBGL_ARGS } from './web-session.js';

const MAPS = 'CUE4ParseFixtures/Content/Fixtures/Maps';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

/** Pixels of the 3D canvas in the selection's orange, and the first pixel (CSS px) that is not background. */
function stagePixels(page: Page): Promise<{ orange: number; hit: { x: number; y: number } | null }> {
  return page.getByTestId('level-3d-canvas').evaluate((c: HTMLCanvasElement) => {
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0]!, d[1]!, d[2]!];
    let orange = 0, hit: { x: number; y: number } | null = null;
    const scale = c.width / c.clientWidth;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
      if (r > 150 && r - b > 90 && r > gr + 20) orange++;
      // A pixel well inside something drawn (not the grid's thin lines): it and its neighbours 3 px away are lit.
      if (!hit && r + gr + b > 300) {
        const p = i / 4, x = p % c.width, y = Math.floor(p / c.width);
        const lit = (dx: number, dy: number) => { const q = ((y + dy) * c.width + x + dx) * 4; return d[q]! + d[q + 1]! + d[q + 2]! > 300; };
        if (x > 4 && y > 4 && x < c.width - 4 && y < c.height - 4 && lit(3, 0) && lit(-3, 0) && lit(0, 3) && lit(0, -3)) hit = { x: x / scale, y: y / scale };
      }
      void bg;
    }
    return { orange, hit };
  });
}

const component = (page: Page, name: string) => page.getByTestId('level-details').locator(`[data-testid="level-component"][data-name="${name}"]`);
const instances = (page: Page, name: string) => page.getByTestId('level-details').locator(`[data-testid="level-instances"][data-name="${name}"]`);

describe.skipIf(skipBrowser)('levels in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'), WEBGL_ARGS);

  it('shows Instancing\'s actors and instances, and opens the mesh an actor places', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'Instancing', `${MAPS}/Instancing.umap`);
    await poll(() => page.getByTestId('package-tab-view-level').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Instancing');
    expect(await page.getByTestId('level-actor').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).toEqual(['WorldSettings', 'InstancingFixture', 'InstancedFoliageActor']);
    expect(await page.getByTestId('level-counts').textContent()).toContain('21 instances');

    await page.getByTestId('level-actor').filter({ hasText: 'InstancingFixture' }).click();
    await poll(() => page.getByTestId('level-actor-name').textContent()).toBe('InstancingFixture');
    // The root first, then the instanced components under it.
    expect(await page.getByTestId('level-component').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).toEqual(['Root', 'HISM_Fixture', 'ISM_Fixture']);
    expect((await component(page, 'ISM_Fixture').getByTestId('level-attach').textContent())?.trim()).toBe('Root');
    const ism = instances(page, 'ISM_Fixture');
    expect(await ism.locator('summary').textContent()).toBe('ISM_Fixture: 4 instances, 2 custom floats each');
    await ism.locator('summary').click();
    expect(await ism.locator('li').allTextContents()).toEqual([
      '(0, 0, 0) [10, 20]', '(125, 0, 15) rot (0, 17, 0) × (1.125, 1.125, 1.125) [11, 22]',
      expect.stringMatching(/^\(250, 0, 30\) .* \[12, 24\]$/), expect.stringMatching(/^\(375, 0, 45\) .* \[13, 26\]$/),
    ]);
    expect(await instances(page, 'HISM_Fixture').locator('summary').textContent()).toBe('HISM_Fixture: 12 instances, 1 custom floats each');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level.png') });

    // Save JSON downloads the level; Copy, where the page may not use the clipboard, leaves no page error.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('level-save-json').click()]);
    expect(download.suggestedFilename()).toBe('Instancing.json');
    expect(JSON.parse(await readFile((await download.path())!, 'utf8')).counts.instances).toBe(21);
    await page.getByTestId('level-copy').click();

    // The mesh link opens SM_Fixture on its Mesh tab.
    await component(page, 'ISM_Fixture').getByTestId('level-mesh-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Meshes/SM_Fixture');
    await poll(() => page.getByTestId('package-tab-view-mesh').getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-mesh.png') });
    expect(web.problems).toEqual([]);
  });

  it('draws Instancing in 3D: 21 placements of one mesh, hides a class, picks by a click, tints the selection', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'Instancing', `${MAPS}/Instancing.umap`);
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Instancing');
    const canvas = page.getByTestId('level-3d-canvas');
    await poll(() => canvas.getAttribute('data-loaded')).toBe('1');
    await poll(() => canvas.getAttribute('data-drawn')).toBe('21');
    expect(await page.getByTestId('level-3d-status').textContent()).toContain('1 of 1 meshes loaded · 21 of 21 placements drawn');
    expect(await page.getByTestId('level-3d-webgl-error').count()).toBe(0);
    await poll(async () => (await canvasPixels(page, 'level-3d-canvas')).drawn).toBeGreaterThan(3000);
    // InstancingFixture is selected first (the first actor placing a mesh): its 16 placements are orange.
    await poll(async () => (await stagePixels(page)).orange).toBeGreaterThan(500);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-3d.png') });

    // Hiding the foliage actor's class leaves 16 drawn; showing it again, 21.
    const all = await canvasPixels(page, 'level-3d-canvas');
    await page.getByTestId('level-3d-kinds').locator('summary').click();
    expect(await page.getByTestId('level-3d-kind').evaluateAll((b) => b.map((x) => x.getAttribute('data-class')))).toEqual(['Actor', 'InstancedFoliageActor']);
    await page.locator('[data-testid="level-3d-kind"][data-class="InstancedFoliageActor"]').uncheck();
    await poll(() => canvas.getAttribute('data-drawn')).toBe('16');
    await poll(async () => (await canvasPixels(page, 'level-3d-canvas')).hash).not.toBe(all.hash);
    await page.locator('[data-testid="level-3d-kind"][data-class="InstancedFoliageActor"]').check();
    await poll(() => canvas.getAttribute('data-drawn')).toBe('21');
    await page.getByTestId('level-3d-kinds').locator('summary').click();

    // Selecting WorldSettings in the list (it places nothing): nothing is orange.
    await page.getByTestId('level-actor').filter({ hasText: 'WorldSettings' }).click();
    await poll(async () => (await stagePixels(page)).orange).toBeLessThan(20);
    // A click on a drawn placement selects the actor placing it and marks the component.
    const { hit } = await stagePixels(page);
    expect(hit).not.toBeNull();
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + hit!.x, box.y + hit!.y);
    await poll(() => page.getByTestId('level-actor-name').textContent()).toMatch(/^(InstancingFixture|InstancedFoliageActor)$/);
    const picked = page.locator('[data-testid="level-component"][data-picked="true"]');
    await poll(() => picked.count()).toBe(1);
    expect(await picked.getAttribute('data-name')).toMatch(/^(HISM_Fixture|ISM_Fixture|FoliageInstancedStaticMeshComponent_0)$/);
    await poll(async () => (await stagePixels(page)).orange).toBeGreaterThan(100);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-3d-picked.png') });
    expect(web.problems).toEqual([]);
  });

  it('draws Landscape\'s terrain in 3D (the landscape view\'s geometry at the actor\'s place)', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'Landscape', `${MAPS}/Landscape.umap`);
    await page.getByTestId('package-tab-view-level').click(); // the package opens on its Landscape tab
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Landscape');
    await poll(() => page.getByTestId('level-3d-terrain').textContent()).toContain('Terrain drawn');
    await poll(async () => (await canvasPixels(page, 'level-3d-canvas')).drawn).toBeGreaterThan(20000);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-3d-landscape.png') });
    expect(web.problems).toEqual([]);
  });

  it('shows Streaming\'s socket attachment and opens its sublevel', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'Streaming', `${MAPS}/Streaming.umap`);
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Streaming');
    await page.getByTestId('level-actor').filter({ hasText: 'AttachmentFixture' }).click();
    const child = component(page, 'AttachmentChild');
    expect(await child.getByTestId('level-attach').locator('div').allTextContents()).toEqual(['AttachmentRoot', 'socket FixtureSocket']);
    expect(await child.getByTestId('level-relative').textContent()).toBe('(11, 22, 33) rot (10, 20, 30) × (0.5, 1.5, 2.5)');
    expect(await page.getByTestId('level-streaming').textContent()).toContain('(1000, 2000, 3000) rot (0, 45, 0) × (2, 2, 2)');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-streaming.png') });

    // In 3D the map itself places no static mesh; with its sublevel drawn, StreamedMesh is there, and a click names it.
    await poll(() => page.getByTestId('level-3d-status').textContent()).toContain('The level places no static meshes.');
    await page.getByTestId('level-3d-kinds').locator('summary').click();
    await page.getByTestId('level-3d-sublevels').check();
    const canvas = page.getByTestId('level-3d-canvas');
    await poll(() => canvas.getAttribute('data-drawn')).toBe('1');
    expect((await page.getByTestId('level-3d-status').textContent())!.replace(/\s+/g, ' ')).toContain('1 of 1 meshes loaded · 1 of 1 placements drawn · 1 sublevel with it');
    await page.getByTestId('level-3d-kinds').locator('summary').click();
    await poll(async () => (await canvasPixels(page, 'level-3d-canvas')).drawn).toBeGreaterThan(2000);
    const { hit } = await stagePixels(page);
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + hit!.x, box.y + hit!.y);
    await poll(async () => (await page.getByTestId('level-3d-picked-sublevel').textContent())?.replace(/\s+/g, ' ').trim()).toBe('· picked StreamedMesh in Streaming_Sublevel');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-level-3d-sublevel.png') });
    await page.getByTestId('level-streaming-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Maps/Streaming_Sublevel');
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Streaming_Sublevel');
    expect(await page.getByTestId('level-actor').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).toContain('StreamedMesh');
    expect(web.problems).toEqual([]);
  });
});
