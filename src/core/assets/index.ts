/**
 * The asset kinds and the converter registry. Import from here (not registry.ts): this module
 * registers every kind, so assetKindOf knows them all. A new kind adds its line below.
 */
import './texture/kind.js';
import './script/kind.js';
import './table/kind.js';
import './sound/kind.js';
import './sound/cue-kind.js';
import './sound/wwise/soundbank.js';
import './mesh/kind.js';
import './anim/kind.js';
import './locres/kind.js';
import './font/kind.js';
import './midi/kind.js';
import './sprite/kind.js';
import '../kismet/kind.js';
import './material/kind.js';
import './metasound/kind.js';
import './niagara/kind.js';
import './level/kind.js';
import './sequence/kind.js';
import './landscape/kind.js';
import '../asset-registry/kind.js';

export { assetKindOf, assetKindOfExport, assetKindOfFile, assetKinds, registerAssetKind } from './registry.js';
export type { AssetKind, AssetSource, ConvertedFile, ConvertOptions, PlainFile } from './registry.js';
export { convertExport, convertibleExports, type ConvertibleExport } from './convert.js';
