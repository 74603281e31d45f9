/**
 * The level kind in the converter registry: World exports (a .umap's map); the app's level view;
 * JSON (actors, components, transforms, meshes, instances, streaming levels and World Partition
 * cells, as `pakscope level --json` prints it).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { LEVEL_CLASSES, readLevel } from './read.js';

export const levelKind: AssetKind = {
  kind: 'level',
  view: 'level',
  classes: LEVEL_CLASSES,
  converts: ['json'],
  async convert(source, exportIndex, _extension, opts) {
    const level = await readLevel(source, exportIndex, opts);
    return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(level, null, 2)}\n`) }];
  },
};

registerAssetKind(levelKind);
