/**
 * The sprite kind in the converter registry: PaperSprite (Paper2D) as the PNG of its region of
 * its baked source texture, or its facts as JSON.
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { encodePng } from '../texture/png.js';
import { readSprite, spriteImage, SPRITE_CLASSES } from './read.js';

export const spriteKind: AssetKind = {
  kind: 'sprite',
  view: 'sprite',
  classes: SPRITE_CLASSES,
  converts: ['png', 'json'],
  async convert(source, exportIndex, extension, opts) {
    const sprite = await readSprite(source, exportIndex, opts);
    if (extension === 'json') {
      const { file: _file, ...facts } = sprite;
      return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(facts, null, 2)}\n`) }];
    }
    return [{ suffix: '', extension: 'png', data: encodePng(await spriteImage(source, sprite, opts)) }];
  },
};

registerAssetKind(spriteKind);
