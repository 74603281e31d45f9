// Cooked UE4 meshes of the layouts users meet (4.14 to 4.25), written by ue4-mesh-writer.ts with
// known geometry: the readers must give back every vertex, index, UV, colour and skin weight, the
// .glb of each must pass the Khronos validator, and any cut of the export must be a FormatError.
import { describe, expect, it } from 'vitest';
import { writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import { meshOf } from '../../../src/core/assets/mesh/read/read.js';
import { readSkeletalBuffers } from '../../../src/core/assets/mesh/read/skeletal-buffers.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { readFNameOf } from '../../../src/core/uasset/names.js';
import type { Mesh } from '../../../src/core/assets/mesh/types.js';
import { FormatError } from '../../../src/core/errors.js';
import { parseGlb, validateGlb } from '../../support/gltf-validator.js';
import {
  BONE_MAPS, BONES, COLORS, INDICES, INFLUENCES, NAMES, Out, POSITIONS, SECTIONS, UV0, UV1, skeletalMeshExport, staticMeshExport, streamedBuffers, writtenSource,
} from './ue4-mesh-writer.js';

const SKELETAL_RELEASES = [414, 415, 416, 418, 419, 420, 422, 423, 424, 425];
const STATIC_RELEASES = [414, 418, 419, 420, 422, 423, 425];

function expectGeometry(m: Mesh): void {
  const lod = m.lods[0]!;
  expect(lod.vertexCount).toBe(7);
  expect(Array.from(lod.positions)).toEqual(POSITIONS.flat());
  expect(Array.from(lod.indices)).toEqual(INDICES);
  expect(lod.sections.map((s) => [s.materialIndex, s.firstIndex, s.triangles])).toEqual(SECTIONS.map((s) => [s.material, s.firstIndex, s.triangles]));
  expect(lod.uvs.map((u) => Array.from(u))).toEqual([UV0.flat(), UV1.flat()].map((u) => u.map(Math.fround)));
  expect(Array.from(lod.colors!)).toEqual(COLORS.flat());
  // Packed normals and tangents: within a step of 8-bit quantization.
  for (let v = 0; v < 7; v++) {
    [0, 0, 1].forEach((c, k) => expect(lod.normals![v * 3 + k], `normal ${v}.${k}`).toBeCloseTo(c, 1));
    [1, 0, 0, 1].forEach((c, k) => expect(lod.tangents![v * 4 + k], `tangent ${v}.${k}`).toBeCloseTo(c, 1));
  }
}

describe('UE4 skeletal mesh layouts', () => {
  for (const release of SKELETAL_RELEASES) {
    const label = `${Math.floor(release / 100)}.${release % 100}`;
    it(`UE${label}: bones, vertices, sections, UVs, colours and skin weights as written; a valid .glb`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release), release), {});
      expect(m.class).toBe('SkeletalMesh');
      expect(m.bones.map((b) => [b.name, b.parent, b.local.translation[2]])).toEqual(BONES.map((b) => [...b]));
      expect(m.materials.map((x) => x.name)).toEqual(['Mat_A', 'Mat_B']);
      expectGeometry(m);
      const skin = m.lods[0]!.skin!;
      expect(skin.influences).toBe(4);
      // Each vertex's section-local bones through its section's bone map; the weights normalized.
      INFLUENCES.forEach((inf, v) => {
        const map = BONE_MAPS[v < 4 ? 0 : 1]!;
        const total = inf.reduce((n, [, w]) => n + w, 0);
        inf.forEach(([local, w], j) => {
          expect(skin.joints[v * 4 + j], `vertex ${v} joint ${j}`).toBe(map[local]);
          expect(skin.weights[v * 4 + j], `vertex ${v} weight ${j}`).toBeCloseTo(w / total, 6);
        });
      });
      expect(m.notes).toEqual([]);

      const glb = await writeGlb(m);
      expect((await validateGlb(glb)).errors).toEqual([]);
      const gltf = parseGlb(glb);
      expect(gltf.json.skins[0].joints).toHaveLength(3);
      expect(gltf.json.meshes[0].primitives).toHaveLength(2);
    });
  }

  for (const release of [423, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: a skin weight profile is stepped over and named in the notes`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release, { profiles: ['Profile_A'] }), release), {});
      expectGeometry(m);
      expect(m.notes).toEqual(['LOD 0: skin weight profiles Profile_A not read (the default weights are shown)']);
    });
  }
});

describe('UE4 skeletal meshes with 8 influences or half-precision UVs', () => {
  const cases: [number, { eightInfluences?: boolean; halfUvs?: boolean }][] = [
    [414, { eightInfluences: true }], [418, { eightInfluences: true, halfUvs: true }], [420, { halfUvs: true }],
    [423, { eightInfluences: true }], [425, { eightInfluences: true, halfUvs: true }],
  ];
  for (const [release, opts] of cases) {
    it(`UE${Math.floor(release / 100)}.${release % 100} ${JSON.stringify(opts)}: weights and UVs as written; a valid .glb`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release, opts), release), {});
      const lod = m.lods[0]!;
      const k = opts.eightInfluences ? 8 : 4;
      expect(lod.skin!.influences).toBe(k);
      INFLUENCES.forEach((inf, v) => {
        const map = BONE_MAPS[v < 4 ? 0 : 1]!;
        const total = inf.reduce((n, [, w]) => n + w, 0);
        for (let j = 0; j < k; j++) {
          expect(lod.skin!.joints[v * k + j], `vertex ${v} joint ${j}`).toBe(j < inf.length ? map[inf[j]![0]] : 0);
          expect(lod.skin!.weights[v * k + j], `vertex ${v} weight ${j}`).toBeCloseTo(j < inf.length ? inf[j]![1] / total : 0, 6);
        }
      });
      // Half floats keep 11 significant bits: within 1/2048 of the value.
      const expected = [UV0.flat(), UV1.flat()];
      lod.uvs.forEach((u, c) => u.forEach((x, i) => expect(Math.abs(x - expected[c]![i]!), `UV ${c}.${i}`).toBeLessThanOrEqual(opts.halfUvs ? 1 / 2048 : 1e-7)));
      expect((await validateGlb(await writeGlb(m))).errors).toEqual([]);
    });
  }
});

describe('UE4 skeletal meshes with cloth', () => {
  for (const release of [416, 418, 420, 423, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: the cloth section's mapping and the cloth buffer stepped over with a note; colours stop where the cloth starts`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release, { cloth: true }), release), {});
      const lod = m.lods[0]!;
      expect(Array.from(lod.positions)).toEqual(POSITIONS.flat());
      expect(Array.from(lod.indices)).toEqual(INDICES);
      // The first section's 4 vertices coloured as written, the cloth section's white.
      expect(Array.from(lod.colors!)).toEqual([...COLORS.slice(0, 4).flat(), ...Array(12).fill(255)]);
      expect(m.notes).toEqual(['LOD 0: cloth simulation data not read (the mesh is shown without it)']);
      expect((await validateGlb(await writeGlb(m))).errors).toEqual([]);
    });
  }
});

