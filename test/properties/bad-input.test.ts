/**
 * Bad property streams: a tag whose size runs past the export, a type nobody knows, structs nested
 * past any real depth (a loop), a stream without its terminator, unversioned values the mappings
 * do not describe. Each is that export's error (or a raw value), never the package's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PropertyContext } from '../../src/core/properties/context.js';
import { readObjectProperties, type ObjectBytes } from '../../src/core/properties/object.js';
import { uassetProperties } from '../../src/core/properties/package.js';
import { ue12Properties } from '../../src/core/properties/ue12.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import type { Usmap } from '../../src/core/usmap/types.js';
import { parseUsmap } from '../../src/core/usmap/parse.js';
import { corpus } from '../support/corpus.js';
import { smallUsmap } from '../usmap/usmap-writer.js';
import { StreamWriter, int32, nestedStructs } from './property-writer.js';

const names = ['None', 'IntProperty', 'StructProperty', 'A', 'B', 'Mystery', 'Loop', 'S'];
const context = (extra: Partial<PropertyContext> = {}): PropertyContext => ({
  file: 'test.uexp', names, objectPath: (i) => (i === 0 ? null : undefined),
  versions: { ue4: 522, ue5: 0, custom: [], cooked: true }, unversioned: false, ...extra,
});
const object = (bytes: Uint8Array, name = 'Obj'): ObjectBytes => ({ index: 0, name, class: 'Thing', bytes, base: 1000, file: 'test.uexp', serialSize: bytes.length });

describe('tagged streams', () => {
  it('reads a well-formed stream to its terminator', () => {
    const bytes = new StreamWriter(names).tag('A', 'IntProperty', int32(5)).none().raw([9, 9, 9]).bytes();
    const e = readObjectProperties(context(), object(bytes));
    expect(e).toMatchObject({ properties: [{ name: 'A', type: 'IntProperty', value: 5 }], propertyBytes: bytes.length - 3, serialSize: bytes.length, error: null });
  });

  it('a tag whose size runs past the export: an error, with what was read before it', () => {
    const bytes = new StreamWriter(names).tag('A', 'IntProperty', int32(5)).tag('B', 'IntProperty', int32(6), { size: 1000 }).bytes();
    const e = readObjectProperties(context(), object(bytes));
    expect(e.properties).toEqual([{ name: 'A', type: 'IntProperty', value: 5 }]);
    expect(e.error).toBe('test.uexp: export 0 "Obj" properties at byte 1029: property "B" (IntProperty) says its value has 1000 bytes but only 4 remain');
  });

  it('an unknown type keeps its bytes as hex, and the stream goes on', () => {
    const bytes = new StreamWriter(names).tag('A', 'Mystery', new Uint8Array([0xde, 0xad, 0xbe])).tag('B', 'IntProperty', int32(7)).none().bytes();
    const e = readObjectProperties(context(), object(bytes));
    expect(e.error).toBeNull();
    expect(e.properties).toEqual([
      { name: 'A', type: 'Mystery', value: 'deadbe', raw: true, offset: 25, note: 'kept raw: Mystery is not a type this reader knows' },
      { name: 'B', type: 'IntProperty', value: 7 },
    ]);
  });

  it('a value that does not fill its tag is kept raw with the reason', () => {
    const bytes = new StreamWriter(names).tag('A', 'IntProperty', new Uint8Array([1, 0, 0, 0, 0, 0])).none().bytes();
    const e = readObjectProperties(context(), object(bytes));
    expect(e.properties).toEqual([{ name: 'A', type: 'IntProperty', value: '010000000000', raw: true, offset: 25, note: 'kept raw: decoding it used 4 of its 6 bytes' }]);
  });

  it('structs nested 70 deep (a property loop) stop that export', () => {
    const loop = nestedStructs([...names], 70);
    const e = readObjectProperties(context(), object(new StreamWriter(names).tag('Loop', 'StructProperty', loop).none().bytes()));
    expect(e.error).toMatch(/properties nested deeper than 64 \(a property loop\?\)$/);
    // 60 levels are data, not a loop.
    const deep = readObjectProperties(context(), object(new StreamWriter(names).tag('Loop', 'StructProperty', nestedStructs([...names], 60)).none().bytes()));
    expect(deep.error).toBeNull();
  });

  it('a stream without its "None" ends with an error', () => {
    const bytes = new StreamWriter(names).tag('A', 'IntProperty', int32(5)).bytes();
    expect(readObjectProperties(context(), object(bytes)).error).toBe('test.uexp: export 0 "Obj" properties at byte 1029: the property list ends without its "None" terminator');
  });

  it('a name index outside the name map in a tag', () => {
    const bytes = new StreamWriter(names).i32(4000).i32(0).bytes();
    expect(readObjectProperties(context(), object(bytes)).error).toBe('test.uexp: export 0 "Obj" properties at byte 1000: name index 4000 is outside the name map (8 names)');
  });
});

describe('unversioned streams', () => {
  const mappings: Usmap = {
    file: 'test.usmap', version: 4, compression: 'None', compressedSize: 0, size: 0, packageVersion: null, names: [], trailingBytes: 0,
    enums: new Map(),
    structs: new Map([['thing', { name: 'Thing', super: null, propertyCount: 2, properties: [
      { index: 0, arrayDim: 1, name: 'A', type: { type: 'IntProperty' } },
      { index: 1, arrayDim: 1, name: 'Blob', type: { type: 'CustomProperty_FD' } },
    ] }]]),
  };
  const ctx = context({ unversioned: true, mappings });
  // Fragment: skip, has-zero-mask bit, is-last bit, value count << 9.
  const header = (skip: number, values: number): StreamWriter => new StreamWriter(names).u16(skip | 0x100 | (values << 9));

  it('a zero mask: values equal to zero are not stored; enums are their numbers at the top level', () => {
    const small = parseUsmap(smallUsmap(0), 'small.usmap');
    const c = context({ unversioned: true, mappings: small });
    // One fragment of 3 values with a zero mask (bit 1: Tint is zero), then Count and Values.
    const stream = new StreamWriter(names).u16(0x80 | 0x100 | (3 << 9)).u8(0b010).raw(int32(9)).raw(int32(2)).raw(new Uint8Array(new Float32Array([1.5, -2]).buffer));
    const e = readObjectProperties(c, object(stream.bytes()));
    expect(e.properties).toEqual([
      { name: 'Count', type: 'IntProperty', value: 9 },
      { name: 'Tint', type: 'EnumProperty<EColor>', value: 'EColor::Red' },
      { name: 'Values', type: 'ArrayProperty<FloatProperty>', value: [1.5, -2] },
    ]);
    expect([e.propertyBytes, e.error]).toEqual([stream.length, null]);
    // Stored, Tint is its underlying byte: 1 is Green.
    const stored = new StreamWriter(names).u16(0x100 | (2 << 9)).raw(int32(9)).u8(1);
    expect(readObjectProperties(c, object(stored.bytes())).properties[1]).toEqual({ name: 'Tint', type: 'EnumProperty<EColor>', value: 'EColor::Green' });
  });

  it('reads values by schema index', () => {
    const bytes = header(0, 1).raw(int32(42)).bytes();
    expect(readObjectProperties(ctx, object(bytes))).toMatchObject({ properties: [{ name: 'A', type: 'IntProperty', value: 42 }], propertyBytes: 6, error: null });
  });

  it('a schema index the mappings do not have, a type that cannot be skipped, a value cut short', () => {
    expect(readObjectProperties(ctx, object(header(5, 1).raw(int32(1)).bytes())).error)
      .toBe('test.uexp: export 0 "Obj" properties at byte 1002: Thing has no property at schema index 5 in the mappings (do they match this game build?)');
    expect(readObjectProperties(ctx, object(header(1, 1).raw(int32(1)).bytes())).error)
      .toBe('test.uexp: export 0 "Obj" properties > property "Blob" (CustomProperty_FD) at byte 1002: unknown property type "CustomProperty_FD" (unversioned values have no size, so it cannot be skipped)');
    expect(readObjectProperties(ctx, object(header(0, 1).raw([1, 2]).bytes())).error).toBe('test.uexp: export 0 "Obj" properties > property "A" (IntProperty) at byte 1002: needs 4 bytes but only 2 remain');
  });
});

describe('bad data in real packages stays with its export', () => {
  it('a UE5.3 material: a tag size past the export fails that expression only', () => {
    const path = corpus('uncooked', 'ue53_M_Solid.uasset');
    const bytes = new Uint8Array(readFileSync(path));
    const pkg = parseUAsset(bytes, path);
    const target = pkg.exports[2]!;
    expect(target.objectName).toBe('MaterialExpressionScalarParameter_0');
    // The first tag: name (8), type (8), then its size.
    new DataView(bytes.buffer).setInt32(target.serialOffset + 16, 100000, true);
    const props = uassetProperties(pkg, bytes);
    expect(props.exports.filter((e) => e.error !== null).map((e) => e.name)).toEqual(['MaterialExpressionScalarParameter_0']);
    expect(props.exports[2]!.error).toMatch(/says its value has 100000 bytes but only \d+ remain$/);
    expect(props.exports.filter((e) => e.error === null).length).toBe(pkg.exports.length - 1);
  });

  it('a UT99 map: a property with an impossible type fails that actor only', () => {
    const path = corpus('legacy', 'ut99_1HH-TestBox-Large.unr');
    const bytes = new Uint8Array(readFileSync(path));
    const pkg = parseUe12Package(bytes, path);
    const light = pkg.exports.find((e) => e.objectName === 'Light0')!;
    // After the 15-byte state frame: the first tag's name (a compact index), then its info byte.
    const at = light.serialOffset + 15;
    const nameBytes = bytes[at]! & 0x40 ? (bytes[at + 1]! & 0x80 ? 3 : 2) : 1;
    bytes[at + nameBytes] = 0x00; // type 0: no property type
    const props = ue12Properties(pkg, bytes);
    expect(props.exports.filter((e) => e.error !== null).map((e) => e.name)).toEqual(['Light0']);
    expect(props.exports.find((e) => e.name === 'Light0')!.error).toMatch(/property "Level" has unknown type 0$/);
  });
});
