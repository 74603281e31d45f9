/**
 * End to end in Chromium on the cue58 IoStore Tagged install: DT_AllProperties with its struct
 * field flattened (Nested.Marker ... as columns); then a synthetic data table of 100,000 rows (the
 * assetTable answer replaced in the page's requests) shown, sorted, filtered and scrolled with the
 * times measured (written to test-artifacts/table-100k.json), its rows kept virtual (under 100 in
 * the page), and an object reference cell followed as a link to its package.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree } from './web-session.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 30_000);
const ROWS = 100_000;

const headers = (page: Page) => page.getByTestId('asset-table-rows').locator('[role="columnheader"]').allTextContents();

/** A data table of ROWS rows: a name, an int, a float, a text and an object reference. */
function syntheticTable(): unknown {
  const rows: (string | number)[][] = [];
  for (let i = 0; i < ROWS; i++) rows.push([`Row_${String(i).padStart(6, '0')}`, (i * 7919) % ROWS, i / 8, `text ${i} ${i % 2 ? 'odd' : 'even'}`, '/Game/Fixtures/Textures/T_BC7.T_BC7']);
  return {
    path: `${FIXTURES}/DataTables/DT_AllProperties.uasset`, exportIndex: 0, kind: 'DataTable', name: 'DT_Synthetic', class: 'DataTable',
    summary: `${ROWS} rows of SyntheticRow`, structFields: 1,
    columns: [{ key: 'row', label: 'Row' }, { key: 'f:Id', label: 'Id', numeric: true }, { key: 'f:Value', label: 'Value', numeric: true }, { key: 'f:Text', label: 'Text' }, { key: 'f:Ref', label: 'Ref' }],
    rows, links: { '/Game/Fixtures/Textures/T_BC7.T_BC7': `${FIXTURES}/Textures/T_BC7.uasset` }, csv: '', json: '{}', notes: [],
  };
}

describe.skipIf(skipBrowser)('large and nested tables in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Uncompressed'));

  it('flattens a struct field; a 100,000-row table stays virtual and quick; a reference cell opens its package', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'DT_AllProperties', `${FIXTURES}/DataTables/DT_AllProperties.uasset`);
    await poll(() => page.getByTestId('asset-table-name').textContent()).toBe('DT_AllProperties');
    await page.getByTestId('asset-table-flatten').click();
    await poll(() => headers(page)).toEqual(expect.arrayContaining(['Nested.Marker', 'Nested.Label', 'Nested.bEnabled']));
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-table-flattened.png') });

    // From here the table view gets the synthetic table instead.
    const body = JSON.stringify({ ok: true, value: syntheticTable() });
    await page.route('**/api/assetTable', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
    const t0 = Date.now();
    await page.getByTestId('asset-table-flatten').click();
    await poll(() => page.getByTestId('asset-table-name').textContent()).toBe('DT_Synthetic');
    await poll(() => page.getByTestId('asset-table-rows-count').textContent()).toBe(`${ROWS.toLocaleString('en-US')} rows`);
    const shownMs = Date.now() - t0;
    const domRows = await page.getByTestId('asset-table-rows').locator('.row').count();
    expect(domRows).toBeLessThan(100);

    const timed = async (act: () => Promise<void>, until: () => Promise<unknown>, want: unknown): Promise<number> => {
      const s = Date.now();
      await act();
      await poll(until).toEqual(want);
      return Date.now() - s;
    };
    const firstRow = () => page.getByTestId('asset-table-rows').locator('.row').evaluateAll((rs) => rs
      .map((r) => ({ top: parseFloat((r as HTMLElement).style.top), name: r.querySelector('.td')?.textContent?.trim() }))
      .sort((a, b) => a.top - b.top)[0]?.name);
    const th = page.getByTestId('asset-table-rows').locator('[role="columnheader"]');
    // Id is a permutation of 0..99,999: Row_000000 has 0, so it comes first ascending; 99,999 is i = 65,536 ... found by the sort.
    const sortMs = await timed(() => th.filter({ hasText: /^Id$/ }).click(), firstRow, 'Row_000000');
    const sortTextMs = await timed(() => th.filter({ hasText: /^Text$/ }).click(), firstRow, 'Row_000000');
    const filterMs = await timed(() => page.getByTestId('asset-table-rows-filter').fill('text 4242 even'), () => page.getByTestId('asset-table-rows-count').textContent(), `1 of ${ROWS.toLocaleString('en-US')}`);
    await page.getByTestId('asset-table-rows-filter').fill('');
    await poll(() => page.getByTestId('asset-table-rows-count').textContent()).toBe(`${ROWS.toLocaleString('en-US')} rows`);

    const idle = await page.evaluate(async () => {
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 60; i++) { await new Promise(requestAnimationFrame); const now = performance.now(); times.push(now - last); last = now; }
      return times.sort((a, b) => a - b)[30];
    });
    // Scrolling: 120 frames, each a jump of 900 px, the frame times as the page sees them.
    const frames = await page.getByTestId('asset-table-rows').locator('.viewport').evaluate(async (el) => {
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        el.scrollTop += 900;
        el.dispatchEvent(new Event('scroll'));
        await new Promise(requestAnimationFrame);
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times.sort((a, b) => a - b);
    });
    const median = frames[Math.floor(frames.length / 2)]!;
    const p95 = frames[Math.floor(frames.length * 0.95)]!;
    expect(await page.getByTestId('asset-table-rows').locator('.row').count()).toBeLessThan(100);
    const figures = { rows: ROWS, idleFrameMs: +idle!.toFixed(1), shownMs, sortNumberMs: sortMs, sortTextMs, filterMs, scrollFrameMedianMs: +median.toFixed(1), scrollFrameP95Ms: +p95.toFixed(1), domRows };
    await writeFile(join(ARTIFACTS, 'table-100k.json'), `${JSON.stringify(figures, null, 1)}\n`);
    console.log('100,000-row table:', figures);
    // The work per scroll step does not grow with the rows (the same at 5,000 rows); on the shared
    // test machine a step takes tens of milliseconds, so this guards against work per row only.
    expect(median).toBeLessThan(250);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-table-100k.png') });

    // A reference cell is a link: it opens T_BC7.
    await page.getByTestId('asset-table-rows-link').first().click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Textures/T_BC7');
    expect(web.problems).toEqual([]);
  });
});
