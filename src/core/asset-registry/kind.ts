/**
 * The asset registry kind in the converter registry: AssetRegistry.bin files (by name, their
 * extension says nothing), shown in the app's registry view and converted to JSON with every
 * asset, the package data and the dependencies (`pakscope registry --json --all`).
 */
import { registerAssetKind } from '../assets/registry.js';
import { ASSET_REGISTRY_FILE_NAMES } from './install.js';
import { registryJson } from './json.js';
import { parseAssetRegistry } from './read.js';

registerAssetKind({
  kind: 'asset-registry',
  view: 'registry',
  classes: [],
  converts: ['json'],
  fileNames: ASSET_REGISTRY_FILE_NAMES,
  async convertFile(file) {
    const reg = parseAssetRegistry(file.bytes, file.path);
    return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(registryJson(reg, { full: true }), null, 1)}\n`) }];
  },
});
