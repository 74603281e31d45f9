import { describe, expect, it } from 'vitest';
import { mountPathToPackageName } from '../../src/core/install/game-path.js';

describe('mountPathToPackageName', () => {
  it('maps project, engine and plugin content', () => {
    expect(mountPathToPackageName('CUE4ParseFixtures/Content/Maps/Empty.umap')).toBe('/Game/Maps/Empty');
    expect(mountPathToPackageName('Engine/Content/Fonts/Roboto.uasset')).toBe('/Engine/Fonts/Roboto');
    expect(mountPathToPackageName('Proj/Plugins/GameFeatures/Foo/Content/A/B.uasset')).toBe('/Foo/A/B');
    expect(mountPathToPackageName('Engine/Plugins/Runtime/Niagara/Content/N.uasset')).toBe('/Niagara/N');
    expect(mountPathToPackageName('/Proj/Content/X.Y.uasset')).toBe('/Game/X.Y');
  });
  it('leaves files outside a Content folder alone', () => {
    expect(mountPathToPackageName('Proj/Config/DefaultGame.ini')).toBeUndefined();
    expect(mountPathToPackageName('Proj/AssetRegistry.bin')).toBeUndefined();
    expect(mountPathToPackageName('Content/X.uasset')).toBeUndefined();
    expect(mountPathToPackageName('Proj/Content')).toBeUndefined();
  });
});
