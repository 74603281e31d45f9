/**
 * Hand-made meshes for the glTF writer's and the view's tests, in the engine's units and axes
 * (cm, Z up). Their numbers are chosen so the expected glTF values can be worked out by hand.
 */
import type { Mesh } from '../../../src/core/assets/mesh/types.js';

const identity = { translation: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] };

/**
 * A static mesh like cue58's SM_Fixture: 6 vertices, 2 sections of one triangle each (slots
 * Mat_A, Mat_B), 2 UV channels, normals +Z, a socket. Triangles are wound as the engine winds
 * front faces (clockwise seen from the normal's side in its left-handed frame).
 */
export function staticFixture(): Mesh {
  const positions = Float32Array.of(
    -50, -50, 0, /* 1 */ -50, 50, 0, /* 2 */ 50, -50, 0,
    0, 0, 20, /* 4 */ 0, 50, 20, /* 5 */ 50, 50, 20,
  );
  const normals = new Float32Array(18);
  const tangents = new Float32Array(24);
  for (let v = 0; v < 6; v++) { normals[v * 3 + 2] = 1; tangents[v * 4] = 1; tangents[v * 4 + 3] = 1; }
  return {
    class: 'StaticMesh', name: 'SM_Hand', notes: [],
    bounds: { origin: [0, 0, 10], extent: [50, 50, 10], radius: 72.1 },
    materials: [{ name: 'Mat_A', material: '/Game/M_A.M_A' }, { name: 'Mat_B', material: '/Game/M_B.M_B' }],
    sockets: [{ name: 'FixtureSocket', bone: '', location: [12.5, -25, 37.5], rotation: [0, 90, 0], scale: [1, 2, 3] }],
    bones: [], morphTargets: [],
    lods: [{
      vertexCount: 6, positions, normals, tangents,
      uvs: [Float32Array.of(0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1), Float32Array.of(0.5, 0.5, 0.25, 0.25, 0.75, 0.75, 0, 0, 0, 0.5, 0.5, 0.5)],
      colors: Uint8Array.of(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 128, 128, 128, 255, 0, 0, 0, 255),
      indices: Uint32Array.of(0, 1, 2, 3, 4, 5),
      sections: [{ materialIndex: 0, firstIndex: 0, triangles: 1 }, { materialIndex: 1, firstIndex: 3, triangles: 1 }],
    }, {
      vertexCount: 3, positions: positions.slice(0, 9), normals: normals.slice(0, 9), uvs: [Float32Array.of(0, 0, 0, 1, 1, 0)],
      indices: Uint32Array.of(0, 1, 2), sections: [{ materialIndex: 0, firstIndex: 0, triangles: 1 }],
    }],
  };
}

/**
 * A skeletal mesh like cue58's SK_Fixture: bones Root, Joint_1 (50 cm above Root), Joint_2 (50 cm
 * above Joint_1, turned 90 degrees of yaw); a column of 6 vertices, the upper ones weighted to
 * the joints (4 influences); morph target Morph_Fixture moving vertex 5 by 10 cm along +X; a
 * socket on Joint_1.
 */
export function skeletalFixture(): Mesh {
  const s = Math.SQRT1_2;
  const positions = Float32Array.of(
    -10, 0, 0, /* 1 */ 10, 0, 0, /* 2 */ -10, 0, 50,
    10, 0, 50, /* 4 */ -10, 0, 100, /* 5 */ 10, 0, 100,
  );
  const joints = new Uint16Array(24);
  const weights = new Float32Array(24);
  const bind = [[0], [0], [0, 1], [1], [2], [2, 1]];
  bind.forEach((js, v) => js.forEach((j, k) => { joints[v * 4 + k] = j; weights[v * 4 + k] = js.length === 2 ? 0.5 : 1; }));
  return {
    class: 'SkeletalMesh', name: 'SK_Hand', notes: [],
    materials: [{ name: 'Skin', material: '' }],
    sockets: [{ name: 'HandSocket', bone: 'Joint_1', location: [0, 10, 0], rotation: [0, 0, 0], scale: [1, 1, 1] }],
    bones: [
      { name: 'Root', parent: -1, local: identity },
      { name: 'Joint_1', parent: 0, local: { ...identity, translation: [0, 0, 50] } },
      { name: 'Joint_2', parent: 1, local: { translation: [0, 0, 50], rotation: [0, 0, s, s], scale: [1, 1, 1] } },
    ],
    morphTargets: [{ name: 'Morph_Fixture', lods: [{ vertices: Uint32Array.of(5), positionDeltas: Float32Array.of(10, 0, 0) }, { vertices: new Uint32Array(0), positionDeltas: new Float32Array(0) }] }],
    lods: [{
      vertexCount: 6, positions, uvs: [new Float32Array(12)],
      indices: Uint32Array.of(0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5),
      sections: [{ materialIndex: 0, firstIndex: 0, triangles: 4 }],
      skin: { influences: 4, joints, weights },
    }, {
      vertexCount: 3, positions: positions.slice(0, 9), uvs: [new Float32Array(6)],
      indices: Uint32Array.of(0, 2, 1), sections: [{ materialIndex: 0, firstIndex: 0, triangles: 1 }],
      skin: { influences: 4, joints: joints.slice(0, 12), weights: weights.slice(0, 12) },
    }],
  };
}
