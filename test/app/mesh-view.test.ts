/**
 * The mesh view's data (backend/mesh-view.ts) from the hand-made meshes: counts, bounds in the
 * engine's axes, and the arrays, bones and sockets in the view's axes (the engine's (x, y, z) cm
 * as (x, z, y) cm), worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { meshGeometry, meshView } from '../../src/backend/mesh-view.js';
import { skeletalFixture, staticFixture } from '../assets/mesh/fixtures.js';

const floats = (b: Uint8Array) => Array.from(new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4));
const close = (actual: number[], expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(a, `value ${i}`).toBeCloseTo(expected[i]!, 4));
};

describe('mesh view data', () => {
  it('gives a static mesh\'s counts, sections and bounds per LOD, and its socket in the view\'s axes', () => {
    const v = meshView(staticFixture(), 'Game/SM_Hand.uasset', 0, ['glb']);
    expect(v.lods.map((l) => [l.vertices, l.triangles, l.uvChannels, l.sections.length])).toEqual([[6, 2, 2, 2], [3, 1, 1, 1]]);
    expect(v.lods[0]!.sections).toEqual([{ material: 0, firstIndex: 0, triangles: 1 }, { material: 1, firstIndex: 3, triangles: 1 }]);
    expect(v.lods[0]!.bounds).toEqual({ min: [-50, -50, 0], max: [50, 50, 20] });
    expect(v.lods[0]).toMatchObject({ normals: true, tangents: true, colors: true, influences: 0 });
    // (12.5, -25, 37.5) engine -> (12.5, 37.5, -25) view.
    close(v.sockets[0]!.position, [12.5, 37.5, -25]);
    expect(v.converts).toEqual(['glb']);
  });

  it('gives a LOD\'s arrays in the view\'s axes as typed-array bytes', () => {
    const g = meshGeometry(staticFixture(), 0);
    expect(g.vertices).toBe(6);
    close(floats(g.positions).slice(15, 18), [50, 20, 50]);
    close(floats(g.normals!).slice(0, 3), [0, 1, 0]);
    expect(g.uvChannels).toBe(2);
    close(floats(g.uvs).slice(12, 14), [0.5, 0.5]); // channel 1 starts after channel 0's 6 x 2 values
    expect(Array.from(new Uint32Array(g.indices.buffer, g.indices.byteOffset, 6))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(g.colors!.slice(0, 4))).toEqual([255, 0, 0, 255]);
    expect(() => meshGeometry(staticFixture(), 2)).toThrow(/LODs 0 to 1, not 2/);
  });

  it('places bones and sockets in the bind pose, and gives morph target deltas', () => {
    const v = meshView(skeletalFixture(), 'Game/SK_Hand.uasset', 0, ['glb']);
    expect(v.bones.map((b) => [b.name, b.parent])).toEqual([['Root', -1], ['Joint_1', 0], ['Joint_2', 1]]);
    close(v.bones[2]!.position, [0, 100, 0]);
    // The socket sits 10 cm along engine +Y of Joint_1 (50 cm up): view (0, 50, 10).
    close(v.sockets[0]!.position, [0, 50, 10]);
    expect(v.morphTargets).toEqual(['Morph_Fixture']);
    const g = meshGeometry(skeletalFixture(), 0);
    expect(g.morphCounts).toEqual([1]);
    expect(Array.from(new Uint32Array(g.morphVertices.buffer, g.morphVertices.byteOffset, 1))).toEqual([5]);
    close(floats(g.morphDeltas), [10, 0, 0]);
    expect(meshGeometry(skeletalFixture(), 1).morphCounts).toEqual([0]);
  });
});
