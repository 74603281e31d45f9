/**
 * The material view's API: MI_Fixture of the cue58 IoStore fixtures offered as a "material"
 * preview, and materialInfo giving its chain and parameters (values from CUE4Parse's
 * FixtureRenderableAssetTests.cs) with the tree paths of the levels and the texture the install
 * holds; the texture's preview through the gallery's thumbnail service.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const session = useBackend(corpus('cue58/IoStore/Tagged/Zlib'), 'pakscope-material-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('materialInfo', () => {
  it('offers MI_Fixture as a material: its chain, effective values and links to M_Fixture and T_BC3', async () => {
    const path = `${FIXTURES}/Materials/MI_Fixture.uasset`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.kind, a.class, a.converts])).toEqual([['material', 'material', 'MaterialInstanceConstant', ['json']]]);
    const m = await backend.materialInfo({ installId, path });
    expect(m.material.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    expect(m.material.parameters.map((p) => [p.kind, p.name, p.from])).toEqual([
      ['scalar', 'FixtureRoughness', 0], ['vector', 'AlternateColor', 1], ['vector', 'PrimaryColor', 0], ['texture', 'FixtureTexture', 0], ['switch', 'UseAlternateColor', 0],
    ]);
    expect(m.links['/Game/Fixtures/Materials/M_Fixture.M_Fixture']).toBe(`${FIXTURES}/Materials/M_Fixture.uasset`);
    expect(m.links['/Game/Fixtures/Textures/T_BC3.T_BC3']).toBe(`${FIXTURES}/Textures/T_BC3.uasset`);
    expect(JSON.parse(m.json).parameters[0].value).toBe(0.8125);
    // The texture's preview, as the view asks for it.
    const thumb = await backend.assetThumbnail({ installId, path: m.links['/Game/Fixtures/Textures/T_BC3.T_BC3']!, size: 64 });
    expect([thumb.kind, thumb.pixelFormat, thumb.image!.width <= 64]).toEqual(['texture', 'PF_DXT5', true]);
  });

  it('refuses a package with no material, and a request of the wrong shape', async () => {
    await expect(backend.materialInfo({ installId, path: `${FIXTURES}/Textures/T_BC3.uasset` })).rejects.toThrow(/no export of this package is a material/);
    expect(() => validateRequest('materialInfo', { installId, path: 3 })).toThrow(ApiValidationError);
  });
});

describe('materialInfo on an unversioned install', () => {
  const unversioned = useBackend(corpus('cue58/IoStore/Unversioned/Zlib'), 'pakscope-material-unversioned-');
  it('needs the install\'s mappings, then reads the same chain and values', async () => {
    const { backend: b, installId: id } = unversioned;
    const path = `${FIXTURES}/Materials/MI_Fixture.uasset`;
    await expect(b.materialInfo({ installId: id, path })).rejects.toThrow(/mappings \(\.usmap\) are needed to read its material/);
    await b.setMappings({ installId: id, path: corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap') });
    const m = await b.materialInfo({ installId: id, path });
    expect(m.material.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    expect(m.material.parameters.find((p) => p.name === 'PrimaryColor')!.value).toEqual({ r: 0.25, g: 0.75, b: 0.5, a: 0.875 });
    expect(m.material.parameters.find((p) => p.name === 'AlternateColor')).toMatchObject({ value: { r: 0.9, g: 0.15, b: 0.05, a: 1 }, from: 1 });
  });
});
