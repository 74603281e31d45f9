/**
 * A mesh's slot materials in its glTF: the textures and base colour picked from each slot's
 * material (its chain followed through the install). MI_Quinn_01 (UE5.6) names its textures as
 * the mannequin's materials do ("Base Texture", "BNormal", "MRA": names and texture paths from its
 * name map); cue58's MI_Fixture has one texture (FixtureTexture = T_BC3, CUE4Parse's
 * FixtureRenderableAssetTests.cs). SM_Fixture's slots name an engine material the cue58 install
 * does not hold: pointed at MI_Fixture, its .glb embeds T_BC3 as the slot's base colour, which the
 * Khronos validator accepts.
 */
import { describe, expect, it } from 'vitest';
import { convertMesh } from '../../../src/core/assets/mesh/gltf/convert.js';
import { readMesh } from '../../../src/core/assets/mesh/kind.js';
import { resolveSlotMaterials, slotLook } from '../../../src/core/assets/mesh/slot-materials.js';
import { readMaterial } from '../../../src/core/assets/material/read.js';
import { resolveChain } from '../../../src/core/assets/material/read.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { parseGlb, validateGlb } from '../../support/gltf-validator.js';

const MI_FIXTURE = '/Game/Fixtures/Materials/MI_Fixture.MI_Fixture';
const T_BC3 = '/Game/Fixtures/Textures/T_BC3.T_BC3';

describe('slot materials', () => {
  it('MI_Quinn_01: base colour and normal by their names; its MRA map is not glTF\'s ORM', async () => {
    const m = await readMaterial({ file: corpus('cooked/uapi56_MI_Quinn_01.uasset') }, undefined, { mappings: parseUsmap(loadCorpus('cooked/uapi56_ExplicitEnumValuesExample.usmap'), 'BpThirdPerson') });
    expect(slotLook(m)).toEqual({ textures: {
      baseColor: '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_D.T_Quinn_01_D',
      normal: '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_N.T_Quinn_01_N',
    } });
  });

  it('a material with no texture gives its base colour parameter; a lone texture is the base colour', () => {
    const level = { path: '/Game/M.M', name: 'M', class: 'Material', parent: null, referencedTextures: [] };
    const colour = resolveChain('M', 'Material', '/Game/M.M', [{ ...level, parameters: [
      { kind: 'vector', name: 'Emissive Tint', value: { r: 1, g: 1, b: 1, a: 1 } },
      { kind: 'vector', name: 'Base Color', value: { r: 0.25, g: 0.5, b: 1, a: 1 } },
    ] }], []);
    expect(slotLook(colour)).toEqual({ baseColor: [0.25, 0.5, 1, 1] });
    const masked = resolveChain('M', 'Material', '/Game/M.M', [{ ...level, parameters: [
      { kind: 'texture', name: 'Mask', value: '/Game/T_Mask.T_Mask' },
      { kind: 'texture', name: 'Paint', value: '/Game/T_Paint.T_Paint' },
    ] }], []);
    expect(slotLook(masked)).toEqual({ textures: { baseColor: '/Game/T_Paint.T_Paint' } });
  });

  it('SM_Fixture with MI_Fixture in a slot: a valid .glb with T_BC3 as that slot\'s base colour texture', async () => {
    await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const source = { packages, ref: '/Game/Fixtures/Meshes/SM_Fixture' };
      const mesh = await readMesh(source, undefined);
      // Its own slots name /Engine/EngineMaterials/WorldGridMaterial, which the install does not hold: left as they are.
      expect(mesh.materials.map((m) => [m.name, m.textures])).toEqual([['Primary', undefined], ['Secondary', undefined]]);
      mesh.materials[0]!.material = MI_FIXTURE;
      await resolveSlotMaterials(packages, mesh);
      expect(mesh.materials[0]!.textures).toEqual({ baseColor: T_BC3 });
      const [file] = await convertMesh(source, mesh, 'glb');
      const { errors } = await validateGlb(file!.data);
      expect(errors).toEqual([]);
      const { json } = parseGlb(file!.data);
      expect(json.images).toHaveLength(1);
      expect(json.materials.map((m: { name: string; pbrMetallicRoughness: { baseColorTexture?: unknown } }) => [m.name, m.pbrMetallicRoughness.baseColorTexture !== undefined])).toEqual([['Primary', true], ['Secondary', false]]);
      expect(json.images[0].name).toBe('T_BC3');

      // A slot whose material gives a colour and no texture: the glTF base colour factor.
      mesh.materials[1]!.baseColor = [0.25, 0.5, 1, 1];
      const [coloured] = await convertMesh(source, mesh, 'glb');
      expect(parseGlb(coloured!.data).json.materials[1].pbrMetallicRoughness.baseColorFactor).toEqual([0.25, 0.5, 1, 1]);
    });
  });
});
