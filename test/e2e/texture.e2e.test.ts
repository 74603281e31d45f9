/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens T_BC7 on its
 * Texture tab, zooms with the wheel to the pixel grid, reads the pixel under the cursor, turns
 * alpha off, saves a PNG (checked with Pillow against the source art, within BC7's tolerance),
 * picks a mip of T_Mips, a face and layer of T_CubeArray, T_FloatRGBA's floats with exposure,
 * copies an image, opens the Textures folder as a gallery and a texture from it, then a
 * loose folder with a texture whose .ubulk is missing and one cut short: each says why, and the
 * app goes on working; and scrolls a gallery of 5,000 textures to its end. Screenshots
 * (1280x800) go to test-artifacts/. Any console error fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall } from '../../src/core/install/install.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, selectInTree, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const LEGACY_PAK = corpus('cue58/LegacyPak/Tagged/Uncompressed');
const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

/** Pixels of PNG files as Pillow reads them (an independent decoder), RGBA. */
function pngPixels(file: string, points: readonly (readonly [number, number])[]): { size: [number, number]; pixels: number[][] } {
  const script = 'import json,sys\nfrom PIL import Image\nim=Image.open(sys.argv[1]).convert("RGBA")\npts=json.loads(sys.argv[2])\nprint(json.dumps({"size":im.size,"pixels":[list(im.getpixel((x,y))) for x,y in pts]}))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file, JSON.stringify(points)], { encoding: 'utf8' })) as { size: [number, number]; pixels: number[][] };
}

