// Morph target deltas kept in the UMorphTarget export (UE4, and UE5.8's compressed cooked form):
// written by ue4-mesh-writer.ts with known deltas, read back beside the mesh, carried into the
// .glb as a glTF morph target the Khronos validator accepts. cue58's Morph_Fixture (its vertices
// stripped for the cook) must still take its deltas from the LOD's GPU morph buffers.
import { describe, expect, it } from 'vitest';
import { writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import { readMorphTargetExport } from '../../../src/core/assets/mesh/read/morph-target.js';
import { meshOf } from '../../../src/core/assets/mesh/read/read.js';
import { installTextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import { parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { openedPackages } from '../../support/opened-packages.js';
import { MORPH, Out, morphTargetExport, skeletalMeshExport, writtenSource } from './ue4-mesh-writer.js';

describe('morph targets kept in the MorphTarget export', () => {
  for (const release of [414, 418, 419, 420, 423, 425]) {
    it(`UE${Math.floor(release / 100)}.${release % 100}: Morph_A's deltas beside the mesh and in the .glb`, async () => {
      const m = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(release), release, morphTargetExport(release)), {});
      expect(m.morphTargets.map((t) => t.name)).toEqual([MORPH.name]);
      const lod = m.morphTargets[0]!.lods[0]!;
      expect(Array.from(lod.vertices)).toEqual(MORPH.vertices);
      expect(Array.from(lod.positionDeltas)).toEqual(MORPH.positions.flat());
      expect(Array.from(lod.normalDeltas!)).toEqual(MORPH.normals.flat().map(Math.fround));
      expect(m.notes).toEqual([]);
      const glb = await writeGlb(m);
      expect((await validateGlb(glb)).errors).toEqual([]);
      expect(parseGlb(glb).json.meshes[0].extras.targetNames).toEqual([MORPH.name]);
    });
  }

  it('a delta moving a vertex the LOD does not have: a FormatError naming it', async () => {
    const morph = morphTargetExport(420);
    const v = new DataView(morph.buffer);
    v.setUint32(4 + 2 + 4 + 4 + 28 + 24, 70, true); // the second delta's SourceIdx: 6 -> 70
    await expect(meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(420), 420, morph), {}))
      .rejects.toThrow(/MorphTarget "Morph_A".*LOD 0: delta 1 moves vertex 70, past the LOD's 7 vertices/);
  });

  it('a morph target cut short, or with a delta count past its bytes: a FormatError', async () => {
    const morph = morphTargetExport(420);
    for (let n = 0; n < morph.length; n += 5) {
      const outcome = await meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(420), 420, morph.subarray(0, n)), {}).then(() => 'read', (e: unknown) => e);
      expect(outcome, `cut at ${n}`).toBeInstanceOf(FormatError);
    }
    const big = morph.slice();
    new DataView(big.buffer).setInt32(4 + 2 + 4, 1e8, true);
    await expect(meshOf(writtenSource('SkeletalMesh', skeletalMeshExport(420), 420, big), {})).rejects.toThrow(/morph target deltas/);
  });
});

describe("UE5.8's compressed cooked deltas (FDeltaBatchHeader and packed bits)", () => {
  /** Bits appended LSB first into little-endian dwords. */
  function packBits(fields: [number, number][]): number[] {
    const words: number[] = [];
    let bit = 0;
    for (const [value, width] of fields) {
      for (let i = 0; i < width; i++, bit++) {
        if ((bit >>> 5) >= words.length) words.push(0);
        if ((value >>> i) & 1) words[bit >>> 5] = (words[bit >>> 5]! | (1 << (bit & 31))) >>> 0;
      }
    }
    return words;
  }

  it('decodes one batch of two deltas with tangents: Morph_A', () => {
    // Position precision 0.5 and minimum (0, 0, 0): (1, 2, 3) -> (2, 4, 6), (0, 5, 10) -> (0, 10, 20)
    // in 5 bits; normal precision 0.1, minimum 0: (0.1, 0, 0) -> (1, 0, 0) in 2 bits; index 1 bit
    // (stored: the vertex minus IndexMin 5 minus the entry's number).
    const words = packBits([[0, 1], [2, 5], [4, 5], [6, 5], [0, 2], [0, 2], [0, 2], [0, 1], [0, 5], [10, 5], [20, 5], [1, 2], [0, 2], [0, 2]]);
    const write = (packed: number[]): Uint8Array => {
      const o = new Out();
      o.bool(false).strip(1, 0).bool(true); // guid, strip flags, bCooked
      o.i32(1).bool(true).i32(2).i32(7).i32(1).i32(1).bool(false).i32(0); // one LOD, its vertices stripped
      o.bool(true).i32(1); // bStoreCompressedVertices, one LOD
      o.i32(1).u32(0).u32(2).bool(true).u8(1).u8(5).u8(5).u8(5).u8(2).u8(2).u8(2).u32(5).i32(0).i32(0).i32(0).i32(0).i32(0).i32(0);
      o.i32(packed.length);
      for (const w of packed) o.u32(w);
      return o.f32(0.5).f32(0.1).bytes();
    };
    const exp = { index: 1, name: 'Morph_A', class: 'MorphTarget', bytes: write(words), base: 0, file: 'Written.uexp', properties: {} as never };
    const { lods, unread } = readMorphTargetExport(exp, 0, 508);
    expect(unread).toBe(0);
    expect(Array.from(lods![0]!.vertices)).toEqual([5, 6]);
    expect(Array.from(lods![0]!.positionDeltas)).toEqual([1, 2, 3, 0, 5, 10]);
    expect(Array.from(lods![0]!.normalDeltas!)).toEqual([0, 0, 0, Math.fround(0.1), 0, 0]);
    // Fewer words than the batch needs: refused.
    expect(() => readMorphTargetExport({ ...exp, bytes: write(words.slice(0, 1)) }, 0, 508)).toThrow(/2 packed morph deltas need 44 bits, the data holds 32/);
  });
});

describe("cue58's Morph_Fixture", () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  it('keeps no vertices itself (stripped for the cook): read as such, the deltas come from the LOD', async () => {
    const s = await installTextureSource(packages(), '/Game/Fixtures/Meshes/SK_Fixture', {});
    const e = s.exports.find((x) => x.name === 'Morph_Fixture')!;
    expect(readMorphTargetExport(e, e.properties.propertyStart + e.properties.propertyBytes, 508)).toEqual({ unread: 0 });
    const m = await meshOf(s, {});
    expect(m.morphTargets.map((t) => t.name)).toEqual(['Morph_Fixture']);
    expect(m.morphTargets[0]!.lods![0]!.vertices.length).toBeGreaterThan(0);
  });
});
