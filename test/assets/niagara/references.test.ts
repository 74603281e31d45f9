/** referencesIn: a data interface's struct holding a long array of object references lists them all, without a RangeError. */
import { describe, expect, it } from 'vitest';
import { referencesIn } from '../../../src/core/assets/niagara/read.js';
import type { PropertyEntry } from '../../../src/core/properties/types.js';

describe('referencesIn', () => {
  it('lists 200,000 references inside a struct', () => {
    const n = 200_000;
    const paths = Array.from({ length: n }, (_, i) => `/Game/T_${i}.T_${i}`);
    const inner = [{ name: 'Textures', type: 'ArrayProperty<ObjectProperty>', value: paths }] as unknown as PropertyEntry[];
    const entries = [{ name: 'Settings', type: 'StructProperty<Settings>', value: inner }] as unknown as PropertyEntry[];
    const refs = referencesIn(entries);
    expect(refs.length).toBe(n);
    expect(refs[n - 1]).toEqual({ property: `Settings.Textures[${n - 1}]`, path: `/Game/T_${n - 1}.T_${n - 1}` });
  });
});