describe('UE4 meshes with unversioned properties and no mappings', () => {
  for (const release of [416, 418, 420, 423, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: the skeletal mesh data found behind the properties, read as written`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release), release, undefined, true), {});
      expectGeometry(m);
      expect(m.bones.map((b) => b.name)).toEqual(BONES.map((b) => b[0]));
      expect(m.notes.join(' ')).toMatch(/unversioned, without the game's mappings/);
    });
  }
  it('property bytes that pass for an empty skeletal mesh (no bones, no LODs) are passed over: the real data is found', async () => {
    // bHasGuid 0, strip flags "editor data stripped", zero bounds, and empty material, bone, pose, name map and LOD arrays.
    const decoy = new Out().bool(false).strip(1, 0).zeros(28).i32(0).i32(0).i32(0).i32(0).i32(0).bytes();
    const source = writtenSource('SkeletalMesh', skeletalMeshExport(418), 418, undefined, true);
    const exp = source.exports[0]!;
    exp.bytes = Uint8Array.from([...decoy, ...exp.bytes]);
    const m = await meshOf(source, {});
    expectGeometry(m);
    expect(m.bones).toHaveLength(3);
  });
  for (const release of [418, 420, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: the static mesh data found behind the properties`, async () => {
      expectGeometry(await meshOf(writtenSource('StaticMesh', staticMeshExport(release), release, undefined, true), {}));
    });
  }
});

