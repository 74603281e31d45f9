/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore folder (one container locked), then
 * select a folder and files in the tree (click, shift-click, ctrl-click), export them to a temp
 * folder and check the files on disk byte for byte and the summary; write the file list; then
 * enter a wrong and the right AES key in the Keys dialog and see the locked container open in
 * place. Screenshots go to test-artifacts/. Any console error fails the test.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll, startWebSession, type WebSession } from './web-session.js';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { listTree, sha256 } from '../export/helpers.js';

const TAGGED = corpus('cue58/IoStore/Tagged');
const ENCRYPTED = 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows';
const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';

describe.skipIf(skipBrowser)('Export and AES keys in Chromium (browser host)', () => {
  let session: WebSession;
  let page: Page;
  let problems: string[];
  let outParent: string;
  let install: Install;

  beforeAll(async () => {
    outParent = await mkdtemp(join(tmpdir(), 'pakscope-e2e-out-'));
    // The bytes the exported files must have, read in-process (the unlocked containers win nothing here).
    install = await openInstall([TAGGED]);
    session = await startWebSession(TAGGED);
    ({ page, problems } = session);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await install?.close();
    if (outParent) await rm(outParent, { recursive: true, force: true });
  });

  it('exports a selected folder and files, writes the file list, and unlocks a container with its key', async () => {
    await page.goto(session.url);
    const tree = page.getByTestId('tree');
    const row = (path: string) => tree.locator(`.row[data-path="${path}"]`);
    // Rows are recycled while the tree scrolls: bring the row into view first, then click it
    // where it stays (a click that scrolls could land on the row refilled in its place).
    const clickRow = async (path: string, modifiers?: ('Shift' | 'ControlOrMeta')[]) => {
      await row(path).scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await row(path).click(modifiers ? { modifiers } : {});
    };
    const containers = page.getByTestId('containers');
    await poll(() => containers.textContent()).toContain('no AES key given');
    await poll(() => page.getByTestId('keys-open').textContent()).toContain('(1 locked)');

    // Open the folders down to Fixtures/Maps and Fixtures/Animations.
    for (const p of ['CUE4ParseFixtures', 'CUE4ParseFixtures/Content', FIXTURES, `${FIXTURES}/Maps`, `${FIXTURES}/Animations`]) {
      await clickRow(p);
      await tree.locator(`.row[data-path^="${p}/"]`).first().waitFor();
    }
    // Click a map, shift-click three rows further, ctrl-click the Animations folder.
    await clickRow(`${FIXTURES}/Maps/Empty.umap`);
    await clickRow(`${FIXTURES}/Maps/Navigation.umap`, ['Shift']);
    await clickRow(`${FIXTURES}/Animations`, ['ControlOrMeta']);
    const maps = ['Empty.umap', 'Instancing.umap', 'Landscape.umap', 'Navigation.umap'].map((n) => `${FIXTURES}/Maps/${n}`);
    // Only rows near the view are in the page; the count and the export below check the rest.
    expect(await page.getByTestId('selection-count').textContent()).toBe('5 selected');
    expect(await row(`${FIXTURES}/Animations`).getAttribute('aria-selected')).toBe('true');
    expect(await row(`${FIXTURES}/Animations/AC_Fixture.uasset`).getAttribute('aria-selected')).toBe('false');

    // Export to a folder that does not exist yet.
    const out = join(outParent, 'export');
    await page.getByTestId('export-open').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('header').textContent()).toContain('1 folder and 4 files selected · 11 files');
    // A relative path is refused with the reason, in the dialog.
    await page.getByTestId('export-destination').fill('relative/out');
    await page.getByTestId('export-start').click();
    await poll(() => page.getByTestId('export-error').textContent()).toContain('must be an absolute path');
    await page.getByTestId('export-destination').fill(out);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-export-dialog.png') });
    await page.getByTestId('export-start').click();
    await poll(() => page.getByTestId('export-headline').textContent()).toMatch(/^\s*Exported 11 files \(/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-export-summary.png') });

    const animations = install.listDir(`${FIXTURES}/Animations`).map((e) => e.path);
    expect(animations).toHaveLength(7);
    expect(await listTree(out)).toEqual([...animations, ...maps].sort());
    for (const p of [...animations, ...maps]) {
      const f = install.file(p)!;
      const bytes = await f.providers[0]!.archive.read(f.providers[0]!.file.ref);
      expect(sha256(await readFile(join(out, p))), p).toBe(sha256(bytes));
    }

    // Again with "keep both": nothing is overwritten, numbered copies appear; then the file list.
    await page.getByRole('button', { name: 'Export again…' }).click();
    await page.getByTestId('export-keep-both').check();
    await page.getByTestId('export-list-csv').click();
    await poll(() => page.getByTestId('export-note').textContent()).toContain(`Wrote the list of 11 files to ${join(out, 'Tagged-files.csv')}`);
    const csv = (await readFile(join(out, 'Tagged-files.csv'), 'utf8')).trimEnd().split('\r\n');
    expect(csv).toHaveLength(12);
    expect(csv[1]).toMatch(new RegExp(`^${FIXTURES}/Animations/AC_Fixture\\.uasset,1721,`));
    await page.getByTestId('export-start').click();
    await poll(() => page.getByTestId('export-headline').textContent()).toMatch(/Exported 11 files/);
    expect(await listTree(out)).toContain(`${FIXTURES}/Maps/Empty (2).umap`);
    await page.getByTestId('export-close').click();
    expect(await page.getByTestId('export-dialog').count()).toBe(0);

    // Keys: the locked container is listed with its reason; a wrong key is refused, the right one opens it.
    const before = await row(`${FIXTURES}/Animations/AC_Fixture.uasset`).locator('.badge').textContent();
    expect(before).toBe('+3');
    await page.getByTestId('keys-open').click();
    const keys = page.getByTestId('keys-dialog');
    await poll(() => page.getByTestId('keys-locked').textContent()).toContain(ENCRYPTED);
    expect(await page.getByTestId('keys-locked').textContent()).toContain('no AES key given for it');
    await page.getByTestId('keys-input').fill(`0x${'11'.repeat(32)}`);
    await page.getByTestId('keys-add').click();
    await poll(() => page.getByTestId('keys-checks').textContent()).toContain(`wrong key: it opens none of the 1 locked container (${ENCRYPTED})`);
    await page.getByTestId('keys-input').fill(CUE58_AES_KEY);
    await page.getByTestId('keys-add').click();
    await poll(() => page.getByTestId('keys-checks').textContent()).toContain(`opens ${ENCRYPTED}`);
    await page.getByTestId('keys-none-locked').waitFor();
    await poll(() => page.getByTestId('keys-remembered').textContent()).toContain('0x4355…3839');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-keys.png') });
    await page.getByTestId('keys-close').click();
    expect(await keys.count()).toBe(0);

    // The tree and the container list changed in place: the folders stay open, one more override.
    await poll(() => row(`${FIXTURES}/Animations/AC_Fixture.uasset`).locator('.badge').textContent()).toBe('+4');
    expect(await containers.textContent()).not.toContain('no AES key given');
    expect(await page.getByTestId('keys-open').textContent()).not.toContain('locked');
    const keysFile = join(session.configDir, 'keys.json');
    if (process.platform !== 'win32') expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(keysFile, 'utf8'))).toEqual({ version: 1, installs: { [TAGGED]: [CUE58_AES_KEY] } });
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-unlocked.png') });

    expect(problems).toEqual([]);
  }, 30_000);
});