describe.skipIf(skipBrowser)('textures in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);
  let tmp: string;
  let loose: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pakscope-texture-e2e-'));
    // A loose copy of the legacy pak's T_Streaming without its .ubulk, and one cut short.
    loose = join(tmp, 'loose');
    const dir = join(loose, TEXTURES);
    await mkdir(dir, { recursive: true });
    const pak = await openInstall([LEGACY_PAK]);
    try {
      const read = (path: string) => { const f = pak.file(path)!.providers[0]!; return f.archive.read(f.file.ref); };
      const uasset = await read(`${TEXTURES}/T_Streaming.uasset`), uexp = await read(`${TEXTURES}/T_Streaming.uexp`);
      await writeFile(join(dir, 'T_Streaming.uasset'), uasset);
      await writeFile(join(dir, 'T_Streaming.uexp'), uexp);
      await writeFile(join(dir, 'T_Short.uasset'), uasset);
      await writeFile(join(dir, 'T_Short.uexp'), uexp.subarray(0, 600));
      // T_Odd: a pixel format name PakScope does not know (same length, in both files).
      const rename = (b: Uint8Array) => { const c = Buffer.from(b); c.write('PF_QQQ1', c.toString('latin1').indexOf('PF_DXT1'), 'latin1'); return c; };
      await writeFile(join(dir, 'T_Odd.uasset'), rename(uasset));
      await writeFile(join(dir, 'T_Odd.uexp'), rename(uexp));
    } finally {
      await pak.close();
    }
  });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('shows T_BC7: zoom, the pixel under the cursor, alpha off, save as PNG', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'T_BC7', `${TEXTURES}/T_BC7.uasset`);
    await page.getByTestId('open-package').click();

    // The Texture tab comes first and is open; the facts are beside the image.
    await poll(() => page.getByTestId('package-tab-view-texture').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('package-view').locator('[role="tab"]').first().textContent()).toContain('Texture');
    await poll(() => page.getByTestId('texture-format').textContent()).toBe('PF_BC7');
    expect(await page.getByTestId('texture-size').textContent()).toBe('64 × 64');
    expect(await page.getByTestId('texture-mips').textContent()).toBe('1');
    await poll(() => page.getByTestId('texture-shown').getAttribute('data-mip')).toBe('0');
    const canvas = page.getByTestId('texture-canvas');
    expect(await canvas.getAttribute('data-fit')).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture.png') });

    // The wheel zooms around the cursor, up to the pixel grid; the pixel under it is named.
    const box = (await canvas.boundingBox())!;
    const fitZoom = Number(await canvas.getAttribute('data-zoom'));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
    await poll(async () => Number(await canvas.getAttribute('data-zoom'))).toBeGreaterThan(fitZoom * 2);
    expect(await canvas.getAttribute('data-grid')).toBe('true');
    await page.mouse.move(box.x + box.width / 2 + 3, box.y + box.height / 2 + 3);
    await poll(() => page.getByTestId('texture-pixel').textContent()).toMatch(/^(31|32), (31|32): R \d+ G \d+ B \d+ A \d+$/);

    // Alpha off: the channel button says so.
    await page.getByTestId('texture-channel-a').click();
    expect(await page.getByTestId('texture-channel-a').getAttribute('aria-pressed')).toBe('false');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture-zoomed.png') });
    // Keys, once the view has the focus: A the alpha channel, F fit.
    await canvas.click();
    await page.keyboard.press('a');
    expect(await page.getByTestId('texture-channel-a').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('f');
    await poll(() => canvas.getAttribute('data-fit')).toBe('true');

    // Save as PNG (browser mode: the path is typed).
    const file = join(tmp, 'T_BC7.png');
    await page.getByTestId('texture-save-png').click();
    await page.getByTestId('texture-save-path').fill(file);
    await page.getByTestId('texture-save-confirm').click();
    await poll(() => page.getByTestId('texture-note').textContent()).toMatch(/^Saved .*T_BC7\.png/);
    const points = [[0, 0], [17, 5], [40, 33], [63, 63]] as const;
    const saved = pngPixels(file, points);
    const source = pngPixels(corpus('cue58/SourceTextures/rgba.png'), points);
    expect(saved.size).toEqual([64, 64]);
    saved.pixels.forEach((p, i) => p.forEach((v, c) => expect(Math.abs(v - source.pixels[i]![c]!), `${points[i]} channel ${c}`).toBeLessThanOrEqual(20)));
    expect(web.problems).toEqual([]);
  });

  it('picks a mip of T_Mips', async () => {
    const { page } = web;
    await selectInTree(page, 'T_Mips', `${TEXTURES}/T_Mips.uasset`);
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Textures/T_Mips');
    await poll(() => page.getByTestId('texture-mips').textContent()).toBe('7');
    await page.getByTestId('texture-mip').selectOption('3');
    await poll(() => page.getByTestId('texture-shown').getAttribute('data-mip')).toBe('3');
    expect(await page.getByTestId('texture-shown').textContent()).toContain('mip 3 · 8×8');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture-mip.png') });
    expect(web.problems).toEqual([]);
  });

  it('picks a face and a layer of a cube array; shows HDR floats with exposure; copies the image', async () => {
    const { page } = web;
    await selectInTree(page, 'T_CubeArray', `${TEXTURES}/T_CubeArray.uasset`);
    await poll(() => page.getByTestId('texture-format').textContent()).toBe('PF_B8G8R8A8');
    await page.getByTestId('texture-face').selectOption('3'); // −Y
    await page.getByTestId('texture-layer').selectOption('1');
    await poll(() => page.getByTestId('texture-shown').getAttribute('data-slice')).toBe('9');
    expect(await page.getByTestId('texture-shown').textContent()).toContain('slice 9');

    await selectInTree(page, 'T_FloatRGBA', `${TEXTURES}/T_FloatRGBA.uasset`);
    await poll(() => page.getByTestId('texture-exposure').count()).toBe(1);
    await page.getByTestId('texture-exposure').fill('-2');
    const box = (await page.getByTestId('texture-canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await poll(() => page.getByTestId('texture-pixel').textContent()).toMatch(/: R -?\d+\.\d{4} G -?\d+\.\d{4} B -?\d+\.\d{4} A -?\d+\.\d{4}$/);
    expect(await page.getByTestId('texture-save-hdr').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture-hdr.png') });

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('texture-copy').click();
    await poll(() => page.getByTestId('texture-note').textContent()).toMatch(/^Copied the image/);
    expect(await page.evaluate(async () => (await navigator.clipboard.read())[0]?.types ?? [])).toContain('image/png');
    expect(web.problems).toEqual([]);
  });

  it('opens the Textures folder as a gallery, and a texture from it', async () => {
    const { page } = web;
    await page.getByTestId('package-close').click();
    await page.getByTestId('filter').fill('');
    await selectInTree(page, 'Textures', TEXTURES);
    await page.getByTestId('gallery-open').click();
    const cells = page.getByTestId('gallery-cell');
    await poll(() => cells.count()).toBe(21); // the .uasset files of the folder (few: every row is drawn)
    const state = (name: string) => page.locator(`[data-testid="gallery-cell"][data-path="${TEXTURES}/${name}.uasset"]`).getAttribute('data-state');
    await poll(() => state('T_BC7')).toBe('image');
    await poll(() => state('T_Cube')).toBe('image');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-gallery.png') });
    // Thumbnails load for the cells in view only: the last row's once scrolled to.
    await page.getByTestId('gallery-viewport').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await poll(async () => (await cells.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).filter((s) => s !== 'image')).toEqual([]);

    await page.locator(`[data-testid="gallery-cell"][data-path="${TEXTURES}/T_BC1.uasset"]`).click();
    await poll(() => page.getByTestId('texture-format').textContent()).toBe('PF_DXT1');
    await page.getByTestId('package-close').click();
    await poll(() => page.getByTestId('gallery').count()).toBe(1); // back to the gallery
    expect(web.problems).toEqual([]);
  });

  it('says why a texture cannot be shown, and goes on working', async () => {
    const { page } = web;
    await page.getByTestId('path-input').fill(loose);
    await page.getByTestId('path-input').press('Enter');
    await poll(() => page.getByTestId('containers').textContent()).toContain('loose');
    await selectInTree(page, 'T_Streaming', `${TEXTURES}/T_Streaming.uasset`);
    await page.getByTestId('open-package').click();
    // The missing .ubulk: the first mips are marked, the first one there is shows.
    await poll(() => page.getByTestId('texture-notes').textContent()).toMatch(/\.ubulk/);
    await poll(() => page.getByTestId('texture-shown').getAttribute('data-mip')).toBe('3');
    expect(await page.getByTestId('texture-mip').locator('option[value="0"]').isDisabled()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture-missing-ubulk.png') });

    // Cut short: a message naming the file, in the view.
    await selectInTree(page, 'T_Short', `${TEXTURES}/T_Short.uasset`);
    const message = page.locator('[data-testid="texture-error"], [data-testid="package-error"]');
    await poll(() => message.count()).toBeGreaterThan(0);
    expect(await message.first().textContent()).toMatch(/T_Short/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-texture-error.png') });

    // An unknown pixel format: named, and nothing to save it as.
    await selectInTree(page, 'T_Odd', `${TEXTURES}/T_Odd.uasset`);
    await poll(() => page.getByTestId('texture-error').textContent()).toContain('PF_QQQ1');
    expect(await page.locator('[data-testid^="texture-save-"]').count()).toBe(0);

    // The rest of the app still works: back to a good texture.
    await selectInTree(page, 'T_Streaming', `${TEXTURES}/T_Streaming.uasset`);
    await poll(() => page.getByTestId('texture-shown').getAttribute('data-mip')).toBe('3');
    expect(web.problems).toEqual([]);
  });
});

/** A loose folder of 5,000 textures (copies of the legacy pak's T_BC6H), for the gallery. */
const BIG = join(tmpdir(), `pakscope-gallery-5000-${process.pid}`);
const BIG_FOLDER = 'Game/Content/Gallery';

describe.skipIf(skipBrowser)('a gallery of 5,000 textures in Chromium', () => {
  beforeAll(async () => {
    const dir = join(BIG, BIG_FOLDER);
    await mkdir(dir, { recursive: true });
    const pak = await openInstall([LEGACY_PAK]);
    let uasset: Uint8Array, uexp: Uint8Array;
    try {
      const read = (path: string) => { const f = pak.file(path)!.providers[0]!; return f.archive.read(f.file.ref); };
      uasset = await read(`${TEXTURES}/T_BC6H.uasset`);
      uexp = await read(`${TEXTURES}/T_BC6H.uexp`);
    } finally {
      await pak.close();
    }
    for (let i = 0; i < 5000; i += 250) {
      await Promise.all(Array.from({ length: 250 }, (_, k) => {
        const name = `T_${String(i + k).padStart(4, '0')}`;
        return Promise.all([writeFile(join(dir, `${name}.uasset`), uasset), writeFile(join(dir, `${name}.uexp`), uexp)]);
      }));
    }
  }, 120_000);
  const web = useWebSession(BIG);
  afterAll(async () => { await rm(BIG, { recursive: true, force: true }); });

  it('draws only the cells in view and loads only their thumbnails while scrolling through', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    let thumbnails = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/assetThumbnail') thumbnails++; });
    await page.goto(web.session.url);
    const tree = page.getByTestId('tree');
    await tree.locator('.row[data-path="Game"]').click();
    await tree.locator('.row[data-path="Game/Content"]').click();
    await tree.locator(`.row[data-path="${BIG_FOLDER}"]`).click();
    await page.getByTestId('gallery-open').click();
    const cells = page.getByTestId('gallery-cell');
    await poll(() => page.getByTestId('gallery').textContent()).toContain('5,000 packages');
    await poll(() => cells.first().getAttribute('data-state')).toBe('image');
    expect(await cells.count()).toBeLessThan(80);

    // Scroll to the end, one screen a frame, timing the frames.
    const frames = await page.getByTestId('gallery-viewport').evaluate(async (el) => {
      const times: number[] = [];
      let last = performance.now();
      while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollTop += el.clientHeight;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times;
    });
    expect(frames.length).toBeGreaterThan(100); // 5,000 cells of 196 px rows, 5 a row: about 1,000 rows
    const sorted = frames.slice().sort((a, b) => a - b);
    const scrolled = thumbnails;
    expect(await cells.count()).toBeLessThan(80);
    const last = page.locator(`[data-testid="gallery-cell"][data-path="${BIG_FOLDER}/T_4999.uasset"]`);
    await poll(() => last.getAttribute('data-state')).toBe('image');
    // Only cells the scroll paused on were asked for, not the 5,000 it passed (a busy machine pauses more).
    console.log(`gallery of 5,000: ${frames.length} frames scrolling, median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, ` +
      `95th ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ${scrolled} thumbnails asked for while scrolling, ${thumbnails} in all`);
    expect(thumbnails).toBeLessThan(1000);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-gallery-5000.png') });
    expect(web.problems).toEqual([]);
  });
});
