/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens SW_Streaming on
 * its Sound tab: the facts (read from the source WAV's header), the waveform, play (the audio
 * element's time advances), a click on the waveform seeks, Save as WAV (equal to the source art,
 * byte for byte); then SW_Format_RADAudio: its name, the note, and only Save as stored. A
 * screenshot goes to test-artifacts/. Any console error fails.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll as pollUi, selectInTree, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AUDIO = 'CUE4ParseFixtures/Content/Fixtures/Audio';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

describe.skipIf(skipBrowser)('sounds in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);
  let tmp: string;
  beforeAll(async () => { tmp = await mkdtemp(join(tmpdir(), 'pakscope-sound-e2e-')); });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('plays SW_Streaming, seeks on its waveform and saves it as WAV', async () => {
    const { page } = web;
    const source = await readFile(corpus('cue58/SourceAudio/streaming.wav'));
    const rate = source.readUInt32LE(24), channels = source.readUInt16LE(22);
    const frames = (source.length - 44) / 2 / channels;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'SW_Streaming', `${AUDIO}/SW_Streaming.uasset`);
    await page.getByTestId('open-package').click();

    await poll(() => page.getByTestId('package-tab-view-sound').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('sound-format').textContent()).toBe('PCM');
    expect(await page.getByTestId('sound-rate').textContent()).toBe(`${rate.toLocaleString('en-US')} Hz`);
    expect(await page.getByTestId('sound-channels').textContent()).toBe(String(channels));
    expect(await page.getByTestId('sound-streaming').textContent()).toBe('yes');
    const wave = page.getByTestId('sound-waveform');
    await poll(() => wave.getAttribute('data-channels')).toBe(String(channels));
    const audio = page.getByTestId('sound-audio');
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(frames / rate, 2);
    expect(await page.getByTestId('sound-save-wav').isVisible()).toBe(true);

    // Play: the element's time advances; pause.
    await page.getByTestId('sound-play').click();
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.1);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sound.png') });
    await page.getByTestId('sound-play').click();
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);

    // A click at three quarters of the waveform seeks there; the time under the cursor shows.
    const box = (await wave.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    await poll(() => page.getByTestId('sound-hover').textContent()).toMatch(/^\d:\d\d\.\d{3}$/);
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeCloseTo((frames / rate) * 0.75, 1);

    // Save as WAV (browser mode: the path is typed): the source art, byte for byte.
    const file = join(tmp, 'SW_Streaming.wav');
    await page.getByTestId('sound-save-wav').click();
    await page.getByTestId('sound-save-path').fill(file);
    await page.getByTestId('sound-save-confirm').click();
    await poll(() => page.getByTestId('sound-note').textContent()).toMatch(/^Saved .*SW_Streaming\.wav/);
    expect(Buffer.from(await readFile(file)).equals(source)).toBe(true);
    expect(web.problems).toEqual([]);
  });

  it('names RADA, shows its note and offers only Save as stored', async () => {
    const { page } = web;
    await selectInTree(page, 'SW_Format_RADAudio', `${AUDIO}/SW_Format_RADAudio.uasset`);
    await poll(() => page.getByTestId('sound-format').textContent()).toBe('RADA');
    expect(await page.getByTestId('sound-stored').textContent()).toContain('PakScope does not decode');
    expect(await page.getByTestId('sound-save-rada').isVisible()).toBe(true);
    expect(await page.getByTestId('sound-save-wav').count()).toBe(0);
    expect(await page.getByTestId('sound-audio').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-sound-rada.png') });
    expect(web.problems).toEqual([]);
  });
});
