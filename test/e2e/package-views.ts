/**
 * End to end steps for the package view and the dependency graph, run by app.e2e.test.ts in its
 * browser (one host build for both). Opens a Zen package of the cue58 install and checks every
 * tab, navigates through the graph (a click selects the package in the tree), asks why one
 * package needs another, then opens a UT99 map, a UE4.27 material with its thumbnail and a UE5.4
 * map from loose folders. Screenshots go to test-artifacts/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { corpus } from '../support/corpus.js';

import { poll } from './web-session.js';
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';
const AS_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AS_Fixture.uasset';

async function openInstall(page: Page, path: string, container: string): Promise<void> {
  await page.getByTestId('path-input').fill(path);
  await page.getByTestId('path-input').press('Enter');
  await poll(() => page.getByTestId('containers').textContent()).toContain(container);
}

/** Selects a top-level file of the tree and opens its package with Enter. */
async function openWithEnter(page: Page, path: string, name: string): Promise<void> {
  await page.getByTestId('tree').locator(`.row[data-path="${path}"]`).click();
  await page.keyboard.press('Enter');
  await poll(() => page.getByTestId('package-name').textContent()).toBe(name);
}

async function tab(page: Page, id: string): Promise<void> {
  await page.getByTestId(`package-tab-${id}`).click();
}

const text = async (page: Page, testId: string): Promise<string> => ((await page.getByTestId(testId).textContent()) ?? '').replace(/\s+/g, ' ').trim();

