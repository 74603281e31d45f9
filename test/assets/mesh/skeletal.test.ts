// The USkeleton and USkeletalMesh readers on the cue58 IoStore (Zen, UE5.8) fixtures, against the
// values of issue 22 and CUE4Parse's fixture tests (FixtureAnimationTests.SkeletonPreservesHierarchyAndSocket,
// FixtureRenderableAssetTests.SkeletalMeshPreservesBonesLodsSkinWeightsAndMorphTarget,
// FixtureTestUtilities.AssertReferenceSkeleton): tagged, and unversioned with the usmap alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import type { Mesh } from '../../../src/core/assets/mesh/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { openedPackages } from '../../support/opened-packages.js';
import { loadCorpus } from '../../support/corpus.js';

const VARIANTS: Record<string, { path: string; mappings: boolean }> = {
  'Tagged Uncompressed': { path: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc', mappings: false },
  'Tagged Zlib': { path: 'cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: false },
  'Unversioned Zlib with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: true },
};

let mappings: Usmap;
beforeAll(() => {
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`cue58 IoStore ${variant}`, () => {
    const packages = openedPackages(v.path);
    const read = (ref: string): Promise<Mesh> => readMesh({ packages: packages(), ref }, undefined, v.mappings ? { mappings } : {});

    it('SKEL_Fixture: bones Root, Joint_1, Joint_2 with parents -1, 0, 1, three bind poses, the socket on Joint_1', async () => {
      const m = await read('/Game/Fixtures/Animations/SKEL_Fixture');
      expect(m.class).toBe('Skeleton');
      expect(m.bones.map((b) => [b.name, b.parent])).toEqual([['Root', -1], ['Joint_1', 0], ['Joint_2', 1]]);
      for (const b of m.bones) {
        // Unit rotations, unit scale (the fixture's joints are not scaled).
        expect(Math.hypot(...b.local.rotation)).toBeCloseTo(1, 6);
        expect(b.local.scale).toEqual([1, 1, 1]);
      }
      expect(m.lods).toEqual([]);
      expect(m.sockets).toEqual([{ name: 'FixtureSocket', bone: 'Joint_1', location: [2.5, -5, 7.5], rotation: [5, 15, 25], scale: [1, 1.25, 0.75] }]);
    });

    it('SK_Fixture: its skeleton, LODs of 6 and 3 vertices with the triangles and bounds its source models record, skin weights, Morph_Fixture', async () => {
      const m = await read('/Game/Fixtures/Meshes/SK_Fixture');
      expect(m.class).toBe('SkeletalMesh');
      expect(m.bones.map((b) => [b.name, b.parent])).toEqual([['Root', -1], ['Joint_1', 0], ['Joint_2', 1]]);
      expect(m.lods.map((l) => l.vertexCount)).toEqual([6, 3]);
      // SourceModels[i].TriangleCount and .Bounds (origin +- extent) as the editor recorded them.
      expect(m.lods.map((l) => l.sections.reduce((n, s) => n + s.triangles, 0))).toEqual([2, 1]);
      const box = (l: (typeof m.lods)[number]): number[][] => {
        const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
        for (let i = 0; i < l.vertexCount * 3; i++) { min[i % 3] = Math.min(min[i % 3]!, l.positions[i]!); max[i % 3] = Math.max(max[i % 3]!, l.positions[i]!); }
        return [min, max];
      };
      expect(box(m.lods[0]!)).toEqual([[-50, -50, 0], [50, 50, 20]]);
      expect(box(m.lods[1]!)).toEqual([[-50, -50, 10], [50, 50, 35]]);
      for (const l of m.lods) {
        expect(l.sections.length).toBeGreaterThan(0);
        expect(l.indices.length % 3).toBe(0);
        expect(l.uvs.length).toBeGreaterThan(0);
        // bHasVertexColors: true.
        expect(l.colors).toHaveLength(l.vertexCount * 4);
        const skin = l.skin!;
        // MaxBonesPerVertex 4, bUseHighPrecisionSkinWeights false: 4 influences.
        expect(skin.influences).toBe(4);
        for (let v = 0; v < l.vertexCount; v++) {
          let sum = 0;
          for (let j = 0; j < 4; j++) {
            sum += skin.weights[v * 4 + j]!;
            expect(skin.joints[v * 4 + j]).toBeLessThan(3);
          }
          expect(sum).toBeCloseTo(1, 5);
        }
        for (const s of l.sections) for (const b of s.boneMap!) expect(b).toBeLessThan(3);
      }
      expect(m.morphTargets.map((t) => t.name)).toEqual(['Morph_Fixture']);
      // The native material slots, their materials resolved through the import map (the same engine material SM_Fixture's properties name).
      expect(m.materials.map((x) => x.name)).toEqual(['Primary', 'Secondary']);
      for (const x of m.materials) expect(x.material).toMatch(/^\/Engine\/EngineMaterials\/WorldGridMaterial\./);
      // CUE4Parse: Morph_Fixture moves 2 base mesh vertices (NumBaseMeshVerts) of section 0, on LOD 0; decoded from the LOD's GPU morph buffers.
      const morph = m.morphTargets[0]!.lods[0]!;
      expect(morph.vertices).toHaveLength(2);
      const section0 = m.lods[0]!.sections[0]!;
      const inSection0 = new Set(Array.from(m.lods[0]!.indices.subarray(section0.firstIndex, section0.firstIndex + section0.triangles * 3)));
      for (const v of morph.vertices) expect(inSection0.has(v)).toBe(true);
      expect(morph.positionDeltas).toHaveLength(6);
      expect(Math.max(...Array.from(morph.positionDeltas, Math.abs))).toBeGreaterThan(1);
      expect(m.morphTargets[0]!.lods[1]!.vertices).toHaveLength(0);
      // The property stream reads to its end (SamplingInfo's SkeletalMeshSamplingLODBuiltData is a
      // native struct: an empty FWeightedRandomSampler per LOD), so nothing falls back.
      expect(m.notes).toEqual([]);
    });
  });
}
