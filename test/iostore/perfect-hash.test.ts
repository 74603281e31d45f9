/**
 * The perfect-hash function against a BigInt rendering of formats.md's definition, and lookups in
 * tables built with many ids, overflow buckets and absent ids.
 */
import { describe, expect, it } from 'vitest';
import { chunkIdHashMod } from '../../src/core/iostore/perfect-hash.js';
import { buildPerfectHash } from '../fixtures/perfect-hash-builder.js';
import { chunkIdHashReference } from '../fixtures/reference.js';
import { randomBytesSeeded } from '../fixtures/test-data.js';

const reference = chunkIdHashReference;

describe('chunkIdHashMod', () => {
  it('matches 64-bit BigInt arithmetic for many ids, seeds and moduli', () => {
    const ids = Array.from({ length: 300 }, (_, i) => randomBytesSeeded(12, i + 1));
    ids.push(new Uint8Array(12), new Uint8Array(12).fill(0xff));
    const seeds = [0, 1, 2, 3, 255, 65535, 123456789, 0x7fffffff];
    const mods = [1, 2, 7, 56, 902, 65536, 250000, 0xfffffffb, 0xffffffff];
    for (const id of ids) for (const s of seeds) for (const m of mods) {
      expect(chunkIdHashMod(id, 0, s, m)).toBe(reference(id, s, m));
    }
  });

  it('reads the id at an offset', () => {
    const buf = randomBytesSeeded(36, 5);
    expect(chunkIdHashMod(buf, 12, 7, 1000)).toBe(reference(buf.subarray(12, 24), 7, 1000));
  });
});

describe('buildPerfectHash', () => {
  it('places every id in its own slot; overflow buckets get seed -(n+1)', () => {
    const ids = Array.from({ length: 1001 }, (_, i) => randomBytesSeeded(12, 10_000 + i));
    const layout = buildPerfectHash(ids, { allowOverflow: true, forceOverflow: new Set([0, 500]) });
    expect(layout.seeds.length).toBe(501);
    expect(new Set(layout.order).size).toBe(1001);
    expect(layout.overflowSlots.length).toBeGreaterThanOrEqual(2);
    for (let slot = 0; slot < 1001; slot++) {
      const id = ids[layout.order[slot]!]!;
      const seed = layout.seeds[chunkIdHashMod(id, 0, 0, 501)]!;
      if (seed > 0) expect(chunkIdHashMod(id, 0, seed, 1001)).toBe(slot);
      else if (seed < 0 && -seed - 1 < 1001) expect(-seed - 1).toBe(slot);
      else {
        expect(seed).toBe(-1002);
        expect(layout.overflowSlots).toContain(slot);
      }
    }
  });

  it('without overflow (v4) forcing one is an error', () => {
    expect(() => buildPerfectHash([randomBytesSeeded(12, 1)], { allowOverflow: false, forceOverflow: new Set([0]) })).toThrow(/overflow/);
  });
});
