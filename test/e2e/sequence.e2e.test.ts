/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. LS_Nested opens on
 * its Sequence tab (the converter registry offers it): 24000 ticks/s at 24 fps over frames 0 to
 * 48.001, one subsequence track of two sections at ticks 6000-30001 (rate 0.5, start offset 1200,
 * bias 100) and 30001-42001 (rate 1.5, bias 37) playing LS_Fixture (CUE4Parse's
 * FixtureEngineAssetTests.cs); clicking the second bar shows it; the subsequence link opens
 * LS_Fixture on its Sequence tab, whose MPC track's section keys FixtureScalar at frames 0, 12,
 * 24 (0.125, 0.75, -0.25); Save CSV downloads its 11 keys. Then Snake Pass's UE4.14
 * MP00_GateTutorial from the loose cooked packages (its property dump read by hand): seconds at
 * 30 fps over frames 0 to 200, the possessable Gate_Tutorial_Cam (a CameraActor bound to
 * MP00_TRIG's actor), a camera cut to it and the event GateTut_End at frame 199. Screenshots
 * (1280x800) in test-artifacts/e2e-sequence.png, e2e-sequence-fixture.png and e2e-sequence-ue414.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession, openPackageFromTree } from './web-session.js';

const SEQUENCES = 'CUE4ParseFixtures/Content/Fixtures/Sequences';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

describe.skipIf(skipBrowser)('Level Sequences in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'));

  it('shows LS_Nested\'s timeline and sections, and opens the sequence it plays', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'LS_Nested', `${SEQUENCES}/LS_Nested.uasset`);
    await poll(() => page.getByTestId('package-tab-view-sequence').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sequence-name').textContent()).toBe('LS_Nested');
    const facts = (await page.getByTestId('sequence-facts').textContent()) ?? '';
    expect(facts).toContain('Tick resolution 24000/s');
    expect(facts).toContain('Display rate 24 fps');
    expect(await page.getByTestId('sequence-playback').textContent()).toContain('frame 0 · 0 s → frame 48.001 · 2 s');
    expect(await page.getByTestId('sequence-counts').textContent()).toBe('0 bindings · 1 tracks · 2 sections · 0 channels · 0 keys');
    expect(await page.getByTestId('sequence-track').count()).toBe(1);
    const bars = page.getByTestId('sequence-section');
    expect(await bars.count()).toBe(2);
    expect((await bars.allTextContents()).map((t) => t.trim())).toEqual(['LS_Fixture', 'LS_Fixture']);
    // The first bar starts at a quarter second of two (12.5% of the span), the second at 1.25 s.
    const left = await bars.evaluateAll((b) => b.map((x) => Math.round(parseFloat((x as HTMLElement).style.left) * 10) / 10));
    expect(left).toEqual([12.5, 62.5]);
    await bars.nth(1).click();
    await poll(() => page.getByTestId('sequence-section-name').textContent()).toBe('MovieSceneSubSection_1');
    expect((await page.getByTestId('sequence-sub').textContent())?.replace(/\s+/g, ' ').trim()).toBe('Plays LS_Fixture rate 1.5 start offset 0 ticks bias 37');
    await bars.nth(0).click();
    await poll(() => page.getByTestId('sequence-sub').textContent()).toMatch(/rate\s*0\.5\s*start offset\s*1200 ticks\s*bias\s*100/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sequence.png') });

    // The subsequence opens LS_Fixture on its Sequence tab.
    await page.getByTestId('sequence-section-sub-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Sequences/LS_Fixture');
    await poll(() => page.getByTestId('sequence-name').textContent()).toBe('LS_Fixture');
    expect(await page.getByTestId('sequence-counts').textContent()).toBe('0 bindings · 1 tracks · 1 sections · 5 channels · 11 keys');
    const channels = page.getByTestId('sequence-channel');
    await poll(() => channels.count()).toBe(5);
    expect((await channels.first().locator('td').allTextContents()).slice(0, 2)).toEqual(['FixtureScalar.ParameterCurve', 'float']);
    expect(await channels.first().locator('.kv').allTextContents()).toEqual(['0 = 0.125', '12 = 0.75', '24 = -0.25']);
    expect(await page.getByTestId('sequence-mpc-link').textContent()).toBe('MPC_Fixture');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sequence-fixture.png') });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sequence-save-csv').click()]);
    expect(download.suggestedFilename()).toBe('LS_Fixture.csv');
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(12);
    expect(lines).toContain(',Material Parameter Collection,MovieSceneParameterSection_0,FixtureColor.AlphaCurve,24000,24,1,0.5');
    await page.getByTestId('sequence-copy').click();

    // The collection link opens MPC_Fixture.
    await page.getByTestId('sequence-mpc-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Materials/MPC_Fixture');
    expect(web.problems).toEqual([]);
  });
});

describe.skipIf(skipBrowser)('a UE4.14 Level Sequence in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cooked'));

  it('shows MP00_GateTutorial\'s binding, camera cut and event key, in seconds at 30 fps', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    const row = page.getByTestId('tree').locator('.row[data-path="uapi414_MP00_GateTutorial.uasset"]');
    await row.waitFor();
    await row.click();
    await page.keyboard.press('Enter');
    await poll(() => page.getByTestId('package-tab-view-sequence').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sequence-name').textContent()).toBe('MP00_GateTutorial');
    const facts = (await page.getByTestId('sequence-facts').textContent()) ?? '';
    expect(facts).toContain('Tick resolution seconds (UE4.19 and earlier)');
    expect(facts).toContain('Display rate 30 fps');
    expect(await page.getByTestId('sequence-playback').textContent()).toContain('frame 0 · 0 s → frame 200 · 6.667 s');
    const binding = page.getByTestId('sequence-binding');
    expect(await binding.count()).toBe(1);
    const text = (await binding.textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Gate_Tutorial_Cam');
    expect(text).toContain('possessable · CameraActor');
    expect(text).toContain('bound to MP00_TRIG Gate_Tutorial_Cam');
    expect(await page.getByTestId('sequence-track').locator('.label .name').allTextContents()).toEqual(['Camera Cut', 'Event']);
    const bars = page.getByTestId('sequence-section');
    expect((await bars.allTextContents()).map((t) => t.trim())).toEqual(['Gate_Tutorial_Cam', 'Event']);
    await bars.nth(1).click();
    await poll(() => page.getByTestId('sequence-section-name').textContent()).toBe('MovieSceneEventSection_0');
    const channel = page.getByTestId('sequence-channel');
    expect((await channel.locator('td').allTextContents()).slice(0, 2)).toEqual(['Events', 'name']);
    expect(await channel.locator('.kv').allTextContents()).toEqual(['199 = GateTut_End']);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sequence-ue414.png') });
    expect(web.problems).toEqual([]);
  });
});
