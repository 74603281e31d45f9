/**
 * Materials of the corpus: cue58's MI_Fixture and M_Fixture (IoStore, tagged and unversioned with
 * the fixture mappings) against the values CUE4Parse's fixture tests assert
 * (FixtureRenderableAssetTests.cs: MaterialInstancePreservesParentAndParameterOverrides,
 * BaseMaterialPreservesCachedParametersAndAvailableShaderResources), and three single material
 * instances of other engines whose values were read from their bytes (see each test).
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport } from '../../../src/core/assets/index.js';
import { readMaterial } from '../../../src/core/assets/material/read.js';
import type { MaterialAsset } from '../../../src/core/assets/material/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');
const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Zlib', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];
const M_FIXTURE = '/Game/Fixtures/Materials/M_Fixture.M_Fixture';
const MI_FIXTURE = '/Game/Fixtures/Materials/MI_Fixture.MI_Fixture';
const T_BC3 = '/Game/Fixtures/Textures/T_BC3.T_BC3';

const param = (m: MaterialAsset, kind: string, name: string) => {
  const p = m.parameters.find((x) => x.kind === kind && x.name === name);
  if (!p) throw new Error(`no ${kind} ${name} in ${m.parameters.map((x) => x.name).join(', ')}`);
  return p;
};

describe.each(VARIANTS)('cue58 %s', (_label, root, usmap) => {
  const read = (ref: string) => withInstall(corpus(root), (packages) => readMaterial({ packages, ref }, undefined, usmap ? { mappings: usmap } : {}));

  it('MI_Fixture: parent M_Fixture, its overrides, and M_Fixture\'s own values where it sets none', async () => {
    const m = await read('/Game/Fixtures/Materials/MI_Fixture');
    expect(m.class).toBe('MaterialInstanceConstant');
    expect(m.chain.map((l) => [l.path, l.class])).toEqual([[MI_FIXTURE, 'MaterialInstanceConstant'], [M_FIXTURE, 'Material']]);
    expect(m.chain[0]!.parent).toBe(M_FIXTURE);
    expect(m.chain[1]!.referencedTextures).toContain(T_BC3);
    // The instance's own overrides, one of each kind (CUE4Parse: Assert.Single).
    expect(m.chain[0]!.parameters.map((p) => [p.kind, p.name, p.value])).toEqual([
      ['scalar', 'FixtureRoughness', 0.8125],
      ['vector', 'PrimaryColor', { r: 0.25, g: 0.75, b: 0.5, a: 0.875 }],
      ['texture', 'FixtureTexture', T_BC3],
      ['switch', 'UseAlternateColor', true],
    ]);
    expect(param(m, 'scalar', 'FixtureRoughness')).toMatchObject({ value: 0.8125, from: 0, overrides: [{ from: 1, value: 0.375 }] });
    expect(param(m, 'vector', 'PrimaryColor')).toMatchObject({ value: { r: 0.25, g: 0.75, b: 0.5, a: 0.875 }, from: 0 });
    expect(param(m, 'texture', 'FixtureTexture')).toMatchObject({ value: T_BC3, from: 0 });
    expect(param(m, 'switch', 'UseAlternateColor')).toMatchObject({ value: true, from: 0, overrides: [{ from: 1, value: false }] });
    // Not overridden: the base material's value, and the base named as its source.
    expect(param(m, 'vector', 'AlternateColor')).toMatchObject({ value: { r: 0.9, g: 0.15, b: 0.05, a: 1 }, from: 1, fromPath: M_FIXTURE });
    expect(m.parameters).toHaveLength(5);
    expect(m.notes).toEqual([]);
  });

  it('M_Fixture: the parameters its cook keeps (CachedExpressionData)', async () => {
    const m = await read('/Game/Fixtures/Materials/M_Fixture');
    expect(m.chain).toHaveLength(1);
    expect(m.chain[0]!.parent).toBeNull();
    expect(param(m, 'scalar', 'FixtureRoughness').value).toBe(0.375);
    expect(param(m, 'vector', 'PrimaryColor').value).toEqual({ r: 0.1, g: 0.2, b: 0.8, a: 1 });
    expect(param(m, 'vector', 'AlternateColor').value).toEqual({ r: 0.9, g: 0.15, b: 0.05, a: 1 });
    expect(param(m, 'texture', 'FixtureTexture').value).toBe(T_BC3);
    expect(m.referencedTextures).toEqual([T_BC3]);
    expect(m.blendMode).toBe('BLEND_Opaque');
  });

  it('converts through the registry to the same JSON', async () => {
    const files = await withInstall(corpus(root), (packages) => convertExport({ packages, ref: '/Game/Fixtures/Materials/MI_Fixture' }, { index: 0, kind: assetKindOf('MaterialInstanceConstant')! }, undefined, usmap ? { mappings: usmap } : {}));
    expect(files.map((f) => f.extension)).toEqual(['json']);
    const json = JSON.parse(new TextDecoder().decode(files[0]!.data)) as MaterialAsset;
    expect(json.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    expect(json.parameters.find((p) => p.name === 'FixtureRoughness')!.value).toBe(0.8125);
  });
});

describe('single material instances (parents outside the corpus)', () => {
  it('UE5.4 MI_BlueCube (unversioned, BlankGame mappings): ColorTint as its .uexp stores it at byte 61', async () => {
    const m = await readMaterial({ file: corpus('cooked/uapi54_MI_BlueCube.uasset') }, undefined, { mappings: parseUsmap(loadCorpus('cooked/uapi54_BlankGame_Dumper-7.usmap'), 'BlankGame') });
    expect(m.chain[0]!.parent).toBe('/Game/Materials/M_Cube.M_Cube');
    // Float32 (0, 0.419317, 1, 1) at .uexp byte 61 (read with Python's struct).
    expect(param(m, 'vector', 'ColorTint').value).toEqual({ r: 0, g: 0.419317, b: 1, a: 1 });
    expect(m.notes.join('\n')).toMatch(/parent \/Game\/Materials\/M_Cube\.M_Cube not followed/);
  });

  it('UE5.6 MI_Quinn_01: Paint Tint and its three textures', async () => {
    const m = await readMaterial({ file: corpus('cooked/uapi56_MI_Quinn_01.uasset') }, undefined, { mappings: parseUsmap(loadCorpus('cooked/uapi56_ExplicitEnumValuesExample.usmap'), 'BpThirdPerson') });
    expect(m.chain[0]!.parent).toBe('/Game/Characters/Mannequins/Materials/M_Mannequin.M_Mannequin');
    // Float32 (0.432292 x3, 1) at .uexp byte 59; the texture names in the .uasset's name map.
    expect(param(m, 'vector', 'Paint Tint').value).toEqual({ r: 0.432292, g: 0.432292, b: 0.432292, a: 1 });
    expect(m.parameters.filter((p) => p.kind === 'texture').map((p) => [p.name, p.value])).toEqual([
      ['Base Texture', '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_D.T_Quinn_01_D'],
      ['BNormal', '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_N.T_Quinn_01_N'],
      ['MRA', '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_MRA.T_Quinn_01_MRA'],
    ]);
  });

  it('UE5.0 editor M_UE4Man_ChestLogo: the editor StaticParameters switch and the blend mode override', async () => {
    const m = await readMaterial({ file: corpus('uncooked/ue50_M_UE4Man_ChestLogo.uasset') }, undefined);
    expect(m.class).toBe('MaterialInstanceConstant');
    expect(m.chain[0]!.parent).toBe('/Game/Mannequin/Character/Materials/M_UE4Man_Body.M_UE4Man_Body');
    expect(param(m, 'switch', 'PlasticOverride').value).toBe(true);
    expect(param(m, 'texture', 'NormalMap').value).toBe('/Game/Mannequin/Character/Textures/UE4Man_Logo_N.UE4Man_Logo_N');
    expect(m.blendMode).toBe('BLEND_Masked');
  });

  it('UE5.3 editor M_Solid: its parameter expressions, a default the tag leaves out as zero', async () => {
    const m = await readMaterial({ file: corpus('uncooked/ue53_M_Solid.uasset') }, undefined);
    // Float32 (0.18, 0.18, 0.18, 1) at byte 10816; Metallic's DefaultValue is not stored (the class default, 0).
    expect(m.parameters.map((p) => [p.kind, p.name, p.value])).toEqual([
      ['scalar', 'Metallic', 0], ['scalar', 'Roughness', 1], ['vector', 'Base Color', { r: 0.18, g: 0.18, b: 0.18, a: 1 }],
    ]);
    expect(m.notes).toEqual([]);
  });

  it('UE4.10 editor M_FPGun: texture and vector parameter expressions, the blend mode it sets', async () => {
    const m = await readMaterial({ file: corpus('uncooked/ue4old_M_FPGun.uasset') }, undefined);
    // Float32 (0.45098, 0.403922, 0.360784, 0) at byte 154393; the texture names in its name map.
    expect(m.parameters.map((p) => [p.kind, p.name, p.value])).toEqual([
      ['vector', 'BodyColor', { r: 0.45098, g: 0.403922, b: 0.360784, a: 0 }],
      ['texture', 'MasksMap', '/Game/FirstPerson/FPWeapon/Textures/T_FPGun_M.T_FPGun_M'],
      ['texture', 'NormalMap', '/Game/FirstPerson/FPWeapon/Textures/T_FPGun_N.T_FPGun_N'],
    ]);
    expect(m.blendMode).toBe('BLEND_Masked');
  });
});
