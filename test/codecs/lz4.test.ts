import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { getCodec } from '../../src/core/codecs/registry.js';
import { DecodeError } from '../../src/core/errors.js';
import { lz4CompressBlock } from '../support/lz4-encode.js';

const lz4 = getCodec('LZ4');
const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

function decodeError(block: Uint8Array, size: number): string {
  try {
    lz4.decode(block, size);
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return (e as Error).message;
  }
  throw new Error('the block decoded');
}

describe('LZ4 block decoder', () => {
  it('decodes a hand-made block with an overlapping match and a length extension', () => {
    // "abc", then a match at offset 3 of 4 + 15 + 2 = 21 bytes, then the last literals "xyz!!".
    const block = bytes([0x3f], 'abc', [3, 0, 2], [0x50], 'xyz!!');
    expect(Buffer.from(lz4.decode(block, 29)).toString('latin1')).toBe('abc'.repeat(8) + 'xyz!!');
  });

  it('decodes a literal run with a 255-continued length', () => {
    const literals = 'L'.repeat(15 + 255 + 3);
    expect(Buffer.from(lz4.decode(bytes([0xf0, 255, 3], literals), literals.length)).toString('latin1')).toBe(literals);
  });

  it('round-trips the test encoder on text, runs, noise and tiny inputs', () => {
    const inputs = [
      new TextEncoder().encode('/Game/Characters/Dinosaurs/Rex/Meshes/SK_Rex.uasset\n'.repeat(2000)),
      new Uint8Array(200_000).fill(7), // one long run: a 255-continued match length
      new Uint8Array(randomBytes(100_000)),
      new Uint8Array(0),
      bytes('short'),
      bytes('exactly13byte'),
    ];
    for (const data of inputs) {
      const block = lz4CompressBlock(data);
      expect(Buffer.from(lz4.decode(block, data.length)).equals(data)).toBe(true);
    }
    // The encoder really compresses (the fixtures rely on LZ4 blocks being smaller).
    expect(lz4CompressBlock(inputs[0]!).length).toBeLessThan(inputs[0]!.length / 20);
  });

  it('rejects corrupt blocks with a DecodeError that says what is wrong', () => {
    expect(decodeError(bytes([0x10], 'a', [0, 0], [0x10], 'b'), 7)).toMatch(/match offset 0/);
    expect(decodeError(bytes([0x10], 'a', [2, 0], [0x10], 'b'), 7)).toMatch(/match offset 2 at output byte 1 points outside/);
    expect(decodeError(bytes([0x50], 'ab'), 5)).toMatch(/5 literals at input byte 1 run past the end of the block/);
    expect(decodeError(bytes([0xf0, 255]), 300)).toMatch(/literal length runs past the end/);
    expect(decodeError(bytes([0x3f], 'abc', [3, 0, 200], [0x00]), 30)).toMatch(/match of 219 bytes at output byte 3 runs past the declared size 30/);
    expect(decodeError(bytes([0x1f], 'a', [1]), 40)).toMatch(/match offset at input byte 2 is cut off/);
    expect(decodeError(bytes([0x10], 'a', [1, 0]), 5)).toMatch(/block ends after a match/);
    expect(decodeError(new Uint8Array(0), 0)).toMatch(/block is empty/);
  });

  it('decodes into a place in a bigger buffer (decodeInto) as decode does, with the same checks', () => {
    const text = new TextEncoder().encode('/Game/Maps/Overworld/MainWorld.umap\n'.repeat(500));
    const block = lz4CompressBlock(text);
    const around = new Uint8Array(text.length + 8).fill(0xee);
    lz4.decodeInto!(block, around.subarray(4, 4 + text.length));
    expect(Buffer.compare(around.subarray(4, 4 + text.length), text)).toBe(0);
    expect([...around.subarray(0, 4), ...around.subarray(4 + text.length)]).toEqual(new Array(8).fill(0xee));
    expect(() => lz4.decodeInto!(block, new Uint8Array(text.length - 1))).toThrow(/run past the declared size/);
    expect(() => lz4.decodeInto!(block, new Uint8Array(text.length + 1))).toThrow(`block decodes to ${text.length} bytes but ${text.length + 1} are declared`);
  });

  it('copies literals and matches of every short length and offset right, never writing outside its output', () => {
    // Runs repeating with periods 1 to 40 and literal stretches of 1 to 70 bytes between them:
    // every case of the decoder's copies (4 bytes at a time, overlapping, byte by byte, memcpy).
    let seed = 99;
    const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const parts: number[] = [];
    for (let period = 1; period <= 40; period++) {
      for (let k = 0, n = 1 + next(70); k < n; k++) parts.push(next(256));
      const unit = Array.from({ length: period }, () => next(256));
      for (let k = 0, n = period + next(300); k < n; k++) parts.push(unit[k % period]!);
    }
    const data = Uint8Array.from(parts);
    const block = lz4CompressBlock(data);
    expect(block.length).toBeLessThan(data.length / 2);
    const around = new Uint8Array(data.length + 8).fill(0xee);
    lz4.decodeInto!(block, around.subarray(4, 4 + data.length));
    expect(Buffer.compare(around.subarray(4, 4 + data.length), data)).toBe(0);
    expect([...around.subarray(0, 4), ...around.subarray(4 + data.length)]).toEqual(new Array(8).fill(0xee));
    // A prefix stops at its end, whatever sequence it falls in, and writes nothing beyond it.
    for (const cut of [1, 3, 17, 1000, 4321, data.length - 1]) {
      const head = new Uint8Array(cut + 4).fill(0xee);
      lz4.decodePrefix!(block, head.subarray(0, cut));
      expect(Buffer.compare(head.subarray(0, cut), data.subarray(0, cut))).toBe(0);
      expect([...head.subarray(cut)]).toEqual([0xee, 0xee, 0xee, 0xee]);
    }
  });

  it('rejects wrong declared sizes', () => {
    const data = new TextEncoder().encode('IoStore '.repeat(500));
    const block = lz4CompressBlock(data);
    expect(decodeError(block, data.length + 1)).toMatch(/decodes to 4000 bytes but 4001 are declared/);
    expect(decodeError(block, data.length - 1)).toMatch(/past the declared size 3999/);
    // More than 255 bytes out per byte in cannot be LZ4: refused before allocating 1 GiB.
    expect(decodeError(block, 2 ** 30)).toMatch(/more than \d+ compressed bytes can hold/);
    expect(decodeError(block, 1.5)).toMatch(/not a byte count/);
  });

  it('never hangs or overruns on random damage: it throws or returns exactly the declared size', () => {
    const data = new TextEncoder().encode('Mount point ../../../Isle/Content/ '.repeat(400));
    const block = lz4CompressBlock(data);
    let seed = 12345;
    let threw = 0;
    for (let round = 0; round < 2000; round++) {
      const bad = Uint8Array.from(block);
      for (let k = 0; k < 1 + (round % 4); k++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        bad[seed % bad.length]! ^= 1 + ((seed >>> 16) % 255);
      }
      try {
        expect(lz4.decode(bad, data.length).length).toBe(data.length);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        threw++;
      }
    }
    expect(threw).toBeGreaterThan(1000);
  });
});
