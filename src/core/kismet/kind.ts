/**
 * The Blueprint kind in the converter registry: a Blueprint's generated class (and so its
 * package) shows as the app's Script tab, its functions' pseudo-code in the text view, and
 * converts to that text (.txt), as `pakscope script` prints it.
 */
import { registerAssetKind, type AssetKind } from '../assets/registry.js';
import { readBlueprintScript } from './read.js';
import { scriptText } from './text.js';

/** The generated classes of Blueprints, Animation Blueprints and Widget Blueprints. */
export const BLUEPRINT_CLASSES = ['BlueprintGeneratedClass', 'AnimBlueprintGeneratedClass', 'WidgetBlueprintGeneratedClass'] as const;

export const blueprintKind: AssetKind = {
  kind: 'blueprint',
  view: 'script',
  classes: BLUEPRINT_CLASSES,
  converts: ['txt'],
  async convert(source, _exportIndex, extension, opts) {
    const script = await readBlueprintScript(source, opts);
    return [{ suffix: '', extension: extension ?? 'txt', data: new TextEncoder().encode(scriptText(script)) }];
  },
};

registerAssetKind(blueprintKind);
