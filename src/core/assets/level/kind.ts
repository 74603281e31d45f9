/**
 * The level kind in the converter registry: World exports (a .umap's map); the app's level view;
 * JSON (actors, components, transforms, meshes, instances, streaming levels and World Partition
 * cells, as `pakscope level --json` prints it), and .glb placing its static meshes (gltf.ts).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { levelGlb } from './gltf.js';
import { LEVEL_CLASSES, readLevel } from './read.js';

export const levelKind: AssetKind = {
  kind: 'level',
  view: 'level',
  classes: LEVEL_CLASSES,
  converts: ['json', 'glb'],
  async convert(source, exportIndex, extension, opts) {
    const ext = (extension ?? 'json').toLowerCase();
    if (ext !== 'json' && ext !== 'glb') throw new RangeError(`a level converts to .json or .glb, not .${ext}`);
    const level = await readLevel(source, exportIndex, opts);
    if (ext === 'glb') return [await levelGlb(source, level, opts)];
    return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(level, null, 2)}\n`) }];
  },
};

registerAssetKind(levelKind);
