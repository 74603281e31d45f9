/**
 * The texture kind in the converter registry: the classes the cooked texture reader reads, the
 * app's texture view, and PNG / DDS / HDR files.
 */
import { registerAssetKind, type AssetKind, type AssetSource, type ConvertOptions } from '../registry.js';
import { convertTexture, TEXTURE_CONVERSIONS } from './convert.js';
import { readInstallTexture, readTextureFile, TEXTURE_CLASSES } from './read/index.js';
import type { Texture } from './types.js';

/** Export `exportIndex` of `source` read as a texture. */
export function readTexture(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<Texture> {
  const o = {
    ...(exportIndex !== undefined ? { exportIndex } : {}),
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  return 'file' in source ? readTextureFile(source.file, o) : readInstallTexture(source.packages, source.ref, o);
}

export const textureKind: AssetKind = {
  kind: 'texture',
  view: 'texture',
  classes: TEXTURE_CLASSES,
  converts: TEXTURE_CONVERSIONS,
  async convert(source, exportIndex, extension, opts) {
    return convertTexture(await readTexture(source, exportIndex, opts), extension, opts);
  },
};

registerAssetKind(textureKind);
