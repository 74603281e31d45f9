// The mesh readers on cooked packages outside IoStore: retoc's UE5.5 and UE5.6 SM_Cube as classic
// .uasset/.uexp/.ubulk and as their Zen package twins, and UE5.6 SK_Mannequin (the mannequin's
// skeleton) likewise. Unversioned without mappings, so the release is given (--engine) and the
// mesh data is found without the properties. A cube is 6 faces of 4 vertices and 2 triangles;
// each twin must read the same as the other.
import { describe, expect, it } from 'vitest';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import type { Mesh } from '../../../src/core/assets/mesh/types.js';
import { corpus } from '../../support/corpus.js';

const read = (file: string, engine: string): Promise<Mesh> => readMesh({ file: corpus(`cooked/${file}`) }, undefined, { engine });
const triangles = (m: Mesh): number => m.lods[0]!.sections.reduce((n, s) => n + s.triangles, 0);

describe('cooked classic and Zen package files', () => {
  for (const [release, engine] of [['55', '5.5'], ['56', '5.6']] as const) {
    it(`UE${engine} SM_Cube: 24 vertices and 12 triangles, the .uasset/.uexp/.ubulk and the Zen twin alike`, async () => {
      const [classic, zen] = await Promise.all([read(`retoc${release}_SM_Cube.uasset`, engine), read(`zen${release}_SM_Cube.uzenasset`, engine)]);
      for (const m of [classic, zen]) {
        expect(m.class).toBe('StaticMesh');
        expect(m.lods[0]!.vertexCount).toBe(24);
        expect(triangles(m)).toBe(12);
        for (const i of m.lods[0]!.indices) expect(i).toBeLessThan(24);
      }
      expect(Array.from(zen.lods[0]!.positions)).toEqual(Array.from(classic.lods[0]!.positions));
      expect(Array.from(zen.lods[0]!.indices)).toEqual(Array.from(classic.lods[0]!.indices));
      // Each of the cube's 8 corners is shared by 3 faces: 8 distinct positions.
      const p = classic.lods[0]!.positions;
      const corners = new Set<string>();
      for (let i = 0; i < 24; i++) corners.add(`${Math.round(p[i * 3]!)},${Math.round(p[i * 3 + 1]!)},${Math.round(p[i * 3 + 2]!)}`);
      expect(corners.size).toBe(8);
    });
  }

  it('UE5.6 SK_Mannequin: the skeleton from the .uasset/.uexp and its Zen twin alike, rooted at root with pelvis under it', async () => {
    const [classic, zen] = await Promise.all([read('retoc56_SK_Mannequin.uasset', '5.6'), read('zen56_SK_Mannequin.uzenasset', '5.6')]);
    expect(classic.class).toBe('Skeleton');
    expect(classic.bones.slice(0, 3).map((b) => [b.name, b.parent])).toEqual([['root', -1], ['pelvis', 0], ['spine_01', 1]]);
    expect(zen.bones.map((b) => [b.name, b.parent])).toEqual(classic.bones.map((b) => [b.name, b.parent]));
    expect(classic.bones.length).toBeGreaterThan(50);
  });
});
