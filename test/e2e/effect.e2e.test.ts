/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install.
 * - MS_Source opens on its MetaSound tab: the output format Mono (CUE4Parse's fixture test), its
 *   three interfaces, the OnPlay input's default false, and the graph: three node boxes (the
 *   Input.Trigger node left of the two Output nodes), each with an input pin and an output pin.
 * - MS_Patch's graph has no nodes, which the tab says.
 * - NS_Fixture opens on its Niagara tab: User.FixtureScale 3.25 and the texture data interface
 *   whose Texture is T_BC3 (the fixture test's values), no emitters; the T_BC3 link opens that
 *   texture on its Texture tab.
 * Screenshots go to test-artifacts/. Any console error fails.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll as pollUi, openPackageFromTree, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const EFFECTS = 'CUE4ParseFixtures/Content/Fixtures/Effects';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);

describe.skipIf(skipBrowser)('MetaSound and Niagara views in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);

  it('draws MS_Source\'s graph and lists NS_Fixture\'s user parameters, whose texture link opens T_BC3', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');

    await openPackageFromTree(page, 'MS_Source', `${EFFECTS}/MS_Source.uasset`);
    await poll(() => page.getByTestId('package-tab-view-metasound').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('package-tab-view-metasound').textContent()).toContain('MetaSound');
    await poll(() => page.getByTestId('metasound-node').count()).toBe(3);
    expect(await page.getByTestId('metasound-format').textContent()).toBe('Output Mono');
    expect(await page.getByTestId('metasound-counts').textContent()).toBe('3 nodes, 0 edges');
    expect((await page.getByTestId('metasound-interface').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()))
      .toEqual(['UE.Source 1.1', 'UE.Source.OneShot 1.0', 'UE.OutputFormat.Mono 1.0']);
    expect((await page.getByTestId('metasound-input').textContent())!.replace(/\s+/g, ' ').trim()).toBe('UE.Source.OnPlay Trigger = false');
    const nodes = page.getByTestId('metasound-node');
    expect(await nodes.evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), e.getAttribute('data-class')]))).toEqual([
      ['UE.Source.OnPlay', 'Input.Trigger'], ['UE.Source.OneShot.OnFinished', 'Output.Trigger'], ['UE.OutputFormat.Mono.Audio:0', 'Output.Audio'],
    ]);
    expect(await page.locator('[data-testid="metasound-pin"][data-side="in"]').count()).toBe(3);
    expect(await page.locator('[data-testid="metasound-pin"][data-side="out"]').count()).toBe(3);
    // The input node's box is left of the output nodes' (columns from the class types).
    const x = async (name: string): Promise<number> => (await page.locator(`[data-testid="metasound-node"][data-name="${name}"]`).boundingBox())!.x;
    const inputX = await x('UE.Source.OnPlay');
    expect(inputX).toBeLessThan(await x('UE.Source.OneShot.OnFinished'));
    expect(inputX).toBeLessThan(await x('UE.OutputFormat.Mono.Audio:0'));
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-metasound.png') });

    // MS_Patch's one page has no nodes: said so, and no format (a patch has none).
    await openPackageFromTree(page, 'MS_Patch', `${EFFECTS}/MS_Patch.uasset`);
    await poll(() => page.getByTestId('metasound-empty').count()).toBe(1);
    expect([await page.getByTestId('metasound-format').count(), await page.getByTestId('metasound-counts').textContent()]).toEqual([0, '0 nodes, 0 edges']);

    await openPackageFromTree(page, 'NS_Fixture', `${EFFECTS}/NS_Fixture.uasset`);
    await poll(() => page.getByTestId('package-tab-view-niagara').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('niagara-parameter').count()).toBe(2);
    const rows = await page.getByTestId('niagara-parameter').evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), e.querySelector('[data-testid="niagara-value"]')!.textContent]));
    expect(rows).toEqual([['FixtureScale', '3.25'], ['FixtureTexture', 'NiagaraDataInterfaceTexture_0']]);
    expect(await page.getByTestId('niagara-counts').textContent()).toBe('2 user parameters, 0 emitters');
    expect(await page.getByTestId('niagara-no-emitters').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-niagara.png') });

    // The data interface's texture opens on its Texture tab.
    await page.getByTestId('niagara-parameter').filter({ hasText: 'FixtureTexture' }).getByTestId('niagara-link').click();
    await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Textures/T_BC3');
    await poll(() => page.getByTestId('package-tab-view-texture').getAttribute('aria-selected')).toBe('true');
    expect(web.problems).toEqual([]);
  });
});
