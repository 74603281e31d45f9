/**
 * levelScene, what the level view's 3D scene draws, on the cue58 IoStore fixtures: Instancing.umap's
 * SM_Fixture placed 21 times (ISM_Fixture's 4 instances, HISM_Fixture's 12, the foliage
 * component's 5: CUE4Parse's InstancedMeshComponentsDeserializeInstancesCustomDataAndClusterTree
 * and FoliageActorDeserializesTypeAndCookedInstances), Streaming_Sublevel's one placement checked
 * against the engine's FRotationMatrix of its stored rotator, and the matrices' bytes as the page
 * reads them. The same on the unversioned install with its mappings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import type { LevelScene } from '../../src/shared/api.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { encodeFrame, decodeFrame } from '../../src/shared/wire.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const MAPS = 'CUE4ParseFixtures/Content/Fixtures/Maps';
const SM = '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture';
const session = useBackend(corpus('cue58/IoStore/Tagged/Zlib'), 'pakscope-level-scene-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

const floats = (b: Uint8Array): Float32Array => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
const uints = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
const matrix = (s: LevelScene, i: number): number[] => [...floats(s.matrices).subarray(i * 16, i * 16 + 16)];

/** Placements per component name. */
function countsByComponent(s: LevelScene): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of uints(s.owners)) {
    const name = s.components[o]!.path.replace(/^.*\./, '');
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/**
 * The engine's FRotationMatrix of a rotator scaled per axis (rows: the scaled X, Y and Z axes),
 * then moved into the view's axes (engine (x, y, z) as (x, z, y)) as a column-major 4x4.
 */
function engineMatrix(loc: number[], [pitch, yaw, roll]: number[], scale: number[]): number[] {
  const r = Math.PI / 180;
  const [SP, CP, SY, CY, SR, CR] = [Math.sin(pitch! * r), Math.cos(pitch! * r), Math.sin(yaw! * r), Math.cos(yaw! * r), Math.sin(roll! * r), Math.cos(roll! * r)];
  const rows = [
    [CP * CY, CP * SY, SP],
    [SR * SP * CY - CR * SY, SR * SP * SY + CR * CY, -SR * CP],
    [-(CR * SP * CY + SR * SY), CY * SR - CR * SP * SY, CR * CP],
  ].map((row, i) => row.map((v) => v * scale[i]!));
  const swap = (v: number[]): number[] => [v[0]!, v[2]!, v[1]!];
  // View column 0 is the engine's X axis, column 1 its Z axis (view Y is up), column 2 its Y axis.
  return [...swap(rows[0]!), 0, ...swap(rows[2]!), 0, ...swap(rows[1]!), 0, ...swap(loc), 1];
}

describe('levelScene', () => {
  it('places SM_Fixture 21 times in Instancing.umap, each component\'s instances under it, with the mesh\'s package to fetch', async () => {
    const s = await backend.levelScene({ installId, path: `${MAPS}/Instancing.umap` });
    expect(s.meshes).toEqual([{ mesh: SM, treePath: 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset', first: 0, count: 21 }]);
    expect([s.placements, s.matrices.byteLength, s.owners.byteLength]).toEqual([21, 21 * 64, 21 * 4]);
    expect(countsByComponent(s)).toEqual({ HISM_Fixture: 12, ISM_Fixture: 4, FoliageInstancedStaticMeshComponent_0: 5 });
    expect(s.components.map((c) => c.actorClass)).toEqual(['Actor', 'Actor', 'InstancedFoliageActor']);
    // ISM_Fixture's second instance: (125, 0, 15), yaw 17, scale 1.125, under a component at the origin.
    const ism = s.components.findIndex((c) => c.path.endsWith('.ISM_Fixture'));
    const first = [...uints(s.owners)].indexOf(ism);
    const m = matrix(s, first + 1);
    const expected = engineMatrix([125, 0, 15], [0, 17, 0], [1.125, 1.125, 1.125]);
    m.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 4));
  });

  it('places Streaming_Sublevel\'s StreamedMesh as the engine\'s matrix of its rotator, scale and location', async () => {
    const s = await backend.levelScene({ installId, path: `${MAPS}/Streaming_Sublevel.umap` });
    expect(s.placements).toBe(1);
    expect(s.components[0]).toMatchObject({ actorClass: 'StaticMeshActor', actor: expect.stringMatching(/\.StreamedMesh$/) });
    const expected = engineMatrix([125, -250, 375], [5, 15, 25], [1.25, 0.75, 1.5]);
    matrix(s, 0).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 4));
    // View axes: Y is the engine's Z.
    expect(s.bounds).toEqual({ min: [125, 375, -250], max: [125, 375, -250] });
  });

  it('sends the matrices as a binary frame the page reads as floats without a copy', async () => {
    const s = await backend.levelScene({ installId, path: `${MAPS}/Instancing.umap` });
    const parts = encodeFrame({ ok: true, value: s })!;
    expect(parts).not.toBeNull();
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) { bytes.set(p, at); at += p.byteLength; }
    const back = (decodeFrame(bytes.buffer) as { value: LevelScene }).value;
    expect(back.matrices.byteOffset % 8).toBe(0);
    expect([...floats(back.matrices)]).toEqual([...floats(s.matrices)]);
    expect([...uints(back.owners)]).toEqual([...uints(s.owners)]);
  });

  it('draws Streaming\'s sublevel with it when asked: StreamedMesh under the LevelTransform (1000, 2000, 3000), yaw 45, scale 2', async () => {
    const s = await backend.levelScene({ installId, path: `${MAPS}/Streaming.umap`, sublevels: true });
    expect([s.sublevels, s.notes, s.placements]).toEqual([[`${MAPS}/Streaming_Sublevel.umap`], [], 1]);
    expect(s.components[0]).toMatchObject({ sublevel: `${MAPS}/Streaming_Sublevel.umap`, actorClass: 'StaticMeshActor' });
    // The engine's matrices, row-vector: the mesh's placement times the level's.
    const mesh = engineMatrix([125, -250, 375], [5, 15, 25], [1.25, 0.75, 1.5]);
    const lvl = engineMatrix([1000, 2000, 3000], [0, 45, 0], [2, 2, 2]);
    // Both in view axes and column-major: the product is lvl x mesh.
    const expected = Array.from({ length: 16 }, (_, i) => {
      const c = Math.floor(i / 4), r = i % 4;
      return [0, 1, 2, 3].reduce((sum, k) => sum + lvl[k * 4 + r]! * mesh[c * 4 + k]!, 0);
    });
    matrix(s, 0).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 2));
  });

  it('draws WorldPartition\'s cell with it: SM_Fixture placed in the generated package (WorldPartitionRuntimeCellLoadsPartitionedActor)', async () => {
    expect((await backend.levelScene({ installId, path: `${MAPS}/WorldPartition.umap` })).placements).toBe(0);
    const s = await backend.levelScene({ installId, path: `${MAPS}/WorldPartition.umap`, sublevels: true });
    expect(s.sublevels).toEqual([expect.stringMatching(new RegExp(`^${MAPS}/WorldPartition/_Generated_/[0-9A-Z]+\\.umap$`))]);
    expect(s.meshes.map((m) => [m.mesh, m.count])).toEqual([[SM, 1]]);
    expect(s.components[0]!.actorClass).toBe('StaticMeshActor');
  });

  it('has nothing to draw in a level without meshes, and refuses a request of the wrong shape', async () => {
    const s = await backend.levelScene({ installId, path: `${MAPS}/Streaming.umap` });
    expect([s.meshes, s.placements, s.bounds]).toEqual([[], 0, { min: [0, 0, 0], max: [0, 0, 0] }]);
    await expect(backend.levelScene({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC3.uasset' })).rejects.toThrow(/no export of this package is a World/);
    expect(() => validateRequest('levelScene', { installId, path: 3 })).toThrow(ApiValidationError);
    expect(() => validateRequest('levelScene', { installId, path: 'x', sublevels: 1 })).toThrow(ApiValidationError);
  });
});

describe('levelScene on an unversioned install', () => {
  const unversioned = useBackend(corpus('cue58/IoStore/Unversioned/Zlib'), 'pakscope-level-scene-unversioned-');
  it('needs the mappings, then gives the same 21 placements', async () => {
    const { backend: b, installId: id } = unversioned;
    const path = `${MAPS}/Instancing.umap`;
    await expect(b.levelScene({ installId: id, path })).rejects.toThrow(/mappings/);
    await b.setMappings({ installId: id, path: corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap') });
    const s = await b.levelScene({ installId: id, path });
    expect(countsByComponent(s)).toEqual({ HISM_Fixture: 12, ISM_Fixture: 4, FoliageInstancedStaticMeshComponent_0: 5 });
    expect(s.meshes.map((m) => [m.mesh, m.count])).toEqual([[SM, 21]]);
  });
});

describe('levelScene of a map whose meshes the install lacks', () => {
  const uncooked = useBackend(corpus('uncooked'), 'pakscope-level-scene-uncooked-');
  it('lists the engine meshes of ue54_LevelOne with their placements and no tree path (the view counts them, not drawn)', async () => {
    const { backend: b, installId: id } = uncooked;
    const s = await b.levelScene({ installId: id, path: 'ue54_LevelOne.umap' });
    // Three floors (Floor, Floor_0, Floor_1) and the sky sphere, as the map's StaticMeshActors place them.
    expect(s.meshes.map((m) => [m.mesh, m.treePath, m.count])).toEqual([
      ['/Engine/MapTemplates/SM_Template_Map_Floor.SM_Template_Map_Floor', null, 3],
      ['/Engine/EngineSky/SM_SkySphere.SM_SkySphere', null, 1],
    ]);
    expect(s.components.map((c) => c.actor.replace(/^.*\./, ''))).toEqual(['Floor', 'StaticMeshActor_1', 'Floor_0', 'Floor_1']);
  });
});
