/** mergeParts: many pieces (a damaged or huge collection) merge into one LOD, offsets placed by each part's transform. */
import { describe, expect, it } from 'vitest';
import { mergeParts } from '../../../src/core/assets/mesh/parts.js';
import type { MeshLod, MeshPart } from '../../../src/core/assets/mesh/types.js';

const triangle = (): MeshLod => ({
  vertexCount: 3, positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), uvs: [new Float32Array(6)],
  indices: Uint32Array.from([0, 1, 2]), sections: [{ materialIndex: 0, firstIndex: 0, triangles: 1 }],
});

describe('mergeParts', () => {
  it('merges 200,000 one-triangle pieces, each moved by its translation, without a RangeError', () => {
    const n = 200_000;
    const parts: MeshPart[] = Array.from({ length: n }, (_, i) => ({
      name: `Piece_${i}`, parent: -1, local: { rotation: [0, 0, 0, 1], translation: [i, 0, 0], scale: [1, 1, 1] }, geometry: triangle(),
    }));
    const lod = mergeParts(parts);
    expect([lod.vertexCount, lod.indices.length, lod.sections.length, lod.uvs.length]).toEqual([n * 3, n * 3, n, 1]);
    // The last piece's second vertex: (1, 0, 0) moved by (n - 1, 0, 0); its indices after all the others'.
    expect([...lod.positions.subarray((n * 3 - 2) * 3, (n * 3 - 1) * 3)]).toEqual([n, 0, 0]);
    expect(lod.indices[n * 3 - 1]).toBe(n * 3 - 1);
  });
});
