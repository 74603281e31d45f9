import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../src/core/io/binary-reader.js';
import { FormatError } from '../../src/core/errors.js';
import { displayName, nameHash, readNameBatch, readNamePairs } from '../../src/core/zen/name-batch.js';

const bytes = (...parts: (number[] | Uint8Array)[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
const hash = (name: string, wide: boolean): number[] => {
  const h = nameHash(name, wide);
  return [...Buffer.from(h, 'hex')].reverse(); // little-endian u64
};
const ansi = (s: string): number[] => [...Buffer.from(s, 'latin1')];
const wide = (s: string): number[] => [...Buffer.from(s, 'utf16le')];

describe('name batches', () => {
  it('hashes names lowercased in their stored encoding', () => {
    expect(nameHash('None', false)).toBe(nameHash('none', false));
    expect(nameHash('None', false)).not.toBe(nameHash('None', true));
    expect(nameHash('ÄB', true)).toBe(nameHash('Äb', true)); // only ASCII letters fold
    expect(nameHash('ÄB', true)).not.toBe(nameHash('äb', true));
  });

  it('prints FName numbers the engine way', () => {
    expect(displayName('Cube', 0)).toBe('Cube');
    expect(displayName('Cube', 1)).toBe('Cube_0');
    expect(displayName('Cube', 13)).toBe('Cube_12');
  });

  it('reads a UE5 batch with ANSI and unaligned UTF-16 names', () => {
    const names: [string, boolean][] = [['Abc', false], ['Ünï', true], ['X', false]];
    const stringBytes = 3 + 6 + 1;
    const batch = bytes(
      u32(3), u32(stringBytes), [0, 0, 0x64, 0xc1, 0, 0, 0, 0],
      ...names.map(([n, w]) => hash(n, w)),
      [0, 3], [0x80, 3], [0, 1],
      ansi('Abc'), wide('Ünï'), ansi('X'),
    );
    const r = new BinaryReader(batch, 'batch.bin');
    expect(readNameBatch(r)).toEqual(['Abc', 'Ünï', 'X']);
    expect(r.remaining).toBe(0);
    // A declared string size that disagrees with the headers.
    const bad = Uint8Array.from(batch);
    bad[4] = 11;
    expect(() => readNameBatch(new BinaryReader(bad, 'batch.bin'))).toThrow(/add up to 10 string bytes, but the batch declares 11/);
    // A wrong hash on a non-ASCII name is reported, not thrown (the engine's wide lowercasing may differ).
    const odd = Uint8Array.from(batch);
    odd[24] = odd[24]! ^ 0xff; // the second name's hash
    const warnings: string[] = [];
    expect(readNameBatch(new BinaryReader(odd, 'batch.bin'), { warnings })).toEqual(['Abc', 'Ünï', 'X']);
    expect(warnings.length).toBe(1);
  });

  it('reads UE4 name pairs with UTF-16 names aligned to 2 bytes', () => {
    const names = bytes([0, 3], ansi('Abc'), [0x80, 2], [0], wide('Ün'), [0, 1], ansi('Z'));
    const hashes = bytes([0, 0, 0x64, 0xc1, 0, 0, 0, 0], hash('Abc', false), hash('Ün', true), hash('Z', false));
    const out = readNamePairs(new BinaryReader(names, 'n.bin'), new BinaryReader(hashes, 'h.bin'));
    expect(out).toEqual(['Abc', 'Ün', 'Z']);
    const short = hashes.subarray(0, hashes.length - 8);
    let err: unknown;
    try { readNamePairs(new BinaryReader(names, 'n.bin'), new BinaryReader(short, 'h.bin').struct('name hashes')); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toBe('h.bin: name hashes at byte 0: 2 name hashes for 3 names');
  });
});
