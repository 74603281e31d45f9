/**
 * End to end in Chromium: `npm run web` on a pak of the Wwise test corpus (test/corpus/wwise).
 * A .wem selected in the tree opens on its Sound tab: the facts (ffmpeg's figures), the waveform,
 * play (the audio element's time advances) and Save as WAV. A .bnk opens as its events (named by
 * the SoundbanksInfo.json in the pak) and media, the medium picked playing below. Screenshots go
 * to test-artifacts/.
 * Any console error fails.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';
import { wwiseExpected } from '../support/wwise-corpus.js';
import { EVENT_BANK, LE3_BANK, MEDIA_ASSET, MEDIA_ASSET_WEM, MEDIA_IMPACT_4, TEST_BANK, WEM_VORBIS, writeWwiseEventsPak, writeWwisePak } from '../support/wwise-pak.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const dir = mkdtempSync(join(tmpdir(), 'pakscope-wwise-e2e-'));
// Both Wwise paks: the corpus's media and banks, and the 2022+ layout with the event assets.
const PAKS = join(dir, 'pak');

/** The app loaded (a test run alone starts on a blank page). */
async function opened(page: Page, url: string): Promise<void> {
  if (!page.url().startsWith('about:')) return;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await poll(() => page.getByTestId('containers').textContent()).toContain('WwiseAudio-Windows');
}

async function select(page: Page, filter: string, path: string): Promise<void> {
  await page.getByTestId('filter').fill(filter);
  await page.waitForTimeout(400);
  const row = page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
  await row.click();
  await poll(() => row.getAttribute('aria-selected')).toBe('true');
}