export async function checkPackageViews(page: Page, artifacts: string): Promise<void> {
  // ---- a Zen package: opened with the details pane's button ----
  await openInstall(page, corpus('cue58/IoStore/Tagged/Uncompressed'), 'CUE4ParseFixtures-Minimal-Uncompressed-Windows');
  await page.getByTestId('filter').fill('AC_Fixture');
  await page.getByTestId('tree').locator(`.row[data-path="${AC_FIXTURE}"]`).click();
  await page.getByTestId('open-package').click();
  await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Animations/AC_Fixture');
  // An animation composite opens on its Animation tab, as a mesh opens on its 3D view.
  await poll(() => page.getByTestId('package-tab-view-animation').getAttribute('aria-selected')).toBe('true');
  await tab(page, 'summary');
  expect(await page.getByTestId('package-format').textContent()).toBe('Zen · UE5.6-5.8');
  expect(await text(page, 'summary-flags')).toMatch(/0x80000200\s*PKG_Cooked\s*PKG_FilterEditorOnly/);
  // The header's versions and the properties' encoding, each line saying what it means (issue 24, 9).
  expect(await text(page, 'version-note-propertyEncoding')).toBe('(no PKG_UnversionedProperties flag: each property stored with its name and type)');
  expect(await text(page, 'version-note-unversionedPackage')).toBe('(the header states its file versions)');
  expect(await text(page, 'summary-header')).toMatch(/headerSize\s*1,058/);
  await page.screenshot({ path: join(artifacts, 'e2e-package-summary.png') });

  await tab(page, 'names');
  const names = page.getByTestId('names-table');
  await poll(() => names.locator('.row').first().textContent()).toContain('/Script/CoreUObject');
  await page.getByTestId('names-table-filter').fill('anim');
  await poll(() => text(page, 'names-table-count')).toBe('9 of 25');

  await tab(page, 'imports');
  const imports = page.getByTestId('imports-table');
  await poll(() => imports.locator('.row').first().textContent()).toContain('/Script/Engine.Default__AnimComposite');
  expect(await imports.locator('.row').count()).toBe(7);

  await tab(page, 'exports');
  const exports = page.getByTestId('exports-table');
  await poll(() => exports.locator('.row').first().textContent()).toMatch(/AC_Fixture\s*AnimComposite\s*659/);

  await tab(page, 'table-imported-packages');
  await poll(() => page.getByTestId('extra-table').textContent()).toContain('/Game/Fixtures/Animations/SKEL_Fixture');

  await tab(page, 'json');
  await poll(async () => (await page.getByTestId('text-view').locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ')).toContain('"name": "/Game/Fixtures/Animations/AC_Fixture"');

  // Hex: the bytes name their field; a table's "Bytes" pins the row's field.
  await tab(page, 'hex');
  const dump = page.getByTestId('hex-dump');
  await dump.locator('.b[data-o="20"]').hover();
  await poll(() => page.getByTestId('hex-field').textContent()).toBe('cooked header size');
  expect(await dump.locator('.b.hl').count()).toBe(4);
  await page.getByTestId('hex-fields').locator('[data-region="2"]').hover();
  await poll(() => dump.locator('.b.hl').count()).toBe(8);
  await page.mouse.move(0, 0);
  await tab(page, 'exports');
  await exports.locator('.row').first().hover();
  await exports.locator('.row').first().getByTitle('Show these bytes in the Hex tab').click();
  await page.mouse.move(0, 0);
  await poll(() => page.getByTestId('hex-field').textContent()).toBe('export 0 (AC_Fixture): cooked serial offset');
  await page.screenshot({ path: join(artifacts, 'e2e-package-hex.png') });

  // ---- the graph: counts, most referenced, a click goes to the package ----
  await tab(page, 'graph');
  await poll(() => text(page, 'graph-counts')).toBe('needs 2 · needed by 0');
  await poll(() => text(page, 'graph-stats')).toMatch(/Packages\s*97/);
  expect(await page.getByTestId('graph-top-item').first().textContent()).toContain('SKEL_Fixture');
  await page.getByTestId('graph-depth').locator('xpath=following-sibling::button').click();
  await poll(() => page.getByTestId('graph-node').count()).toBe(6);
  // An unnamed package would show as 16 hex digits; these are named from the importers' headers.
  expect(await page.locator('[data-testid=graph-node][data-name="/Engine/Animation/DefaultAnimBoneCompressionSettings"]').count()).toBe(1);
  await page.screenshot({ path: join(artifacts, 'e2e-graph.png') });

  await page.locator('[data-testid=graph-node][data-name="/Game/Fixtures/Animations/AS_Fixture"]').click();
  await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Animations/AS_Fixture');
  // The tree keeps its filter (issue 24, 4): the package is not in view, so no row claims to be shown; the graph tab kept.
  expect(await page.getByTestId('filter').inputValue()).toBe('AC_Fixture');
  await poll(() => page.getByTestId('tree').locator('.row.selected').count()).toBe(0);
  expect(await page.getByTestId('package-view').locator('.sub .path').textContent()).toBe(AS_FIXTURE);
  await poll(() => page.getByTestId('match-count').textContent()).toMatch(/^\s*1 match\s*$/);
  await poll(() => text(page, 'graph-counts')).toMatch(/^needs \d+ · needed by 5/);

  // Why does it need DefaultAnimBoneCompressionSettings: the chain, highlighted.
  await page.getByTestId('graph-why').fill('DefaultAnimBone');
  await page.getByTestId('graph-suggestion').first().click();
  await poll(() => text(page, 'graph-chain')).toMatch(/\/Game\/Fixtures\/Animations\/AS_Fixture\s*imports\s*\/Engine\/Animation\/DefaultAnimBoneCompressionSettings/);
  await poll(() => page.locator('[data-testid=graph-node].onpath').count()).toBe(2);
  await page.screenshot({ path: join(artifacts, 'e2e-graph-path.png') });

  // ---- a UT99 map (UE1) ----
  await openInstall(page, corpus('legacy'), 'legacy');
  await openWithEnter(page, 'ut99_1HH-TestBox-Large.unr', 'ut99_1HH-TestBox-Large');
  expect(await page.getByTestId('package-format').textContent()).toBe('Unreal Tournament (UT99)');
  await tab(page, 'exports');
  await page.getByTestId('exports-table-filter').fill('LevelInfo');
  await poll(() => page.getByTestId('exports-table').locator('.row').first().textContent()).toMatch(/LevelInfo0\s*LevelInfo/);
  await tab(page, 'imports');
  await page.getByTestId('imports-table-tree').click();
  await poll(() => page.getByTestId('imports-table').locator('.row').nth(1).textContent()).toMatch(/Ammocount\s*Package\s*Botpack\.Ammocount/);
  await page.screenshot({ path: join(artifacts, 'e2e-package-ut99.png') });

  // ---- a UE4.27 material with its thumbnail (double-click), then a UE5.4 map ----
  await openInstall(page, corpus('uncooked'), 'uncooked');
  await page.getByTestId('tree').locator('.row[data-path="uapi427_TestMaterial.uasset"]').dblclick();
  await poll(() => page.getByTestId('package-name').textContent()).toBe('/Game/TestMaterial');
  await tab(page, 'thumbnails');
  const img = page.getByTestId('thumbnail-image');
  await poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(256);
  expect(await img.getAttribute('src')).toMatch(/^blob:/);
  await page.screenshot({ path: join(artifacts, 'e2e-package-thumbnail.png') });
  await page.getByTestId('package-close').click();
  expect(await page.getByTestId('package-view').count()).toBe(0);

  await openWithEnter(page, 'ue54_LevelOne.umap', '/Game/Levels/LevelOne');
  expect(await page.getByTestId('package-format').textContent()).toBe('UE5 · 5.4');
  await tab(page, 'exports');
  await poll(() => page.getByTestId('exports-table').textContent()).toContain('PersistentLevel');
  await page.screenshot({ path: join(artifacts, 'e2e-package-ue5.png') });
}
