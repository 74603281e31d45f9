/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens MI_Fixture on
 * its Material tab (the converter registry offers it): the chain MI_Fixture -> M_Fixture, the
 * parameters grouped by kind with their effective values and where each comes from (values from
 * CUE4Parse's FixtureRenderableAssetTests.cs), PrimaryColor's swatch, FixtureTexture's preview;
 * clicking the preview opens T_BC3 on its Texture tab, and the chain's link opens M_Fixture.
 * Screenshots (1280x800) in test-artifacts/e2e-material.png, e2e-material-texture.png, e2e-material-base.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree } from './web-session.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

const param = (page: Page, kind: string, name: string) => page.getByTestId('material-view').locator(`[data-testid="material-param"][data-kind="${kind}"][data-name="${name}"]`);
const cellText = async (page: Page, kind: string, name: string, cell: string) => (await param(page, kind, name).getByTestId(cell).first().textContent())?.trim();

describe.skipIf(skipBrowser)('materials in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'));

  it('shows MI_Fixture\'s chain and parameters, and opens its texture from the preview', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'MI_Fixture', `${FIXTURES}/Materials/MI_Fixture.uasset`);
    await poll(() => page.getByTestId('package-tab-view-material').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('material-name').textContent()).toBe('MI_Fixture');
    expect(await page.getByTestId('material-chain-link').allTextContents()).toEqual(['M_Fixture']);
    expect(await page.getByTestId('material-group').evaluateAll((g) => g.map((x) => x.getAttribute('data-kind')))).toEqual(['scalar', 'vector', 'texture', 'switch']);

    expect(await cellText(page, 'scalar', 'FixtureRoughness', 'material-value')).toBe('0.8125');
    expect(await cellText(page, 'scalar', 'FixtureRoughness', 'material-from')).toBe('this asset');
    expect(await cellText(page, 'scalar', 'FixtureRoughness', 'material-overrides')).toBe('M_Fixture: 0.375');
    expect(await cellText(page, 'vector', 'PrimaryColor', 'material-value')).toBe('(0.25, 0.75, 0.5, 0.875)');
    expect(await cellText(page, 'vector', 'AlternateColor', 'material-from')).toBe('M_Fixture');
    expect(await cellText(page, 'switch', 'UseAlternateColor', 'material-value')).toBe('true');
    // PrimaryColor (0.25, 0.75, 0.5) linear is sRGB (137, 225, 188), alpha 0.875.
    expect(await param(page, 'vector', 'PrimaryColor').getByTestId('material-swatch').locator('span').evaluate((s) => getComputedStyle(s).backgroundColor)).toBe('rgba(137, 225, 188, 0.875)');
    // The texture's preview: decoded T_BC3, drawn in the cell.
    const img = param(page, 'texture', 'FixtureTexture').getByTestId('material-texture').locator('img');
    await poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    expect(await param(page, 'texture', 'FixtureTexture').getByTestId('material-texture-link').textContent()).toBe('T_BC3');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-material.png') });

    // Clicking the preview opens the texture.
    await param(page, 'texture', 'FixtureTexture').getByTestId('material-texture').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Textures/T_BC3');
    await poll(() => page.getByTestId('package-tab-view-texture').getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-material-texture.png') });

    // Back to the instance; its chain link opens the base material, whose cooked defaults show.
    await openPackageFromTree(page, 'MI_Fixture', `${FIXTURES}/Materials/MI_Fixture.uasset`);
    await poll(() => page.getByTestId('material-name').textContent()).toBe('MI_Fixture');
    await page.getByTestId('material-chain-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Materials/M_Fixture');
    await poll(() => page.getByTestId('material-name').textContent()).toBe('M_Fixture');
    expect(await cellText(page, 'scalar', 'FixtureRoughness', 'material-value')).toBe('0.375');
    expect(await cellText(page, 'vector', 'PrimaryColor', 'material-value')).toBe('(0.1, 0.2, 0.8, 1)');
    expect(await page.getByTestId('material-chain-link').count()).toBe(0);
    expect(await page.getByTestId('material-referenced').textContent()).toContain('T_BC3');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-material-base.png') });
    expect(web.problems).toEqual([]);
  });
});
