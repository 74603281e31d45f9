/**
 * The animation kind in the converter registry: UAnimSequence, the app's animation view (the
 * sequence played on its skeleton or a skeletal mesh of it) and glTF binary (.glb) as the file it
 * converts to: that mesh with the sequence as a glTF animation (animated-mesh.ts).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { readAnimatedMesh, writeAnimatedGlb } from './animated-mesh.js';
import { COMPOSITION_CLASSES } from './read/composition.js';
import { ANIM_CLASSES } from './read/read.js';

export const animKind: AssetKind = {
  kind: 'anim',
  view: 'animation',
  classes: ANIM_CLASSES,
  converts: ['glb'],
  async convert(source, exportIndex, extension, opts) {
    const ext = (extension ?? 'glb').toLowerCase();
    if (ext !== 'glb') throw new RangeError(`an animation converts to .glb, not .${ext}`);
    const a = await readAnimatedMesh(source, exportIndex, opts);
    const data = await writeAnimatedGlb(a, opts.lod ?? 0);
    const note = [...a.sequence.notes, ...a.notes].join('; ');
    return [{ suffix: '', extension: 'glb', data, ...(note ? { note } : {}) }];
  },
};

registerAssetKind(animKind);

/** Montages, composites and blend spaces: their facts in the animation view and the CLI; nothing to convert. */
export const animCompositionKind: AssetKind = {
  kind: 'animcomposition',
  view: 'animation',
  classes: COMPOSITION_CLASSES,
  converts: [],
};

registerAssetKind(animCompositionKind);
