/**
 * The Properties tab's API on real installs: every export's properties with byte ranges that
 * land on the value's bytes in the package stream the hex view reads (IoStore, a classic
 * .uasset/.uexp pair in a pak, a UE1 package), object references resolved to imports, exports
 * and packages of the install, the .usmap chosen and remembered per install (cue58's mappings,
 * and BlankGame's to read its unversioned material), and the tree and FModel-style JSON the
 * renderer makes from it (src/renderer/src/lib/properties-*.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import type { Dialogs } from '../../src/backend/dialogs.js';
import type { PropertyEntry } from '../../src/core/properties/types.js';
import { fmodelJson } from '../../src/renderer/src/lib/properties-json.js';
import { PropertyTree, emptyReason, parseTypeName, shortType } from '../../src/renderer/src/lib/properties-tree.js';
import { validateRequest, type ExportPropertiesView, type PackagePropertiesView } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';

const IOSTORE = corpus('cue58/IoStore/Tagged/Uncompressed');
const LEGACY_PAK = corpus('cue58/LegacyPak/Tagged/Uncompressed/CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak');
const DA_PATH = 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset';
const DA = '/Game/Fixtures/Properties/DA_AllProperties';
const CUE58_USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Oodle.usmap');
const BLANKGAME_USMAP = corpus('cooked/uapi54_BlankGame_Dumper-7.usmap');
const noDialogs: Dialogs = { pickFolder: async () => null, pickFile: async () => null };
const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };

let configDir: string;
let backend: Backend;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pakscope-props-app-'));
  backend = new Backend({ configDir, dialogs: noDialogs, info, anyPath: true });
});
afterAll(async () => {
  await backend.close();
  await rm(configDir, { recursive: true, force: true });
});

const exportNamed = (v: PackagePropertiesView, name: string): ExportPropertiesView => {
  const e = v.exports.find((x) => x.name === name);
  if (!e) throw new Error(`no export ${name}`);
  return e;
};
const entry = (list: readonly PropertyEntry[], name: string): PropertyEntry => {
  const e = list.find((x) => x.name === name);
  if (!e) throw new Error(`no property ${name}`);
  return e;
};

/** The bytes of an entry's value as the hex view reads them: readPackageBytes at the export's stream offset. */
async function valueBytes(installId: string, path: string, exp: ExportPropertiesView, e: PropertyEntry): Promise<string> {
  const r = e.range!;
  const { bytes } = await backend.readPackageBytes({ installId, path, offset: exp.streamOffset + r.value, length: r.end - r.value });
  return Buffer.from(bytes).toString('hex');
}

