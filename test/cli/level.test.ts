// `pakscope level`: cue58's fixture maps (values from CUE4Parse's FixtureExtendedAssetTests.cs and
// FixtureWorldAssetTests.cs) as text and JSON, and `extract --format convert` writing maps as
// .json through the converter registry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope level', () => {
  it('prints Streaming\'s actors, the socket attachment and the sublevel with its transform', async () => {
    const r = await pakscope(['level', TAGGED, '/Game/Fixtures/Maps/Streaming']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain('AttachmentFixture (Actor)');
    expect(r.out).toContain('  AttachmentChild (SceneComponent)  under AttachmentRoot socket FixtureSocket  relative at (11, 22, 33)');
    expect(r.out).toMatch(/streaming AlwaysLoadedFixture \(LevelStreamingAlwaysLoaded\) {2}\/Game\/Fixtures\/Maps\/Streaming_Sublevel {2}at \(1000, 2000, 3000\) .*scale \(2, 2, 2\)/);
  });

  it('--json is the same from tagged and unversioned packages, with Instancing\'s instances', async () => {
    const tagged = await pakscope(['level', TAGGED, '/Game/Fixtures/Maps/Instancing', '--json']);
    const unversioned = await pakscope(['level', UNVERSIONED, '/Game/Fixtures/Maps/Instancing', '--json', '--usmap', USMAP]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const t = JSON.parse(tagged.out) as { actors: { components: { name: string; instances?: { count: number; customData: number[] } }[] }[] };
    const ism = t.actors.flatMap((a) => a.components).find((c) => c.name === 'ISM_Fixture')!;
    expect(ism.instances).toMatchObject({ count: 4, customData: [10, 20, 11, 22, 12, 24, 13, 26] });
    expect(JSON.parse(unversioned.out)).toEqual(t);
  });

  it('an unversioned map without mappings is a clear error; a package that is no map too', async () => {
    const r = await pakscope(['level', UNVERSIONED, '/Game/Fixtures/Maps/Streaming']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mappings \(\.usmap\) are needed to read its level/);
    const m = await pakscope(['level', TAGGED, '/Game/Fixtures/Materials/MI_Fixture']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/holds no World/);
  });

  it('-o writes the generated cell\'s level as a .glb: PartitionedMesh\'s SM_Fixture at its place', async () => {
    const file = join(await makeTempDir(), 'cell.glb');
    const cell = '/Game/Fixtures/Maps/WorldPartition/_Generated_/1WD4NAK7SVY0JF8AXYPOSA7U8';
    const r = await pakscope(['level', TAGGED, cell, '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*cell\.glb: glTF 2\.0 binary, 1 mesh components of 1 meshes, 0 instances/);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const node = (parseGlb(glb).json as { nodes: { name: string; mesh?: number; translation: number[]; scale: number[] }[] }).nodes.find((n) => n.name === 'PartitionedMesh.StaticMeshComponent0')!;
    // The component's RelativeLocation (3200, -1600, 250) cm (inside the cell's cooked ContentBounds,
    // x 3021..3378, y -1754..-1446, z 250..280) and scale (3, 2, 1.5), as glTF's (x, z, y) in metres.
    expect([node.mesh, node.translation, node.scale]).toEqual([0, [32, 2.5, -16], [3, 1.5, 2]]);
  });

  it('--cells prints WorldPartition\'s runtime hash, grids and cell; --all-cells -o writes the cell\'s mesh into the map\'s .glb', async () => {
    const cell = '/Game/Fixtures/Maps/WorldPartition/_Generated_/1WD4NAK7SVY0JF8AXYPOSA7U8';
    const r = await pakscope(['level', UNVERSIONED, '/Game/Fixtures/Maps/WorldPartition', '--cells', '--usmap', USMAP]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain('World Partition WorldPartition_0 (cooked)');
    expect(r.out).toContain('runtime hash WorldPartitionRuntimeHashSet: 4 grids, 1 streaming data');
    expect(r.out).toMatch(/grid MainPartition \(RuntimePartitionLHGrid\) {2}spatial {2}cell size default \(cells measure 12800 x 12800\) {2}loading range 25600/);
    expect(r.out).toMatch(/grid HLODLayer_Merged .*loading range 102400 {2}HLOD 1/);
    expect(r.out).toContain(`cell 1WD4NAK7SVY0JF8AXYPOSA7U8  grid MainPartition  spatial  cell (0, -12800, `);
    expect(r.out.trimEnd().endsWith(cell)).toBe(true);
    const file = join(await makeTempDir(), 'all.glb');
    const all = await pakscope(['level', TAGGED, '/Game/Fixtures/Maps/WorldPartition', '--all-cells', '-o', file]);
    expect(all.code).toBe(0);
    expect(all.out).toContain('with the actors of 1 of 1 cells');
    expect(all.out).toContain('PartitionedMesh (StaticMeshActor)  cell 1WD4NAK7SVY0JF8AXYPOSA7U8');
    const node = (parseGlb(new Uint8Array(await readFile(file))).json as { nodes: { name: string; translation: number[] }[] }).nodes.find((n) => n.name === 'PartitionedMesh.StaticMeshComponent0')!;
    expect(node.translation).toEqual([32, 2.5, -16]);
  });

  it('extract --format convert writes each map as .json', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/Maps/WorldPartition.umap', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const level = JSON.parse(await readFile(join(out, 'CUE4ParseFixtures/Content/Fixtures/Maps/WorldPartition.json'), 'utf8')) as { cells: { spatiallyLoaded: boolean; package: string }[] };
    expect(level.cells).toHaveLength(1);
    expect(level.cells[0]!.spatiallyLoaded).toBe(true);
    expect(level.cells[0]!.package).toMatch(/^\/Game\/Fixtures\/Maps\/WorldPartition\/_Generated_\//);
  });
});
