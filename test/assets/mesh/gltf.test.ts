import { describe, expect, it } from 'vitest';
import { writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import { accessorValues, parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { skeletalFixture, staticFixture } from './fixtures.js';

const close = (actual: number[], expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(a, `value ${i}`).toBeCloseTo(expected[i]!, 5));
};

describe('glTF writer', () => {
  it('writes a static mesh with 2 sections and 2 UV channels that the Khronos validator accepts', async () => {
    const glb = await writeGlb(staticFixture());
    const { errors, report } = await validateGlb(glb);
    expect(errors).toEqual([]);
    expect(report.info).toMatchObject({ drawCallCount: 2, totalTriangleCount: 2, maxUVs: 2, materialCount: 2 });

    const gltf = parseGlb(glb);
    expect(gltf.json.meshes).toHaveLength(1);
    const [p0, p1] = gltf.json.meshes[0].primitives;
    expect(Object.keys(p0.attributes).sort()).toEqual(['COLOR_0', 'NORMAL', 'POSITION', 'TANGENT', 'TEXCOORD_0', 'TEXCOORD_1']);
    expect(gltf.json.materials.map((m: { name: string }) => m.name)).toEqual(['Mat_A', 'Mat_B']);
    expect([p0.material, p1.material]).toEqual([0, 1]);
    // Engine (x, y, z) cm -> glTF (x, z, y) / 100 m: (-50,-50,0) -> (-0.5, 0, -0.5), (50,50,20) -> (0.5, 0.2, 0.5).
    const pos = accessorValues(gltf, p0.attributes.POSITION);
    close(pos.slice(0, 3), [-0.5, 0, -0.5]);
    close(pos.slice(15, 18), [0.5, 0.2, 0.5]);
    const posAccessor = gltf.json.accessors[p0.attributes.POSITION];
    close(posAccessor.min, [-0.5, 0, -0.5]);
    close(posAccessor.max, [0.5, 0.2, 0.5]);
    // Engine up (+Z) is glTF up (+Y); the tangent's sign kept.
    close(accessorValues(gltf, p0.attributes.NORMAL).slice(0, 3), [0, 1, 0]);
    close(accessorValues(gltf, p0.attributes.TANGENT).slice(0, 4), [1, 0, 0, 1]);
    close(accessorValues(gltf, p0.attributes.TEXCOORD_1).slice(0, 4), [0.5, 0.5, 0.25, 0.25]);
    expect(accessorValues(gltf, p0.attributes.COLOR_0).slice(0, 8)).toEqual([255, 0, 0, 255, 0, 255, 0, 255]);
    expect(accessorValues(gltf, p0.indices)).toEqual([0, 1, 2]);
    expect(accessorValues(gltf, p1.indices)).toEqual([3, 4, 5]);

    // The triangle's winding agrees with its normal in glTF's right-handed frame (counter-clockwise
    // front faces): (b - a) x (c - a) points along +Y.
    const v = (i: number) => pos.slice(i * 3, i * 3 + 3);
    const [a, b, c] = [v(0), v(1), v(2)];
    const e1 = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!], e2 = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
    expect(e1[2]! * e2[0]! - e1[0]! * e2[2]!).toBeGreaterThan(0);

    // The socket: (12.5, -25, 37.5) cm -> (0.125, 0.375, -0.25) m, a child of the mesh's node;
    // yaw 90 about engine Z is -90 about glTF Y: quaternion (0, -sin 45, 0, cos 45); scale (1, 3, 2).
    const socket = gltf.json.nodes.find((n: { name: string }) => n.name === 'FixtureSocket');
    close(socket.translation, [0.125, 0.375, -0.25]);
    close(socket.rotation, [0, -Math.SQRT1_2, 0, Math.SQRT1_2]);
    close(socket.scale, [1, 3, 2]);
    const meshNode = gltf.json.nodes.find((n: { mesh?: number }) => n.mesh === 0);
    expect(meshNode.children).toEqual([gltf.json.nodes.indexOf(socket)]);
  });

  it('writes the LOD asked for, and refuses one the mesh does not have', async () => {
    const gltf = parseGlb(await writeGlb(staticFixture(), { lod: 1 }));
    expect(gltf.json.meshes[0].primitives).toHaveLength(1);
    expect(gltf.json.accessors[gltf.json.meshes[0].primitives[0].attributes.POSITION].count).toBe(3);
    await expect(writeGlb(staticFixture(), { lod: 2 })).rejects.toThrow(/LODs 0 to 1, not 2/);
  });

  it('writes a skeletal mesh with 3 bones, a skin and a morph target that the validator accepts', async () => {
    const glb = await writeGlb(skeletalFixture());
    const { errors } = await validateGlb(glb);
    expect(errors).toEqual([]);
    const gltf = parseGlb(glb);
    const names = gltf.json.nodes.map((n: { name: string }) => n.name);
    const [root, j1, j2] = ['Root', 'Joint_1', 'Joint_2'].map((n) => names.indexOf(n));
    // The hierarchy: Root > Joint_1 > Joint_2 (and the socket on Joint_1).
    expect(gltf.json.nodes[root!].children).toEqual([j1]);
    expect(gltf.json.nodes[j1!].children).toEqual([j2, names.indexOf('HandSocket')]);
    close(gltf.json.nodes[j1!].translation, [0, 0.5, 0]);
    close(gltf.json.nodes[j2!].rotation, [0, -Math.SQRT1_2, 0, Math.SQRT1_2]);
    const skin = gltf.json.skins[0];
    expect(skin.joints).toEqual([root, j1, j2]);
    expect(skin.skeleton).toBe(root);
    // Joint_2's bind pose: 1 m up, turned -90 degrees about Y. Its inverse: down 1 m, then turned
    // +90 about Y, whose columns are (cos, 0, -sin) = (0, 0, -1), (0, 1, 0), (sin, 0, cos) = (1, 0, 0).
    const ibm = accessorValues(gltf, skin.inverseBindMatrices);
    close(ibm.slice(32, 48), [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, -1, 0, 1]);
    close(ibm.slice(16, 32), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5, 0, 1]);

    const prim = gltf.json.meshes[0].primitives[0];
    expect(accessorValues(gltf, prim.attributes.JOINTS_0).slice(8, 12)).toEqual([0, 1, 0, 0]);
    close(accessorValues(gltf, prim.attributes.WEIGHTS_0).slice(8, 12), [0.5, 0.5, 0, 0]);
    // Morph_Fixture moves vertex 5 by 10 cm along engine +X: glTF (0.1, 0, 0).
    expect(gltf.json.meshes[0].extras.targetNames).toEqual(['Morph_Fixture']);
    expect(gltf.json.meshes[0].weights).toEqual([0]);
    const delta = accessorValues(gltf, prim.targets[0].POSITION);
    close(delta, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0, 0]);
  });

  it('writes 8 influences as two joint/weight sets, merging a joint listed twice and normalizing', async () => {
    const mesh = skeletalFixture();
    const lod = mesh.lods[0]!;
    const joints = new Uint16Array(48), weights = new Float32Array(48);
    for (let v = 0; v < 6; v++) {
      joints.set([0, 1, 2, 1, 0, 0, 0, 2], v * 8);
      weights.set([0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0.4], v * 8); // sums to 1.2; Joint_1 twice, Joint_2 twice
    }
    lod.skin = { influences: 8, joints, weights };
    const glb = await writeGlb(mesh);
    expect((await validateGlb(glb)).errors).toEqual([]);
    const gltf = parseGlb(glb);
    const prim = gltf.json.meshes[0].primitives[0];
    expect(Object.keys(prim.attributes)).toContain('JOINTS_1');
    expect(accessorValues(gltf, prim.attributes.JOINTS_0).slice(0, 4)).toEqual([0, 1, 2, 0]);
    close(accessorValues(gltf, prim.attributes.WEIGHTS_0).slice(0, 4), [0.2 / 1.2, 0.4 / 1.2, 0.6 / 1.2, 0]);
    close(accessorValues(gltf, prim.attributes.WEIGHTS_1).slice(0, 4), [0, 0, 0, 0]);
  });

  it('writes a skeleton alone as its node tree', async () => {
    const mesh = { ...skeletalFixture(), class: 'Skeleton', lods: [], morphTargets: [], sockets: [] };
    const glb = await writeGlb(mesh);
    expect((await validateGlb(glb)).errors).toEqual([]);
    const gltf = parseGlb(glb);
    expect(gltf.json.meshes).toBeUndefined();
    expect(gltf.json.nodes.map((n: { name: string }) => n.name)).toEqual(['Root', 'Joint_1', 'Joint_2']);
  });

  it('refuses data that does not fit its counts', async () => {
    const short = staticFixture();
    short.lods[0]!.positions = short.lods[0]!.positions.slice(0, 9);
    await expect(writeGlb(short)).rejects.toThrow(/positions hold 9 values, not the 18/);
    const past = staticFixture();
    past.lods[0]!.indices[4] = 6;
    await expect(writeGlb(past)).rejects.toThrow(/section 1 indexes vertex 6 of 6/);
  });
});
