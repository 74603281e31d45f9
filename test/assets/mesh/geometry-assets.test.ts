/**
 * cue58's GeometryCache (GeoCache_Fixture) and PhysicsAsset (PHYS_Fixture) read as meshes and
 * written as .glb, tagged and unversioned with the usmap. Expected values are CUE4Parse's fixture
 * tests' (FixtureExtendedAssetTests: GeometryCacheCustomSerializerDeserializesStreamedChunk, one
 * chunk of frames 0..0, a sample of 768 vertices and 768 indices, visible;
 * PhysicsAssetDeserializesBodiesConstraintsAndCollisionPairs: bodies Root (box at (1,2,3),
 * 40x30x20) and Joint_1 (sphere at (-4,5,6), radius 12.5), constraint RootToJoint joining Joint_1
 * to Root with collision disabled, one collision pair (0,1) = false); the manifest names the
 * classes; GC_Fixture's groups (Transform 1, Vertices 6, Faces 2, Geometry 1) and 2 materials are
 * FixtureRenderableAssetTests' (GeometryCollectionPreservesManagedArraysAndFallbackRenderData), its
 * one piece SM_Fixture's geometry (the issue's corners (-50,-50,0) and (50,50,20) cm); the .glb is
 * checked by the Khronos validator and read back by its own small parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import { decodeRawChunk, geometryCacheOf } from '../../../src/core/assets/mesh/read/geometry-cache.js';
import { geometryCollectionOf } from '../../../src/core/assets/mesh/read/geometry-collection.js';
import { physicsAssetOf } from '../../../src/core/assets/mesh/read/physics-asset.js';
import { installTextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { boxLod, hullLod } from '../../../src/core/assets/mesh/shapes.js';
import { writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import type { Mesh } from '../../../src/core/assets/mesh/types.js';
import { FormatError, isInputError } from '../../../src/core/errors.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { accessorValues, parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { Box3, InterpolateDiscrete, type Object3D } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** The .glb as three.js's GLTFLoader reads it (an importer other than our writer's own parser). */
const loadWithThree = (glb: Uint8Array): Promise<GLTF> => new Promise((resolve, reject) => {
  new GLTFLoader().parse(glb.slice().buffer, '', resolve, reject);
});

