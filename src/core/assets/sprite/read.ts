/**
 * Paper2D sprites: a cooked PaperSprite keeps its region of the baked source texture (an atlas
 * page or the source texture itself) as BakedSourceTexture, BakedSourceUV (its top-left corner, in
 * the texture's pixels) and BakedSourceDimension (its size), and its triangles as BakedRenderData
 * (x, y and u, v per vertex). The sprite's image is that region of the texture, decoded by the
 * texture kind.
 */
import { FormatError } from '../../errors.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { readTexture } from '../texture/kind.js';
import { canDecode } from '../texture/convert.js';
import { decodeTextureImage, firstPresentMip, pngPixels } from '../texture/image.js';
import type { RgbaImage } from '../texture/png.js';
import { packageOfObjectPath } from '../../package/object-path.js';
import { sourceProperties } from '../source-properties.js';

export const SPRITE_CLASSES: readonly string[] = ['PaperSprite'];

export interface Sprite {
  name: string;
  /** The baked source texture's object path ("/Game/T/T_Atlas.T_Atlas"), null when none. */
  texture: string | null;
  /** The region's top-left corner and size, in the texture's (largest mip's) pixels. */
  uv: [number, number];
  size: [number, number];
  pixelsPerUnrealUnit: number;
  /** Vertices of BakedRenderData (three per triangle). */
  vertices: number;
  notes: string[];
}

const entry = (list: readonly PropertyEntry[], name: string): PropertyEntry | undefined => list.find((e) => e.name === name);
function vec2(v: PropertyValue | undefined): [number, number] | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, PropertyValue>;
  return typeof o['X'] === 'number' && typeof o['Y'] === 'number' ? [o['X'], o['Y']] : undefined;
}

/** Export `exportIndex` of `source` read as a PaperSprite. */
export async function readSprite(source: AssetSource, exportIndex: number, opts: ConvertOptions = {}): Promise<Sprite & { file: string }> {
  const opened = await sourceProperties(source, opts, { offsets: true });
  const file = opened.path;
  const exp = opened.properties.exports[exportIndex];
  if (!exp) throw new FormatError(file, 'export map', 0, `no export ${exportIndex} (the package has ${opened.properties.exports.length})`);
  const where = `PaperSprite "${exp.name}"`;
  if (!SPRITE_CLASSES.includes(exp.class)) throw new FormatError(file, `export ${exportIndex} "${exp.name}"`, 0, `a ${exp.class}, not a PaperSprite`);
  if (exp.encoding === 'unversioned' && exp.properties.length === 0 && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(file, where, 0, "the package is unversioned: the game's mappings (.usmap) are needed to read its sprite");
  }
  if (exp.errorData) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the sprite cannot be read');
  const props = exp.properties;
  const uvEntry = entry(props, 'BakedSourceUV');
  const sizeEntry = entry(props, 'BakedSourceDimension');
  const uv = uvEntry ? vec2(uvEntry.value) : [0, 0] as [number, number];
  const size = sizeEntry ? vec2(sizeEntry.value) : [0, 0] as [number, number];
  if (!uv) throw new FormatError(file, `${where} BakedSourceUV`, uvEntry?.range?.value ?? 0, 'not a Vector2D');
  if (!size) throw new FormatError(file, `${where} BakedSourceDimension`, sizeEntry?.range?.value ?? 0, 'not a Vector2D');
  const tex = entry(props, 'BakedSourceTexture')?.value;
  const ppu = entry(props, 'PixelsPerUnrealUnit')?.value;
  const render = entry(props, 'BakedRenderData')?.value;
  return {
    file, name: exp.name, texture: typeof tex === 'string' && tex !== '' ? tex : null, uv, size,
    pixelsPerUnrealUnit: typeof ppu === 'number' ? ppu : 1, vertices: Array.isArray(render) ? render.length : 0, notes: [...opened.warnings],
  };
}

/** The sprite's region of its baked source texture, decoded (the largest mip the install has, the region scaled to it). */
export async function spriteImage(source: AssetSource, sprite: Sprite & { file: string }, opts: ConvertOptions = {}): Promise<RgbaImage> {
  const where = `PaperSprite "${sprite.name}"`;
  if (sprite.texture === null) throw new FormatError(sprite.file, where, 0, 'it has no BakedSourceTexture (an editor-only sprite, or one not baked)');
  if ('file' in source) throw new RangeError(`${sprite.name}'s texture ${sprite.texture} is another package: open the install to convert it`);
  const pkg = packageOfObjectPath(sprite.texture);
  if (!source.packages.index.byPackageName(pkg)) throw new FormatError(sprite.file, where, 0, `its texture ${sprite.texture} is not in the install`);
  const texture = await readTexture({ packages: source.packages, ref: pkg }, undefined, opts);
  if (!canDecode(texture)) throw new RangeError(`${sprite.name}'s texture is ${texture.pixelFormat}, which PakScope cannot decode`);
  const mip = firstPresentMip(texture);
  const image = pngPixels(texture.pixelFormat, await decodeTextureImage(texture, { mip, ...(opts.pool ? { pool: opts.pool } : {}), ...(opts.signal ? { signal: opts.signal } : {}) }), texture);
  const full = texture.mips[0]!;
  const sx = image.width / full.width, sy = image.height / full.height;
  const x0 = Math.round(sprite.uv[0] * sx), y0 = Math.round(sprite.uv[1] * sy);
  const w = Math.round(sprite.size[0] * sx), h = Math.round(sprite.size[1] * sy);
  if (w < 1 || h < 1 || x0 < 0 || y0 < 0 || x0 + w > image.width || y0 + h > image.height) {
    throw new FormatError(sprite.file, `${where} BakedSourceUV/BakedSourceDimension`, 0,
      `the region (${sprite.uv.join(', ')}) + ${sprite.size.join(' x ')} is not inside its ${full.width} x ${full.height} texture`);
  }
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) rgba.set(image.rgba.subarray(((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, rgba };
}
