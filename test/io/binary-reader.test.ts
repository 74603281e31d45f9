import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../src/core/io/binary-reader.js';
import { FormatError } from '../../src/core/errors.js';

const r = (bytes: number[], base = 0) => new BinaryReader(Uint8Array.from(bytes), 'x.bin', base);

describe('BinaryReader', () => {
  it('reads little-endian integers and packed big-endian 40-bit values', () => {
    const rd = r([0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0xff, 0xfe, 0x01]);
    expect(rd.u32()).toBe(0x04030201);
    expect(rd.uintBE(5)).toBe(0x0000000100);
    expect(rd.uintLE(3)).toBe(0x01feff);
    expect(rd.remaining).toBe(0);
  });

  it('reads ANSI and UTF-16 FStrings', () => {
    const ansi = [5, 0, 0, 0, ...Buffer.from('Game'), 0];
    const wide = [-3 & 0xff, 0xff, 0xff, 0xff, 0x41, 0, 0xe9, 0, 0, 0];
    const rd = r([...ansi, ...wide]);
    expect(rd.fstring()).toBe('Game');
    expect(rd.fstring()).toBe('Aé');
  });

  it('formats GUIDs as the engine prints them', () => {
    const rd = r([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xff, 0, 0, 0]);
    expect(rd.guid()).toBe('000000010000000200000003000000FF');
  });

  it('decodes UE1 compact indices', () => {
    expect(r([0x05]).compactIndex()).toBe(5);
    expect(r([0x85]).compactIndex()).toBe(-5);
    // 0x40 | 1 = more, low 6 bits 1; next byte 0x02 -> 2 << 6
    expect(r([0x41, 0x02]).compactIndex()).toBe(1 + (2 << 6));
    expect(r([0x7f, 0xff, 0xff, 0xff, 0x1f]).compactIndex()).toBe(0x3f + 0x7f * 64 + 0x7f * 8192 + 0x7f * 1048576 + 0x1f * 134217728);
  });

  it('names file, structure and absolute offset when it runs out of bytes', () => {
    const rd = r([1, 2, 3], 1000).struct('toc header');
    rd.u16();
    try {
      rd.u32();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).message).toBe('x.bin: toc header at byte 1002: needs 4 bytes but only 1 remain');
    }
  });

  it('refuses counts the remaining bytes cannot hold before allocating', () => {
    const rd = r([0xff, 0xff, 0xff, 0x7f, 0, 0]);
    expect(() => rd.count(4, 'name count')).toThrow(/name count 2147483647 needs at least/);
    expect(() => r([0xff, 0xff, 0xff, 0xff]).count(1)).toThrow(/is negative/);
  });

  it('refuses absurd string lengths', () => {
    expect(() => r([0, 0, 0, 0x80]).fstring()).toThrow(FormatError);
    expect(() => r([0x10, 0, 0, 0, 65]).fstring()).toThrow(/needs 16 bytes/);
  });
});