const VARIANTS = {
  Tagged: { path: 'cue58/IoStore/Tagged/Uncompressed', mappings: false },
  'Unversioned with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib', mappings: true },
};
const GEOCACHE = 'CUE4ParseFixtures/Content/Fixtures/Geometry/GeoCache_Fixture.uasset';
const PHYSICS = 'CUE4ParseFixtures/Content/Fixtures/Physics/PHYS_Fixture.uasset';
const COLLECTION = 'CUE4ParseFixtures/Content/Fixtures/Geometry/GC_Fixture.uasset';
const manifest = JSON.parse(new TextDecoder().decode(loadCorpus('cue58/manifest.json'))) as { variants: Record<string, { assets?: { asset: string; class: string }[] }> };
const manifestClass = (asset: string): string | undefined => {
  for (const v of Object.values(manifest.variants ?? {})) for (const a of v.assets ?? []) if (a.asset === asset) return a.class;
  return JSON.stringify(manifest).match(new RegExp(`"asset": ?"${asset.replace(/[/.]/g, '\\$&')}",[^}]*"class": ?"(\\w+)"`))?.[1];
};
const close = (actual: number[], expected: number[], digits = 4) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(a, `value ${i}`).toBeCloseTo(expected[i]!, digits));
};

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`geometry assets, cue58 IoStore ${variant}`, () => {
    let install: Install, packages: InstallPackages;
    const opts = () => (v.mappings ? { mappings: parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap') } : {});
    beforeAll(async () => {
      install = await openInstall([corpus(v.path)]);
      packages = new InstallPackages(install);
    });
    afterAll(async () => {
      await packages.close();
      await install.close();
    });
    const convert = async (path: string) => {
      const { model } = await packages.open(path);
      const [exp] = convertibleExports(model);
      expect(exp?.kind.kind).toBe('mesh');
      const [file] = await convertExport({ packages, ref: path }, exp!, undefined, opts());
      return file!.data;
    };

    it('reads GeoCache_Fixture\'s streamed chunk through the raw codec: one frame of 768 vertices and 768 indices, visible', async () => {
      expect(manifestClass('/Game/Fixtures/Geometry/GeoCache_Fixture.GeoCache_Fixture')).toBe('GeometryCache');
      const mesh = await readMesh({ packages, ref: GEOCACHE }, undefined, opts());
      expect(mesh.class).toBe('GeometryCache');
      const [track] = mesh.geometryCache!.tracks;
      expect(mesh.geometryCache!.tracks).toHaveLength(1);
      expect(track!.codec).toBe('GeometryCacheCodecRaw');
      expect(track!.chunks).toHaveLength(1);
      expect(track!.chunks[0]!.dataSize).toBeGreaterThan(0);
      expect([track!.chunks[0]!.firstFrame, track!.chunks[0]!.lastFrame]).toEqual([0, 0]);
      expect(track!.samples.map((s) => [s.vertices, s.indices])).toEqual([[768, 768]]);
      expect(track!.visibility.map((s) => s.visible)).toEqual([true]);
      expect(track!.frames.map((f) => [f.vertices, f.triangles * 3])).toEqual([[768, 768]]);
      expect(mesh.lods[0]!.vertexCount).toBe(768);
      expect(mesh.lods[0]!.indices.length).toBe(768);
      expect(mesh.facts!.map((t) => t.title)).toEqual(['Frames', 'Visibility samples']);
    });

    it('writes GeoCache_Fixture as a .glb the validator accepts: a node per frame with its 256 triangles', async () => {
      const glb = await convert(GEOCACHE);
      const { errors, report } = await validateGlb(glb);
      expect(errors).toEqual([]);
      expect(report.info).toMatchObject({ totalTriangleCount: 256, drawCallCount: 1 });
      const gltf = parseGlb(glb);
      const frame = gltf.json.nodes.find((n: { name: string }) => n.name === 'StreamableTrack_frame0');
      expect(frame.mesh).toBeDefined();
      const prim = gltf.json.meshes[frame.mesh].primitives[0];
      expect(gltf.json.accessors[prim.attributes.POSITION].count).toBe(768);
      const indices = accessorValues(gltf, prim.indices);
      expect(indices).toHaveLength(768);
      expect(Math.max(...indices)).toBeLessThan(768);
    });

    it('reads GC_Fixture\'s collection: its groups, materials and one piece with SM_Fixture\'s 6 vertices and 2 triangles', async () => {
      expect(manifestClass('/Game/Fixtures/Geometry/GC_Fixture.GC_Fixture')).toBe('GeometryCollection');
      const mesh = await readMesh({ packages, ref: COLLECTION }, undefined, opts());
      expect(mesh.class).toBe('GeometryCollection');
      expect(mesh.materials).toHaveLength(2);
      const groups = Object.fromEntries(mesh.facts!.find((t) => t.title === 'Groups')!.rows.map((r) => [r[0], r[1]]));
      expect(groups).toMatchObject({ Transform: 1, Vertices: 6, Faces: 2, Geometry: 1 });
      expect(mesh.parts).toHaveLength(1);
      const piece = mesh.parts![0]!.geometry!;
      expect([piece.vertexCount, piece.indices.length / 3]).toEqual([6, 2]);
      const xs = Array.from(piece.positions);
      expect([Math.min(...xs), Math.max(...xs)]).toEqual([-50, 50]);
      expect(piece.sections.map((s) => s.materialIndex)).toEqual([0, 1]);
    });

    it('writes GC_Fixture as a .glb with a node per piece, its mesh SM_Fixture\'s box in metres', async () => {
      const glb = await convert(COLLECTION);
      const { errors, report } = await validateGlb(glb);
      expect(errors).toEqual([]);
      expect(report.info).toMatchObject({ totalTriangleCount: 2, drawCallCount: 2 });
      const gltf = parseGlb(glb);
      const piece = gltf.json.nodes.find((n: { name: string }) => n.name === 'SM_Fixture');
      const position = gltf.json.accessors[gltf.json.meshes[piece.mesh].primitives[0].attributes.POSITION];
      close(position.min, [-0.5, 0, -0.5]);
      close(position.max, [0.5, 0.2, 0.5]);
    });

    it('reads PHYS_Fixture\'s bodies, constraint and collision pair', async () => {
      expect(manifestClass('/Game/Fixtures/Physics/PHYS_Fixture.PHYS_Fixture')).toBe('PhysicsAsset');
      const mesh = await readMesh({ packages, ref: PHYSICS }, undefined, opts());
      const p = mesh.physics!;
      expect(p.boundsBodies).toEqual([0, 1]);
      expect(p.bodies.map((b) => b.bone)).toEqual(['Root', 'Joint_1']);
      expect(p.bodies[0]!.shapes).toEqual([expect.objectContaining({ type: 'box', center: [1, 2, 3], size: [40, 30, 20] })]);
      expect(p.bodies[1]!.shapes).toEqual([expect.objectContaining({ type: 'sphere', center: [-4, 5, 6], radius: 12.5 })]);
      expect(p.constraints).toEqual([expect.objectContaining({ name: 'RootToJoint', bone1: 'Joint_1', bone2: 'Root', disableCollision: true })]);
      expect(p.collisionPairs).toEqual([{ bodies: [0, 1], enabled: false }]);
    });

    it('writes PHYS_Fixture as a .glb of its shapes: Joint_1 under Root, the box 40x30x20 cm and the sphere of radius 12.5 cm, in metres', async () => {
      const glb = await convert(PHYSICS);
      const { errors } = await validateGlb(glb);
      expect(errors).toEqual([]);
      const gltf = parseGlb(glb);
      const node = (name: string) => gltf.json.nodes.findIndex((n: { name: string }) => n.name === name);
      expect(gltf.json.nodes[node('Root')].children).toContain(node('Joint_1'));
      const box = gltf.json.nodes[node('Root_box_0')];
      close(box.translation, [0.01, 0.03, 0.02]); // (1, 2, 3) cm, Y and Z swapped
      const boxPos = gltf.json.accessors[gltf.json.meshes[box.mesh].primitives[0].attributes.POSITION];
      close(boxPos.max, [0.2, 0.1, 0.15]); // half of 40, 20 (Z), 30 (Y) cm
      close(boxPos.min, [-0.2, -0.1, -0.15]);
      // three.js places the box where the engine does: its world box (1, 2, 3) cm +- the rotated extents.
      const three = await loadWithThree(glb);
      three.scene.updateMatrixWorld(true);
      const boxMesh = three.scene.getObjectByName('Root_box_0') as Object3D;
      const center = new Box3().setFromObject(boxMesh).getCenter(boxMesh.position.clone());
      close([center.x, center.y, center.z], [0.01, 0.03, 0.02], 3);
      expect(three.scene.getObjectByName('Joint_1')!.parent!.name).toBe('Root');
      const sphere = gltf.json.nodes[node('Joint_1_sphere_0')];
      close(sphere.translation, [-0.04, 0.06, 0.05]);
      const spherePos = gltf.json.accessors[gltf.json.meshes[sphere.mesh].primitives[0].attributes.POSITION];
      close(spherePos.max, [0.125, 0.125, 0.125], 3);
    });
  });
}

