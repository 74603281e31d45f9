/**
 * A table's native data that runs past the export (a row count, a string table count, an unknown
 * curve table mode): a FormatError naming the structure and the byte offset, never a crash or a
 * huge allocation.
 */
import { describe, expect, it } from 'vitest';
import { readTableNative } from '../../../src/core/assets/table/native.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { PropertyReader } from '../../../src/core/properties/reader.js';
import type { PropertyEntry } from '../../../src/core/properties/types.js';

const pr = new PropertyReader({
  file: 'bad.uasset', names: ['None', 'Row'], objectPath: () => null, unversioned: false,
  versions: { ue4: 522, ue5: 1010, custom: null, cooked: true },
});
const le = (...words: number[]): Uint8Array => new Uint8Array(new Uint32Array(words).buffer);
const read = (bytes: Uint8Array, cls: string, properties: PropertyEntry[] = []) =>
  readTableNative(pr, new BinaryReader(bytes, 'bad.uexp', 100), { name: 'T', class: cls, properties });

describe('table native data, bad input', () => {
  it('a data table row count past the export', () => {
    const rowStruct: PropertyEntry[] = [{ name: 'RowStruct', type: 'ObjectProperty', value: '/Script/Game.Row' }];
    expect(() => read(le(0, 0x0fffffff), 'DataTable', rowStruct)).toThrow(/bad\.uexp: data table rows \(Row\) at byte 104: data table row count 268435455 needs at least/);
  });

  it('a data table that names no row struct', () => {
    expect(() => read(le(0, 1), 'DataTable')).toThrow(/names no RowStruct/);
  });

  it('a string table entry count past the export', () => {
    const ns = [...le(0, 2), 65, 0];
    expect(() => read(new Uint8Array([...ns, ...le(0x7fffffff)]), 'StringTable')).toThrow(/string table entry count 2147483647 needs at least/);
  });

  it('a curve table mode the engine does not write', () => {
    expect(() => read(new Uint8Array([...le(0, 1), 7, 0, 0, 0, 0, 0, 0, 0, 0]), 'CurveTable')).toThrow(/curve table mode 7 is not one the engine writes/);
  });

  it('other classes are not read', () => {
    expect(read(le(0), 'Texture2D')).toBeUndefined();
  });
});
