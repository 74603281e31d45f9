// `pakscope mesh` on a GeometryCache and a PhysicsAsset (cue58, tagged and unversioned with the
// usmap): the facts CUE4Parse's fixture tests name (768 vertices and indices in one frame; bodies
// Root and Joint_1, constraint RootToJoint, collision pair 0-1), and -o writing a .glb the Khronos
// validator passes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { validateGlb } from '../support/gltf-validator.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-mesh-geometry-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope mesh on geometry caches and physics assets', () => {
  it('--json: GeoCache_Fixture\'s frame and PHYS_Fixture\'s bodies, alike tagged and unversioned', async () => {
    const runs = await Promise.all([
      pakscope(['mesh', TAGGED, '/Game/Fixtures/Geometry/GeoCache_Fixture', '--json']),
      pakscope(['mesh', UNVERSIONED, '/Game/Fixtures/Geometry/GeoCache_Fixture', '--json', '--usmap', USMAP]),
      pakscope(['mesh', TAGGED, '/Game/Fixtures/Physics/PHYS_Fixture', '--json']),
      pakscope(['mesh', UNVERSIONED, '/Game/Fixtures/Physics/PHYS_Fixture', '--json', '--usmap', USMAP]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const [cacheT, cacheU, physT, physU] = runs.map((r) => JSON.parse(r.out));
    expect(cacheU).toEqual(cacheT);
    expect(cacheT.class).toBe('GeometryCache');
    expect(cacheT.geometryCache.tracks[0].samples).toEqual([{ time: 0, vertices: 768, indices: 768 }]);
    expect(cacheT.lods[0]).toMatchObject({ vertices: 768, triangles: 256 });
    expect(physU.physics).toEqual(physT.physics);
    expect(physT.physics.bodies.map((b: { bone: string }) => b.bone)).toEqual(['Root', 'Joint_1']);
    expect(physT.physics.constraints[0]).toMatchObject({ name: 'RootToJoint', bone1: 'Joint_1', bone2: 'Root', disableCollision: true });
    expect(physT.physics.collisionPairs).toEqual([{ bodies: [0, 1], enabled: false }]);
  });

  it('prints the tables and writes -o .glb files the validator passes', async () => {
    const text = await pakscope(['mesh', TAGGED, '/Game/Fixtures/Physics/PHYS_Fixture']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/RootBody \| Root \| box \| \(1, 2, 3\) \| \(5, 10, 15\) \| 40 x 30 x 20/);
    expect(text.out).toMatch(/RootToJoint \| Joint_1 \| Root \| disabled/);
    for (const [pkg, file] of [['/Game/Fixtures/Geometry/GeoCache_Fixture', 'cache.glb'], ['/Game/Fixtures/Physics/PHYS_Fixture', 'phys.glb']] as const) {
      const out = join(temp, file);
      const r = await pakscope(['mesh', TAGGED, pkg, '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      const { errors } = await validateGlb(new Uint8Array(await readFile(out)));
      expect(errors).toEqual([]);
    }
  });

  it('unversioned without the usmap: exit 2, naming the file, the export and the mappings it needs', async () => {
    for (const [pkg, cls] of [['/Game/Fixtures/Geometry/GeoCache_Fixture', 'GeometryCache'], ['/Game/Fixtures/Geometry/GC_Fixture', 'GeometryCollection'], ['/Game/Fixtures/Physics/PHYS_Fixture', 'PhysicsAsset']]) {
      const r = await pakscope(['mesh', UNVERSIONED, pkg!]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${pkg!.split('/').pop()}\\.uasset: ${cls} .* at byte \\d+: unversioned properties: .*\\(\\.usmap\\)`));
    }
  });
});
