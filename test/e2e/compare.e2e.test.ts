/**
 * End to end in Chromium: `npm run web` on the cue58 Patch/Pak folder (base + _P), compared with
 * the base .pak alone through "Compare with…". The comparison's tree marks the patched files and
 * counts them in every folder above, "changes only" hides the rest, and the patched package opens
 * side by side: Integer 100 -> 200 (CUE4Parse's FixturePatchPrecedenceTests), both JSON documents
 * in Monaco's diff editor. Screenshots in test-artifacts/e2e-compare*.png.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const PATCH_PAK = corpus('cue58/Patch/Pak');
const FOLDER = 'CUE4ParseFixtures/Content/PatchFixtures';

describe.skipIf(skipBrowser)('comparing two builds in Chromium (browser host)', () => {
  const web = useWebSession(PATCH_PAK);

  it('compares with the base build, marks the patched files, and opens the patched package side by side', async () => {
    const { page } = web;
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('tree').locator('.row').count()).toBeGreaterThan(0);

    await page.getByTestId('compare-open').click();
    // The shown install itself: refused with the reason, in the dialog.
    await page.getByTestId('compare-path').fill(PATCH_PAK);
    await page.getByTestId('compare-start').click();
    await poll(() => page.getByTestId('compare-error').textContent()).toContain('old and new are the same install');
    await page.getByTestId('compare-path').fill(`${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak`);
    await page.getByTestId('compare-start').click();
    await poll(() => page.getByTestId('compare-totals').textContent()).toContain('2 changed');
    expect(await page.getByTestId('compare-totals').textContent()).toMatch(/0 added\s*0 removed\s*0 moved\s*2 unchanged/);

    const tree = page.getByTestId('compare-pane').getByTestId('tree');
    const row = (path: string) => tree.locator(`.row[data-path="${path}"]`);
    await poll(() => row('CUE4ParseFixtures').getAttribute('data-change')).toBe('changed');
    expect((await row('CUE4ParseFixtures').locator('.changes').textContent())?.trim()).toBe('~2');
    await row('CUE4ParseFixtures').click();
    await row('CUE4ParseFixtures/Content').click();
    await row(FOLDER).click();
    // Changes only (on at first): the two patched files.
    await poll(() => tree.locator(`.row[data-path^="${FOLDER}/"]`).evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-path'), r.getAttribute('data-change')])))
      .toEqual([[`${FOLDER}/DA_PatchTarget.uasset`, 'changed'], [`${FOLDER}/DA_PatchTarget.uexp`, 'changed']]);
    await page.getByTestId('compare-changes-only').uncheck();
    await row('CUE4ParseFixtures').click(); // the tree is listed again: open the folders again
    await row('CUE4ParseFixtures/Content').click();
    await row(FOLDER).click();
    await poll(() => tree.locator(`.row[data-path^="${FOLDER}/"]`).count()).toBe(4);
    expect(await row(`${FOLDER}/DA_PatchReferencer.uasset`).getAttribute('data-change')).toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-compare-tree.png') });

    await row(`${FOLDER}/DA_PatchTarget.uasset`).dblclick();
    const changes = page.getByTestId('package-changes');
    await poll(() => changes.locator('tr').evaluateAll((rs) => rs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))))
      .toContainEqual(['DA_PatchTarget.Integer', '100', '200']);
    expect(await changes.textContent()).toContain('"Patch version"');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-compare-package.png') });
    await page.getByRole('tab', { name: /^Tables/ }).click();
    await poll(() => page.getByTestId('package-diff').locator('.old .mark').allTextContents()).toContain('Base_Target');
    expect(await page.getByTestId('package-diff').locator('.new .mark').allTextContents()).toContain('Patch_Target');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-compare-tables.png') });
    await page.getByRole('tab', { name: /^Properties/ }).click();
    await poll(() => page.getByTestId('properties-old').locator('.prop.mark').allTextContents()).toContain('Integer = 100');
    expect(await page.getByTestId('properties-new').locator('.prop.mark').allTextContents()).toContain('Integer = 200');
    expect(await page.getByTestId('properties-new').locator('.prop:not(.mark)').count()).toBe(0);

    await page.getByTestId('package-diff-json').click();
    await poll(() => page.getByTestId('json-diff').getAttribute('data-ready')).toBe('true');
    // Monaco's diff editor side by side: two editors, the changed lines marked on both sides.
    await poll(() => page.locator('.monaco-diff-editor.side-by-side .editor.original, .monaco-diff-editor.side-by-side .editor.modified').count()).toBe(2);
    await poll(() => page.locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-compare-json.png') });

    // The change list as CSV (a download in a browser), one row per patched file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-save-csv').click()]);
    expect(download.suggestedFilename()).toBe('changes.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\r\n').slice(0, 3)).toEqual([
      'change,path,oldPath,oldSize,newSize',
      `changed,${FOLDER}/DA_PatchTarget.uasset,${FOLDER}/DA_PatchTarget.uasset,936,937`,
      `changed,${FOLDER}/DA_PatchTarget.uexp,${FOLDER}/DA_PatchTarget.uexp,192,194`,
    ]);

    // Export… of the added and changed files only: the two patched files, as the new build has them.
    const out = await mkdtemp(join(tmpdir(), 'pakscope-compare-export-'));
    try {
      await page.getByTestId('compare-export').click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.waitFor();
      expect(await dialog.locator('header').textContent()).toContain('2 files');
      await page.getByTestId('export-destination').fill(out);
      await page.getByTestId('export-start').click();
      await poll(() => page.getByTestId('export-headline').textContent()).toMatch(/^\s*Exported 2 files \(/);
      expect(await readdir(join(out, FOLDER))).toEqual(['DA_PatchTarget.uasset', 'DA_PatchTarget.uexp']);
      await page.getByTestId('export-close').click();
    } finally {
      await rm(out, { recursive: true, force: true });
    }

    await page.getByTestId('compare-stop').click();
    await poll(() => page.getByTestId('compare-pane').count()).toBe(0);
    expect(web.problems).toEqual([]);
  }, 120_000);
});
