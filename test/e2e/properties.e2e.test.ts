/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore folder. Opens DA_AllProperties'
 * Properties tab, checks values, opens a struct and arrays, marks a property's bytes in the bytes
 * pane and the Hex tab, follows object references (to the Imports and Exports tabs, and to the
 * package they name), reads the FModel-style JSON, sees a raw value and an export without a
 * property stream, then opens an unversioned UE5.4 material of a loose folder and gives it its
 * .usmap by path (browser mode has no file dialog). Screenshots, dark and light, go to
 * test-artifacts/. Any console error fails the test.
 */
import { join } from 'node:path';
import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, skipBrowser, poll as pollUi, useWebSession } from './web-session.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const DA_PATH = `${FIXTURES}/Properties/DA_AllProperties.uasset`;
/** DA_AllProperties' export data starts here in its Zen chunk (after the 3,861-byte header and InlineFixture's 372 bytes). */
const DA_STREAM = 4233;
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 15_000);

const text = async (l: Locator): Promise<string> => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** A row of the properties tree by name, or by id ({ id }): the tree is virtualized, so it is scrolled until the row is drawn. */
async function propRow(page: Page, name: string | { id: string }): Promise<Locator> {
  const viewport = page.getByTestId('props-tree').locator('.viewport');
  const selector = typeof name === 'string' ? `.row[data-name="${name.replace(/"/g, '\\"')}"]` : `.row[data-id="${name.id}"]`;
  const row = page.getByTestId('props-tree').locator(selector).first();
  await viewport.evaluate((el) => { el.scrollTop = 0; });
  await page.waitForTimeout(50); // the rows are drawn on the scroll event
  for (let i = 0; i < 100; i++) {
    if (await row.count() > 0) {
      // Drawn: brought into view (it may be redrawn meanwhile: then look again).
      if (await row.scrollIntoViewIfNeeded({ timeout: 2000 }).then(() => true, () => false)) return row;
      continue;
    }
    await viewport.evaluate((el) => { el.scrollTop += 300; });
    await page.waitForTimeout(30);
  }
  throw new Error(`no property row ${JSON.stringify(name)}`);
}

const valueOf = async (row: Locator): Promise<string> => text(row.locator('.c-value'));

async function openInstall(page: Page, path: string, container: string): Promise<void> {
  await page.getByTestId('path-input').fill(path);
  await page.getByTestId('path-input').press('Enter');
  await poll(() => page.getByTestId('containers').textContent()).toContain(container);
}

