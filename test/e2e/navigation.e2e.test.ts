/**
 * End to end, moving around (issue 24, points 5 and 7): package tabs (middle-click opens one,
 * Ctrl+Tab switches, Ctrl+W closes), back and forward across packages and files (Alt+Left/Right
 * and the mouse's back and forward buttons), the right pane showing what is selected (a .ubulk
 * selected while its package shows), and "Open" on the same path starting afresh.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll, useWebSession } from './web-session.js';

const INSTALL = corpus('cue58/IoStore/Tagged/Uncompressed');
const DIR = 'CUE4ParseFixtures/Content/Fixtures';
const AC = `${DIR}/Animations/AC_Fixture.uasset`;
const AS = `${DIR}/Animations/AS_Fixture.uasset`;
const SW = `${DIR}/Audio/SW_Inline.uasset`;
const SW_BULK = `${DIR}/Audio/SW_Inline.ubulk`;

const row = (page: Page, path: string) => page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
const packageName = async (page: Page) => ((await page.getByTestId('package-view').count()) ? await page.getByTestId('package-name').textContent() : null);
const tabNames = async (page: Page) => (await page.getByTestId('package-tab').allTextContents()).map((t) => t.trim());
const detailsName = (page: Page) => page.getByTestId('details').locator('.name').textContent();
/** The mouse's back (3) and forward (4) buttons: Playwright's mouse has only left, middle and right. */
const mouseButton = (page: Page, button: 3 | 4) => page.evaluate((b) => {
  document.body.dispatchEvent(new MouseEvent('mousedown', { button: b, bubbles: true, cancelable: true }));
  document.body.dispatchEvent(new MouseEvent('mouseup', { button: b, bubbles: true, cancelable: true }));
}, button);

async function filterTo(page: Page, text: string, path: string): Promise<void> {
  await page.getByTestId('filter').fill(text);
  await row(page, path).waitFor();
}

