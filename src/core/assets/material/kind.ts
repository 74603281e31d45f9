/**
 * The material kind in the converter registry: materials, material instances and material
 * functions; the app's material view; JSON (the parent chain and every parameter with its
 * effective value, as `pakscope material --json` prints it).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { MATERIAL_CLASSES, readMaterial } from './read.js';

export const materialKind: AssetKind = {
  kind: 'material',
  view: 'material',
  classes: MATERIAL_CLASSES,
  converts: ['json'],
  async convert(source, exportIndex, _extension, opts) {
    const material = await readMaterial(source, exportIndex, opts);
    return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(material, null, 2)}\n`) }];
  },
};

registerAssetKind(materialKind);
