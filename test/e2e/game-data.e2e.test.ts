/**
 * End to end in Chromium: the game data views on the cue58 Pak beside the IoStore Tagged
 * containers (test/support/game-data-install.ts). The localization view shows en and de side by
 * side (FixturePakTests.cs's texts), searches every culture, marks the keys a partial French file
 * lacks and names the Spanish file that does not read; the registry view lists the assets,
 * filters by class and opens a package from its link; DefaultGame.ini opens in Monaco as ini;
 * DA_AllProperties' Text shows in French when fr is picked for texts; a package's details pane
 * shows its registry tags. Screenshots in test-artifacts/e2e-localization.png, e2e-registry.png
 * and e2e-registry-details.png.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { FRENCH_TEXT, LOCALIZATION, makeGameDataInstall } from '../support/game-data-install.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, selectInTree, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const dir = skipBrowser ? '' : makeGameDataInstall();
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

/** Each shown row's cells, top to bottom. */
const shownRows = (page: Page, testid: string) => page.getByTestId(testid).locator('.row').evaluateAll((rows) =>
  rows.map((r) => ({ top: parseFloat((r as HTMLElement).style.top), cells: [...r.querySelectorAll('.td')].map((c) => c.textContent?.trim() ?? '') }))
    .sort((a, b) => a.top - b.top).map((r) => r.cells));

describe.skipIf(skipBrowser)('game data views in Chromium (browser host)', () => {
  const web = useWebSession(dir);

  it('the localization view: en and de side by side, search in every culture, untranslated marked', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await selectInTree(page, 'CUE4ParseFixtures.locres', `${LOCALIZATION}/de/CUE4ParseFixtures.locres`);
    await poll(() => page.getByTestId('viewer-tab-localization').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('localization-rows').locator('[role="columnheader"]').allTextContents()).toEqual(['Namespace', 'Key', 'en', 'de', 'es', 'fr']);
    const greeting = (await shownRows(page, 'localization-rows')).find((r) => r[1] === 'CityGreeting')!;
    expect(greeting.slice(2)).toEqual(['Greetings from Frankfurt', 'Grüße aus Frankfurt', 'untranslated', 'Salutations de Francfort']);
    // The Spanish file does not read: named, the rest shown.
    expect(await page.getByTestId('localization').getByRole('alert').textContent()).toMatch(/es\/CUE4ParseFixtures\.locres: .*namespace count/);
    expect(await page.getByTestId('localization-cultures').textContent()).toContain('fr: 3 untranslated');
    // Search a German text, then an English one: each finds its row.
    await page.getByTestId('localization-rows-filter').fill('Grüße');
    await poll(() => shownRows(page, 'localization-rows').then((r) => r.map((c) => c[1]))).toEqual(['CityGreeting']);
    await page.getByTestId('localization-rows-filter').fill('Second shared');
    await poll(() => shownRows(page, 'localization-rows').then((r) => r.map((c) => c[1]))).toEqual(['SharedSecond']);
    await page.getByTestId('localization-rows-filter').fill('');
    await page.getByTestId('localization-missing-only').check();
    await poll(() => page.getByTestId('localization-rows-count').textContent()).toBe('5 rows');
    await page.getByTestId('localization-missing-only').uncheck();
    expect(await page.getByTestId('localization-rows').locator('.td.marked').count()).toBe(8);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-localization.png') });
  });

  it('the details pane of a package shows what the asset registry says of it', async () => {
    const { page } = web;
    await selectInTree(page, 'T_BC1', 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC1.uasset');
    const facts = page.getByTestId('detail-registry');
    // 64x64, as CUE4Parse's FixtureTestUtilities.cs lists T_BC1; the class from the registry.
    await poll(() => facts.textContent()).toContain('Dimensions64x64');
    expect(await facts.textContent()).toContain('T_BC1 Texture2D');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-registry-details.png') });
  });

  it('the registry view: filter by class, a package link opens the package; an .ini in Monaco', async () => {
    const { page } = web;
    await selectInTree(page, 'AssetRegistry', 'CUE4ParseFixtures/AssetRegistry.bin');
    await poll(() => page.getByTestId('viewer-tab-registry').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('registry-summary').textContent()).toContain('MemoryMappedTagDataStore · 306 assets');
    await page.getByTestId('registry-class').selectOption('/Script/Engine.CurveTable');
    await poll(() => shownRows(page, 'registry-rows').then((r) => r.map((c) => c[0]))).toEqual(['CT_Rich.CT_Rich', 'CT_Simple.CT_Simple', 'CT_SimpleOverrides.CT_SimpleOverrides']);
    await page.getByTestId('registry-class').selectOption('');
    await page.getByTestId('registry-rows-filter').fill('Primary_Registry');
    await poll(() => shownRows(page, 'registry-rows').then((r) => r.map((c) => c[0]))).toEqual(['DA_PrimaryAsset.DA_PrimaryAsset']);
    await page.getByTestId('registry-rows').locator('.row .td').first().click();
    await poll(() => page.getByTestId('registry-tags').textContent()).toContain('RegistryMarkerPrimary_Registry_0x13579BDF');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-registry.png') });
    await page.getByTestId('registry-rows-link').first().click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Properties/DA_PrimaryAsset');

    await selectInTree(page, 'DefaultGame', 'CUE4ParseFixtures/Config/DefaultGame.ini');
    await poll(() => page.locator('section.viewer [data-testid="text-view"]').first().getAttribute('data-language')).toBe('ini');
    // The ini tokenizer colours a key apart from its value.
    const line = page.locator('.monaco-editor .view-line', { hasText: 'String=Deterministic fixture value' });
    await poll(() => line.count()).toBeGreaterThan(0);
    await poll(async () => new Set(await line.first().locator('span > span').evaluateAll((s) => s.map((x) => x.className))).size).toBeGreaterThan(1);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-ini.png') });
    expect(web.problems).toEqual([]);
  });

  it('texts in a culture: DA_AllProperties\' Text in French when fr is picked, as stored again after', async () => {
    const { page } = web;
    await selectInTree(page, 'DA_AllProperties', 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset');
    await page.keyboard.press('Enter');
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await page.getByTestId('package-tab-properties').click();
    const textRow = page.getByTestId('props-tree').locator('.row[data-name="Text"]').first();
    await poll(() => textRow.locator('.c-value').textContent()).toContain('Localized-ish fixture text Ω');
    await page.getByTestId('props-culture').selectOption('fr');
    await poll(() => textRow.locator('.c-value').textContent()).toContain(FRENCH_TEXT);
    expect(await page.getByTestId('props-localized').textContent()).toBe('1 translated');
    expect(await textRow.locator('.c-value').getAttribute('title')).toContain('stored: "Localized-ish fixture text Ω"');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-text-culture.png') });
    await page.getByTestId('props-culture').selectOption('');
    await poll(() => textRow.locator('.c-value').textContent()).toContain('Localized-ish fixture text Ω');
    expect(web.problems).toEqual([]);
  });
});