describe.skipIf(skipBrowser)('the Properties tab in Chromium (browser host)', () => {
  const web = useWebSession(UNCOMPRESSED);

  it('shows DA_AllProperties: values, structs, arrays, bytes, links and the JSON', async () => {
    await web.page.goto(web.session.url);
    await poll(() => web.page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await web.page.getByTestId('filter').fill('DA_AllProperties');
    await web.page.getByTestId('tree').locator(`.row[data-path="${DA_PATH}"]`).click();
    await web.page.getByTestId('open-package').click();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await web.page.getByTestId('package-tab-properties').click();

    // The exports: the asset is shown first; both read to their end (no error badge).
    const exports = web.page.getByTestId('props-exports');
    await poll(async () => (await exports.getByTestId('props-export').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()))
      .toEqual(['InlineFixture FixtureInlineObject 3', 'DA_AllProperties ParserFixtureData 62']);
    expect(await exports.locator('.export.active .ename').textContent()).toBe('DA_AllProperties');
    expect(await exports.getByTestId('props-export-error').count()).toBe(0);
    expect(await text(web.page.getByTestId('props-head'))).toMatch(/DA_AllProperties ParserFixtureData tagged Properties 0x1089 · 7,441 bytes Native data 0x2D9A · 4 bytes of 7,445/);

    // Scalars.
    expect(await valueOf(await propRow(web.page, 'Integer'))).toBe('305419896');
    expect(await valueOf(await propRow(web.page, 'Float'))).toBe('1234.25');
    expect(await valueOf(await propRow(web.page, 'UnsignedInteger64'))).toBe('18364758544493064720');
    expect(await valueOf(await propRow(web.page, 'String'))).toBe('"CUE4Parse_日本語_äöü"');
    expect(await valueOf(await propRow(web.page, 'Enum'))).toBe('EFixtureEnum::Beta');
    expect(await valueOf(await propRow(web.page, 'Vector'))).toBe('{X: 1.25, Y: -2.5, Z: 3.75}');

    // A struct opens to its properties.
    const nested = await propRow(web.page, 'Nested');
    await nested.getByTestId('props-twisty').click();
    await poll(async () => valueOf(await propRow(web.page, 'Marker'))).toBe('777');
    expect(await valueOf(await propRow(web.page, 'Label'))).toBe('"PrimaryNested_日本語"');
    // Arrays open to their elements; an element struct to its properties.
    await (await propRow(web.page, 'IntegerArray')).getByTestId('props-twisty').click();
    expect(await valueOf(await propRow(web.page, '[2]'))).toBe('33');
    const structArray = await propRow(web.page, 'StructArray');
    const id = await structArray.getAttribute('data-id');
    await structArray.getByTestId('props-twisty').click();
    await (await propRow(web.page, { id: `${id}/1` })).getByTestId('props-twisty').click();
    const label = await propRow(web.page, { id: `${id}/1/1` });
    await poll(async () => valueOf(label)).toBe('"Second"');
    expect(await label.getAttribute('data-name')).toBe('Label');

    // Selecting a property marks its bytes: the 25-byte tag and the value 0x12345678 (little-endian).
    await (await propRow(web.page, 'Integer')).click();
    const pane = web.page.getByTestId('props-bytes');
    await poll(() => pane.locator('.b.mk').count()).toBe(29);
    expect(await pane.locator('.b.mk').first().getAttribute('data-o')).toBe(String(DA_STREAM + 52));
    expect((await pane.locator('.b.mk').allTextContents()).slice(-4)).toEqual(['78', '56', '34', '12']);
    expect(await text(web.page.getByTestId('props-details-range'))).toBe('0x10BD..0x10DA · 29 bytes (tag 25, value 4)');
    expect(await web.page.getByTestId('hex-mark').textContent()).toBe('DA_AllProperties · Integer');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties.png') });

    // An element of an array of structs: its own bytes.
    await (await propRow(web.page, { id: `${id}/1` })).click();
    await poll(() => pane.locator('.b.mk').first().getAttribute('data-o')).toBe(String(DA_STREAM + 2675));
    expect(await web.page.getByTestId('hex-mark').textContent()).toBe('DA_AllProperties · StructArray[1]');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-array.png') });

    // The Hex tab marks the same bytes, with the package's fields beside them.
    await (await propRow(web.page, 'Integer')).click();
    await web.page.getByTestId('props-show-hex').click();
    await web.page.mouse.move(0, 0); // the pointer over the dump would name the field under it instead
    await poll(() => web.page.getByTestId('hex-dump').locator('.b.mk').count()).toBe(29);
    expect(await web.page.getByTestId('hex-mark').textContent()).toBe('DA_AllProperties · Integer');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-hex.png') });

    // An object reference to an import: the side panel's "Import 3" shows its row in the Imports tab.
    await web.page.getByTestId('package-tab-properties').click();
    const hard = await propRow(web.page, 'HardObjectReference');
    expect(await valueOf(hard)).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    await hard.click();
    await web.page.getByTestId('props-link-row').click();
    await poll(() => web.page.getByTestId('imports-table').locator('.row.focused').getAttribute('data-ref')).toBe('import:3');
    expect(await text(web.page.getByTestId('imports-table').locator('.row.focused'))).toMatch(/^3 DT_AllProperties DataTable \/Game\/Fixtures\/DataTables\/DT_AllProperties/);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-import.png') });
    // To an export: the Exports tab.
    await web.page.getByTestId('package-tab-properties').click();
    await (await propRow(web.page, 'InlineObject')).getByTestId('props-link').click();
    await poll(() => web.page.getByTestId('exports-table').locator('.row.focused').getAttribute('data-ref')).toBe('export:0');

    // The export data as JSON, FModel-style.
    await web.page.getByTestId('package-tab-json').click();
    await web.page.getByTestId('json-mode-properties').click();
    const monaco = web.page.getByTestId('text-view').locator('.view-lines');
    await poll(async () => (await monaco.textContent())?.replace(/\u00a0/g, ' ')).toContain('"Type": "ParserFixtureData"');
    expect((await monaco.textContent())?.replace(/\u00a0/g, ' ')).toContain('"Outer": "DA_AllProperties"');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-json.png') });
    await web.page.getByTestId('json-mode-package').click();

    // Following the reference opens the object it names: the import's package, at that export,
    // in the Properties tab. The tree keeps its filter, which hides it: no row is selected.
    await web.page.getByTestId('package-tab-exports').click();
    await web.page.getByTestId('package-tab-properties').click();
    await (await propRow(web.page, 'HardObjectReference')).getByTestId('props-link').click();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/DataTables/DT_AllProperties');
    await poll(() => web.page.getByTestId('props-exports').locator('.export.active').textContent()).toContain('DT_AllProperties');
    expect(await web.page.getByTestId('package-view').locator('.sub .path').textContent()).toBe(`${FIXTURES}/DataTables/DT_AllProperties.uasset`);
    await poll(() => web.page.getByTestId('tree').locator('.row.selected').count()).toBe(0);
    expect(await web.page.getByTestId('filter').inputValue()).toBe('DA_AllProperties');
    expect(await valueOf(await propRow(web.page, 'RowStruct'))).toBe('/Script/CUE4ParseFixtures.FixtureTableRow');
    // A DataTable's rows are its native data: their own row, with their size.
    expect(await valueOf(await propRow(web.page, 'Native data'))).toBe('1,572 bytes after the properties, at +0x26');
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('shows raw values as hex and says why an export has no properties', async () => {
    await web.page.getByTestId('filter').fill('CR_Fixture');
    await web.page.getByTestId('tree').locator(`.row[data-path="${FIXTURES}/ControlRig/CR_Fixture.uasset"]`).click();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/ControlRig/CR_Fixture');
    // The asset (export 3) is shown first; the editor-only exports around it have their own.
    await poll(() => web.page.getByTestId('props-exports').locator('.export.active').getAttribute('data-index')).toBe('3');
    const variables = await propRow(web.page, 'Variables');
    expect(await text(variables.locator('.c-type'))).toBe('Struct<RigVMPropertyBag>raw');
    expect(await valueOf(variables)).toMatch(/^20 bytes: [0-9A-F]{2}( [0-9A-F]{2}){19}$/);
    await variables.click();
    await poll(() => web.page.getByTestId('props-bytes').locator('.b.mk').count()).toBe(69);
    // Wide: the details beside the bytes.
    await web.page.setViewportSize({ width: 1800, height: 1000 });
    await poll(() => web.page.getByTestId('props-details').evaluate((el) => el.getBoundingClientRect().left > el.previousElementSibling!.getBoundingClientRect().left)).toBe(true);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-wide.png') });
    await web.page.setViewportSize({ width: 1360, height: 840 });
    await web.page.getByTestId('props-exports').locator('.export[data-index="5"]').click();
    await poll(() => text(web.page.getByTestId('props-reason'))).toBe('a RigHierarchy serializes its own data, with no property stream');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-none.png') });
    expect(web.problems).toEqual([]);
  }, 60_000);

  it('reads an unversioned package once given its .usmap', async () => {
    await openInstall(web.page, corpus('cooked'), 'cooked');
    await web.page.getByTestId('filter').fill('MI_BlueCube');
    await web.page.getByTestId('tree').locator('.row[data-path="uapi54_MI_BlueCube.uasset"]').dblclick();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Materials/MI_BlueCube');
    await web.page.getByTestId('package-tab-properties').click();
    const panel = web.page.getByTestId('usmap-panel');
    await poll(() => text(panel)).toContain('This package\'s properties are unversioned: they need the game\'s mappings (.usmap) to be read.');
    expect(await web.page.getByTestId('props-exports').getByTestId('props-export').textContent()).toContain('usmap');
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-usmap-needed.png') });

    // A file that is not a .usmap: refused, nothing remembered.
    await web.page.getByTestId('usmap-path').fill(corpus('cooked/uapi54_MI_BlueCube.uasset'));
    await web.page.getByTestId('usmap-use').click();
    await poll(() => text(web.page.getByTestId('usmap-error'))).toContain('not a mappings file');

    await web.page.getByTestId('usmap-path').fill(corpus('cooked/uapi54_BlankGame_Dumper-7.usmap'));
    await web.page.getByTestId('usmap-use').click();
    await poll(async () => valueOf(await propRow(web.page, 'Parent'))).toBe('/Game/Materials/M_Cube.M_Cube');
    expect(await web.page.getByTestId('usmap-panel').count()).toBe(0);
    expect(await text(web.page.getByTestId('props-usmap-chip'))).toBe('.usmap: uapi54_BlankGame_Dumper-7.usmap');
    expect(await valueOf(await propRow(web.page, 'bIncludedInBaseGame'))).toBe('true');
    await (await propRow(web.page, 'BasePropertyOverrides')).getByTestId('props-twisty').click();
    expect(await valueOf(await propRow(web.page, 'OpacityMaskClipValue'))).toBe('0.3333');
    // Unversioned values have no tag: Parent's 4 bytes are the FPackageIndex -2 (import 1).
    await (await propRow(web.page, 'Parent')).click();
    await poll(async () => web.page.getByTestId('props-bytes').locator('.b.mk').allTextContents()).toEqual(['FE', 'FF', 'FF', 'FF']);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-usmap.png') });

    // Mappings of another build (UE5.4's for a UE5.5 widget): the exports they do not fit get an error badge.
    await web.page.getByTestId('filter').fill('WBP_Hello');
    await web.page.getByTestId('tree').locator('.row[data-path="uapi55_WBP_Hello.uasset"]').dblclick();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Blueprints/WBP_Hello');
    await poll(async () => (await web.page.getByTestId('props-exports').locator('.export:has([data-testid=props-export-error]) .ename').allTextContents()).sort())
      .toEqual(['Default__WBP_Hello_C', 'TextBlock_51']);
    await web.page.getByTestId('props-exports').locator('.export', { hasText: 'TextBlock_51' }).click();
    await poll(() => text(web.page.getByTestId('props-export-error-text'))).toMatch(/^Reading stopped: .*object index 37963648 is outside the import and export maps/);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-error.png') });

    // The same views in the light theme.
    await web.page.emulateMedia({ colorScheme: 'light' });
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-usmap-light.png') });
    await openInstall(web.page, UNCOMPRESSED, 'CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await web.page.getByTestId('filter').fill('DA_AllProperties');
    await web.page.getByTestId('tree').locator(`.row[data-path="${DA_PATH}"]`).dblclick();
    await poll(() => web.page.getByTestId('package-name').textContent()).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    await web.page.getByTestId('package-tab-properties').click();
    await (await propRow(web.page, 'StructMap')).getByTestId('props-twisty').click();
    await (await propRow(web.page, '[Left]')).click();
    await poll(() => web.page.getByTestId('props-bytes').locator('.b.mk').count()).toBeGreaterThan(100);
    await web.page.screenshot({ path: join(ARTIFACTS, 'e2e-properties-light.png') });
    await web.page.emulateMedia({ colorScheme: 'dark' });
    expect(web.problems).toEqual([]);
  }, 90_000);
});
