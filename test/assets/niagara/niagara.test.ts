/**
 * The Niagara kind on cue58's NS_Fixture, tagged and unversioned (with the .usmap). Expected
 * values: CUE4Parse's FixtureEffectAssetTests (the exposed parameter User.FixtureScale is 3.25 at
 * its offset of ParameterData; the one data interface is a NiagaraDataInterfaceTexture whose
 * Texture is T_BC3). NS_Fixture has no emitters, so the emitter test adds an emitter handle, an
 * emitter (UE5.1+ VersionData) and a mesh renderer to the real exports, as the engine lays them
 * out. Bad input: a parameter offset past ParameterData, an emitter the package lacks.
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { niagaraNativeReader, niagaraOfExport, readNiagaraSystem } from '../../../src/core/assets/niagara/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { installPackageProperties } from '../../../src/core/properties/open.js';
import type { ExportProperties, PropertyEntry } from '../../../src/core/properties/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { withInstall } from '../../properties/helpers.js';

const mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'm.usmap');
const SYSTEM = '/Game/Fixtures/Effects/NS_Fixture';

describe('Niagara kind: NS_Fixture', () => {
  for (const [mode, dir] of [['Tagged', 'Tagged/Zlib'], ['Unversioned', 'Unversioned/Zlib']] as const) {
    it(`${mode}: user parameters with their defaults, the texture data interface's T_BC3`, async () => {
      await withInstall(corpus('cue58/IoStore', dir), async (packages) => {
        const s = await readNiagaraSystem({ packages, ref: SYSTEM }, undefined, { mappings });
        expect([s.name, s.class, s.path]).toEqual(['NS_Fixture', 'NiagaraSystem', `${SYSTEM}.NS_Fixture`]);
        expect(s.userParameters.map((p) => [p.name, p.type, p.value])).toEqual([
          ['FixtureScale', 'float', 3.25],
          ['FixtureTexture', 'NiagaraDataInterfaceTexture', `${SYSTEM}.NS_Fixture:NiagaraDataInterfaceTexture_0`],
        ]);
        expect(s.userParameters[1]!.dataInterface).toEqual({ class: 'NiagaraDataInterfaceTexture', references: [{ property: 'Texture', path: '/Game/Fixtures/Textures/T_BC3.T_BC3' }] });
        expect([s.emitters, s.referencedAssets, s.notes]).toEqual([[], ['/Game/Fixtures/Textures/T_BC3.T_BC3'], []]);

        const kind = assetKindOf('NiagaraSystem')!;
        expect([kind.kind, kind.view, kind.converts]).toEqual(['niagara', 'niagara', ['json']]);
        const { model } = await packages.open(SYSTEM);
        const [json] = await kind.convert!({ packages, ref: SYSTEM }, model.exports.findIndex((e) => e.class === 'NiagaraSystem'), undefined, { mappings });
        expect(JSON.parse(new TextDecoder().decode(json!.data))).toEqual(s);
      });
    });
  }
});

async function fixtureExports(): Promise<{ exports: ExportProperties[]; file: string }> {
  return withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
    const opened = await installPackageProperties(packages, SYSTEM, { offsets: true, nativeData: niagaraNativeReader });
    return { exports: opened.properties.exports, file: opened.path };
  });
}

const entry = (name: string, type: string, value: PropertyEntry['value']): PropertyEntry => ({ name, type, value });
const exportOf = (index: number, name: string, cls: string, properties: PropertyEntry[], path: string): ExportProperties => ({
  index, name, class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: 0, encoding: 'tagged', error: null, native: { path },
});

describe('Niagara emitters and bad input', () => {
  it('an emitter handle, its GPU emitter and mesh renderer: names, enabled, sim target, the mesh and material', async () => {
    const { exports, file } = await fixtureExports();
    const system = structuredClone(exports.find((e) => e.class === 'NiagaraSystem')!);
    const own = `${SYSTEM}.NS_Fixture`;
    system.properties.push(entry('EmitterHandles', 'ArrayProperty<StructProperty<NiagaraEmitterHandle>>', [[
      entry('bIsEnabled', 'BoolProperty', false),
      entry('Name', 'NameProperty', 'Sparks'),
      entry('VersionedInstance', 'StructProperty<VersionedNiagaraEmitter>', [entry('Emitter', 'ObjectProperty', `${own}:Sparks`)]),
    ]]));
    const emitter = exportOf(10, 'Sparks', 'NiagaraEmitter', [
      entry('VersionData', 'ArrayProperty<StructProperty<VersionedNiagaraEmitterData>>', [[
        entry('SimTarget', 'EnumProperty<ENiagaraSimTarget>', 'ENiagaraSimTarget::GPUComputeSim'),
        entry('RendererProperties', 'ArrayProperty<ObjectProperty>', [`${own}:Sparks.NiagaraMeshRendererProperties_0`]),
      ]]),
    ], `${own}:Sparks`);
    const renderer = exportOf(11, 'NiagaraMeshRendererProperties_0', 'NiagaraMeshRendererProperties', [
      entry('Meshes', 'ArrayProperty<StructProperty<NiagaraMeshRendererMeshProperties>>', [[entry('Mesh', 'ObjectProperty', '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture')]]),
      entry('OverrideMaterials', 'ArrayProperty<StructProperty<NiagaraMeshMaterialOverride>>', [[entry('ExplicitMat', 'ObjectProperty', '/Game/Fixtures/Materials/MI_Fixture.MI_Fixture')]]),
      entry('bOverrideMaterials', 'BoolProperty', true),
    ], `${own}:Sparks.NiagaraMeshRendererProperties_0`);
    const s = niagaraOfExport(system, [...exports.filter((e) => e !== exports.find((x) => x.class === 'NiagaraSystem')), system, emitter, renderer], SYSTEM, file);
    expect(s.emitters).toEqual([{
      name: 'Sparks', enabled: false, emitter: `${own}:Sparks`, simTarget: 'GPUComputeSim',
      renderers: [{
        name: 'NiagaraMeshRendererProperties_0', class: 'NiagaraMeshRendererProperties', enabled: true,
        references: [
          { property: 'Meshes[0].Mesh', path: '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture' },
          { property: 'OverrideMaterials[0].ExplicitMat', path: '/Game/Fixtures/Materials/MI_Fixture.MI_Fixture' },
        ],
      }],
    }]);
    expect(s.referencedAssets).toEqual(['/Game/Fixtures/Textures/T_BC3.T_BC3', '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture', '/Game/Fixtures/Materials/MI_Fixture.MI_Fixture']);
    expect(s.notes).toEqual([]);

    // An emitter the package does not hold is a note; the system still reads.
    const missing = niagaraOfExport(system, exports, SYSTEM, file);
    expect(missing.emitters).toEqual([{ name: 'Sparks', enabled: false, emitter: `${own}:Sparks`, simTarget: null, renderers: [] }]);
    expect(missing.notes).toEqual([`emitter Sparks: ${own}:Sparks is not among the package's exports`]);
  });

  it('a store of before UE4.25 (ParameterOffsets, a map of variable -> offset) gives the same parameters', async () => {
    const { exports, file } = await fixtureExports();
    const system = structuredClone(exports.find((e) => e.class === 'NiagaraSystem')!);
    const exposed = system.properties.find((e) => e.name === 'ExposedParameters')!.value as PropertyEntry[];
    const sorted = exposed.find((e) => e.name === 'SortedParameterOffsets')!;
    const vars = sorted.value as Record<string, PropertyEntry['value']>[];
    sorted.name = 'ParameterOffsets';
    sorted.type = 'MapProperty<StructProperty<NiagaraVariable>, IntProperty>';
    sorted.value = vars.map(({ Offset, ...key }) => ({ key: { ...key, VarData: '' }, value: Offset! }));
    const s = niagaraOfExport(system, exports, SYSTEM, file);
    expect(s.userParameters.map((p) => [p.name, p.type, p.value])).toEqual([
      ['FixtureScale', 'float', 3.25],
      ['FixtureTexture', 'NiagaraDataInterfaceTexture', `${SYSTEM}.NS_Fixture:NiagaraDataInterfaceTexture_0`],
    ]);
    sorted.value = [{ key: 'User.X', value: 0 }];
    expect(() => niagaraOfExport(system, exports, SYSTEM, file)).toThrow(/ExposedParameters\.ParameterOffsets\[0\] at byte \d+: not a variable and its offset/);
  });

  it('a parameter offset past ParameterData is a FormatError naming the parameter and its offset', async () => {
    const { exports, file } = await fixtureExports();
    const system = structuredClone(exports.find((e) => e.class === 'NiagaraSystem')!);
    const exposed = system.properties.find((e) => e.name === 'ExposedParameters')!;
    const offsets = (exposed.value as PropertyEntry[]).find((e) => e.name === 'SortedParameterOffsets')!;
    ((offsets.value as Record<string, unknown>[])[0]!)['Offset'] = 2;
    const err = (() => { try { niagaraOfExport(system, exports, SYSTEM, file); } catch (e) { return e; } })() as FormatError;
    expect(err).toBeInstanceOf(FormatError);
    expect(err.structure).toBe('NiagaraSystem "NS_Fixture".ExposedParameters.SortedParameterOffsets[0].Offset');
    expect(err.offset).toBe(offsets.range!.value);
    expect(err.message).toMatch(/User\.FixtureScale's value at 2 \(4 bytes\) is past ParameterData's 4 bytes/);

    await withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), async (packages) => {
      await expect(readNiagaraSystem({ packages, ref: SYSTEM }, undefined)).rejects.toThrow(/mappings \(\.usmap\) are needed to read its Niagara System/);
      await expect(readNiagaraSystem({ packages, ref: SYSTEM }, 0, { mappings })).rejects.toThrow(/export 0 "NiagaraDataInterfaceTexture_0" at byte 0: a NiagaraDataInterfaceTexture, not a Niagara System/);
    });
  });
});
