/** The converter registry: the texture kind is registered, and a package's convertible exports are found by class alone. */
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport, convertibleExports, registerAssetKind } from '../../src/core/assets/index.js';
import { openPackageFile } from '../../src/core/package/open-package.js';
import { corpus } from '../support/corpus.js';

describe('the converter registry', () => {
  it('knows the texture kind by its classes: the texture view, PNG first', () => {
    for (const c of ['Texture2D', 'TextureCube', 'Texture2DArray', 'TextureCubeArray', 'VolumeTexture']) {
      const kind = assetKindOf(c);
      expect(kind?.kind).toBe('texture');
      expect(kind?.view).toBe('texture');
      expect(kind?.converts).toEqual(['png', 'dds', 'hdr']);
    }
    expect(assetKindOf('BodySetup')).toBeUndefined();
    expect(assetKindOf('SoundCue')?.view).toBe('soundcue');
  });

  it('knows an engine class named only by its script import hash (a Zen package read without global.utoc)', async () => {
    // corpus/cooked/zen427_T_Emissive.uasset names its Texture2D class so
    const { model } = await openPackageFile(corpus('cooked/zen427_T_Emissive.uasset'));
    expect(model.exports[0]!.class).toBe('?0x5b93bca796d1fa6f');
    expect(assetKindOf(model.exports[0]!.class)?.kind).toBe('texture');
    expect(assetKindOf('?0x0000000000000000')).toBeUndefined();
    // A class of another script package is known by that package's hash: cue58's MS_Source read
    // without global.utoc names its class /Script/?0x45d7f0fff13ee9be (/Script/MetasoundEngine.MetaSoundSource).
    expect(assetKindOf('/Script/?0x45d7f0fff13ee9be')?.kind).toBe('metasound');
    expect(assetKindOf('/Script/?0x5c53005e6b2a3f46')?.kind).toBe('niagara');
  });

  it('lists the exports a kind converts, and refuses an extension the kind does not make', () => {
    const exports = [
      { name: 'BS_Rock', class: 'BodySetup' },
      { name: 'T_Rock', class: 'Texture2D' },
      { name: 'SM_Rock', class: 'StaticMesh' },
    ];
    const found = convertibleExports({ exports } as never);
    expect(found.map((e) => [e.index, e.name, e.kind.kind])).toEqual([[1, 'T_Rock', 'texture'], [2, 'SM_Rock', 'mesh']]);
    expect(convertibleExports({ exports: [{ name: 'SC_Rock', class: 'SoundCue' }] } as never).map((e) => e.kind.kind)).toEqual(['soundcue']);
    expect(() => convertExport({ file: '/nowhere' }, found[1]!, 'png')).toThrow(/a mesh converts to .glb, not .png/);
    expect(() => convertExport({ file: '/nowhere' }, found[0]!, 'wav')).toThrow(/converts to .png, .dds, .hdr, not .wav/);
  });

  it('refuses a class claimed by two kinds', () => {
    expect(() => registerAssetKind({ kind: 'other', view: 'other', classes: ['Texture2D'], converts: [] })).toThrow(/claimed by both texture and other/);
  });
});
