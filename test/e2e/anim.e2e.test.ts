/**
 * End to end in Chromium (WebGL through SwiftShader): `npm run web` on the cue58 IoStore Tagged
 * install. Opens AS_Fixture on its Animation tab, SK_Fixture skinned by it: the facts of CUE4Parse's fixture test (length
 * 1 s, rate scale 1.25, SKEL_Fixture, tracks for Root, Joint_1, Joint_2, the curve FixtureCurve),
 * the codec named and decoded, SK_Fixture found as the mesh it plays on; plays (the time runs and
 * the bones move), pauses, scrubs to 0.5 s (Joint_1 at the top of its 4 cm bob: the picture
 * differs from frame 0, the curve's value is FixtureCurve's there, 2.5) and saves the .glb (the
 * Khronos validator passes it, with its animation). Screenshots go to test-artifacts/.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, canvasPixels, skipBrowser, poll as pollUi, selectInTree, useWebSession, WEBGL_ARGS } from './web-session.js';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const ANIMS = 'CUE4ParseFixtures/Content/Fixtures/Animations';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 30_000);

const setTime = (page: Page, seconds: number) => page.getByTestId('anim-time').evaluate((el: HTMLInputElement, v) => {
  el.value = String(v);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}, seconds);

describe.skipIf(skipBrowser)('animations in Chromium (browser host, WebGL)', () => {
  const web = useWebSession(UNCOMPRESSED, WEBGL_ARGS);
  let tmp: string;
  beforeAll(async () => { tmp = await mkdtemp(join(tmpdir(), 'pakscope-anim-e2e-')); });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('plays AS_Fixture on its skeleton, pauses, scrubs, and saves it as a valid animated .glb', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'AS_Fixture', `${ANIMS}/AS_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-animation').getAttribute('aria-selected')).toBe('true');

    // CUE4Parse's fixture values, and what the reader says of the codec.
    await poll(() => page.getByTestId('anim-length').textContent()).toBe('1 s');
    expect(await page.getByTestId('anim-rate').textContent()).toBe('1.25');
    expect(await page.getByTestId('anim-frames').textContent()).toBe('31');
    expect(await page.getByTestId('anim-facts').textContent()).toContain('/Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture');
    expect(await page.getByTestId('anim-tracks').locator('li .mono').allTextContents()).toEqual(['Root', 'Joint_1', 'Joint_2']);
    expect(await page.getByTestId('anim-curves').textContent()).toContain('FixtureCurve');
    expect(await page.getByTestId('anim-bone-codec').textContent()).toMatch(/AnimCompress_PerTrackCompression_1.*PerTrackCompression.*decoded/);
    expect(await page.getByTestId('anim-mesh').textContent()).toBe('SK_Fixture');

    // SK_Fixture drawn skinned by the sequence, the bones over it with their names.
    const canvas = page.getByTestId('anim-canvas');
    await poll(() => canvas.getAttribute('data-skinned')).toBe('1');
    await poll(() => page.locator('.labels .label').allTextContents()).toEqual(['Root', 'Joint_1', 'Joint_2']);
    await poll(async () => (await canvasPixels(page, 'anim-canvas')).drawn).toBeGreaterThan(3000);
    const still = await canvasPixels(page, 'anim-canvas');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-anim-frame0.png') });

    // Play: the time runs and the picture changes; pause: it stops.
    await page.getByTestId('anim-play').click();
    await poll(() => canvas.getAttribute('data-playing')).toBe('1');
    await poll(async () => Number(await canvas.getAttribute('data-time'))).toBeGreaterThan(0.05);
    await poll(async () => (await canvasPixels(page, 'anim-canvas')).hash).not.toBe(still.hash);
    await page.getByTestId('anim-play').click();
    await poll(() => canvas.getAttribute('data-playing')).toBe('0');
    const paused = await canvas.getAttribute('data-time');
    await page.waitForTimeout(300);
    expect(await canvas.getAttribute('data-time')).toBe(paused);

    // Scrub to 0.5 s: frame 15, FixtureCurve at its 2.5 key.
    await setTime(page, 0.5);
    await poll(() => canvas.getAttribute('data-time')).toBe('0.500');
    expect(await page.getByTestId('anim-clock').textContent()).toContain('frame 15');
    expect(await page.getByTestId('anim-curve-value-0').textContent()).toBe('2.5');
    await poll(async () => (await canvasPixels(page, 'anim-canvas')).hash).not.toBe(still.hash);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-anim-half.png') });
    // Back to 0: the first picture again.
    await setTime(page, 0);
    await poll(async () => (await canvasPixels(page, 'anim-canvas')).hash).toBe(still.hash);

    // Save as glTF: SK_Fixture with the animation, valid.
    const file = join(tmp, 'AS_Fixture.glb');
    await page.getByTestId('anim-save-glb').click();
    await page.getByTestId('anim-save-path').fill(file);
    await page.getByTestId('anim-save-confirm').click();
    await poll(() => page.getByTestId('anim-note').textContent()).toMatch(/^Saved .*AS_Fixture\.glb/);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const { json } = parseGlb(glb);
    expect(json.animations).toHaveLength(1);
    expect(json.skins).toHaveLength(1);
    expect(web.problems).toEqual([]);
  });

  it('shows AM_Fixture\'s facts: its slot\'s segment of AS_Fixture and its sections', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'AM_Fixture', `${ANIMS}/AM_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-animation').getAttribute('aria-selected')).toBe('true');
    // CUE4Parse's montage test: length 1.28, slot FixtureSlot with AS_Fixture at rate 1.25 twice, sections Intro and Loop.
    await poll(() => page.getByTestId('anim-length').textContent()).toBe('1.28 s');
    expect(await page.getByTestId('anim-facts').textContent()).toContain('Slot FixtureSlot (1 segments)');
    expect(await page.getByTestId('anim-segments').textContent()).toMatch(/AS_Fixture.*×1\.25 · 2 loops/);
    expect(await page.getByTestId('anim-sections').locator('li .mono').allTextContents()).toEqual(['Intro', 'Loop']);
    expect(await page.getByTestId('anim-composition-note').textContent()).toContain('AnimMontage');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-anim-montage.png') });
    expect(web.problems).toEqual([]);
  });
});
