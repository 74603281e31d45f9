/**
 * End to end (issue 24, 11): a UE1/2 package's UnrealScript (its classes' ScriptText) opens as a
 * text preview in Monaco with UnrealScript highlighting: keywords and identifiers tokenized apart.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, haveChromium, poll, useWebSession } from './web-session.js';

describe.skipIf(!haveChromium)('UnrealScript in Chromium', () => {
  const web = useWebSession(corpus('legacy'));

  it('shows a .u package\'s ScriptText in Monaco, highlighted as UnrealScript', async () => {
    const { page } = web;
    await page.goto(web.session.url);
    const row = page.getByTestId('tree').locator('.row[data-path="ut99_EnergySword.u"]');
    await row.waitFor();
    await row.click();
    await page.keyboard.press('Enter');
    await page.getByTestId('asset-text').waitFor();
    await poll(() => page.getByTestId('asset-text-name').textContent()).toBe('EnergySword.uc');
    const line = page.locator('.monaco-editor .view-line', { hasText: 'class EnergySword extends TournamentWeapon;' });
    await line.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-script-text.png') });
    // The tokenizer gives "class" and "extends" the keyword's colour class, "EnergySword" another.
    const classOf = async (text: string) => line.locator('span span', { hasText: new RegExp(`^\\s*${text}\\s*$`) }).first().getAttribute('class');
    const keyword = await classOf('class');
    expect(keyword).toMatch(/mtk\d+/);
    expect(await classOf('extends')).toBe(keyword);
    expect(await classOf('EnergySword')).not.toBe(keyword);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-script-text.png') });
  });
});
