/**
 * The UE5.8 CUE4Parse fixtures (tagged, UE5.4+ tags with complete type names): DA_AllProperties
 * holds every property type, with the values CUE4Parse's FixturePropertyAssetTests assert. The
 * IoStore (Zen) package and the classic .uasset/.uexp of the legacy pak give the same values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { whenCodecsReady } from '../../src/core/codecs/registry.js';
import { installPackageProperties } from '../../src/core/properties/open.js';
import type { ExportProperties, PackageProperties, PropertyValue } from '../../src/core/properties/types.js';
import { corpus } from '../support/corpus.js';
import { allEntries, entry, exportNamed, installProperties, prop, withInstall } from './helpers.js';

const IOSTORE = corpus('cue58', 'IoStore', 'Tagged', 'Uncompressed');
const LEGACY_PAK = corpus('cue58', 'LegacyPak', 'Tagged', 'Uncompressed', 'CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak');
const DA = '/Game/Fixtures/Properties/DA_AllProperties';

type Obj = Record<string, PropertyValue>;

describe('cue58 DA_AllProperties (IoStore, tagged)', () => {
  let pkg: PackageProperties;
  let da: ExportProperties;
  beforeAll(async () => {
    await whenCodecsReady();
    pkg = await installProperties(IOSTORE, DA);
    da = exportNamed(pkg, 'DA_AllProperties');
  });

  it('reads both exports to their terminators, inside their serial ranges', () => {
    expect(pkg.package).toBe(DA);
    expect(pkg.exports.map((e) => [e.name, e.class, e.propertyBytes, e.serialSize, e.error, e.encoding])).toEqual([
      ['InlineFixture', 'FixtureInlineObject', 368, 372, null, 'tagged'],
      ['DA_AllProperties', 'ParserFixtureData', 7441, 7445, null, 'tagged'],
    ]);
    expect(allEntries(da.properties).filter((e) => e.raw)).toEqual([]);
  });

  it('runtime values: integers, floats, strings, names, text', () => {
    expect(prop(da, 'BaseMarker')).toBe(0x0badf00d);
    expect(prop(da, 'BaseString')).toBe('Inherited_Base_Value');
    expect(prop(da, 'bBoolean')).toBe(true);
    expect(prop(da, 'Byte')).toBe(0xab);
    expect(prop(da, 'Integer')).toBe(0x12345678);
    // 0x1122334455667788 is past 2^53: a decimal string.
    expect(prop(da, 'Integer64')).toBe('1234605616436508552');
    expect(prop(da, 'Float')).toBe(1234.25);
    expect(prop(da, 'Double')).toBe(-987654.125);
    expect(prop(da, 'String')).toBe('CUE4Parse_日本語_äöü');
    expect(prop(da, 'AnsiString')).toBe('Fixture_ANSI_123');
    expect(prop(da, 'Utf8String')).toBe('Fixture_UTF8_日本語_Ω');
    expect(prop(da, 'Name')).toBe('Fixture_Name_0xC0FFEE');
    expect(prop(da, 'RegistryMarker')).toBe('Registry_0xC0FFEE');
    expect(prop(da, 'Text')).toBe('Localized-ish fixture text Ω');
    expect(prop(da, 'Enum')).toBe('EFixtureEnum::Beta');
    expect(entry(da, 'Enum').type).toBe('EnumProperty<EFixtureEnum>');
  });

  it('expanded integer types and native structs (UE5 doubles)', () => {
    expect(prop(da, 'Integer8')).toBe(-101);
    expect(prop(da, 'Integer16')).toBe(-12345);
    expect(prop(da, 'UnsignedInteger16')).toBe(54321);
    expect(prop(da, 'UnsignedInteger32')).toBe(0xfedcba98);
    expect(prop(da, 'UnsignedInteger64')).toBe('18364758544493064720'); // 0xFEDCBA9876543210
    expect(prop(da, 'Vector')).toEqual({ X: 1.25, Y: -2.5, Z: 3.75 });
    expect(prop(da, 'Vector2D')).toEqual({ X: -12.5, Y: 34.75 });
    expect(prop(da, 'Vector4')).toEqual({ X: 1.25, Y: -2.5, Z: 3.75, W: -4.125 });
    expect(prop(da, 'Rotator')).toEqual({ Pitch: 10, Yaw: 20, Roll: 30 });
    const quat = prop(da, 'Quat') as Obj;
    expect(quat.X).toBeCloseTo(0.1825741858, 6);
    expect(quat.Y).toBeCloseTo(-0.3651483717, 6);
    expect(quat.Z).toBeCloseTo(0.5477225575, 6);
    expect(quat.W).toBeCloseTo(0.7302967433, 6);
    expect(prop(da, 'IntPoint')).toEqual({ X: -12345, Y: 67890 });
    expect(prop(da, 'IntVector')).toEqual({ X: -111, Y: 222, Z: -333 });
    expect(prop(da, 'Color')).toEqual({ R: 0x12, G: 0x34, B: 0x56, A: 0x78 });
    expect(prop(da, 'LinearColor')).toEqual({ R: 0.125, G: 1.5, B: -0.25, A: 0.75 });
    expect(prop(da, 'Box')).toEqual({ Min: { X: -10.5, Y: -20.25, Z: -30.125 }, Max: { X: 40.75, Y: 50.5, Z: 60.25 }, IsValid: true });
    expect(prop(da, 'DateTime')).toBe('2024-02-29T12:34:56.7890000');
    expect((prop(da, 'Timespan') as Obj).Ticks).not.toBe(0);
    expect(prop(da, 'Guid')).toBe('DEADBEEF0123456789ABCDEF13579BDF');
    // Transform has no native serializer: its properties are tagged.
    const transform = prop(da, 'Transform');
    expect(prop(transform, 'Translation')).toEqual({ X: 100.5, Y: -200.25, Z: 300.125 });
    expect(prop(transform, 'Scale3D')).toEqual({ X: 1.5, Y: 2, Z: 0.5 });
    expect(prop(transform, 'Rotation')).toEqual(quat);
  });

  it('static arrays, optionals, tagged structs, arrays, sets and maps', () => {
    // FixedIntegerArray[3] = {MIN, 0, MAX}: the element equal to its default is not saved.
    const fixed = da.properties.filter((p) => p.name === 'FixedIntegerArray');
    expect(fixed.map((p) => [p.arrayIndex ?? 0, p.value])).toEqual([[0, -2147483648], [2, 2147483647]]);
    expect(prop(da, 'PresentOptional')).toBe(0x13579bdf);
    expect(da.properties.some((p) => p.name === 'EmptyOptional')).toBe(false);
    const nested = prop(da, 'Nested');
    expect(prop(nested, 'Marker')).toBe(777);
    expect(prop(nested, 'Label')).toBe('PrimaryNested_日本語');
    expect(prop(nested, 'Position')).toEqual({ X: 7, Y: 8, Z: 9 });
    expect(prop(nested, 'bEnabled')).toBe(true);
    expect(prop(da, 'IntegerArray')).toEqual([11, 22, 33, 44]);
    const structs = prop(da, 'StructArray') as PropertyValue[];
    expect(structs.map((s) => [prop(s, 'Marker'), prop(s, 'Label'), prop(s, 'Position'), prop(s, 'bEnabled')])).toEqual([
      [1, 'First', { X: 1, Y: 2, Z: 3 }, true],
      [2, 'Second', { X: -4, Y: 5, Z: -6 }, false],
      [3, 'Third', { X: 7.5, Y: 8.5, Z: 9.5 }, true],
    ]);
    expect(new Set(prop(da, 'NameSet') as string[])).toEqual(new Set(['Set_Alpha', 'Set_Beta', 'Set_日本語']));
    expect(prop(da, 'IntegerMap')).toEqual([
      { key: 'Minimum', value: -2147483648 }, { key: 'Answer', value: 42 }, { key: 'Marker', value: 0x12345678 },
    ]);
    const map = prop(da, 'StructMap') as { key: string; value: PropertyValue }[];
    expect(map.map((m) => [m.key, prop(m.value, 'Marker'), prop(m.value, 'Label'), prop(m.value, 'Position')])).toEqual([
      ['Left', 314, 'MapLeft', { X: -1, Y: -2, Z: -3 }],
      ['Right', 271, 'MapRight', { X: 4, Y: 5, Z: 6 }],
    ]);
    expect(entry(da, 'StructMap').type).toBe('MapProperty<NameProperty, StructProperty<FixtureNestedStruct>>');
  });

  it('instanced structs', () => {
    expect(da.properties.some((p) => p.name === 'EmptyInstancedStruct')).toBe(false);
    const scalar = (v: PropertyValue): PropertyValue[] => {
      const s = v as Obj;
      return [s.struct!, prop(s.value!, 'BaseMarker'), prop(s.value!, 'Value'), prop(s.value!, 'Label')];
    };
    expect(scalar(prop(da, 'ScalarInstancedStruct'))).toEqual(['/Script/CUE4ParseFixtures.FixtureInstancedScalar', 1001, -7654321, 'InstancedScalar']);
    expect(scalar(prop(da, 'TypedInstancedStruct'))).toEqual(['/Script/CUE4ParseFixtures.FixtureInstancedScalar', 3003, 24680, 'TypedInstancedScalar']);
    const composite = (prop(da, 'CompositeInstancedStruct') as Obj).value!;
    expect(prop(composite, 'BaseMarker')).toBe(2002);
    expect(prop(prop(composite, 'Nested'), 'Label')).toBe('InstancedComposite');
    expect(prop(composite, 'Values')).toEqual([3, 1, 4, 1, 5, 9]);
    expect(prop(composite, 'Text')).toBe('Composite instanced payload Ω');
    const array = prop(da, 'InstancedStructArray') as Obj[];
    expect(array.map((s) => s.struct)).toEqual([
      '/Script/CUE4ParseFixtures.FixtureInstancedScalar', '/Script/CUE4ParseFixtures.FixtureInstancedComposite', null,
    ]);
    const map = prop(da, 'InstancedStructMap') as { key: string; value: Obj }[];
    expect(map.map((m) => [m.key, m.value.struct])).toEqual([
      ['Scalar', '/Script/CUE4ParseFixtures.FixtureInstancedScalar'], ['Composite', '/Script/CUE4ParseFixtures.FixtureInstancedComposite'], ['Empty', null],
    ]);
  });

  it('object, soft, lazy, interface, field path and delegate references', () => {
    expect(prop(da, 'HardObjectReference')).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    expect(prop(da, 'SoftObjectReference')).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    expect(prop(da, 'HardTextureReference')).toBe('/Game/Fixtures/Textures/T_BC7.T_BC7');
    expect(prop(da, 'SoftTextureReference')).toBe('/Game/Fixtures/Textures/T_BC6H.T_BC6H');
    expect(prop(da, 'ClassReference')).toBe('/Script/Engine.Texture2D');
    expect(prop(da, 'SoftClassReference')).toBe('/Script/Engine.Texture2D');
    expect(prop(da, 'WeakObjectReference')).toBe('/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties');
    expect(prop(da, 'LazyObjectReference')).toMatch(/^(?!0{32})[0-9A-F]{32}$/);
    expect(prop(da, 'InterfaceReference')).toBe(`${DA}.DA_AllProperties`);
    expect(prop(da, 'FieldPathReference')).toEqual({ path: ['Integer'], owner: '/Script/CUE4ParseFixtures.ParserFixtureData' });
    expect(prop(da, 'InlineObject')).toBe(`${DA}.DA_AllProperties:InlineFixture`);
    const inline = exportNamed(pkg, 'InlineFixture');
    expect(prop(inline, 'Marker')).toBe(0x2468ace);
    expect(prop(inline, 'Label')).toBe('Inline object payload');
    expect(prop(prop(inline, 'Nested'), 'Marker')).toBe(5150);
    const delegate = { object: `${DA}.DA_AllProperties`, function: 'HandleFixtureDelegate' };
    expect(prop(da, 'DynamicDelegate')).toEqual(delegate);
    expect(prop(da, 'DynamicMulticastDelegate')).toEqual([delegate]);
  });

  it('every FText history', () => {
    const texts = prop(da, 'TextHistories') as (string | Obj)[];
    expect(texts.length).toBe(12);
    expect(texts.map((t) => (typeof t === 'string' ? 'None' : t.history))).toEqual([
      'None', 'NamedFormat', 'OrderedFormat', 'ArgumentFormat', 'AsNumber', 'AsPercent', 'AsCurrency', 'AsDate', 'AsTime',
      'AsDateTime', 'Transform', 'StringTableEntry',
    ]);
    expect(texts[0]).toBe('');
    expect(texts[1]).toMatchObject({ format: 'Named {Count}', arguments: { Count: 7 } });
    expect(texts[2]).toMatchObject({ format: '{0} {1}', arguments: [42, 'ordered'] });
    expect(texts[3]).toMatchObject({ format: '{Label}: {Count}', arguments: [{ name: 'Count', value: 31415 }, { name: 'Label', value: 'argument data' }] });
    expect(texts[6]).toMatchObject({ currencyCode: 'EUR' });
    expect(texts[9]).toMatchObject({ dateStyle: 'Full', timeStyle: 'Long' });
    expect(texts[10]).toMatchObject({ transform: 'ToUpper', text: 'Mixed Case' });
    expect(texts[11]).toMatchObject({ table: '/Game/Fixtures/StringTables/ST_Fixed.ST_Fixed', key: 'Greeting' });
  });

  it('the classic .uasset/.uexp of the legacy pak gives the same values', async () => {
    const legacy = await installProperties(LEGACY_PAK, 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset');
    expect(legacy.package).toBe(DA);
    expect(legacy.exports).toEqual(pkg.exports);
  });
});

describe('cue58 IoStore/Tagged: every package', () => {
  it('reads every export of the 97 packages; raw values only for engine structs with their own serializers', async () => {
    await whenCodecsReady();
    const stats = await withInstall(IOSTORE, async (packages, install) => {
      let exports = 0, withProperties = 0, errors = 0, none = 0;
      const raw = new Set<string>();
      for (const f of install.files()) {
        if (f.providers[0]!.file.chunkType !== 'ExportBundleData') continue;
        const { properties } = await installPackageProperties(packages, f.path);
        for (const e of properties.exports) {
          exports++;
          if (e.error) errors++;
          if (e.encoding === 'none') none++;
          if (e.properties.length > 0) withProperties++;
          expect(e.propertyStart + e.propertyBytes, `${properties.package} ${e.name}`).toBeLessThanOrEqual(e.serialSize);
          for (const p of allEntries(e.properties)) if (p.raw) raw.add(p.type);
        }
      }
      return { exports, withProperties, errors, none, raw: [...raw].sort() };
    });
    expect(stats).toEqual({
      exports: 642, withProperties: 416, errors: 0, none: 3,
      // Natively serialized structs this reader does not decode (their tags carry the sizes). Structs
      // whose native serializer falls back to tagged properties (ConstraintInstance,
      // PoseDataContainer, PCGAttributePropertyInputSelector) are read as tagged.
      raw: [
        'StructProperty<MovieSceneSubSequenceTree>',
        'StructProperty<RigVMPropertyBag>',
      ],
    });
  });
});
