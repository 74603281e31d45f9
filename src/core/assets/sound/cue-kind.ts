/**
 * The sound cue kind in the converter registry: SoundCue, the app's node graph view, and the
 * graph as JSON (what `--format convert` writes).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { readSoundCue, SOUND_CUE_CLASSES } from './cue.js';

export const soundCueKind: AssetKind = {
  kind: 'soundcue',
  view: 'soundcue',
  classes: SOUND_CUE_CLASSES,
  converts: ['json'],
  async convert(source, exportIndex, _extension, opts) {
    const graph = await readSoundCue(source, exportIndex, opts);
    return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(graph, null, 2)}\n`) }];
  },
};

registerAssetKind(soundCueKind);
