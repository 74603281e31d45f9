/**
 * .usmap mappings: the four cue58 files are one schema stored four ways (uncompressed, Oodle,
 * Brotli, Zstd); the cooked/ files are real dumper output of usmap versions 3 and 4.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { whenCodecsReady } from '../../src/core/codecs/registry.js';
import { FormatError } from '../../src/core/errors.js';
import { findEnum, findStruct, parseUsmap, UsmapVersion } from '../../src/core/usmap/parse.js';
import type { Usmap } from '../../src/core/usmap/types.js';
import { corpus } from '../support/corpus.js';
import { smallUsmap, storedUsmap } from './usmap-writer.js';

const cue58 = (kind: string): Uint8Array => new Uint8Array(readFileSync(corpus('cue58', 'Mappings', `CUE4ParseFixtures-${kind}.usmap`)));

beforeAll(() => whenCodecsReady());

describe('cue58 mappings in four compressions', () => {
  let plain: Usmap;
  beforeAll(() => { plain = parseUsmap(cue58('Uncompressed'), 'Uncompressed.usmap'); });

  it('the stored file: version, sizes, counts', () => {
    expect([plain.version, plain.compression, plain.size, plain.compressedSize]).toEqual([UsmapVersion.ExplicitEnumValues, 'None', 1374968, 1374968]);
    expect([plain.names.length, plain.enums.size, plain.structs.size, plain.trailingBytes]).toEqual([40567, 1833, 8991, 0]);
    expect(plain.packageVersion).toBeNull();
  });

  it('describes the fixture classes, their static arrays, containers and explicit enum values', () => {
    const data = findStruct(plain, 'parserfixturedata')!; // any case
    expect([data.name, data.super, data.propertyCount]).toEqual(['ParserFixtureData', 'ParserFixtureBaseData', 63]);
    const byName = new Map(data.properties.map((p) => [p.name, p]));
    expect(byName.get('FixedIntegerArray')).toMatchObject({ arrayDim: 3, type: { type: 'IntProperty' } });
    expect(byName.get('StructMap')!.type).toEqual({ type: 'MapProperty', inner: { type: 'NameProperty' }, value: { type: 'StructProperty', struct: 'FixtureNestedStruct' } });
    expect(byName.get('Enum')!.type).toEqual({ type: 'EnumProperty', inner: { type: 'ByteProperty' }, enumName: 'EFixtureEnum' });
    expect(byName.get('PresentOptional')!.type).toEqual({ type: 'OptionalProperty', inner: { type: 'IntProperty' } });
    // Slots are unique within the struct.
    const slots = data.properties.flatMap((p) => Array.from({ length: p.arrayDim }, (_, i) => p.index + i));
    expect(new Set(slots).size).toBe(slots.length);
    expect([...findEnum(plain, 'EFixtureEnum')!.values]).toEqual([[0, 'None'], [7, 'Alpha'], [42, 'Beta'], [255, 'Maximum'], [256, 'EFixtureEnum_MAX']]);
  });

  it.each(['Oodle', 'Brotli'])('%s: the same schema', (kind) => {
    const m = parseUsmap(cue58(kind), `${kind}.usmap`);
    expect(m.compression).toBe(kind);
    expect(m.compressedSize).toBeLessThan(m.size / 3);
    expect(m.names).toEqual(plain.names);
    expect(m.enums).toEqual(plain.enums);
    expect(m.structs).toEqual(plain.structs);
  });

  it('Zstandard: the same schema (node:zlib or fzstd)', () => {
    const m = parseUsmap(cue58('Zstandard'), 'Zstandard.usmap');
    expect(m.compression).toBe('Zstd');
    expect(m.names).toEqual(plain.names);
    expect(m.enums).toEqual(plain.enums);
    expect(m.structs).toEqual(plain.structs);
  });

  it('the test helper\'s stored copy of the Zstd file is the same schema', () => {
    const stored = storedUsmap(cue58('Zstandard'));
    expect(parseUsmap(stored, 'Zstandard.usmap').structs).toEqual(plain.structs);
  });
});

describe('dumper output of other games', () => {
  it('UE5.4 BlankGame (Dumper-7, usmap version 3: u16 name lengths and enum counts, no enum values)', () => {
    const stored = storedUsmap(new Uint8Array(readFileSync(corpus('cooked', 'uapi54_BlankGame_Dumper-7.usmap'))));
    const m = parseUsmap(stored, 'Dumper-7.usmap');
    expect([m.version, m.names.length, m.enums.size, m.structs.size]).toEqual([UsmapVersion.LargeEnums, 31948, 1565, 7657]);
    expect(findStruct(m, 'MaterialInstanceConstant')).toEqual({
      name: 'MaterialInstanceConstant', super: 'MaterialInstance', propertyCount: 1,
      properties: [{ index: 0, arrayDim: 1, name: 'PhysMaterialMask', type: { type: 'ObjectProperty' } }],
    });
  });

  it('UE5.6 third-person template (usmap version 4: explicit, sparse enum values)', () => {
    const stored = storedUsmap(new Uint8Array(readFileSync(corpus('cooked', 'uapi56_ExplicitEnumValuesExample.usmap'))));
    const m = parseUsmap(stored, 'ExplicitEnumValuesExample.usmap');
    expect([m.version, m.enums.size, m.structs.size]).toEqual([UsmapVersion.ExplicitEnumValues, 1739, 9230]);
    expect([...findEnum(m, 'EAxisList')!.values].slice(0, 6)).toEqual([[0, 'None'], [1, 'X'], [2, 'Y'], [4, 'Z'], [8, 'Rotate2D'], [3, 'XY']]);
  });
});

describe('old usmap versions', () => {
  it.each([0, 1] as const)('version %d: u8 name lengths and enum counts', (version) => {
    const m = parseUsmap(smallUsmap(version), 'small.usmap');
    expect(m.version).toBe(version);
    expect(m.packageVersion).toEqual(version === 1
      ? { ue4: 522, ue5: 1012, customVersions: [{ guid: '03020100070605040B0A09080F0E0D0C', version: 7 }], netCL: 123456 }
      : null);
    expect([...findEnum(m, 'EColor')!.values]).toEqual([[0, 'Red'], [1, 'Green']]);
    expect(findStruct(m, 'Thing')).toEqual({
      name: 'Thing', super: null, propertyCount: 3, properties: [
        { index: 0, arrayDim: 1, name: 'Count', type: { type: 'IntProperty' } },
        { index: 1, arrayDim: 1, name: 'Tint', type: { type: 'EnumProperty', inner: { type: 'ByteProperty' }, enumName: 'EColor' } },
        { index: 2, arrayDim: 1, name: 'Values', type: { type: 'ArrayProperty', inner: { type: 'FloatProperty' } } },
      ],
    });
  });
});

describe('bad mappings files', () => {
  const plainBytes = (): Uint8Array => cue58('Uncompressed').slice();
  const fails = (bytes: Uint8Array, message: RegExp): void => {
    let error: unknown;
    try { parseUsmap(bytes, 'bad.usmap'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
  };

  it('no magic, a newer version, an unknown compression', () => {
    fails(new Uint8Array([1, 2, 3, 4]), /^bad\.usmap: usmap header at byte 0: not a mappings file/);
    const newer = plainBytes(); newer[2] = 9;
    fails(newer, /usmap version 9 is newer than the newest known \(4\)/);
    const method = plainBytes(); method[7] = 7;
    fails(method, /usmap header at byte 7: unknown compression method 7/);
  });

  it('a block cut short or sized wrong, a corrupt Brotli stream', () => {
    fails(plainBytes().subarray(0, 100_000), /usmap header at byte 16: needs 1374968 bytes but only 99984 remain/);
    const sizes = plainBytes(); new DataView(sizes.buffer).setUint32(12, 1000, true);
    fails(sizes, /stored schema is 1374968 bytes but 1000 are declared/);
    const brotli = cue58('Brotli').slice(); brotli.fill(0xff, 40, 80);
    fails(brotli, /bad\.usmap: usmap schema at byte 16: Brotli schema does not decompress/);
  });

  it('a name index outside the name table', () => {
    const bytes = plainBytes();
    // The first enum's name index sits right after the name table: find it by reading the table.
    const v = new DataView(bytes.buffer);
    let at = 16;
    const names = v.getUint32(at, true); at += 4;
    for (let i = 0; i < names; i++) at += 2 + v.getUint16(at, true);
    v.setInt32(at + 4, 999999, true);
    fails(bytes, /usmap enums at byte \d+: name index 999999 is outside the 40567 names/);
  });
});
