/**
 * A GeometryCollection's geometry ranges and faces as read from its managed arrays: a piece of many
 * triangles (real fractured meshes have 100,000s), a damaged material id and a Geometry group
 * longer than its attribute arrays each give triangles or a FormatError, never a RangeError, a
 * TypeError or billions of material slots.
 */
import { describe, expect, it } from 'vitest';
import { geometryRange, trianglesByMaterial } from '../../../src/core/assets/mesh/read/geometry-collection.js';
import { FormatError } from '../../../src/core/errors.js';

const bad = (what: string): FormatError => new FormatError('GC.uexp', 'GeometryCollection "GC" collection', 0, what);

describe('GeometryCollection faces', () => {
  it('groups 300,000 triangles of one material into one section', () => {
    const nf = 300_000;
    const faces = new Int32Array(nf * 3).map((_, i) => i % 3);
    const { indices, sections, used } = trianglesByMaterial(faces, undefined, undefined, { f0: 0, fn: nf, v0: 0, vn: 3 }, bad);
    expect(indices.length).toBe(nf * 3);
    expect(sections).toEqual([{ materialIndex: 0, firstIndex: 0, triangles: nf }]);
    expect(used).toBe(1);
  });

  it('sorts sections by material and skips hidden faces', () => {
    const faces = Int32Array.from([10, 11, 12, 12, 11, 10, 10, 12, 11]);
    const visible = Uint8Array.from([1, 0, 1]);
    const materialId = Int32Array.from([3, 0, 1]);
    const r = trianglesByMaterial(faces, visible, materialId, { f0: 0, fn: 3, v0: 10, vn: 3 }, bad);
    expect([...r.indices]).toEqual([0, 2, 1, 0, 1, 2]);
    expect(r.sections).toEqual([{ materialIndex: 1, firstIndex: 0, triangles: 1 }, { materialIndex: 3, firstIndex: 3, triangles: 1 }]);
    expect(r.used).toBe(4);
  });

  it('a damaged material id (2147483647) is a FormatError naming the face', () => {
    const faces = Int32Array.from([0, 1, 2]);
    expect(() => trianglesByMaterial(faces, undefined, Int32Array.from([0x7fffffff]), { f0: 0, fn: 1, v0: 0, vn: 3 }, bad))
      .toThrow('GC.uexp: GeometryCollection "GC" collection at byte 0: face 0 has material 2147483647');
  });

  it('a Geometry group longer than its TransformIndex array is a FormatError, not a TypeError', () => {
    const one = Int32Array.from([0]);
    const arrays = { transformIndex: one, vertexStart: one, vertexCount: one, faceStart: one, faceCount: one };
    expect(geometryRange(0, arrays, { transforms: 1, vertices: 3, faces: 1 }, bad)).toEqual({ ti: 0, v0: 0, vn: 0, f0: 0, fn: 0 });
    expect(() => geometryRange(1, arrays, { transforms: 1, vertices: 3, faces: 1 }, bad)).toThrow(/geometry 1: .* its Geometry arrays have 1/);
  });
});
