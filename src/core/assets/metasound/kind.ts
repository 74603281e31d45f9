/**
 * The MetaSound kind in the converter registry: MetaSoundSource and MetaSoundPatch, the app's
 * MetaSound graph view, and the frontend document as JSON (what `pakscope effect --json` prints)
 * or its graph as Graphviz DOT.
 */
import { registerAssetKind, type AssetKind, type ConvertedFile } from '../registry.js';
import { metaSoundDot } from './dot.js';
import { METASOUND_CLASSES, METASOUND_SCRIPT_PACKAGE, readMetaSound } from './read.js';
import type { MetaSoundDocument } from './types.js';

/** A document read once as what the kind converts it to (`pakscope effect -o` reuses the one it prints). */
export function metaSoundFile(doc: MetaSoundDocument, extension: string | undefined): ConvertedFile {
  const text = extension === 'dot' ? metaSoundDot(doc) : `${JSON.stringify(doc, null, 2)}\n`;
  return { suffix: '', extension: extension ?? 'json', data: new TextEncoder().encode(text) };
}

export const metaSoundKind: AssetKind = {
  kind: 'metasound',
  view: 'metasound',
  classes: METASOUND_CLASSES,
  scriptPackage: METASOUND_SCRIPT_PACKAGE,
  converts: ['json', 'dot'],
  async convert(source, exportIndex, extension, opts) {
    return [metaSoundFile(await readMetaSound(source, exportIndex, opts), extension)];
  },
};

registerAssetKind(metaSoundKind);
