/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens DT_AllProperties
 * on its Table tab (the converter registry offers it), sorts by Number both ways and filters the
 * rows; opens ST_Fixed and CT_Rich as tables. Values from cue58/manifest.json. Screenshot
 * (1280x800) in test-artifacts/e2e-table.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree } from './web-session.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

/** The first cell of each shown row (the row names), top to bottom. */
const rowNames = (page: Page) => page.getByTestId('asset-table-rows').locator('.row').evaluateAll((rows) =>
  rows.map((r) => ({ top: parseFloat((r as HTMLElement).style.top), name: r.querySelector('.td')?.textContent?.trim() ?? '' }))
    .sort((a, b) => a.top - b.top).map((r) => r.name));

describe.skipIf(skipBrowser)('tables in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Uncompressed'));

  it('sorts and filters DT_AllProperties, and shows a string table and a curve table', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'DT_AllProperties', `${FIXTURES}/DataTables/DT_AllProperties.uasset`);
    await poll(() => page.getByTestId('package-tab-view-table').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('asset-table-name').textContent()).toBe('DT_AllProperties');
    await poll(() => rowNames(page)).toEqual(['Alpha', 'Beta', 'Defaults']);
    const headers = page.getByTestId('asset-table-rows').locator('[role="columnheader"]');
    expect(await headers.allTextContents()).toEqual(['Row', 'Number', 'LargeNumber', 'Message', 'Kind', 'Nested', 'Values']);

    // Number: Beta -202020 < Defaults 0 < Alpha 0x12345678; again for descending.
    await headers.filter({ hasText: /^Number$/ }).click();
    await poll(() => rowNames(page)).toEqual(['Beta', 'Defaults', 'Alpha']);
    await headers.filter({ hasText: /^Number/ }).click();
    await poll(() => rowNames(page)).toEqual(['Alpha', 'Defaults', 'Beta']);

    await page.getByTestId('asset-table-rows-filter').fill('日本語');
    await poll(() => rowNames(page)).toEqual(['Alpha']);
    expect(await page.getByTestId('asset-table-rows-count').textContent()).toContain('1 of 3');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-table.png') });
    await page.getByTestId('asset-table-rows-filter').fill('');

    await openPackageFromTree(page, 'ST_Fixed', `${FIXTURES}/StringTables/ST_Fixed.uasset`);
    await poll(() => page.getByTestId('asset-table-name').textContent()).toBe('ST_Fixed');
    await poll(() => rowNames(page)).toEqual(['Greeting', 'Unicode', 'Empty']);
    expect(await page.getByTestId('asset-table').textContent()).toContain('Hello from Frankfurt');

    await openPackageFromTree(page, 'CT_Rich', `${FIXTURES}/Curves/CT_Rich.uasset`);
    await poll(() => page.getByTestId('asset-table-name').textContent()).toBe('CT_Rich');
    await poll(() => rowNames(page)).toEqual(['Cubic', 'Mixed']);
    expect(await page.getByTestId('asset-table').textContent()).toContain('CycleWithOffset');
    // The plot draws both curves; hovering its middle shows each curve's value there.
    expect(await page.getByTestId('curve-plot').locator('path.curve').evaluateAll((p) => p.map((x) => x.getAttribute('data-curve')))).toEqual(['Cubic', 'Mixed']);
    const svg = page.getByTestId('curve-plot').locator('svg');
    const box = (await svg.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await poll(() => page.getByTestId('curve-plot-legend').textContent()).toMatch(/t = [-\d.]+.*Cubic: [-\d.]+.*Mixed: [-\d.]+/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-table-curves.png') });
  });
});
