/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. The search panel
 * (Ctrl+Shift+F) finds "Frankfurt" in ST_Fixed (the string table's source string, cue58's README
 * and CUE4Parse's fixture tests) and a click opens the package; a hit on an import, an export or
 * a name opens the package at that row of its table; the index is kept in the host's config folder. The size map shows the install, drills down to the Textures folder, hovers a
 * file (path and sizes) and a click reveals it in the tree; a kind picked in its legend dims the others. Screenshots in test-artifacts/.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 30_000);
const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';

describe.skipIf(skipBrowser)('search and size map in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Uncompressed'));

  it('searches the install and opens a hit', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('tree').locator('.row').count()).toBeGreaterThan(0);
    await page.keyboard.press('Control+Shift+F');
    await poll(() => page.getByTestId('search-panel').isVisible()).toBe(true);
    await page.getByTestId('search-input').fill('Frankfurt');
    await page.getByTestId('search-input').press('Enter');
    await poll(() => page.getByTestId('search-status').textContent()).toMatch(/\d+ hits? in \d+ files?/);
    const hits = page.getByTestId('search-hit');
    const texts = await hits.allTextContents();
    expect(texts.some((t) => t.includes('ST_Fixed') && t.includes('Hello from Frankfurt'))).toBe(true);
    expect(await page.getByTestId('search-results').textContent()).toContain('ST_Fixed.uasset');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-search.png') });
    // Kept beside the settings: the next opening of this install reads it from there.
    expect((await readdir(join(web.session.configDir, 'search'))).some((n) => n.startsWith('search-index-'))).toBe(true);

    // Regex and case toggles: "^t_bc7$" matches T_BC7's names only without "match case".
    await page.getByTestId('search-input').fill('^t_bc7$');
    await page.getByTestId('search-regex').click();
    await page.getByTestId('search-kind-strings').uncheck();
    await page.getByTestId('search-run').click();
    await poll(() => page.getByTestId('search-results').textContent()).toContain('T_BC7.uasset');
    await page.getByTestId('search-case').click();
    await page.getByTestId('search-run').click();
    await poll(() => page.getByTestId('search-status').textContent()).toMatch(/^0 hits/);

    await page.getByTestId('search-input').fill('Hello from Frankfurt');
    await page.getByTestId('search-regex').click();
    await page.getByTestId('search-case').click();
    await page.getByTestId('search-kind-strings').check();
    await page.getByTestId('search-run').click();
    await poll(() => hits.count()).toBeGreaterThan(0);
    await hits.first().click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/StringTables/ST_Fixed');
    await poll(() => page.getByTestId('search-panel').isVisible()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-search-opened.png') });
    // Back: the hits are still there.
    await page.keyboard.press('Control+Shift+F');
    await poll(() => page.getByTestId('search-panel').isVisible()).toBe(true);
    expect(await hits.count()).toBeGreaterThan(0);
    await page.getByTestId('search-panel').getByLabel('Close the search').click();
    expect(web.problems).toEqual([]);
  });

  it('opens a hit on an import, an export or a name at its row', async () => {
    const { page } = web;
    const hits = page.getByTestId('search-hit');
    await page.keyboard.press('Control+Shift+F');
    await poll(() => page.getByTestId('search-panel').isVisible()).toBe(true);
    await page.getByTestId('search-input').fill('T_BC7');
    await page.getByTestId('search-run').click();
    await poll(() => page.getByTestId('search-status').textContent()).toMatch(/\d+ hits? in \d+ files?/);
    /** Clicks the hit at `where` in `file` (the panel is brought back first when hidden). */
    const openHit = async (file: string, where: string) => {
      if (!(await page.getByTestId('search-panel').isVisible())) await page.keyboard.press('Control+Shift+F');
      await poll(() => page.getByTestId('search-panel').isVisible()).toBe(true);
      const group = page.locator('.search-panel .group').filter({ has: page.locator('.file .name', { hasText: new RegExp(`^${file}$`) }) });
      await group.getByTestId('search-hit').filter({ has: page.locator('.where', { hasText: new RegExp(`^${where.replace(/[[\]]/g, '\\$&')}$`) }) }).click();
      await poll(() => page.getByTestId('search-panel').isVisible()).toBe(false);
    };
    expect(await hits.count()).toBeGreaterThan(0);

    // DA_AllProperties imports T_BC7 (its import 14, /Game/Fixtures/Textures/T_BC7.T_BC7): the Imports tab, that row selected.
    await openHit('DA_AllProperties.uasset', 'imports[14]');
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    const imported = page.getByTestId('imports-table').locator('.row.focused');
    await poll(() => imported.getAttribute('data-ref')).toBe('import:14');
    expect(await imported.textContent()).toContain('/Game/Fixtures/Textures/T_BC7.T_BC7');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-search-import-row.png') });

    // T_BC7's own export 0 and its name 16 ("/Game/Fixtures/Textures/T_BC7"): the Exports and Names rows.
    await openHit('T_BC7.uasset', 'exports[0]');
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Textures/T_BC7');
    const exported = page.getByTestId('exports-table').locator('.row.focused');
    await poll(() => exported.getAttribute('data-ref')).toBe('export:0');
    expect(await exported.textContent()).toContain('T_BC7');
    await openHit('T_BC7.uasset', 'names[16]');
    const name = page.getByTestId('names-table').locator('.row.focused');
    await poll(() => name.getAttribute('data-ref')).toBe('name:16');
    expect(await name.textContent()).toContain('/Game/Fixtures/Textures/T_BC7');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-search-name-row.png') });
    expect(web.problems).toEqual([]);
  });

  it('shows the size map, drills down, hovers and reveals a file', async () => {
    const { page } = web;
    await page.getByTestId('sizemap-open').click();
    await poll(() => page.getByTestId('sizemap-summary').textContent()).toMatch(/uncompressed in the install/);
    const canvas = page.getByTestId('sizemap-canvas');
    const box = (await canvas.boundingBox())!;
    // The top level is one folder (CUE4ParseFixtures): clicking it drills into it, again and again.
    const shown = (folder: string) => poll(() => page.getByTestId('sizemap-summary').textContent()).toContain(` in ${folder}`);
    /** Clicks the label strip at the map's top, once hovering shows it is `folder`'s. */
    const drill = async (folder: string) => {
      await poll(async () => {
        await page.mouse.move(box.x + box.width / 2 + Math.random(), box.y + 8);
        return page.getByTestId('sizemap-tip').textContent({ timeout: 500 }).catch(() => '');
      }).toMatch(new RegExp(`^${folder}/\\s*\\d`));
      await page.mouse.click(box.x + box.width / 2, box.y + 8);
      await shown(folder);
    };
    for (const folder of ['CUE4ParseFixtures', 'CUE4ParseFixtures/Content', FIXTURES]) await drill(folder);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sizemap.png') });
    // Back up by the path above the map, and down again.
    await page.getByTestId('sizemap').locator('.crumb', { hasText: /^Content$/ }).click();
    await shown('CUE4ParseFixtures/Content');
    await drill(FIXTURES);
    // Into Textures by the map's own rectangle for it (found by hovering over the map).
    let found = false;
    const seen: string[] = [];
    // Folders' label strips (where a folder itself is under the pointer) down the map's left side.
    for (let y = box.y + 4; y < box.y + box.height && !found; y += 4) {
      await page.mouse.move(box.x + 12, y);
      const tip = await page.getByTestId('sizemap-tip').textContent({ timeout: 500 }).catch(() => '');
      seen.push(tip ?? '');
      if (new RegExp(`^${FIXTURES}/Textures/\\s*\\d`).test(tip ?? '')) {
        await page.mouse.click(box.x + 12, y);
        found = true;
      }
    }
    expect(found, seen.join('\n')).toBe(true);
    await shown(`${FIXTURES}/Textures`);
    // Hover the biggest file (placed first, at the top left) and click it: it is selected in the tree.
    // Hover again until the tip is the new level's (as drill does): the map may lay the folder out
    // a frame after its summary changes, and a pointer that does not move asks only once.
    await poll(async () => {
      await page.mouse.move(box.x + 30 + Math.random(), box.y + 30);
      return page.getByTestId('sizemap-tip').textContent({ timeout: 500 }).catch(() => '');
    }).toMatch(new RegExp(`^\\s*${FIXTURES}/Textures/\\S+\\.\\w+.*stored`));
    const tip = (await page.getByTestId('sizemap-tip').textContent())!;
    const path = /^(\S+?\.(?:uasset|ubulk|uexp|uptnl))/.exec(tip.trim())![1]!;
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sizemap-textures.png') });
    await page.mouse.click(box.x + 30, box.y + 30);
    await poll(() => page.getByTestId('tree').locator(`.row[data-path="${path}"]`).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('sizemap-stored').click();
    await poll(() => page.getByTestId('sizemap-summary').textContent()).toMatch(/stored in CUE4ParseFixtures\/Content\/Fixtures\/Textures/);

    // A kind picked in the legend dims the files of the others; picked again, every kind shows.
    const dimmed = async () => Number(await canvas.getAttribute('data-dimmed'));
    expect(await dimmed()).toBe(0);
    await page.getByTestId('sizemap-kind-media').click(); // no media here: every file dimmed
    await poll(dimmed).toBeGreaterThan(0);
    const files = await dimmed();
    expect(await page.getByTestId('sizemap-kind-media').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('sizemap-kind-package').click(); // the .uasset files light up, the .ubulk stay dim
    await poll(dimmed).toBeLessThan(files);
    expect(await page.getByTestId('sizemap-kind-media').getAttribute('aria-pressed')).toBe('false');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sizemap-kind.png') });
    await page.getByTestId('sizemap-kind-package').click();
    await poll(dimmed).toBe(0);
    expect(web.problems).toEqual([]);
  });
});
