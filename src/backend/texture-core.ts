/**
 * The core's texture functions the backend uses, in one place: the readers (the texture kind's
 * readTexture: cooked UE4/5 or UE1/2 by the package),
 * decoding one image in the worker pool (decodeTextureImage), the PNG content rules (pngPixels)
 * and the conversions (convertTexture). The converter registry's kinds are registered by
 * importing core/assets/index.ts.
 */
import '../core/assets/index.js';
import { canDecode, convertTexture, isHdr } from '../core/assets/texture/convert.js';
import { ddsHolds, isDdsArray } from '../core/assets/texture/dds.js';
import { decodeTextureImage, pngPixels } from '../core/assets/texture/image.js';
import type { DecodedImage, Texture } from '../core/assets/texture/types.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type { ConversionFormat } from '../shared/asset-api.js';

import { readTexture } from '../core/assets/texture/kind.js';
import type { TextureReadOptions } from '../core/assets/texture/read/index.js';
import type { InstallPackages } from '../core/package/open-package.js';

/** A texture of an install, by the reader of its package's generation (cooked UE4/5 or UE1/2), as the texture kind reads it. */
export function readInstallTexture(packages: InstallPackages, ref: string, opts: TextureReadOptions = {}): Promise<Texture> {
  return readTexture({ packages, ref }, opts.exportIndex, opts);
}

/** Pixel formats PakScope decodes. */
export const canDecodePixelFormat = (pixelFormat: string): boolean => canDecode({ pixelFormat });

/**
 * A .dds can hold the texture: its format named by a FourCC, bit masks or a DXGI_FORMAT, decoded
 * by PakScope or not (ETC2/EAC have no DDS id; an array needs the DXGI one).
 */
export const canWriteDds = (t: Pick<Texture, 'pixelFormat' | 'cube' | 'slices' | 'depth'>): boolean =>
  ddsHolds(t.pixelFormat, t.depth <= 1 && isDdsArray({ cube: t.cube, layers: t.slices }));

/** HDR formats: floats beyond [0, 1] (exposure in the view, .hdr files). */
export const isHdrPixelFormat = (pixelFormat: string): boolean => isHdr({ pixelFormat });

export interface DecodeOptions {
  mip: number;
  slice: number;
  pool?: WorkerPool | undefined;
  signal?: AbortSignal | undefined;
}

const poolAndSignal = (opts: DecodeOptions) => ({ ...(opts.pool ? { pool: opts.pool } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });

/** One mip and slice decoded: `rgba` as the PNG holds it (pngPixels' rules), `float` for HDR formats. */
export async function decodeForView(texture: Texture, opts: DecodeOptions): Promise<DecodedImage> {
  const decoded = await decodeTextureImage(texture, { mip: opts.mip, slice: opts.slice, ...poolAndSignal(opts) });
  const png = pngPixels(texture.pixelFormat, decoded, texture);
  return decoded.float ? { ...png, float: decoded.float } : png;
}

/** The file bytes of a conversion: png and hdr one image (mip, slice), dds every stored mip from `mip` on. */
export async function encodeConversion(texture: Texture, format: ConversionFormat, opts: DecodeOptions): Promise<Uint8Array> {
  const files = await convertTexture(texture, format, { mip: opts.mip, ...(format !== 'dds' ? { slice: opts.slice } : {}), ...poolAndSignal(opts) });
  if (files.length !== 1) throw new Error(`${texture.name}: the ${format} conversion made ${files.length} files, not one`);
  return files[0]!.data;
}
