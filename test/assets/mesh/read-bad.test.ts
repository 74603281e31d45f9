// Bad input to the mesh readers, made from the real cue58 meshes: a vertex buffer shorter than its
// count, an index past the vertices, a section past the index buffer. Each a FormatError naming
// what is wrong, never a hang or a short mesh.
import { describe, expect, it } from 'vitest';
import { meshOf } from '../../../src/core/assets/mesh/read/read.js';
import { installTextureSource, type TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import { editExport, findWords } from '../../support/export-edit.js';
import { openedPackages } from '../../support/opened-packages.js';

const find = findWords;
const edit = editExport;

describe('StaticMesh bad input', () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  const source = () => installTextureSource(packages(), '/Game/Fixtures/Meshes/SM_Fixture', {});

  // FPositionVertexBuffer of LOD 0: stride 12, 6 vertices, then the bulk array's 12-byte elements, 6 of them.
  const POSITIONS = [12, 6, 12, 6];

  it('a position buffer whose count says more vertices than it holds', async () => {
    const s = edit(await source(), 'SM_Fixture', (b, v) => { v.setInt32(find(b, POSITIONS) + 4, 7, true); });
    await expect(meshOf(s, {})).rejects.toThrow(FormatError);
    await expect(meshOf(s, {})).rejects.toThrow(/position vertex buffer holds 6 vertices but says 7/);
  });

  it('a vertex buffer cut short: its elements run past the export', async () => {
    const s = edit(await source(), 'SM_Fixture', (b) => b.subarray(0, find(b, POSITIONS) + 16 + 30));
    await expect(meshOf(s, {})).rejects.toThrow(/position vertex buffer: 6 elements of 12 bytes run past the 30 bytes left/);
  });

  it('a vertex count of a billion: refused before anything is allocated', async () => {
    const s = edit(await source(), 'SM_Fixture', (b, v) => { const at = find(b, POSITIONS); v.setInt32(at + 4, 1e9, true); v.setInt32(at + 12, 1e9, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/vertex count 1000000000 is impossible/);
  });

  it('an index past the vertices', async () => {
    // The 16-bit index buffer of LOD 0: 0, 1, 2, 3, 4, 5.
    const s = edit(await source(), 'SM_Fixture', (b, v) => { v.setUint16(find(b, [0x10000, 0x30002, 0x50004]) + 8, 9, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/index buffer: index 4 is 9, past the 6 vertices/);
  });

  it('a section whose triangles run past the index buffer', async () => {
    // Section 1 of LOD 0: material 1, first index 3, 1 triangle, vertices 3-5.
    const s = edit(await source(), 'SM_Fixture', (b, v) => { v.setInt32(find(b, [1, 3, 1, 3, 5]) + 8, 2, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/LOD 0 section 1: 2 triangles from index 3 run past the 6 indices/);
  });
});

describe('Skeleton bad input', () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  const source = () => installTextureSource(packages(), '/Game/Fixtures/Animations/SKEL_Fixture', {});
  // FMeshBoneInfo of Joint_1: the name "Joint" number 2, parent 0; of Joint_2: "Joint" number 3, parent 1.
  const joint = (s: TextureSource, n: number): number[] => [s.names.indexOf('Joint'), n];

  it('a bone whose parent makes a cycle (Joint_1 the child of Joint_2, its own child)', async () => {
    const s = await source();
    edit(s, 'SKEL_Fixture', (b, v) => { v.setInt32(find(b, joint(s, 2)) + 8, 2, true); });
    await expect(meshOf(s, {})).rejects.toThrow(FormatError);
    await expect(meshOf(s, {})).rejects.toThrow(/bone 1 "Joint_1" has parent 2: a parent must be an earlier bone/);
  });

  it('a bone that is its own parent, and a root with a parent', async () => {
    const s = await source();
    edit(s, 'SKEL_Fixture', (b, v) => { v.setInt32(find(b, joint(s, 3)) + 8, 2, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/bone 2 "Joint_2" has parent 2/);
    const r = await source();
    edit(r, 'SKEL_Fixture', (b, v) => { v.setInt32(find(b, [r.names.indexOf('Root'), 0, -1 >>> 0]) + 8, 1, true); });
    await expect(meshOf(r, {})).rejects.toThrow(/the root bone "Root" has parent 1, not -1/);
  });
});

describe('SkeletalMesh bad input', () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  const source = () => installTextureSource(packages(), '/Game/Fixtures/Meshes/SK_Fixture', {});

  it("an index past the vertices, in a LOD's bulk data", async () => {
    const s = edit(await source(), 'SK_Fixture', (b, v) => { v.setUint16(find(b, [0x10000, 0x30002, 0x50004]) + 2, 60, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/index buffer: index 1 is 60, past the 6 vertices/);
  });

  it('a position buffer shorter than its count', async () => {
    const s = edit(await source(), 'SK_Fixture', (b, v) => { v.setInt32(find(b, [12, 6, 12, 6]) + 4, 9, true); });
    await expect(meshOf(s, {})).rejects.toThrow(/position vertex buffer holds 6 vertices but says 9/);
  });
});