describe('geometry asset readers on cut and corrupted cue58 exports', () => {
  let install: Install, packages: InstallPackages;
  beforeAll(async () => {
    install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')]);
    packages = new InstallPackages(install);
  });
  afterAll(async () => {
    await packages.close();
    await install.close();
  });
  /** The package's source with export `index`'s bytes replaced by `edit` of a copy. */
  const edited = async (path: string, index: number, edit: (b: Uint8Array, nativeStart: number) => Uint8Array) => {
    const source = await installTextureSource(packages, path, {});
    const e = source.exports[index]!;
    e.bytes = edit(e.bytes.slice(), e.properties.propertyStart + e.properties.propertyBytes);
    return { source, exp: e };
  };

  it('a collection cut short, or a group of 2^31 - 1 elements, is a FormatError naming the file and the collection', async () => {
    for (const cut of [40, 200, 1500]) {
      const { source, exp } = await edited(COLLECTION, 0, (b, start) => b.subarray(0, start + cut));
      expect(() => geometryCollectionOf(source, exp, 508)).toThrow(FormatError);
    }
    const { source, exp } = await edited(COLLECTION, 0, (b, start) => { new DataView(b.buffer).setInt32(start + 8 + 4 + 4 + 8 + 4, 0x7fffffff, true); return b; });
    expect(() => geometryCollectionOf(source, exp, 508)).toThrow(/GC_Fixture.*group Transform has 2147483647 elements/);
  });

  it('a CollisionDisableTable count past the bytes is a FormatError, not an allocation', async () => {
    const { source, exp } = await edited(PHYSICS, 0, (b, start) => { new DataView(b.buffer).setInt32(start + 4, 0x10000000, true); return b; });
    expect(() => physicsAssetOf(source, exp)).toThrow(/collision pairs 268435456 needs/);
  });

  it('300 seeded mutations of each reader\'s native data (bytes, counts set huge, cuts) end in the project\'s input errors or a mesh', async () => {
    let seed = 12345;
    const next = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
    const cases: [string, number, (s: Awaited<ReturnType<typeof edited>>) => Promise<unknown> | unknown][] = [
      [COLLECTION, 0, ({ source, exp }) => geometryCollectionOf(source, exp, 508)],
      [PHYSICS, 0, ({ source, exp }) => physicsAssetOf(source, exp)],
      [GEOCACHE, 2, ({ source }) => geometryCacheOf(source, source.exports[0]!, 508)],
    ];
    let outcomes = { ok: 0, inputError: 0 };
    for (const [path, index, run] of cases) {
      for (let i = 0; i < 100; i++) {
        const s = await edited(path, index, (b, start) => {
          const span = b.length - start;
          for (let k = 0, n = 1 + next(4); k < n && span > 0; k++) {
            const at = start + next(span);
            const kind = next(3);
            if (kind === 0) b[at] = next(256);
            else if (kind === 1 && at + 4 <= b.length) new DataView(b.buffer).setInt32(at, [0x7fffffff, -1, 0x10000, 1 << 24][next(4)]!, true);
            else return b.subarray(0, at);
          }
          return b;
        });
        try {
          await run(s);
          outcomes.ok++;
        } catch (e) {
          if (!isInputError(e)) throw e;
          outcomes.inputError++;
        }
      }
    }
    expect(outcomes.ok + outcomes.inputError).toBe(300);
    expect(outcomes.inputError).toBeGreaterThan(50);
  });

  /** GeoCache_Fixture with its track's one visibility sample (the export's last 18 bytes) replaced by n: [i, i + 0.5) visible for even i, hidden for odd. */
  const manyVisibilitySamples = async (n: number) => {
    const source = await installTextureSource(packages, GEOCACHE, {});
    const track = source.exports.find((e) => e.class === 'GeometryCacheTrackStreamable')!;
    const head = track.bytes.subarray(0, track.bytes.length - 18);
    expect(new DataView(head.buffer, head.byteOffset).getInt32(head.length, true)).toBe(1); // the fixture's count, read past the view's end
    const bytes = new Uint8Array(head.length + 4 + 14 * n);
    bytes.set(head);
    const v = new DataView(bytes.buffer);
    v.setInt32(head.length, n, true);
    for (let i = 0, at = head.length + 4; i < n; i++, at += 14) {
      v.setUint8(at, 0); v.setFloat32(at + 1, i, true);
      v.setUint8(at + 5, 1); v.setFloat32(at + 6, i + 0.5, true);
      v.setInt32(at + 10, i % 2 === 0 ? 1 : 0, true);
    }
    track.bytes = bytes;
    return source;
  };

  it('60,000 visibility samples are worked out once per track, not once per key (a crafted track ran for hours): every change is a key with its state', async () => {
    const source = await manyVisibilitySamples(60000);
    const mesh = await geometryCacheOf(source, source.exports[0]!, 508);
    const frame = mesh.parts!.find((p) => p.name.endsWith('_frame0'))!;
    const { times, visible } = frame.visibility!;
    expect(times.length).toBe(120000); // 0 .. 59999 and each + 0.5
    expect([times[0], times[1], times[2], times[3], times.at(-1)]).toEqual([0, 0.5, 1, 1.5, 59999.5]);
    expect([visible[0], visible[1], visible[2], visible[3], visible[4]]).toEqual([true, false, false, false, true]);
  }, 20000);

  it('a track of more than 65,536 visibility samples is a FormatError naming the track and the count', async () => {
    const source = await manyVisibilitySamples(70000);
    await expect(geometryCacheOf(source, source.exports[0]!, 508)).rejects.toThrow(/StreamableTrack.*70000 visibility samples/);
  });

  it('a streamable track cut short is a FormatError naming the track', async () => {
    const source = await installTextureSource(packages, GEOCACHE, {});
    const track = source.exports.find((e) => e.class === 'GeometryCacheTrackStreamable')!;
    track.bytes = track.bytes.subarray(0, track.properties.propertyStart + track.properties.propertyBytes + 30);
    await expect(geometryCacheOf(source, source.exports[0]!, 508)).rejects.toThrow(/StreamableTrack/);
  });
});

