/**
 * End to end: `npm run web` on a real install, driven in headless Chromium. Opens the install from
 * the command line, expands the tree, filters, selects a file, checks the details pane, verifies
 * the hash, looks at the hex view, then opens a second install by typing its path and reads a text
 * file in Monaco. Screenshots go to test-artifacts/. Any console error (a CSP violation included)
 * fails the test.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';
import { checkPackageViews } from './package-views.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const PAKS = corpus('pak');

describe.skipIf(skipBrowser)('PakScope in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);

  it('browses, filters, shows details, verifies and views files', async () => {
    expect(web.session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    await web.page.goto(web.session.url);

    // The install given on the command line is open: its top level shows.
    const tree = web.page.getByTestId('tree');
    const rowTexts = async () => (await tree.locator('.row').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    await poll(rowTexts).toEqual(['CUE4ParseFixtures 111 2.35 MiB']);
    await poll(() => web.page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    // The token left the address bar.
    expect(web.page.url()).not.toContain('token=');

    // Expand with the mouse, then with the keyboard.
    await tree.locator('.row[data-path="CUE4ParseFixtures"]').click();
    await tree.locator('.row[data-path="CUE4ParseFixtures/Content"]').waitFor();
    await web.page.keyboard.press('ArrowDown');
    await web.page.keyboard.press('ArrowRight');
    await tree.locator('.row[data-path="CUE4ParseFixtures/Content/Fixtures"]').waitFor();
    expect(await tree.locator('.row[aria-expanded="true"]').count()).toBe(2);

    // Filter: the matches show, with their count.
    await web.page.getByTestId('filter').fill('AC_Fixture');
    await poll(() => web.page.getByTestId('match-count').textContent()).toMatch(/^\s*1 match\s*$/);
    const file = tree.locator('.row[data-path="CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset"]');
    await file.click();

    // Details: container, chunk id, chunk type, size.
    await poll(() => web.page.getByTestId('detail-container').textContent()).toBe('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    expect(await web.page.getByTestId('detail-chunk-id').textContent()).toBe('e8620d51d9463ec000000001');
    expect(await web.page.getByTestId('detail-chunk-type').textContent()).toBe('ExportBundleData');
    expect(await web.page.getByTestId('detail-size').textContent()).toBe('1.68 KiB (1,721 bytes)');

    // Verify the stored hash in the UI.
    await web.page.getByTestId('verify').click();
    await poll(() => web.page.getByTestId('verify-result').textContent()).toContain('BLAKE3 matches');

    // The hex view shows the file's first bytes.
    const hex = web.page.getByTestId('hex-view');
    await hex.locator('.line').first().waitFor();
    expect(await hex.locator('.line').count()).toBeLessThan(120); // virtualized: 1,721 bytes would be 108 rows
    expect(await hex.locator('.line').first().textContent()).toMatch(/^00000000\s*[0-9A-F]{2}( [0-9A-F]{2}){7}  [0-9A-F]{2}( [0-9A-F]{2}){7}/);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-iostore.png') });

    // Open a second install by typing its path; read a text file in Monaco.
    await web.page.getByTestId('path-input').fill(PAKS);
    await web.page.getByTestId('path-input').press('Enter');
    await poll(() => web.page.getByTestId('containers').textContent()).toContain('repak_pack_v11_compress_encrypt_encryptindex');
    await poll(() => web.page.getByTestId('containers').textContent()).toContain('no AES key given');
    await web.page.getByTestId('filter').fill('root/test.txt');
    const txt = tree.locator('.row[data-path="mount/point/root/test.txt"]');
    await txt.click();
    await poll(() => web.page.getByTestId('detail-container').textContent()).toBe('repak_pack_v9_compress');
    const text = web.page.getByTestId('text-view');
    // Monaco draws spaces as no-break spaces.
    await poll(async () => (await text.locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ')).toContain('Lorem ipsum dolor sit amet');
    await web.page.getByTestId('verify').click();
    await poll(() => web.page.getByTestId('verify-result').textContent()).toContain('SHA1 matches');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-pak-text.png') });

    // A path that does not exist: a dismissible banner, and the app keeps going.
    await web.page.getByTestId('path-input').fill('/no/such/folder');
    await web.page.getByTestId('path-input').press('Enter');
    await poll(() => web.page.getByTestId('banner').textContent()).toContain('cannot open /no/such/folder');
    await web.page.getByTestId('banner').getByTitle('Dismiss').click();
    expect(await web.page.getByTestId('banner').count()).toBe(0);
    expect(await web.page.getByTestId('detail-container').textContent()).toBe('repak_pack_v9_compress');

    expect(web.problems).toEqual([]);
  }, 30_000);

  // Same host and browser: one build of the renderer for both (package-views.ts has the steps).
  it('opens packages of every format, their tabs and the dependency graph', async () => {
    await checkPackageViews(web.page, ARTIFACTS);
    expect(web.problems).toEqual([]);
  }, 30_000);
});
