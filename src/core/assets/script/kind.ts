/**
 * The UE1/2 text kind: TextBuffer exports (a class's UnrealScript source in ScriptText) for the
 * app's text view (Monaco, UnrealScript highlighting) and as files: Classes/<Class>.uc in a
 * folder named after the package, as UCC's batchexport writes them.
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { readSourceTextBuffer, TEXT_BUFFER_CLASSES } from './read.js';

export const scriptKind: AssetKind = {
  kind: 'script',
  view: 'text',
  classes: TEXT_BUFFER_CLASSES,
  converts: ['uc', 'txt'],
  ue12: true,
  async convert(source, exportIndex, extension) {
    const t = await readSourceTextBuffer(source, exportIndex);
    const stem = t.fileName.slice(0, t.fileName.lastIndexOf('.'));
    const ext = extension ?? t.fileName.slice(t.fileName.lastIndexOf('.') + 1);
    // Latin-1 text as the engine stored it; UTF-16 buffers come out as UTF-8.
    return [{ suffix: '', extension: ext, name: t.language === 'unrealscript' ? `Classes/${stem}` : stem, data: new TextEncoder().encode(t.text) }];
  },
};

registerAssetKind(scriptKind);
