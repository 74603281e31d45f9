/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. SC_Fixture opens on
 * its Sound Cue tab: the graph (the output with volume 0.75 and pitch 1.125, a mixer, two wave
 * players naming SW_Inline and SW_Streaming, as CUE4Parse's fixture test lists them); a click on
 * a wave player's sound opens that sound's package on its Sound tab. A screenshot goes to
 * test-artifacts/. Any console error fails.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AUDIO = 'CUE4ParseFixtures/Content/Fixtures/Audio';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

describe.skipIf(skipBrowser)('sound cues in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);

  it('draws SC_Fixture\'s graph and opens a wave player\'s sound', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await page.getByTestId('filter').fill('SC_Fixture');
    await page.waitForTimeout(400);
    const row = page.getByTestId('tree').locator(`.row[data-path="${AUDIO}/SC_Fixture.uasset"]`);
    await row.click();
    await poll(() => row.getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('open-package').click();

    await poll(() => page.getByTestId('package-tab-view-soundcue').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('soundcue-node').count()).toBe(3);
    expect(await page.getByTestId('soundcue-volume').textContent()).toBe('Volume ×0.75');
    expect(await page.getByTestId('soundcue-pitch').textContent()).toBe('Pitch ×1.125');
    expect(await page.locator('[data-testid="soundcue-node"][data-kind="mixer"]').count()).toBe(1);
    const sounds = page.getByTestId('soundcue-sound');
    expect((await sounds.allTextContents()).map((t) => t.replace('▶ ', '')).sort()).toEqual(['SW_Inline', 'SW_Streaming']);
    expect(await page.getByTestId('soundcue-output').textContent()).toMatch(/Volume\s*0\.75\s*Pitch\s*1\.125/);
    // Wave players left of the mixer, the mixer left of the output.
    const x = async (sel: string): Promise<number> => (await page.locator(sel).first().boundingBox())!.x;
    const mixerX = await x('[data-testid="soundcue-node"][data-kind="mixer"]');
    expect(await x('[data-testid="soundcue-node"][data-kind="wavePlayer"]')).toBeLessThan(mixerX);
    expect(mixerX).toBeLessThan(await x('[data-testid="soundcue-output"]'));
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-soundcue.png') });

    // The sound's link opens its package on the Sound tab.
    await sounds.filter({ hasText: 'SW_Streaming' }).click();
    await poll(() => page.getByTestId('package-tab-view-sound').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sound-format').textContent()).toBe('PCM');
    expect(web.problems).toEqual([]);
  });
});