describe.skipIf(skipBrowser)('Wwise media in Chromium (browser host)', () => {
  beforeAll(async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'pak'), { recursive: true });
    await writeWwisePak(join(dir, 'pak'));
    await writeWwiseEventsPak(join(dir, 'pak'));
  });
  const web = useWebSession(PAKS);
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('a .wem opens on its Sound tab, plays and saves as WAV', async () => {
    const { page } = web;
    const want = wwiseExpected()['surface_hits_medium_hard_01_3F75BDB9.wem']!;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('WwiseAudio-Windows');
    await select(page, 'surface_hits', WEM_VORBIS);

    await poll(() => page.getByTestId('file-tab-sound').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sound-format').textContent()).toBe('WEM');
    expect(await page.getByTestId('sound-codec').textContent()).toBe('VORBIS');
    expect(await page.getByTestId('sound-rate').textContent()).toBe(`${want.rate.toLocaleString('en-US')} Hz`);
    expect(await page.getByTestId('sound-channels').textContent()).toBe(String(want.channels));
    const wave = page.getByTestId('sound-waveform');
    await poll(() => wave.getAttribute('data-channels')).toBe(String(want.channels));
    const audio = page.getByTestId('sound-audio');
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(want.frames / want.rate, 2);

    await page.getByTestId('sound-play').click();
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.05);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-wem.png') });

    const file = join(dir, 'hit.wav');
    await page.getByTestId('sound-save-wav').click();
    await page.getByTestId('sound-save-path').fill(file);
    await page.getByTestId('sound-save-confirm').click();
    await poll(() => page.getByTestId('sound-note').textContent()).toMatch(/^Saved .*hit\.wav/);
    expect((await readFile(file)).readUInt32LE(40)).toBe(want.frames * want.channels * 2);
    expect(web.problems).toEqual([]);
  });

  it('a .bnk opens as its events and media; a medium picked from an event plays', async () => {
    const { page } = web;
    await select(page, 'Test.bnk', TEST_BANK);
    await poll(() => page.getByTestId('file-tab-soundbank').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('bank-summary').textContent()).toContain('version 140');
    const event = page.getByTestId('bank-events').locator('li[data-event-id="3187507146"]');
    expect(await event.locator('.name').textContent()).toBe('Play_Test');
    await event.getByTestId('bank-event-media').click();
    expect(await page.getByTestId('bank-media').locator('tr.active').getAttribute('data-media-id')).toBe('799259675');
    await poll(() => page.getByTestId('sound-codec').textContent()).toBe('PCM');
    const audio = page.getByTestId('sound-audio');
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(17920 / 16000, 2);
    await page.getByTestId('sound-play').click();
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.05);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-bank.png') });

    // A bank of 45 unnamed events and 35 Vorbis media: a row picked plays.
    await select(page, 'LE3_v134', LE3_BANK);
    await poll(() => page.getByTestId('bank-summary').textContent()).toContain('45 events');
    await page.getByTestId('bank-media').locator('tr[data-media-id="6098048"]').click();
    await poll(() => page.getByTestId('sound-codec').textContent()).toBe('VORBIS');
    await poll(() => page.getByTestId('sound-audio').evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(17940 / 44100, 2);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-bank-le3.png') });
    expect(web.problems).toEqual([]);
  });

  it('a medium named by its id shows in the tree by the event that plays it, and its sound view names the event', async () => {
    const { page } = web;
    await opened(page, web.session.url);
    await page.getByTestId('filter').fill('Media/1');
    await page.waitForTimeout(400);
    const row = page.getByTestId('tree').locator(`.row[data-path="${MEDIA_IMPACT_4}"]`);
    await poll(() => row.getByTestId('tree-label').textContent()).toBe('Bullet_Impact · Bullet_Impact_4.wav');
    expect(await row.locator('.file-name').textContent()).toBe('(115002319.wem)');
    await row.click();
    await poll(() => page.getByTestId('sound-events').textContent()).toBe('Bullet_Impact');
    expect(await page.getByTestId('sound-original').textContent()).toBe('Bullet_Impact_4.wav (Media/115002319.wem)');
    expect(await page.getByTestId('sound-codec').textContent()).toBe('PCM');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-event-names.png') });

    // The filter finds a medium by its label too (its original file here), not only by its path.
    await page.getByTestId('filter').fill('Ricochet_2');
    const ricochet = page.getByTestId('tree').locator('.row[data-path$="/Media/156526235.wem"]');
    await poll(() => ricochet.getByTestId('tree-label').textContent()).toBe('Bullet_Impact · Ricochet_2.wav');
    await poll(() => page.getByTestId('match-count').textContent()).toMatch(/^\s*1 match\s*$/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-filter-label.png') });

    // The event's own bank embeds nothing: its event's media are named by the metadata beside it.
    await select(page, 'Bullet_Impact.bnk', EVENT_BANK);
    await poll(() => page.getByTestId('bank-summary').textContent()).toContain('version 150');
    const chips = page.getByTestId('bank-events').locator('li[data-event-id="3921814510"]').getByTestId('bank-event-other');
    await poll(() => chips.allTextContents()).toContain('Bullet_Impact_4.wav');
    expect(await chips.count()).toBe(8);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-event-bank.png') });
    expect(web.problems).toEqual([]);
  });

  it('a media asset (Media/<id>.uasset) shows by the event that plays it; its package opens on the Sound tab and plays', async () => {
    const { page } = web;
    const want = wwiseExpected()[MEDIA_ASSET_WEM]!;
    await opened(page, web.session.url);
    await page.getByTestId('filter').fill('290492006');
    await page.waitForTimeout(400);
    const row = page.getByTestId('tree').locator(`.row[data-path="${MEDIA_ASSET}"]`);
    await poll(() => row.getByTestId('tree-label').textContent()).toBe('Play_Footsteps');
    await row.click();
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-sound').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sound-codec').textContent()).toBe('PCM');
    expect(await page.getByTestId('sound-format').textContent()).toBe('WEM');
    expect(await page.getByTestId('sound-rate').textContent()).toBe(`${want.rate.toLocaleString('en-US')} Hz`);
    expect(await page.getByTestId('sound-events').textContent()).toBe('Play_Footsteps');
    expect(await page.getByTestId('sound-original').textContent()).toBe('sx_character_WORLD_footsteps_asphalt_2');
    const audio = page.getByTestId('sound-audio');
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(want.frames / want.rate, 2);
    await page.getByTestId('sound-play').click();
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.05);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-media-asset.png') });
    expect(web.problems).toEqual([]);
  });

  it('a bank\'s "Save all as WAV" exports its media as .wav in a folder named after it, named by the metadata', async () => {
    const { page } = web;
    await opened(page, web.session.url);
    await select(page, 'Test.bnk', TEST_BANK);
    await poll(() => page.getByTestId('bank-summary').textContent()).toContain('version 140');
    await page.getByTestId('bank-save-all').click();
    const dialog = page.getByTestId('export-dialog');
    await poll(() => dialog.count()).toBe(1);
    expect(await page.getByTestId('export-convert').isChecked()).toBe(true);
    const out = join(dir, 'bank-out');
    await page.getByTestId('export-destination').fill(out);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-bank-save-all.png') });
    await page.getByTestId('export-start').click();
    await poll(() => page.getByTestId('export-headline').textContent()).toMatch(/Exported 1 file \(/);
    const wav = await readFile(join(out, 'Game/Content/WwiseAudio/Test/金币.wav'));
    expect([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([2, 16000, 17920 * 2 * 2]);
    await page.getByTestId('export-close').click();
    expect(web.problems).toEqual([]);
  });
});

describe.skipIf(skipBrowser)('Wwise labels in the tree filter from the start (a fresh browser host)', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'pakscope-wwise-e2e-fresh-'));
  beforeAll(async () => { await writeWwiseEventsPak(fresh); });
  const web = useWebSession(fresh);
  afterAll(async () => { await rm(fresh, { recursive: true, force: true }); });

  it('the filter typed first thing finds a medium by its original file: no folder of media was listed before', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('WwiseEvents-Windows');
    await page.getByTestId('filter').fill('Ricochet_2');
    const ricochet = page.getByTestId('tree').locator('.row[data-path$="/Media/156526235.wem"]');
    await poll(() => ricochet.getByTestId('tree-label').textContent()).toBe('Bullet_Impact · Ricochet_2.wav');
    await poll(() => page.getByTestId('match-count').textContent()).toMatch(/^\s*1 match\s*$/);
    // An event's name finds the media it plays, the media asset among them.
    await page.getByTestId('filter').fill('Play_Footsteps');
    await poll(() => page.getByTestId('tree').locator('.row[data-path*="/Media/"]').count()).toBe(2);
    await poll(() => page.getByTestId('tree').locator('.row[data-path$="/Media/290492006.uasset"]').getByTestId('tree-label').textContent()).toBe('Play_Footsteps');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-wwise-filter-at-open.png') });
    expect(web.problems).toEqual([]);
  });
});
