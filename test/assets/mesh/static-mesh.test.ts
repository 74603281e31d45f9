// The UStaticMesh reader on the cue58 IoStore (Zen, UE5.8) fixtures, against the values of issue 22
// and CUE4Parse's FixtureRenderableAssetTests (StaticMeshPreservesLodsSectionsVertexStreamsAndSocket,
// NaniteStaticMeshPreservesResourcesAndDecodablePages): tagged, and unversioned with the usmap alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import type { Mesh, MeshLod } from '../../../src/core/assets/mesh/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { openedPackages } from '../../support/opened-packages.js';
import { loadCorpus } from '../../support/corpus.js';

const VARIANTS: Record<string, { path: string; mappings: boolean }> = {
  'Tagged Uncompressed': { path: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc', mappings: false },
  'Tagged Oodle': { path: 'cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc', mappings: false },
  'Unversioned Zlib with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: true },
};
const ref = (name: string): string => `/Game/Fixtures/Meshes/${name}`;

/** Triangles of a LOD as `--json` counts them: the sum over its sections. */
const triangles = (l: MeshLod): number => l.sections.reduce((n, s) => n + s.triangles, 0);
const hasVertex = (l: MeshLod, v: [number, number, number]): boolean => {
  for (let i = 0; i < l.vertexCount; i++) if (l.positions[i * 3] === v[0] && l.positions[i * 3 + 1] === v[1] && l.positions[i * 3 + 2] === v[2]) return true;
  return false;
};

let mappings: Usmap;
beforeAll(() => {
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});

it('the registry knows the mesh kind: StaticMesh, SkeletalMesh and Skeleton, the mesh view, glTF binary', () => {
  for (const c of ['StaticMesh', 'SkeletalMesh', 'Skeleton']) {
    const kind = assetKindOf(c);
    expect(kind?.kind).toBe('mesh');
    expect(kind?.view).toBe('mesh');
    expect(kind?.converts).toEqual(['glb']);
  }
});

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`cue58 IoStore ${variant}`, () => {
    const packages = openedPackages(v.path);
    const read = (name: string): Promise<Mesh> => readMesh({ packages: packages(), ref: ref(name) }, undefined, v.mappings ? { mappings } : {});

    it('SM_Fixture: 2 LODs of 6 vertices and 2 triangles in 2 sections, 2 UV channels, colours, its two corner vertices, slots and socket', async () => {
      const m = await read('SM_Fixture');
      expect(m.class).toBe('StaticMesh');
      expect(m.name).toBe('SM_Fixture');
      expect(m.materials.map((x) => x.name)).toEqual(['Primary', 'Secondary']);
      expect(m.lods).toHaveLength(2);
      for (const l of m.lods) {
        expect(l.vertexCount).toBe(6);
        expect(l.positions).toHaveLength(18);
        expect(triangles(l)).toBe(2);
        const populated = l.sections.filter((s) => s.triangles > 0);
        expect(populated).toHaveLength(2);
        expect(populated.map((s) => s.materialIndex).sort()).toEqual([0, 1]);
        expect(l.uvs).toHaveLength(2);
        for (const uv of l.uvs) expect(uv).toHaveLength(12);
        expect(l.colors).toHaveLength(24);
        expect(l.normals).toHaveLength(18);
        expect(l.tangents).toHaveLength(24);
        expect(l.indices.length % 3).toBe(0);
        expect(l.indices.length).toBeGreaterThanOrEqual(6);
        for (const s of l.sections) expect(s.firstIndex + s.triangles * 3).toBeLessThanOrEqual(l.indices.length);
        // Unit normals: TangentZ decoded from its packed bytes.
        for (let i = 0; i < 6; i++) expect(Math.hypot(l.normals![i * 3]!, l.normals![i * 3 + 1]!, l.normals![i * 3 + 2]!)).toBeCloseTo(1, 1);
      }
      expect(hasVertex(m.lods[0]!, [-50, -50, 0])).toBe(true);
      expect(hasVertex(m.lods[0]!, [50, 50, 20])).toBe(true);
      expect(m.sockets).toEqual([{ name: 'FixtureSocket', bone: '', location: [12.5, -25, 37.5], rotation: [10, 20, 30], scale: [1.25, 0.75, 2] }]);
      expect(m.bones).toEqual([]);
      expect(m.morphTargets).toEqual([]);
    });

    it('SM_Nanite: its fallback mesh (no more than the 2,048 source triangles), said to be the fallback, the NaniteSurface slot', async () => {
      const m = await read('SM_Nanite');
      expect(m.materials.map((x) => x.name)).toEqual(['NaniteSurface']);
      expect(m.lods.length).toBeGreaterThanOrEqual(1);
      const l = m.lods[0]!;
      expect(triangles(l)).toBeGreaterThan(0);
      expect(triangles(l)).toBeLessThanOrEqual(2048);
      expect(l.vertexCount).toBeLessThanOrEqual(1089);
      expect(l.indices.length % 3).toBe(0);
      expect(m.notes.join('\n')).toMatch(/Nanite mesh: shown is its fallback mesh/);
    });
  });
}

describe('cue58 IoStore Unversioned without the usmap', () => {
  const packages = openedPackages('cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc');

  it('SM_Fixture: the same geometry, found without the properties; unnamed slots, said so', async () => {
    const m = await readMesh({ packages: packages(), ref: ref('SM_Fixture') }, undefined);
    expect(m.lods.map((l) => [l.vertexCount, triangles(l), l.uvs.length])).toEqual([[6, 2, 2], [6, 2, 2]]);
    expect(hasVertex(m.lods[0]!, [50, 50, 20])).toBe(true);
    expect(m.materials).toHaveLength(2);
    expect(m.notes.join('\n')).toMatch(/without the game's mappings/);
  });
});
