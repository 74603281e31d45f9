/**
 * Levels of the corpus: cue58's fixture maps (IoStore, tagged and unversioned with the fixture
 * mappings) against the values CUE4Parse's fixture tests assert: FixtureExtendedAssetTests.cs
 * (TraditionalLevelStreamingAndSceneAttachmentsDeserialize: Streaming.umap;
 * InstancedMeshComponentsDeserializeInstancesCustomDataAndClusterTree: Instancing.umap),
 * FixtureAdvancedAssetTests.cs (FoliageActorDeserializesTypeAndCookedInstances,
 * LevelInstancePreservesCookedWorldReference) and FixtureWorldAssetTests.cs
 * (WorldPartitionMapPreservesRuntimeHashAndCells, WorldPartitionRuntimeCellLoadsPartitionedActor).
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport } from '../../../src/core/assets/index.js';
import { readLevel } from '../../../src/core/assets/level/read.js';
import type { LevelAsset, LevelComponent } from '../../../src/core/assets/level/types.js';
import { installPackageProperties } from '../../../src/core/properties/open.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { withInstall } from '../../properties/helpers.js';
import { parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');
const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Zlib', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];
const SM_FIXTURE = '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture';

const component = (l: LevelAsset, name: string): LevelComponent => {
  const c = l.actors.flatMap((a) => a.components).find((x) => x.name === name);
  if (!c) throw new Error(`no component ${name}`);
  return c;
};

describe.each(VARIANTS)('cue58 %s', (_label, root, usmap) => {
  const read = (ref: string) => withInstall(corpus(root), (packages) => readLevel({ packages, ref }, undefined, usmap ? { mappings: usmap } : {}));

  it('Streaming: one always-loaded sublevel with its transform, and a child attached to a socket', async () => {
    const l = await read('/Game/Fixtures/Maps/Streaming');
    expect(l.notes).toEqual([]);
    expect(l.streamingLevels).toHaveLength(1);
    const s = l.streamingLevels[0]!;
    expect(s.class).toBe('LevelStreamingAlwaysLoaded');
    expect(s.worldAsset).toBe('/Game/Fixtures/Maps/Streaming_Sublevel.Streaming_Sublevel');
    expect(s.package).toBe('/Game/Fixtures/Maps/Streaming_Sublevel');
    expect(s.transform.location).toEqual({ x: 1000, y: 2000, z: 3000 });
    expect(s.transform.scale).toEqual({ x: 2, y: 2, z: 2 });
    const child = component(l, 'AttachmentChild');
    expect(child.attachParent).toBe(component(l, 'AttachmentRoot').path);
    expect(child.attachSocket).toBe('FixtureSocket');
    expect(child.relative.location).toEqual({ x: 11, y: 22, z: 33 });
    const actor = l.actors.find((a) => a.name === 'AttachmentFixture')!;
    expect(actor.rootComponent).toBe(component(l, 'AttachmentRoot').path);
    // LevelInstancePreservesCookedWorldReference: the level instance actor is placed in the level.
    expect(l.actors.map((a) => a.class)).toContain('LevelInstance');
  });

  it('Instancing: ISM_Fixture\'s 4 instances and HISM_Fixture\'s 12 with their custom data, the foliage component\'s 5 of SM_Fixture', async () => {
    const l = await read('/Game/Fixtures/Maps/Instancing');
    expect(l.notes).toEqual([]);
    const ism = component(l, 'ISM_Fixture');
    expect(ism.class).toBe('InstancedStaticMeshComponent');
    expect(ism.instances!.count).toBe(4);
    expect(ism.instances!.customData).toEqual([10, 20, 11, 22, 12, 24, 13, 26]);
    const hism = component(l, 'HISM_Fixture');
    expect(hism.class).toBe('HierarchicalInstancedStaticMeshComponent');
    expect(hism.instances!.count).toBe(12);
    expect(hism.instances!.customData).toEqual(Array.from({ length: 12 }, (_, i) => 100 + i));
    const foliage = l.actors.find((a) => a.class === 'InstancedFoliageActor')!.components.find((c) => c.instances)!;
    expect(foliage.class).toBe('FoliageInstancedStaticMeshComponent');
    expect(foliage.instances!.count).toBe(5);
    expect(foliage.staticMesh).toBe(SM_FIXTURE);
    expect(l.counts.instances).toBe(4 + 12 + 5);
    // Each instance's transform is a placement (no shear): its scale is positive and the last row the translation.
    for (const t of hism.instances!.transforms) expect(t.scale.x).toBeGreaterThan(0);
  });

  it('WorldPartition: its one runtime cell, spatially loaded, naming its generated level package', async () => {
    const l = await read('/Game/Fixtures/Maps/WorldPartition');
    expect(l.partitioned).toBe(true);
    expect(l.cells).toHaveLength(1);
    const cell = l.cells[0]!;
    expect(cell.class).toBe('WorldPartitionRuntimeLevelStreamingCell');
    expect(cell.spatiallyLoaded).toBe(true);
    expect(cell.levelStreaming).not.toBeNull();
    expect(cell.package).toMatch(/^\/Game\/Fixtures\/Maps\/WorldPartition\/_Generated_\/[0-9A-Z]+$/);
    // The cell's level is not also listed as a plain streaming level.
    expect(l.streamingLevels).toEqual([]);

    const generated = await read(cell.package!);
    const mesh = generated.actors.find((a) => a.name === 'PartitionedMesh')!;
    expect(mesh.class).toBe('StaticMeshActor');
    expect(mesh.components.find((c) => c.path === mesh.rootComponent)!.staticMesh).toBe(SM_FIXTURE);
  });

  it('converts through the registry to the same JSON', async () => {
    const kind = assetKindOf('World')!;
    expect(kind.kind).toBe('level');
    const files = await withInstall(corpus(root), async (packages) => {
      const level = await readLevel({ packages, ref: '/Game/Fixtures/Maps/Streaming' }, undefined, usmap ? { mappings: usmap } : {});
      const props = await installPackageProperties(packages, '/Game/Fixtures/Maps/Streaming', usmap ? { mappings: usmap } : {});
      const index = props.properties.exports.findIndex((e) => e.class === 'World');
      return { level, files: await convertExport({ packages, ref: '/Game/Fixtures/Maps/Streaming' }, { index, kind }, undefined, usmap ? { mappings: usmap } : {}) };
    });
    expect(files.files.map((f) => f.extension)).toEqual(['json']);
    expect(JSON.parse(new TextDecoder().decode(files.files[0]!.data))).toEqual(JSON.parse(JSON.stringify(files.level)));
  });
});

describe('tagged and unversioned agree', () => {
  it('Instancing reads the same with the mappings as tagged', async () => {
    const [t, u] = await Promise.all(VARIANTS.map(([, root, usmap]) => withInstall(corpus(root), (packages) => readLevel({ packages, ref: '/Game/Fixtures/Maps/Instancing' }, undefined, usmap ? { mappings: usmap } : {}))));
    expect(u).toEqual(t);
  });

  it('an unversioned map without mappings is a clear error', async () => {
    await expect(withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), (packages) => readLevel({ packages, ref: '/Game/Fixtures/Maps/Streaming' }, undefined))).rejects.toThrow(/mappings \(\.usmap\) are needed to read its level/);
  });
});

describe('level .glb', () => {
  it('places Instancing\'s instances of SM_Fixture: one mesh, 21 nodes using it, a validator-clean file', async () => {
    const glb = await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const props = await installPackageProperties(packages, '/Game/Fixtures/Maps/Instancing');
      const index = props.properties.exports.findIndex((e) => e.class === 'World');
      return convertExport({ packages, ref: '/Game/Fixtures/Maps/Instancing' }, { index, kind: assetKindOf('World')! }, 'glb');
    });
    expect(glb.map((f) => f.extension)).toEqual(['glb']);
    const { errors } = await validateGlb(glb[0]!.data);
    expect(errors).toEqual([]);
    const gltf = parseGlb(glb[0]!.data).json as { meshes: unknown[]; nodes: { name: string; mesh?: number; translation?: number[] }[] };
    expect(gltf.meshes).toHaveLength(1);
    expect(gltf.nodes.filter((n) => n.mesh === 0)).toHaveLength(4 + 12 + 5);
    // ISM_Fixture's second instance at (125, 0, 15) cm: glTF (x, z, y) in metres.
    const second = gltf.nodes.find((n) => n.name === 'ISM_Fixture[1]')!;
    expect(second.translation!.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([1.25, 0.15, 0]);
  });
});
