/**
 * End to end, nothing cut (issue 24, point 12), at 1280x800 and 1920x1080: the package view's tab
 * strip scrolls to every tab with its arrows, table headers are whole, long cell text ends in an
 * ellipsis with the whole text on hover, Summary notes wrap inside their column, package names
 * break at "/", the zip name field shows its placeholder whole. Screenshots of every view at both
 * sizes go to test-artifacts/layout-<w>x<h>-<view>.png, to be looked at.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, haveChromium, poll, useWebSession } from './web-session.js';

const INSTALL = corpus('cue58/IoStore/Tagged/Uncompressed');
const DIR = 'CUE4ParseFixtures/Content/Fixtures';
const SW = `${DIR}/Audio/SW_Inline.uasset`;
const BP = `${DIR}/Blueprints/BP_Components.uasset`;
const SIZES = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }];

/** Header cells whose label is wider than the cell (clipped). */
const clippedHeaders = (page: Page, table: string) => page.getByTestId(table).locator('.th').evaluateAll((ths) =>
  ths.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent?.trim() ?? ''));

/** Cells whose text runs past the cell, or is cut without the whole text in the cell's title. */
const badCells = (page: Page, table: string) => page.getByTestId(table).locator('.row .td:not(.act)').evaluateAll((tds) => tds.flatMap((td) => {
  const txt = td.querySelector('.txt');
  if (!txt) return td.textContent?.trim() ? [`no text span: ${td.textContent.trim()}`] : [];
  const runs = txt.getBoundingClientRect().right > td.getBoundingClientRect().right + 1;
  const cut = txt.scrollWidth > txt.clientWidth + 1;
  if (runs) return [`runs over: ${txt.textContent}`];
  if (cut && td.getAttribute('title') !== txt.textContent) return [`cut without title: ${txt.textContent}`];
  return [];
}));

async function openPackage(page: Page, filter: string, path: string): Promise<void> {
  await page.getByTestId('filter').fill(filter);
  const row = page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
  await row.click();
  await page.keyboard.press('Enter');
  await page.getByTestId('package-tab-summary').click();
}

describe.skipIf(!haveChromium)('nothing cut, at 1280x800 and 1920x1080', () => {
  const web = useWebSession(INSTALL);

  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    const shot = (page: Page, view: string) => page.screenshot({ path: join(ARTIFACTS, `layout-${tag}-${view}.png`) });

    it(`shows every view whole at ${tag}`, async () => {
      const { page } = web;
      await page.setViewportSize(size);
      if (!page.url().startsWith(web.session.url.split('?')[0]!)) await page.goto(web.session.url);
      await page.getByTestId('tree').locator('.row').first().waitFor();
      while (await page.getByTestId('package-tab-close').count()) await page.getByTestId('package-tab-close').first().click();
      await openPackage(page, 'SW_Inline', SW);
      await shot(page, 'summary');

      // The summary's notes and names stay in their column; names wrap at "/".
      expect(await page.getByTestId('summary-name').innerHTML()).toContain('<wbr>');
      const overflowing = await page.locator('.summary dd, .summary li').evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > (e.closest('section')?.getBoundingClientRect().right ?? Infinity) + 1).map((e) => e.textContent));
      expect(overflowing).toEqual([]);

      // Every tab of the strip can be reached: past the edge, the arrows scroll to it.
      const ids = await page.getByTestId('package-tabs').locator('[role=tab]').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-testid')!));
      expect(ids.length).toBeGreaterThan(9);
      const strip = page.getByTestId('package-tabs');
      const last = page.getByTestId(ids.at(-1)!);
      const inView = async () => {
        const [s, t] = [await strip.boundingBox(), await last.boundingBox()];
        return !!s && !!t && t.x >= s.x - 1 && t.x + t.width <= s.x + s.width + 1;
      };
      if (!(await inView())) {
        for (let i = 0; i < 10 && !(await inView()); i++) await page.getByTestId('package-tabs-right').click();
      }
      expect(await inView()).toBe(true);
      await shot(page, 'tabs-scrolled');

      // Every table, headers whole and cells cut only with their text on hover.
      for (const id of ids) {
        await page.getByTestId(id).click();
        const name = id.replace(/^package-tab-/, '');
        const table = name === 'names' || name === 'imports' || name === 'exports' ? `${name}-table` : name.startsWith('table-') ? 'extra-table' : null;
        if (table) {
          await page.getByTestId(table).locator('.row, .empty').first().waitFor();
          expect(await clippedHeaders(page, table), `${name} headers`).toEqual([]);
          expect(await badCells(page, table), `${name} cells`).toEqual([]);
        } else if (name === 'graph') {
          await page.getByTestId('graph-node').first().waitFor();
        } else if (name === 'json' || name === 'properties') {
          await page.waitForTimeout(300);
        }
        await shot(page, name);
      }

      // A blueprint's imports: long object names next to their path.
      await openPackage(page, 'BP_Components', BP);
      await page.getByTestId('package-tab-imports').click();
      await page.getByTestId('imports-table').locator('.row').first().waitFor();
      expect(await badCells(page, 'imports-table')).toEqual([]);
      await shot(page, 'bp-imports');
      await page.getByTestId('package-tab-exports').click();
      await page.getByTestId('exports-table').locator('.row').first().waitFor();
      expect(await badCells(page, 'exports-table')).toEqual([]);
      expect(await clippedHeaders(page, 'exports-table')).toEqual([]);
      await shot(page, 'bp-exports');

      // The Export dialog's zip name field shows its placeholder whole.
      await page.keyboard.press('Escape');
      await page.getByTestId('export-open').click();
      await page.getByTestId('export-zip').check();
      const field = page.getByTestId('export-dialog').locator('input.zipname');
      const fits = await field.evaluate((input: HTMLInputElement) => {
        const cs = getComputedStyle(input);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return { text: ctx.measureText(input.placeholder).width, room };
      });
      expect(fits.text).toBeLessThanOrEqual(fits.room);
      await shot(page, 'export-zip');
      await page.keyboard.press('Escape');
      await poll(() => page.getByTestId('export-dialog').count()).toBe(0);
      expect(web.problems).toEqual([]);
    }, 120_000);
  }
});
