/**
 * The MetaSound kind in the converter registry: MetaSoundSource and MetaSoundPatch, the app's
 * MetaSound graph view, and the frontend document as JSON (what `pakscope effect --json` prints)
 * or its graph as Graphviz DOT.
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { metaSoundDot } from './dot.js';
import { METASOUND_CLASSES, METASOUND_SCRIPT_PACKAGE, readMetaSound } from './read.js';

export const metaSoundKind: AssetKind = {
  kind: 'metasound',
  view: 'metasound',
  classes: METASOUND_CLASSES,
  scriptPackage: METASOUND_SCRIPT_PACKAGE,
  converts: ['json', 'dot'],
  async convert(source, exportIndex, extension, opts) {
    const doc = await readMetaSound(source, exportIndex, opts);
    const text = extension === 'dot' ? metaSoundDot(doc) : `${JSON.stringify(doc, null, 2)}\n`;
    return [{ suffix: '', extension: extension ?? 'json', data: new TextEncoder().encode(text) }];
  },
};

registerAssetKind(metaSoundKind);
