/**
 * End to end in Chromium: `npm run web` on a pak of the Wwise codec fixtures of test/corpus/wwise
 * (synthetic, SOURCES.tsv). A Wwise Opus .wem (0x3041, 5.1) and a big-endian RIFX IMA ADPCM .wem
 * open on their Sound tab with their codec and facts, draw their waveform and play (the audio
 * element's time advances). Screenshots go to test-artifacts/. Any console error fails.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { writePak } from '../fixtures/pak-writer.js';
import { loadWwise } from '../support/wwise-corpus.js';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';

const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
const dir = mkdtempSync(join(tmpdir(), 'pakscope-wwise-codecs-e2e-'));
const PAK = join(dir, 'pak', 'WwiseCodecs.pak');
const MEDIA = 'Game/Content/WwiseAudio/Media';
mkdirSync(join(dir, 'pak'));
writeFileSync(PAK, writePak(['synthetic-opus-wem-5.1.wem', 'synthetic-ima-stereo-rifx.wem'].map((f) => ({ name: `Content/WwiseAudio/Media/${f}`, data: loadWwise(f) })), { version: 11, mountPoint: '../../../Game/' }).bytes);

async function select(page: Page, filter: string, path: string): Promise<void> {
  await page.getByTestId('filter').fill(filter);
  await page.waitForTimeout(400);
  const row = page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
  await row.click();
  await poll(() => row.getAttribute('aria-selected')).toBe('true');
}

describe.skipIf(skipBrowser)('Wwise Opus and IMA ADPCM in Chromium (browser host)', () => {
  const web = useWebSession(PAK);
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  for (const [file, codec, rate, channels, frames, shot] of [
    ['synthetic-opus-wem-5.1.wem', 'OPUS', 48000, 6, 33600, 'e2e-wwise-opus.png'],
    ['synthetic-ima-stereo-rifx.wem', 'IMA_ADPCM', 32000, 2, 16185, 'e2e-wwise-ima-rifx.png'],
  ] as const) {
    it(`${file} opens on its Sound tab as ${codec} and plays`, async () => {
      const { page } = web;
      await page.setViewportSize({ width: 1280, height: 800 });
      if (!page.url().startsWith(web.session.url)) await page.goto(web.session.url);
      await poll(() => page.getByTestId('containers').textContent()).toContain('WwiseCodecs');
      await select(page, file.slice(0, 16), `${MEDIA}/${file}`);
      await poll(() => page.getByTestId('file-tab-sound').getAttribute('aria-selected')).toBe('true');
      await poll(() => page.getByTestId('sound-codec').textContent()).toBe(codec);
      expect(await page.getByTestId('sound-format').textContent()).toBe('WEM');
      expect(await page.getByTestId('sound-rate').textContent()).toBe(`${rate.toLocaleString('en-US')} Hz`);
      expect(await page.getByTestId('sound-channels').textContent()).toBe(String(channels));
      await poll(() => page.getByTestId('sound-waveform').getAttribute('data-channels')).toBe(String(channels));
      const audio = page.getByTestId('sound-audio');
      await poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(frames / rate, 2);
      await page.getByTestId('sound-play').click();
      await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.05);
      await page.screenshot({ path: join(ARTIFACTS, shot) });
      expect(web.problems).toEqual([]);
    });
  }
});
