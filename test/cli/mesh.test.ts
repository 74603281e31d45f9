// `pakscope mesh`: the --json of issue 22 for SM_Fixture (tagged, and unversioned with the usmap
// alike; its values from the issue and CUE4Parse's fixture tests, the bounds from the mesh's own
// stored ExtendedBounds), a .glb the Khronos validator passes, and the refusals.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');
const M = (name: string): string => `/Game/Fixtures/Meshes/${name}`;

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-mesh-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope mesh', () => {
  it('--json: SM_Fixture as the issue lists it, the same from tagged and from unversioned packages with their mappings', async () => {
    const [tagged, unversioned] = await Promise.all([
      pakscope(['mesh', TAGGED, M('SM_Fixture'), '--json']),
      pakscope(['mesh', UNVERSIONED, M('SM_Fixture'), '--json', '--usmap', USMAP]),
    ]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    // ExtendedBounds: origin (0, 0, 10), extent (50, 50, 10).
    const lod = {
      vertices: 6, triangles: 2, uvChannels: 2,
      sections: [{ material: 'Primary', triangles: 1 }, { material: 'Secondary', triangles: 1 }],
      bounds: { min: [-50, -50, 0], max: [50, 50, 20] },
    };
    const want = { class: 'StaticMesh', lods: [lod, lod], bones: [], morphTargets: [], sockets: [{ name: 'FixtureSocket', location: [12.5, -25, 37.5] }] };
    expect(JSON.parse(tagged.out)).toEqual(want);
    expect(JSON.parse(unversioned.out)).toEqual(want);
  });

  it('--json: SK_Fixture with its bones, LODs of 6 and 3 vertices and Morph_Fixture; SKEL_Fixture with its bones and socket', async () => {
    const [sk, unversioned, skel] = await Promise.all([
      pakscope(['mesh', TAGGED, M('SK_Fixture'), '--json']),
      pakscope(['mesh', UNVERSIONED, M('SK_Fixture'), '--json', '--usmap', USMAP]),
      pakscope(['mesh', TAGGED, '/Game/Fixtures/Animations/SKEL_Fixture', '--json']),
    ]);
    expect([sk.code, unversioned.code, skel.code]).toEqual([0, 0, 0]);
    const bones = [{ name: 'Root', parent: -1 }, { name: 'Joint_1', parent: 0 }, { name: 'Joint_2', parent: 1 }];
    for (const r of [sk, unversioned]) {
      const j = JSON.parse(r.out);
      expect(j.class).toBe('SkeletalMesh');
      expect(j.bones).toEqual(bones);
      expect(j.lods.map((l: { vertices: number }) => l.vertices)).toEqual([6, 3]);
      expect(j.morphTargets).toEqual(['Morph_Fixture']);
    }
    expect(JSON.parse(skel.out)).toEqual({ class: 'Skeleton', lods: [], bones, morphTargets: [], sockets: [{ name: 'FixtureSocket', location: [2.5, -5, 7.5] }] });
  });

  it('-o SK_Fixture.glb: a skinned mesh the Khronos validator passes', async () => {
    const file = join(temp, 'SK_Fixture.glb');
    const r = await pakscope(['mesh', TAGGED, M('SK_Fixture'), '-o', file]);
    expect(r.code).toBe(0);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const { json } = parseGlb(glb);
    expect(json.skins[0].joints).toHaveLength(3);
    expect(json.meshes[0].primitives[0].attributes.JOINTS_0).toBeDefined();
  });

  it('the facts as text; SM_Nanite says it shows its fallback mesh', async () => {
    const r = await pakscope(['mesh', TAGGED, M('SM_Fixture')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^SM_Fixture \(StaticMesh\)\n {2}LOD 0: 6 vertices, 2 triangles, 2 UV channels, 2 sections\n/);
    expect(r.out).toMatch(/socket FixtureSocket at \(12\.5, -25, 37\.5\)/);
    const n = await pakscope(['mesh', TAGGED, M('SM_Nanite')]);
    expect(n.code).toBe(0);
    expect(n.stderr).toMatch(/note: a Nanite mesh: shown is its fallback mesh/);
  });

  it('-o x.glb writes glTF 2.0 the Khronos validator passes; --lod 1 the second LOD', async () => {
    for (const [args, name] of [[[], 'SM_Fixture.glb'], [['--lod', '1'], 'SM_Fixture_1.glb']] as const) {
      const file = join(temp, name);
      const r = await pakscope(['mesh', TAGGED, M('SM_Fixture'), '-o', file, ...args]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`wrote .*${name}: glTF 2\\.0 binary, LOD ${args.length ? 1 : 0}`));
      const glb = new Uint8Array(await readFile(file));
      const { errors } = await validateGlb(glb);
      expect(errors).toEqual([]);
      const { json } = parseGlb(glb);
      // One primitive per section, 6 vertices.
      expect(json.meshes[0].primitives).toHaveLength(2);
      expect(json.accessors[json.meshes[0].primitives[0].attributes.POSITION].count).toBe(6);
    }
  });

  it('refuses a LOD the mesh lacks, a non-.glb -o and a package without a mesh (exit 2)', async () => {
    const lod = await pakscope(['mesh', TAGGED, M('SM_Fixture'), '--lod', '2', '-o', join(temp, 'x.glb')]);
    expect(lod.code).toBe(2);
    expect(lod.stderr).toMatch(/SM_Fixture has LODs 0 to 1, not 2/);
    const ext = await pakscope(['mesh', TAGGED, M('SM_Fixture'), '-o', join(temp, 'x.obj')]);
    expect(ext.code).toBe(2);
    expect(ext.stderr).toMatch(/-o names the \.glb file to write/);
    const none = await pakscope(['mesh', TAGGED, '/Game/Fixtures/Audio/SW_Inline']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/holds no mesh \(its exports are SoundWave/);
  });
});