describe('UE4 static mesh layouts', () => {
  for (const release of STATIC_RELEASES) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: vertices, sections, UVs and colours as written; a valid .glb`, async () => {
      const m = await meshOf(writtenSource('StaticMesh', staticMeshExport(release), release), {});
      expect(m.class).toBe('StaticMesh');
      expectGeometry(m);
      const glb = await writeGlb(m);
      expect((await validateGlb(glb)).errors).toEqual([]);
    });
  }
});

describe('UE4 mesh layouts, bad input', () => {
  const cuts = (cls: 'StaticMesh' | 'SkeletalMesh', bytes: Uint8Array, release: number) => async () => {
    // Every cut short of the data the reader needs (the trailing LOD counts are not read) fails cleanly.
    for (let n = 0; n < bytes.length - 2; n += 3) {
      const source = writtenSource(cls, bytes.subarray(0, n), release);
      const outcome = await meshOf(source, {}).then(() => 'read', (e: unknown) => e);
      expect(outcome, `cut at ${n} of ${bytes.length}`).toBeInstanceOf(FormatError);
    }
  };
  for (const release of [414, 418, 420, 423, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100} skeletal mesh cut anywhere: a FormatError`, cuts('SkeletalMesh', skeletalMeshExport(release), release));
  }
  it('UE4.20 static mesh cut anywhere: a FormatError', cuts('StaticMesh', staticMeshExport(420), 420));

  it('a bone map naming a bone the skeleton does not have: named', async () => {
    const bytes = skeletalMeshExport(420);
    // The second section's bone map [2, 1] -> [2, 9]: vertex 6's second influence names bone 9.
    const v = new DataView(bytes.buffer);
    const at = bytes.findIndex((_, i) => i + 8 <= bytes.length && v.getInt32(i, true) === 2 && v.getUint16(i + 4, true) === 2 && v.getUint16(i + 6, true) === 1);
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint16(at + 6, 9, true);
    await expect(meshOf(writtenSource('SkeletalMesh', bad, 420), {})).rejects.toThrow(/LOD 0 section 1: its bone map names bone 9 of the 3 bones/);
  });
});

describe('UE5 LOD buffers: vertex attributes and skin weight profiles stepped over', () => {
  const sections = SECTIONS.map((x, i) => ({
    materialIndex: x.material, firstIndex: x.firstIndex, triangles: x.triangles, baseVertex: x.baseVertex, vertices: x.vertices,
    boneMap: Uint16Array.from(BONE_MAPS[i]!), cloth: false,
  }));
  const names = (r: BinaryReader): string => readFNameOf(r, NAMES);
  for (const release of [503, 505, 506]) {
    it(`UE5.${release % 100}: a vertex attribute buffer (its values) and a profile skipped, named; the geometry as written`, () => {
      const o = new Out();
      streamedBuffers(o, release, { attributes: ['Attr_A'], profiles: ['Profile_A'] });
      const bytes = o.bytes();
      const r = new BinaryReader(bytes, 'Written.ubulk', 0);
      const lod = readSkeletalBuffers(r, release, true, sections, 0, names);
      expect(r.pos).toBe(bytes.length);
      expect(Array.from(lod.positions)).toEqual(POSITIONS.flat());
      expect(Array.from(lod.indices)).toEqual(INDICES);
      expect(lod.skipped).toEqual([
        'skin weight profiles Profile_A not read (the default weights are shown)',
        'vertex attributes Attr_A not read',
      ]);
      // The attribute's value bytes one short: a FormatError naming them.
      const cut = bytes.slice(0, bytes.length - 2 - 1);
      expect(() => readSkeletalBuffers(new BinaryReader(cut, 'Written.ubulk', 0), release, true, sections, 0, names)).toThrow(FormatError);
    });
  }
});
