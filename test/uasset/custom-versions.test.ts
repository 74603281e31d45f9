// The custom version container in each of its three on-disk formats.
import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../src/core/io/binary-reader.js';
import { customVersionOf, readCustomVersions } from '../../src/core/uasset/custom-versions.js';

const i32 = (v: number): number[] => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); return [...b]; };
/** FEditorObjectVersion's key as four little-endian u32 words. */
const EDITOR = [...i32(0xe4b068ed), ...i32(0xf49442e9), ...i32(0xa231da0b), ...i32(0x2e46bb41)];
const reader = (bytes: number[]): BinaryReader => new BinaryReader(Uint8Array.from(bytes), 'cv.uasset');

describe('custom versions', () => {
  it('none before LegacyFileVersion -2', () => {
    const r = reader([1, 2, 3, 4]);
    expect(readCustomVersions(r, -1)).toEqual([]);
    expect(r.pos).toBe(0);
  });

  it('-2: enum tags', () => {
    const r = reader([...i32(1), ...i32(7), ...i32(12)]);
    expect(readCustomVersions(r, -2)).toEqual([{ guid: '00000000000000000000000000000007', name: null, version: 12 }]);
    expect(r.remaining).toBe(0);
  });

  it('-3 to -5: GUIDs with friendly names', () => {
    const name = [...i32(11), ...Buffer.from('Dev-Editor'), 0];
    const r = reader([...i32(2), ...EDITOR, ...i32(40), ...name, ...i32(0), ...i32(0), ...i32(0), ...i32(9), ...i32(3), ...i32(5), ...Buffer.from('Mine'), 0]);
    expect(readCustomVersions(r, -5)).toEqual([
      { guid: 'E4B068EDF49442E9A231DA0B2E46BB41', name: 'FEditorObjectVersion', version: 40 },
      { guid: '00000000000000000000000000000009', name: 'Mine', version: 3 },
    ]);
    expect(r.remaining).toBe(0);
  });

  it('-6 on: GUID and version', () => {
    const r = reader([...i32(1), ...EDITOR, ...i32(40)]);
    const cv = readCustomVersions(r, -9);
    expect(cv).toEqual([{ guid: 'E4B068EDF49442E9A231DA0B2E46BB41', name: 'FEditorObjectVersion', version: 40 }]);
    expect(customVersionOf(cv, 'E4B068EDF49442E9A231DA0B2E46BB41')).toBe(40);
    expect(customVersionOf(cv, '601D1886AC644F84AA16D3DE0DEAC7D6')).toBe(-1);
  });

  it('checks the count against the bytes', () => {
    expect(() => readCustomVersions(reader([...i32(1000), ...EDITOR]), -7)).toThrow(/custom version count 1000 needs at least 20000 bytes/);
  });
});
