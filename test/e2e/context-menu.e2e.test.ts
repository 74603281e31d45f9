/**
 * End to end, the right-click menus (issue 24, points 6 and 10): on a file and a folder of the
 * tree and on rows of a package's Imports and Exports tables: open, open in a new tab, export,
 * save as JSON (one click: a .json download with every export's properties), copy path, copy
 * package name, show in the graph, show dependencies, reveal the container. Esc returns to the
 * file view while the focus is in the tree. The JSON tab's Copy and Save.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll, useWebSession } from './web-session.js';

const INSTALL = corpus('cue58/IoStore/Tagged/Uncompressed');
const DIR = 'CUE4ParseFixtures/Content/Fixtures';
const AC = `${DIR}/Animations/AC_Fixture.uasset`;
const DA = `${DIR}/Properties/DA_AllProperties.uasset`;
const CONTAINER = 'CUE4ParseFixtures-Minimal-Uncompressed-Windows';

const row = (page: Page, path: string) => page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
const packageName = async (page: Page) => ((await page.getByTestId('package-view').count()) ? await page.getByTestId('package-name').textContent() : null);
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Right-clicks `target` and chooses the menu item `id`. */
async function choose(page: Page, target: ReturnType<Page['locator']>, id: string): Promise<void> {
  await target.click({ button: 'right' });
  await page.getByTestId('context-menu').waitFor();
  await page.getByTestId(`menu-${id}`).click();
  await poll(() => page.getByTestId('context-menu').count()).toBe(0);
}

describe.skipIf(skipBrowser)('context menus in Chromium', () => {
  const web = useWebSession(INSTALL);

  it('acts on a file and a folder of the tree; Esc in the tree goes back to the file view', async () => {
    const { page } = web;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(web.session.url).origin });
    await page.goto(web.session.url);
    await page.getByTestId('filter').fill('AC_Fixture');
    const ac = row(page, AC);
    await ac.waitFor();

    await ac.click({ button: 'right' });
    await page.getByTestId('context-menu').waitFor();
    const items = (await page.getByTestId('context-menu').locator('button .label').allTextContents()).map((t) => t.trim());
    expect(items).toEqual(['Open', 'Open in a new tab', 'Export…', 'Save as JSON', 'Copy path', 'Copy package name',
      'Show in the graph', 'Show dependencies', 'Reveal the container']);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-context-menu.png') });
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('context-menu').count()).toBe(0);

    await choose(page, ac, 'copy-path');
    await poll(() => clipboard(page)).toBe(AC);
    await choose(page, ac, 'copy-package-name');
    await poll(() => clipboard(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');

    await choose(page, ac, 'show-graph');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');
    await poll(() => page.getByTestId('package-tab-graph').getAttribute('aria-selected')).toBe('true');
    // Esc with the focus in the tree: back to the file view.
    await ac.click();
    await page.keyboard.press('Escape');
    await poll(() => packageName(page)).toBeNull();

    await choose(page, ac, 'show-dependencies');
    await poll(() => page.getByTestId('package-tab-imports').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('imports-table').textContent()).toContain('/Script/Engine.Default__AnimComposite');
    await choose(page, ac, 'open-new-tab');
    await poll(() => page.getByTestId('package-tab').count()).toBe(1); // the package's tab, brought forward

    await choose(page, ac, 'reveal-container');
    await poll(() => packageName(page)).toBeNull();
    await poll(() => page.getByTestId('details').locator('.name').textContent()).toBe(CONTAINER);
    expect(await page.getByTestId('containers').locator('button.selected .name').textContent()).toBe(CONTAINER);

    await choose(page, ac, 'export');
    await page.getByTestId('export-dialog').waitFor();
    expect(await page.getByTestId('export-dialog').textContent()).toContain('AC_Fixture.uasset');
    expect(await page.getByTestId('export-json').isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('export-dialog').count()).toBe(0);

    // A folder: its Export as JSON starts the Export dialog with JSON chosen.
    await choose(page, row(page, `${DIR}/Animations`), 'save-json');
    await page.getByTestId('export-dialog').waitFor();
    expect(await page.getByTestId('export-json').isChecked()).toBe(true);
    expect(await page.getByTestId('export-dialog').textContent()).toContain('Animations/');
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('export-dialog').count()).toBe(0);
    expect(web.problems).toEqual([]);
  });

  it('saves a package with its properties as JSON in one click', async () => {
    const { page } = web;
    await page.getByTestId('filter').fill('DA_AllProperties');
    await row(page, DA).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), choose(page, row(page, DA), 'save-json')]);
    expect(download.suggestedFilename()).toBe('DA_AllProperties.json');
    const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      name: string; imports: unknown[]; exports: { name: string; class: string; properties: { name: string; type: string; value: unknown }[] | null }[];
    };
    expect(json.name).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    expect(json.imports.length).toBeGreaterThan(0);
    const asset = json.exports.find((e) => e.name === 'DA_AllProperties')!;
    expect(asset.class).toBe('ParserFixtureData');
    // The values the Properties tab shows (test/e2e/properties.e2e.test.ts reads the same export).
    expect(asset.properties!.find((p) => p.name === 'HardObjectReference')?.value).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    expect(asset.properties!.find((p) => p.name === 'Integer')?.type).toBe('IntProperty');
    expect(web.problems).toEqual([]);
  });

  it('acts on rows of the Imports and Exports tables, and the JSON tab copies and saves', async () => {
    const { page } = web;
    await row(page, DA).click();
    await page.keyboard.press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await page.getByTestId('package-tab-imports').click();
    const dt = page.getByTestId('imports-table').locator('.row[data-ref="import:3"]');
    await choose(page, dt, 'copy-package-name');
    await poll(() => clipboard(page)).toBe('/Game/Fixtures/DataTables/DT_AllProperties');
    await choose(page, dt, 'copy-path');
    await poll(() => clipboard(page)).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    // Open: the import's package at that export.
    await choose(page, dt, 'open');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/DataTables/DT_AllProperties');
    await poll(() => page.getByTestId('package-tab-properties').getAttribute('aria-selected')).toBe('true');
    // The tree keeps its filter (DA_AllProperties), which hides it.
    expect(await page.getByTestId('package-view').locator('.sub .path').textContent()).toBe(`${DIR}/DataTables/DT_AllProperties.uasset`);
    // A /Script import has no package in the install: its Open is off, its names copy.
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await page.getByTestId('package-tab-imports').click();
    await page.getByTestId('imports-table').locator('.row').first().click({ button: 'right' });
    expect(await page.getByTestId('menu-open').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    // An export row: Show in the graph of this package.
    await page.getByTestId('package-tab-exports').click();
    await choose(page, page.getByTestId('exports-table').locator('.row[data-ref="export:0"]'), 'show-graph');
    await poll(() => page.getByTestId('package-tab-graph').getAttribute('aria-selected')).toBe('true');
    expect(await packageName(page)).toBe('/Game/Fixtures/Properties/DA_AllProperties');

    // The JSON tab: Copy puts the JSON shown on the clipboard, Save downloads it.
    await page.getByTestId('package-tab-json').click();
    await page.getByTestId('json-mode-package').click();
    await page.getByTestId('json-copy').click();
    await poll(async () => (JSON.parse(await clipboard(page)) as { name: string }).name).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('json-save').click()]);
    expect(download.suggestedFilename()).toBe('DA_AllProperties.json');
    expect((JSON.parse(await readFile((await download.path())!, 'utf8')) as { name: string }).name).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-json-buttons.png') });
    expect(web.problems).toEqual([]);
  });
});
