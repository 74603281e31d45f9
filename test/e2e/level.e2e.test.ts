/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens Instancing.umap
 * on its Level tab (the converter registry offers it): the outliner's actors, ISM_Fixture's 4
 * instances with their custom data and HISM_Fixture's 12 (values from CUE4Parse's
 * FixtureExtendedAssetTests.cs); clicking the mesh opens SM_Fixture on its Mesh tab. Then
 * Streaming.umap: AttachmentChild under AttachmentRoot at socket FixtureSocket, relative (11, 22,
 * 33), and the sublevel as a link that opens Streaming_Sublevel.
 * Screenshots (1280x800) in test-artifacts/e2e-level.png, e2e-level-mesh.png, e2e-level-streaming.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree } from './web-session.js';

const MAPS = 'CUE4ParseFixtures/Content/Fixtures/Maps';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

const component = (page: Page, name: string) => page.getByTestId('level-details').locator(`[data-testid="level-component"][data-name="${name}"]`);
const instances = (page: Page, name: string) => page.getByTestId('level-details').locator(`[data-testid="level-instances"][data-name="${name}"]`);

describe.skipIf(skipBrowser)('levels in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'));

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
    await page.getByTestId('level-streaming-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Maps/Streaming_Sublevel');
    await poll(() => page.getByTestId('level-name').textContent()).toBe('Streaming_Sublevel');
    expect(await page.getByTestId('level-actor').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).toContain('StreamedMesh');
    expect(web.problems).toEqual([]);
  });
});
