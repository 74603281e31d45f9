/**
 * End to end in Chromium: `npm run web` on a project folder of editor packages written for the test
 * (test/fixtures/uasset-writer.ts; the corpus has no FontFace): a FontFace holding Debian's DejaVu
 * Sans Mono inline, a Font naming it, and a loose .ufont holding Nimbus Sans (CFF). The FontFace
 * opens on its Font tab: family and style (what fc-query reads from the file), the sample drawn
 * with the font itself (its glyphs are wider than the fallback's: a monospace font measured), and
 * Save as .ttf writes the file byte for byte. The Font lists its typeface and draws its face; the
 * .ufont opens on its Font tab as .otf. Screenshots go to test-artifacts/. Any console error fails.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeEditorPackage } from '../fixtures/uasset-writer.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, selectInTree, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const TTF = readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf');
const OTF = readFileSync('/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf');
const FONT_FACE = '/Script/Engine.FontFace';
const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];

// The project is written before the host starts on it.
const temp = mkdtempSync(join(tmpdir(), 'pakscope-font-e2e-'));
const content = join(temp, 'Proj', 'Content', 'Fonts');
mkdirSync(content, { recursive: true });
const save = join(temp, 'saved');
mkdirSync(save);
writeFileSync(join(content, 'Face_Mono.uasset'), writeEditorPackage({
  name: '/Game/Fonts/Face_Mono', ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'],
  exports: [{ name: 'Face_Mono', class: FONT_FACE, props: () => [['SourceFilename', { type: 'StrProperty', value: 'D:/Art/DejaVuSansMono.ttf' }]], native: [...u32(1), ...u32(TTF.length), ...TTF] }],
}));
writeFileSync(join(content, 'F_Ui.uasset'), writeEditorPackage({
  name: '/Game/Fonts/F_Ui', ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'],
  exports: [{
    name: 'F_Ui', class: '/Script/Engine.Font', props: (ref) => [['CompositeFont', {
      type: 'StructProperty', struct: 'CompositeFont', value: [['DefaultTypeface', {
        type: 'StructProperty', struct: 'Typeface', value: [['Fonts', {
          type: 'ArrayProperty', inner: 'StructProperty', struct: 'TypefaceEntry', value: [{
            type: 'StructProperty', struct: 'TypefaceEntry', value: [
              ['Name', { type: 'NameProperty', value: 'Regular' }],
              ['Font', { type: 'StructProperty', struct: 'FontData', before: u32(0), value: [['FontFaceAsset', { type: 'ObjectProperty', value: ref('/Game/Fonts/Face_Mono.Face_Mono', FONT_FACE) }]] }],
            ],
          }],
        }]],
      }]],
    }]],
  }],
}));
writeFileSync(join(content, 'Face_Sans.ufont'), OTF);

describe.skipIf(skipBrowser)('fonts in Chromium (browser host)', () => {
  const web = useWebSession(join(temp, 'Proj'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('shows a FontFace with a sample in its own font and saves it as .ttf', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await selectInTree(page, 'Face_Mono', 'Proj/Content/Fonts/Face_Mono.uasset');
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-font').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('font-family').textContent()).toBe('DejaVu Sans Mono');
    expect(await page.getByTestId('font-style').textContent()).toBe('Book');
    expect(await page.getByTestId('font-format').textContent()).toBe('TrueType, .ttf');
    const sample = page.getByTestId('font-sample');
    await poll(() => sample.getAttribute('data-loaded')).toBe('true');
    // Drawn with the face: the document's fonts hold it loaded, and in a monospace font "iiii" is as wide as "MMMM".
    const widths = await sample.evaluate(async (el) => {
      const family = getComputedStyle(el).fontFamily;
      await document.fonts.ready;
      const span = (t: string): number => { const s = document.createElement('span'); s.style.fontFamily = family; s.style.fontSize = '40px'; s.textContent = t; el.append(s); const w = s.getBoundingClientRect().width; s.remove(); return w; };
      return { loaded: document.fonts.check(`40px ${family}`), i: span('iiii'), m: span('MMMM') };
    });
    expect(widths.loaded).toBe(true);
    expect(widths.i).toBeCloseTo(widths.m, 0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-font-face.png') });

    await page.getByTestId('font-save-ttf').click();
    await page.getByTestId('font-save-path').fill(join(save, 'Face_Mono.ttf'));
    await page.getByTestId('font-save-confirm').click();
    await poll(() => page.getByTestId('font-note').textContent()).toMatch(/^Saved .*Face_Mono\.ttf/);
    expect((await readFile(join(save, 'Face_Mono.ttf'))).equals(TTF)).toBe(true);
    expect(web.problems).toEqual([]);
  });

  it('shows a Font\'s typeface with its face drawn, and a loose .ufont as .otf', async () => {
    const { page } = web;
    // A package is open: the tree's selection shows in the package view.
    await selectInTree(page, 'F_Ui', 'Proj/Content/Fonts/F_Ui.uasset');
    await poll(() => page.getByTestId('package-tab-view-font').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('font-typeface').textContent()).toContain('Regular');
    await poll(() => page.getByTestId('font-face').getAttribute('data-family')).toBe('DejaVu Sans Mono');
    await poll(() => page.getByTestId('font-sample').getAttribute('data-loaded')).toBe('true');

    await selectInTree(page, 'Face_Sans', 'Proj/Content/Fonts/Face_Sans.ufont');
    await poll(() => page.getByTestId('viewer-tab-font').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('font-family').textContent()).toBe('Nimbus Sans');
    expect(await page.getByTestId('font-format').textContent()).toBe('OpenType (CFF), .otf');
    await poll(() => page.getByTestId('font-sample').getAttribute('data-loaded')).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-font-ufont.png') });
    expect(web.problems).toEqual([]);
  });
});