describe('packageProperties: cue58 DA_AllProperties in IoStore', () => {
  let installId: string;
  let view: PackagePropertiesView;
  let da: ExportPropertiesView;
  beforeAll(async () => {
    installId = (await backend.openInstall({ path: IOSTORE })).id;
    view = await backend.packageProperties({ installId, path: DA_PATH });
    da = exportNamed(view, 'DA_AllProperties');
  });

  it('gives every export with where its bytes are in the package stream', () => {
    expect(view).toMatchObject({ path: DA_PATH, package: DA, format: 'zen', mappings: null, mappingsNeeded: false, warnings: [] });
    expect(view.exports.map((e) => [e.index, e.name, e.class, e.encoding, e.propertyBytes, e.serialSize, e.streamOffset, e.error, e.outer])).toEqual([
      [0, 'InlineFixture', 'FixtureInlineObject', 'tagged', 368, 372, 3861, null, `${DA}.DA_AllProperties`],
      [1, 'DA_AllProperties', 'ParserFixtureData', 'tagged', 7441, 7445, 4233, null, null],
    ]);
    expect(da.flags).toEqual(['RF_Public', 'RF_Standalone']);
    // What travels over IPC and HTTP: plain JSON.
    expect(JSON.parse(JSON.stringify(view))).toEqual({ ...view, links: { ...view.links } });
  });

  it('ranges: tag then value, and the value bytes in the stream are the value', async () => {
    const integer = entry(da.properties, 'Integer');
    expect(integer.value).toBe(0x12345678);
    // UE5.4+ tag: name (8), type name tree (8 + 4), size (4), flags (1) = 25 bytes.
    expect(integer.range).toEqual({ start: 52, value: 77, end: 81 });
    expect(await valueBytes(installId, DA_PATH, da, integer)).toBe('78563412');
    const float = entry(da.properties, 'Float');
    const floatHex = await valueBytes(installId, DA_PATH, da, float);
    expect(Buffer.from(floatHex, 'hex').readFloatLE(0)).toBe(1234.25);
    // A bool's value lives in its tag: no value bytes.
    const bool = entry(da.properties, 'bBoolean');
    expect(bool.range!.value).toBe(bool.range!.end);
    // Consecutive properties leave no gap; the stream starts after the serialization control byte.
    expect(da.properties[0]!.range!.start).toBe(1);
    for (let i = 1; i < da.properties.length; i++) expect(da.properties[i]!.range!.start).toBe(da.properties[i - 1]!.range!.end);
    expect(da.properties.at(-1)!.range!.end).toBeLessThan(da.propertyBytes); // then the "None" that ends the list
  });

  it('elements: where each array, set and map element starts', async () => {
    const ints = entry(da.properties, 'IntegerArray');
    expect(ints.value).toEqual([11, 22, 33, 44]);
    expect(ints.elements).toEqual([2371, 2375, 2379, 2383]);
    const { bytes } = await backend.readPackageBytes({ installId, path: DA_PATH, offset: da.streamOffset + ints.elements![2]!, length: 4 });
    expect(Buffer.from(bytes).readInt32LE(0)).toBe(33);
    const structs = entry(da.properties, 'StructArray');
    expect(structs.elements).toEqual([2452, 2675, 2899]);
    // Element 1's own properties lie inside it: its Marker is 2.
    const second = (structs.value as PropertyEntry[][])[1]!;
    const marker = entry(second, 'Marker');
    expect(marker.value).toBe(2);
    expect(marker.range!.start).toBe(2675);
    expect(await valueBytes(installId, DA_PATH, da, marker)).toBe('02000000');
    expect(entry(da.properties, 'IntegerMap').elements).toHaveLength(3);
  });

  it('links: imports, exports and soft references to packages of the install', () => {
    expect(view.links['/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties']).toEqual({
      kind: 'import', index: 3, class: 'DataTable', package: '/Game/Fixtures/DataTables/DT_AllProperties',
      packagePath: 'CUE4ParseFixtures/Content/Fixtures/DataTables/DT_AllProperties.uasset',
    });
    expect(view.links[`${DA}.DA_AllProperties:InlineFixture`]).toEqual({ kind: 'export', index: 0, class: 'FixtureInlineObject', package: DA, packagePath: null });
    expect(view.links['/Game/Fixtures/Textures/T_BC6H.T_BC6H']).toEqual({
      kind: 'package', class: '', package: '/Game/Fixtures/Textures/T_BC6H', packagePath: 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC6H.uasset',
    });
    expect(view.links['/Script/Engine.Texture2D']).toMatchObject({ kind: 'import', index: 2, package: '/Script/Engine', packagePath: null });
    // Strings that name nothing are not links.
    expect(view.links['Fixture_Name_0xC0FFEE']).toBeUndefined();
  });

  it('raw values keep their range; exports without a property stream say why', async () => {
    const cr = await backend.packageProperties({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/ControlRig/CR_Fixture.uasset' });
    const bag = cr.exports.flatMap((e) => e.properties.map((p) => ({ e, p }))).find(({ p }) => p.raw)!;
    expect([bag.p.name, bag.p.type, bag.p.range]).toEqual(['Variables', 'StructProperty<RigVMPropertyBag>', { start: 312, value: 361, end: 381 }]);
    expect(await valueBytes(installId, 'CUE4ParseFixtures/Content/Fixtures/ControlRig/CR_Fixture.uasset', bag.e, bag.p)).toBe(bag.p.value);
    const hierarchy = exportNamed(cr, 'Hierarchy');
    expect([hierarchy.encoding, hierarchy.notes]).toEqual(['none', ['a RigHierarchy serializes its own data, with no property stream']]);
    expect(emptyReason(hierarchy)).toBe('a RigHierarchy serializes its own data, with no property stream');
  });

  it('is read once per package, engine and mappings', async () => {
    const again = await backend.packageProperties({ installId, path: DA_PATH });
    expect(again).toBe(view);
  });
});

describe('packageProperties: the classic .uasset/.uexp and UE1', () => {
  it('the legacy pak\'s DA_AllProperties: the same values, ranges into the .uasset + .uexp stream', async () => {
    const installId = (await backend.openInstall({ path: LEGACY_PAK })).id;
    const view = await backend.packageProperties({ installId, path: DA_PATH });
    expect(view.format).toBe('uasset');
    const da = exportNamed(view, 'DA_AllProperties');
    expect([da.streamOffset, da.propertyBytes, da.serialSize]).toEqual([da.streamOffset, 7441, 7445]);
    expect(da.streamOffset).toBeGreaterThan(0);
    const integer = entry(da.properties, 'Integer');
    expect(await valueBytes(installId, DA_PATH, da, integer)).toBe('78563412');
    expect(view.links['/Game/Fixtures/Textures/T_BC7.T_BC7']).toMatchObject({ kind: 'import', class: 'Texture2D' });
  });

  it('a UT99 class: its default properties, with their bytes', async () => {
    const installId = (await backend.openInstall({ path: corpus('legacy') })).id;
    const view = await backend.packageProperties({ installId, path: 'ut99_EnergySword.u' });
    const sword = exportNamed(view, 'EnergySword');
    expect(sword.encoding).toBe('ue12');
    const damage = entry(sword.properties, 'Damage');
    expect(damage.value).toBe(50);
    expect(await valueBytes(installId, 'ut99_EnergySword.u', sword, damage)).toBe('32000000');
  });
});

describe('mappings per install', () => {
  it('a .usmap is read before it is remembered; a bad file changes nothing', async () => {
    const installId = (await backend.openInstall({ path: IOSTORE })).id;
    expect(await backend.mappingsStatus({ installId })).toEqual({ path: null, canPick: false });
    await expect(backend.setMappings({ installId, path: corpus('cooked/uapi54_MI_BlueCube.uasset') })).rejects.toThrow(/not a mappings file/);
    await expect(backend.setMappings({ installId, path: join(configDir, 'none.usmap') })).rejects.toThrow(/no such file/);
    expect((await backend.mappingsStatus({ installId })).path).toBeNull();
    const set = await backend.setMappings({ installId, path: CUE58_USMAP });
    expect(set).toMatchObject({ path: CUE58_USMAP, canPick: false, summary: { compression: 'Oodle' } });
    expect(set.summary!.structs).toBeGreaterThan(8000);
    // Remembered in the config folder: another backend (the app started again) finds it.
    const other = new Backend({ configDir, dialogs: noDialogs, info, anyPath: true });
    try {
      const id = (await other.openInstall({ path: IOSTORE })).id;
      expect((await other.mappingsStatus({ installId: id })).path).toBe(CUE58_USMAP);
      // Tagged packages read the same with mappings.
      const da = exportNamed(await other.packageProperties({ installId: id, path: DA_PATH }), 'DA_AllProperties');
      expect(entry(da.properties, 'Integer').value).toBe(0x12345678);
    } finally {
      await other.close();
    }
    expect(await backend.setMappings({ installId, path: '' })).toEqual({ path: null, canPick: false });
    expect((await backend.mappingsStatus({ installId })).path).toBeNull();
  });

  it('an unversioned package: a note without mappings, its values with them', async () => {
    const installId = (await backend.openInstall({ path: corpus('cooked') })).id;
    const before = await backend.packageProperties({ installId, path: 'uapi54_MI_BlueCube.uasset' });
    expect(before.mappingsNeeded).toBe(true);
    expect(before.exports[0]).toMatchObject({ name: 'MI_BlueCube', encoding: 'unversioned', properties: [], error: null });
    await backend.setMappings({ installId, path: BLANKGAME_USMAP });
    const after = await backend.packageProperties({ installId, path: 'uapi54_MI_BlueCube.uasset' });
    expect([after.mappingsNeeded, after.mappings]).toEqual([false, BLANKGAME_USMAP]);
    const mi = after.exports[0]!;
    expect(mi.properties.map((p) => p.name)).toEqual(['Parent', 'ScalarParameterValues', 'VectorParameterValues', 'BasePropertyOverrides', 'bIncludedInBaseGame', 'TextureStreamingData']);
    const parent = entry(mi.properties, 'Parent');
    expect(parent.value).toBe('/Game/Materials/M_Cube.M_Cube');
    // Unversioned values have no tag: the range is the value, an FPackageIndex of 4 bytes: -2, import 1.
    expect(parent.range).toEqual({ start: 14, value: 14, end: 18 });
    expect(await valueBytes(installId, 'uapi54_MI_BlueCube.uasset', mi, parent)).toBe('feffffff');
    expect(after.links['/Game/Materials/M_Cube.M_Cube']).toMatchObject({ kind: 'import', index: 1, class: 'Material', packagePath: null });
  });

  it('pickMappings: the native dialog where there is one, null elsewhere', async () => {
    const installId = (await backend.openInstall({ path: IOSTORE })).id;
    expect(await backend.pickMappings({ installId })).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), 'pakscope-props-pick-'));
    const withDialog = new Backend({ configDir: dir, dialogs: { ...noDialogs, pickMappingsFile: async () => CUE58_USMAP }, info, anyPath: true });
    try {
      const id = (await withDialog.openInstall({ path: IOSTORE })).id;
      expect((await withDialog.mappingsStatus({ installId: id })).canPick).toBe(true);
      expect(await withDialog.pickMappings({ installId: id })).toMatchObject({ path: CUE58_USMAP, canPick: true });
    } finally {
      await withDialog.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('requests are validated', () => {
    expect(validateRequest('packageProperties', { installId: 'a', path: 'b', engine: '5.4' })).toEqual({ installId: 'a', path: 'b', engine: '5.4' });
    expect(() => validateRequest('setMappings', { installId: 'a' })).toThrow(/missing field "path"/);
    expect(() => validateRequest('pickMappings', { installId: 'a', path: 'x' })).toThrow(/unknown field "path"/);
    expect(() => validateRequest('mappingsStatus', { installId: 3 })).toThrow(/wrong type/);
  });
});

describe('the renderer\'s tree and FModel-style JSON', () => {
  let view: PackagePropertiesView;
  let da: ExportPropertiesView;
  beforeAll(async () => {
    const installId = (await backend.openInstall({ path: IOSTORE })).id;
    view = await backend.packageProperties({ installId, path: DA_PATH });
    da = exportNamed(view, 'DA_AllProperties');
  });

  it('type names', () => {
    expect(parseTypeName('MapProperty<NameProperty, StructProperty<FixtureNestedStruct>>')).toEqual({ name: 'MapProperty', params: ['NameProperty', 'StructProperty<FixtureNestedStruct>'] });
    expect(shortType('ArrayProperty<StructProperty<Vector>>')).toBe('Array<Struct<Vector>>');
  });

  it('nodes: values, structs and containers open to their members, with ranges', () => {
    const tree = new PropertyTree(da, view.links);
    expect(tree.roots).toHaveLength(da.properties.length + 1);
    const native = tree.roots.at(-1)!;
    expect([native.name, native.range]).toEqual(['Native data', { start: 7441, value: 7441, end: 7445, own: true }]);
    const byName = (name: string) => tree.roots.find((n) => n.name === name)!;
    expect(byName('Integer')).toMatchObject({ display: '305419896', kind: 'scalar', range: { start: 52, value: 77, end: 81, own: true } });
    expect(byName('String').display).toBe('"CUE4Parse_日本語_äöü"');
    expect(byName('FixedIntegerArray[2]').display).toBe('2147483647');
    expect(byName('HardObjectReference')).toMatchObject({ link: '/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties' });
    const nested = byName('Nested');
    expect(nested.display).toMatch(/^\{Marker: 777, Label: "PrimaryNested_日本語", Position: \{X: 7, Y: 8, Z: 9\}/);
    expect(tree.children(nested).map((n) => [n.name, n.display])).toEqual([
      ['Marker', '777'], ['Label', '"PrimaryNested_日本語"'], ['Position', '{X: 7, Y: 8, Z: 9}'], ['Samples', expect.stringMatching(/^\d elements? /)], ['bEnabled', 'true'],
    ]);
    const position = tree.children(nested)[2]!;
    // A native struct's fields have no bytes of their own: they show their struct's.
    expect(tree.children(position).map((n) => [n.name, n.display, n.range?.own])).toEqual([['X', '7', false], ['Y', '8', false], ['Z', '9', false]]);
    const array = byName('StructArray');
    expect(array.display.startsWith('3 elements ')).toBe(true);
    const second = tree.children(array)[1]!;
    expect([second.name, second.range]).toEqual(['[1]', { start: 2675, value: 2675, end: 2899, own: true }]);
    expect(tree.children(second)[1]!.display).toBe('"Second"');
    expect(tree.label(second.id)).toBe('StructArray[1]');
    expect(tree.label(tree.children(second)[1]!.id)).toBe('StructArray[1].Label');
    const map = tree.children(byName('IntegerMap'));
    expect(map.map((n) => [n.name, n.display])).toEqual([['[Minimum]', '-2147483648'], ['[Answer]', '42'], ['[Marker]', '305419896']]);
    expect(tree.find(second.id)).toBe(second);
  });

  it('rows follow the open nodes; the filter shows matches and what is above them', () => {
    const tree = new PropertyTree(da, view.links);
    const nested = tree.roots.find((n) => n.name === 'Nested')!;
    expect(tree.rows(new Set()).length).toBe(tree.roots.length);
    expect(tree.rows(new Set([nested.id])).length).toBe(tree.roots.length + 5);
    const found = tree.filtered('Second');
    expect(found.rows.map((n) => tree.label(n.id))).toEqual(['StructArray', 'StructArray[1]', 'StructArray[1].Label']);
    expect(tree.openAll().size).toBeGreaterThan(20);
  });

  it('FModel-style JSON: exports, properties, object and soft references', () => {
    const json = fmodelJson(view) as Record<string, unknown>[];
    expect(json.map((e) => [e['Type'], e['Name'], e['Outer'] ?? null])).toEqual([
      ['FixtureInlineObject', 'InlineFixture', 'DA_AllProperties'], ['ParserFixtureData', 'DA_AllProperties', null],
    ]);
    expect(json[1]!['Flags']).toBe('RF_Public | RF_Standalone');
    const p = json[1]!['Properties'] as Record<string, unknown>;
    expect(p['Integer']).toBe(0x12345678);
    expect(p['FixedIntegerArray']).toBe(-2147483648);
    expect(p['FixedIntegerArray[2]']).toBe(2147483647);
    expect(p['Vector']).toEqual({ X: 1.25, Y: -2.5, Z: 3.75 });
    expect((p['Nested'] as Record<string, unknown>)['Label']).toBe('PrimaryNested_日本語');
    expect(p['IntegerMap']).toEqual([{ Key: 'Minimum', Value: -2147483648 }, { Key: 'Answer', Value: 42 }, { Key: 'Marker', Value: 0x12345678 }]);
    expect(p['HardObjectReference']).toEqual({ ObjectName: "DataTable'DT_AllProperties'", ObjectPath: '/Game/Fixtures/DataTables/DT_AllProperties' });
    expect(p['InlineObject']).toEqual({ ObjectName: "FixtureInlineObject'DA_AllProperties:InlineFixture'", ObjectPath: `${DA}.0` });
    // A /Script import's class is not in a Zen package, and UE5.4+ tags name a class reference an ObjectProperty.
    expect(p['ClassReference']).toEqual({ ObjectName: "Object'Texture2D'", ObjectPath: '/Script/Engine' });
    expect(p['SoftTextureReference']).toEqual({ AssetPathName: '/Game/Fixtures/Textures/T_BC6H.T_BC6H', SubPathString: '' });
    expect((p['StructArray'] as Record<string, unknown>[])[2]!['Label']).toBe('Third');
  });
});
