/**
 * The level view's API: Streaming.umap and Instancing.umap of the cue58 IoStore fixtures offered
 * as a "level" preview, and levelInfo giving what they place (values from CUE4Parse's
 * FixtureExtendedAssetTests.cs) with the tree paths of the mesh and the sublevel the install holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const MAPS = 'CUE4ParseFixtures/Content/Fixtures/Maps';
const session = useBackend(corpus('cue58/IoStore/Tagged/Zlib'), 'pakscope-level-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('levelInfo', () => {
  it('offers Streaming.umap as a level: its sublevel (a link) with its transform, and the socket attachment', async () => {
    const path = `${MAPS}/Streaming.umap`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.kind, a.class, a.converts])).toEqual([['level', 'level', 'World', ['json', 'glb']]]);
    const l = await backend.levelInfo({ installId, path });
    const s = l.level.streamingLevels[0]!;
    expect([s.worldAsset, s.transform.location, s.transform.scale]).toEqual(['/Game/Fixtures/Maps/Streaming_Sublevel.Streaming_Sublevel', { x: 1000, y: 2000, z: 3000 }, { x: 2, y: 2, z: 2 }]);
    expect(l.links['/Game/Fixtures/Maps/Streaming_Sublevel']).toBe(`${MAPS}/Streaming_Sublevel.umap`);
    const child = l.level.actors.flatMap((a) => a.components).find((c) => c.name === 'AttachmentChild')!;
    expect([child.attachSocket, child.relative.location]).toEqual(['FixtureSocket', { x: 11, y: 22, z: 33 }]);
    expect(JSON.parse(l.json).world).toBe('Streaming');
  });

  it('links Instancing\'s mesh to its package', async () => {
    const l = await backend.levelInfo({ installId, path: `${MAPS}/Instancing.umap` });
    expect(l.links['/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture']).toBe('CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset');
    expect(l.level.counts.instances).toBe(21);
  });

  it('links WorldPartition\'s cell to its generated package, which opens as a level with SM_Fixture placed', async () => {
    const l = await backend.levelInfo({ installId, path: `${MAPS}/WorldPartition.umap` });
    const cell = l.level.cells[0]!;
    const tree = l.links[cell.package!]!;
    expect(tree).toMatch(new RegExp(`^${MAPS}/WorldPartition/_Generated_/[0-9A-Z]+\\.umap$`));
    const generated = await backend.levelInfo({ installId, path: tree });
    expect(generated.links['/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture']).toBe('CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset');
  });

  it('refuses a package with no World, and a request of the wrong shape', async () => {
    await expect(backend.levelInfo({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC3.uasset' })).rejects.toThrow(/no export of this package is a World/);
    expect(() => validateRequest('levelInfo', { installId, path: 3 })).toThrow(ApiValidationError);
  });
});
