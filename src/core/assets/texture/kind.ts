/**
 * The texture kind in the converter registry: the classes the texture readers read (cooked
 * UTexture* of UE4/5, Texture of UE1/2), the app's texture view, and PNG / DDS / HDR files.
 */
import { readFile } from 'node:fs/promises';
import { detectClassicPackage } from '../../package-model.js';
import { isUAssetFileName, isUe12FileName } from '../../package/package-files.js';
import { parseUAsset } from '../../uasset/parse.js';
import { readEditorTexture } from './editor.js';
import { registerAssetKind, type AssetKind, type AssetSource, type ConvertOptions } from '../registry.js';
import { convertTexture, TEXTURE_CONVERSIONS } from './convert.js';
import { readInstallTexture, readTextureFile, TEXTURE_CLASSES } from './read/index.js';
import type { Texture } from './types.js';
import { readUe12Texture, UE12_TEXTURE_CLASSES } from './ue12.js';

/** Export `exportIndex` of `source` read as a texture, by the reader of the package's generation. */
export async function readTexture(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<Texture> {
  const o = {
    ...(exportIndex !== undefined ? { exportIndex } : {}),
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  if ('file' in source) {
    if (isUe12FileName(source.file) || isUAssetFileName(source.file)) {
      const bytes = new Uint8Array(await readFile(source.file, opts.signal ? { signal: opts.signal } : {}));
      const kind = detectClassicPackage(bytes).kind;
      if (kind === 'ue12') return readUe12Texture(bytes, source.file, exportIndex);
      if (kind === 'uasset' && isEditorPackage(bytes, source.file)) return readEditorTexture(bytes, source.file, exportIndex);
    }
    return readTextureFile(source.file, o);
  }
  const loc = source.packages.locate(source.ref);
  if (loc.kind === 'ue12') return readUe12Texture(await loc.archive.read(loc.ref, opts.signal), loc.path, exportIndex);
  if (loc.kind === 'uasset') {
    const bytes = await loc.archive.read(loc.ref, opts.signal);
    if (detectClassicPackage(bytes).kind === 'uasset' && isEditorPackage(bytes, loc.path)) return readEditorTexture(bytes, loc.path, exportIndex);
  }
  return readInstallTexture(source.packages, source.ref, o);
}

/** An uncooked (editor) package: its editor-only data is kept, so its textures are source art. */
function isEditorPackage(bytes: Uint8Array, path: string): boolean {
  try {
    return !parseUAsset(bytes, path).cooked;
  } catch {
    return false; // the cooked reader says what is wrong
  }
}

export const textureKind: AssetKind = {
  kind: 'texture',
  view: 'texture',
  classes: [...TEXTURE_CLASSES, ...UE12_TEXTURE_CLASSES],
  converts: TEXTURE_CONVERSIONS,
  ue12: true,
  async convert(source, exportIndex, extension, opts) {
    return convertTexture(await readTexture(source, exportIndex, opts), extension, opts);
  },
};

registerAssetKind(textureKind);
