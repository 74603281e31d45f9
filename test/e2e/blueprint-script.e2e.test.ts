/**
 * End to end: a Blueprint package opens on its Script tab, the functions' bytecode decoded into
 * pseudo-code in the read-only Monaco view (core/kismet; the lines checked are the ones read from
 * the .uexp by hand in test/kismet/script.test.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { ARTIFACTS, haveChromium, poll, useWebSession } from './web-session.js';

describe.skipIf(!haveChromium)('Blueprint script in Chromium', () => {
  const web = useWebSession(corpus('cooked'));

  it('shows BP_ThirdPersonCharacter\'s functions as pseudo-code on the Script tab', async () => {
    const { page } = web;
    await page.goto(web.session.url);
    const row = page.getByTestId('tree').locator('.row[data-path="retoc55_BP_ThirdPersonCharacter.uasset"]');
    await row.waitFor();
    await row.click();
    await page.keyboard.press('Enter');
    await page.getByTestId('package-tab-view-script').waitFor();
    expect(await page.getByTestId('package-tab-view-script').textContent()).toContain('Script');
    await page.getByTestId('asset-text').waitFor();
    await poll(() => page.getByTestId('asset-text-name').textContent()).toBe('BP_ThirdPersonCharacter_C.txt');
    expect(await page.getByTestId('asset-text-description').textContent()).toBe('Blueprint bytecode as pseudo-code · 6 functions');
    await page.locator('.monaco-editor .view-line', { hasText: 'void ExecuteUbergraph_BP_ThirdPersonCharacter(int32 EntryPoint)' }).waitFor();
    await page.locator('.monaco-editor .view-line', { hasText: 'local Controller* K2Node_Event_OldController;' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-blueprint-script.png') });
    // Monaco is read-only: typing changes nothing.
    await page.locator('.monaco-editor .view-line').first().click();
    await page.keyboard.type('xyz');
    expect(await page.locator('.monaco-editor .view-line', { hasText: 'xyz' }).count()).toBe(0);
    // Further down: ReceiveControllerChanged's call into the ubergraph at entry 10.
    await page.locator('.monaco-editor').first().click();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('entry of ReceiveControllerChanged');
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-line', { hasText: 'L_000a: // entry of ReceiveControllerChanged' }).waitFor();
    await page.locator('.monaco-editor .view-line', { hasText: 'K2Node_DynamicCast_AsPlayer_Controller = Cast<PlayerController>(K2Node_Event_NewController)' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-blueprint-script-call.png') });
  });
});