describe.skipIf(skipBrowser)('moving around in Chromium: tabs, history, what the right pane shows', () => {
  const web = useWebSession(INSTALL);

  it('opens packages in tabs, switches and closes them with the keyboard', async () => {
    const { page } = web;
    await page.goto(web.session.url);
    await row(page, 'CUE4ParseFixtures').waitFor();

    await filterTo(page, 'AC_Fixture', AC);
    await row(page, AC).click();
    await page.keyboard.press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');
    expect(await tabNames(page)).toEqual(['AC_Fixture.uasset']);

    // Middle-click: a second tab, shown; the first stays.
    await filterTo(page, 'AS_Fixture', AS);
    await row(page, AS).click({ button: 'middle' });
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AS_Fixture');
    expect(await tabNames(page)).toEqual(['AC_Fixture.uasset', 'AS_Fixture.uasset']);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-tabs.png') });

    // Ctrl+Tab: after the last tab comes the file view, then the first tab.
    await page.keyboard.press('Control+Tab');
    await poll(() => packageName(page)).toBeNull();
    await poll(() => page.getByTestId('tab-files').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Control+Tab');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');
    await page.keyboard.press('Control+Shift+Tab');
    await poll(() => packageName(page)).toBeNull();
    await page.keyboard.press('Control+Shift+Tab');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AS_Fixture');

    // Ctrl+W closes the tab shown; the one before it shows.
    await page.keyboard.press('Control+w');
    await poll(() => tabNames(page)).toEqual(['AC_Fixture.uasset']);
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');
    // Middle-click on a tab closes it too.
    await page.getByTestId('package-tab').first().click({ button: 'middle' });
    await poll(() => tabNames(page)).toEqual([]);
    expect(await packageName(page)).toBeNull();
    expect(web.problems).toEqual([]);
  });

  it('shows what is selected, and goes back and forward across files and packages', async () => {
    const { page } = web;
    await filterTo(page, 'SW_Inline', SW);
    await row(page, SW).click();
    await page.keyboard.press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Inline');

    // The package's .ubulk selected: the file view shows it, not the package.
    await row(page, SW_BULK).click();
    await poll(() => packageName(page)).toBeNull();
    await poll(() => detailsName(page)).toBe('SW_Inline.ubulk');
    await poll(() => page.getByTestId('detail-size').textContent()).toContain('(44,100 bytes)');

    // Back: the package; back again: the .uasset as a file; forward twice: the .ubulk again.
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Inline');
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => packageName(page)).toBeNull();
    await poll(() => detailsName(page)).toBe('SW_Inline.uasset');
    await page.keyboard.press('Alt+ArrowRight');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Inline');
    await page.keyboard.press('Alt+ArrowRight');
    await poll(() => packageName(page)).toBeNull();
    await poll(() => detailsName(page)).toBe('SW_Inline.ubulk');
    expect(await page.getByTestId('nav-forward').isDisabled()).toBe(true);

    // The mouse's buttons do the same, and the page stays (no browser navigation).
    const url = page.url();
    await mouseButton(page, 3);
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Inline');
    await mouseButton(page, 4);
    await poll(() => detailsName(page)).toBe('SW_Inline.ubulk');
    await poll(() => packageName(page)).toBeNull();
    expect(page.url()).toBe(url);
    expect(web.problems).toEqual([]);
  });

  it('Enter in the filter box opens the first match; a click in the graph keeps the filter', async () => {
    const { page } = web;
    while (await page.getByTestId('package-tab-close').count()) await page.getByTestId('package-tab-close').first().click();
    // Several matches: the first file in the tree's order (SW_Format_ADPCM.uasset before its .ubulk).
    await page.getByTestId('filter').fill('SW_Format');
    await page.getByTestId('filter').press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Format_ADPCM');
    await poll(() => page.getByTestId('tree').locator('.row.selected').getAttribute('data-path')).toBe(`${DIR}/Audio/SW_Format_ADPCM.uasset`);
    // The only match, Enter pressed before the filter had time to apply.
    await page.getByTestId('filter').fill('AC_Fixture');
    await page.getByTestId('filter').press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');

    await page.getByTestId('package-tab-graph').click();
    await page.getByTestId('graph-depth').locator('xpath=following-sibling::button').click();
    const as = page.locator('[data-testid=graph-node][data-name="/Game/Fixtures/Animations/AS_Fixture"]');
    await as.click();
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AS_Fixture');
    expect(await page.getByTestId('filter').inputValue()).toBe('AC_Fixture');
    await poll(() => page.getByTestId('match-count').textContent()).toMatch(/^\s*1 match\s*$/);
    expect(await row(page, AC).count()).toBe(1);
    // Back to AC_Fixture; a Ctrl+click on the node opens AS_Fixture in a new tab.
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AC_Fixture');
    expect(await tabNames(page)).toEqual(['AC_Fixture.uasset']);
    await page.getByTestId('package-tab-graph').click();
    await page.getByTestId('graph-depth').locator('xpath=following-sibling::button').click();
    await as.click({ modifiers: ['Control'] });
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Animations/AS_Fixture');
    expect(await tabNames(page)).toEqual(['AC_Fixture.uasset', 'AS_Fixture.uasset']);
    expect(web.problems).toEqual([]);
  });

  it('"Open" on the open install starts afresh: the tree collapsed, no package, no tabs, no history', async () => {
    const { page } = web;
    await filterTo(page, 'SW_Inline', SW);
    await row(page, SW).click();
    await page.keyboard.press('Enter');
    await poll(() => packageName(page)).toBe('/Game/Fixtures/Audio/SW_Inline');
    await page.getByTestId('path-input').fill(INSTALL);
    await page.getByTestId('path-input').press('Enter');
    await poll(async () => (await page.getByTestId('tree').locator('.row').allTextContents()).length).toBe(1);
    await poll(() => packageName(page)).toBeNull();
    expect(await tabNames(page)).toEqual([]);
    expect(await page.getByTestId('nav-back').isDisabled()).toBe(true);
    expect(await page.getByTestId('filter').inputValue()).toBe('');
    expect(web.problems).toEqual([]);
  });
});
