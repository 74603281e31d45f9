/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Sprite_Fixture opens
 * on its Sprite tab: 16 x 16 (CUE4Parse's fixture test), its image drawn from the PNG whose pixels
 * the image element holds (its top-left pixel that of rgba.png, read by Pillow), its texture
 * T_BGRA8 a link. MIDI_Fixture opens on its MIDI tab: 960 ticks per quarter note (CUE4Parse's
 * fixture test), the tracks the song map names, middle C on and off, 120 BPM. Screenshots go to
 * test-artifacts/. Any console error fails.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { readReferenceImage } from '../support/reference-image.js';
import { parseSmf } from '../support/smf-reference.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, selectInTree, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';

describe.skipIf(skipBrowser)('sprites and MIDI in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Uncompressed'));
  let tmp: string;
  beforeAll(async () => { tmp = await mkdtemp(join(tmpdir(), 'pakscope-sprite-midi-e2e-')); });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('shows Sprite_Fixture\'s region of its texture and its facts', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'Sprite_Fixture', `${FIXTURES}/Paper2D/Sprite_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-sprite').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sprite-size').textContent()).toBe('16 × 16');
    expect(await page.getByTestId('sprite-texture').textContent()).toBe('T_BGRA8');
    const img = page.getByTestId('sprite-image');
    await poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(16);
    const pixel = await img.evaluate((i: HTMLImageElement) => {
      const c = document.createElement('canvas'); c.width = 16; c.height = 16;
      const g = c.getContext('2d')!; g.drawImage(i, 0, 0);
      return [...g.getImageData(5, 7, 1, 1).data];
    });
    const ref = readReferenceImage(corpus('cue58/SourceTextures/rgba.png'));
    const at = (7 * ref.width + 5) * 4;
    const want = [...ref.rgba.subarray(at, at + 4)];
    // A canvas keeps colours premultiplied by alpha (24 here): read back, they are within 255/alpha.
    expect(pixel[3]).toBe(want[3]);
    for (let k = 0; k < 3; k++) expect(Math.abs(pixel[k]! - want[k]!)).toBeLessThanOrEqual(Math.ceil(255 / want[3]!));
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sprite.png') });
    // Save as PNG: a 16 x 16 PNG (its signature and IHDR size).
    await page.getByTestId('sprite-save-png').click();
    await page.getByTestId('sprite-save-path').fill(join(tmp, 'Sprite_Fixture.png'));
    await page.getByTestId('sprite-save-confirm').click();
    await poll(() => page.getByTestId('sprite-note').textContent()).toMatch(/^Saved .*Sprite_Fixture\.png/);
    const png = await readFile(join(tmp, 'Sprite_Fixture.png'));
    expect([png.subarray(1, 4).toString(), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(['PNG', 16, 16]);
    expect(web.problems).toEqual([]);
  });

  it('shows MIDI_Fixture\'s tracks and events', async () => {
    const { page } = web;
    await selectInTree(page, 'MIDI_Fixture', `${FIXTURES}/Midi/MIDI_Fixture.uasset`);
    await poll(() => page.getByTestId('package-tab-view-midi').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('midi-tpq').textContent()).toBe('960 ticks per quarter note');
    expect(await page.getByTestId('midi-track-name').allTextContents()).toEqual(['Conductor', 'Track-0']);
    const rows = await page.getByTestId('midi-event').allTextContents();
    expect(rows.some((r) => r.includes('Tempo') && r.includes('120 BPM'))).toBe(true);
    expect(rows.some((r) => r.startsWith('01.00Note on') && r.includes('C4 (60) velocity 100'))).toBe(true);
    expect(rows.some((r) => r.startsWith('9602.00Note off') && r.includes('C4 (60)'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-midi.png') });
    await page.getByTestId('midi-save-mid').click();
    await page.getByTestId('midi-save-path').fill(join(tmp, 'MIDI_Fixture.mid'));
    await page.getByTestId('midi-save-confirm').click();
    await poll(() => page.getByTestId('midi-note').textContent()).toMatch(/^Saved .*MIDI_Fixture\.mid/);
    const smf = parseSmf(new Uint8Array(await readFile(join(tmp, 'MIDI_Fixture.mid'))));
    expect([smf.format, smf.division, smf.tracks.length]).toEqual([1, 960, 2]);
    expect(web.problems).toEqual([]);
  });
});