describe('geometry asset readers on bad input', () => {
  /** A raw-codec frame: an empty box, one batch, no attributes but positions, `n` vertices and the given indices. */
  const frame = (n: number, indices: number[], claimed = n): Uint8Array => {
    const bytes = new Uint8Array(25 + 4 + 12 + 36 + 4 + n * 12 + 4 + indices.length * 4);
    const v = new DataView(bytes.buffer);
    let at = 25;
    v.setInt32(at, 1, true); at += 4;
    v.setUint32(at, 0, true); v.setUint32(at + 4, indices.length / 3, true); v.setUint32(at + 8, 0, true); at += 12 + 36;
    v.setInt32(at, claimed, true); at += 4 + n * 12;
    v.setInt32(at, indices.length, true); at += 4;
    indices.forEach((x, i) => v.setUint32(at + i * 4, x, true));
    return bytes;
  };

  it('decodes a well-formed frame', () => {
    const f = decodeRawChunk(frame(3, [0, 1, 2]), 25 + 4 + 12 + 36 + 4 + 36 + 4 + 12, 'x.ubulk', 0);
    expect(f.lod.vertexCount).toBe(3);
    expect(Array.from(f.lod.indices)).toEqual([0, 1, 2]);
  });

  it('throws FormatError naming the frame for an index past the vertices, a vertex count past the bytes and a short chunk', () => {
    const bad = frame(3, [0, 1, 7]);
    expect(() => decodeRawChunk(bad, bad.length, 'x.ubulk', 4)).toThrow(FormatError);
    expect(() => decodeRawChunk(bad, bad.length, 'x.ubulk', 4)).toThrow(/x\.ubulk.*frame 4/);
    const huge = frame(3, [0, 1, 2], 0x7fffffff);
    expect(() => decodeRawChunk(huge, huge.length, 'x.ubulk', 0)).toThrow(FormatError);
    expect(() => decodeRawChunk(huge.subarray(0, 40), huge.length, 'x.ubulk', 0)).toThrow(/says .* bytes/);
  });

  it('makes a convex hull of a cube\'s corners (12 triangles) and ignores points inside', () => {
    const pts = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1], [0, 0, 0], [0.5, 0.2, -0.3]].flat();
    const hull = hullLod(pts)!;
    expect(hull.indices.length / 3).toBe(12);
    expect(hullLod([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])).toBeUndefined(); // flat
  });

  it('writes frames shown in turn as a step animation of their nodes\' scale the validator accepts', async () => {
    const identity = { translation: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] };
    const mesh: Mesh = {
      class: 'GeometryCache', name: 'Cache', notes: [], materials: [{ name: 'M', material: '' }], sockets: [], bones: [], morphTargets: [], lods: [],
      parts: [
        { name: 'Track', parent: -1, local: identity },
        { name: 'Track_frame0', parent: 0, local: identity, geometry: boxLod([10, 10, 10]), visibility: { times: [0, 0.5], visible: [true, false] } },
        { name: 'Track_frame1', parent: 0, local: identity, geometry: boxLod([20, 20, 20]), visibility: { times: [0, 0.5], visible: [false, true] } },
      ],
    };
    const glb = await writeGlb(mesh);
    const { errors } = await validateGlb(glb);
    expect(errors).toEqual([]);
    const gltf = parseGlb(glb);
    const [animation] = gltf.json.animations;
    expect(animation.channels).toHaveLength(2);
    const frame1 = gltf.json.nodes.findIndex((n: { name: string }) => n.name === 'Track_frame1');
    const channel = animation.channels.find((c: { target: { node: number } }) => c.target.node === frame1);
    expect(channel.target.path).toBe('scale');
    const sampler = animation.samplers[channel.sampler];
    expect(sampler.interpolation).toBe('STEP');
    expect(accessorValues(gltf, sampler.input)).toEqual([0, 0.5]);
    expect(accessorValues(gltf, sampler.output)).toEqual([0, 0, 0, 1, 1, 1]);
    // three.js (as Blender's importer) reads it as a discrete scale track per frame node.
    const three = await loadWithThree(glb);
    const tracks = three.animations[0]!.tracks;
    expect(tracks.map((t) => t.name).sort()).toEqual(['Track_frame0.scale', 'Track_frame1.scale']);
    expect(tracks.every((t) => t.getInterpolation() === InterpolateDiscrete)).toBe(true);
  });
});
