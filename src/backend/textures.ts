/**
 * The texture view's and the gallery's backend: a texture's facts, its pixels and thumbnails.
 * Textures are read with the core's readInstallTexture and decoded in the worker pool
 * (decodeTextureImage); the decoded image of each (mip, slice) is kept a while, so the page can
 * fetch a big image in pages (MAX_PIXEL_READ each) and go back to a mip without a new decode.
 */
import type { DecodedImage, Texture } from '../core/assets/texture/types.js';
import type { Install } from '../core/install/install.js';
import type { Usmap } from '../core/usmap/types.js';
import type { WorkerPool } from '../core/workers/pool.js';
import {
  MAX_PIXEL_READ, type AssetRequest, type AssetThumbnail, type PackageAsset, type TexturePixels, type TexturePixelsRequest, type TextureView,
  type SaveConversionRequest, type ThumbnailRequest,
} from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';
import { canDecodePixelFormat, canWriteDds, decodeForView, encodeConversion, isHdrPixelFormat, readInstallTexture } from './texture-core.js';

/** Textures kept read (their facts and mip locations; mip bytes are read when decoded). */
const CACHED_TEXTURES = 16;
/** Decoded images kept, and their bytes at most (the newest is kept whatever its size). */
const CACHED_IMAGES = 6;
const CACHED_IMAGE_BYTES = 384 * 1024 * 1024;
/** Thumbnails: the longest side asked for by default; the smallest mip at least that long is decoded, then scaled down. */
export const DEFAULT_THUMBNAIL = 128;

export interface TextureServiceOptions {
  packages: PackageService;
  /** The worker pool decoding runs in; inline when absent (tests). */
  pool?: WorkerPool | undefined;
  /** The .usmap chosen for the install, for unversioned packages. */
  mappings: (installId: string) => Promise<Usmap | undefined>;
}

/** A small LRU of promises; a rejected one is dropped, so a later request tries again. */
class PromiseCache<T> {
  private readonly map = new Map<string, { value: Promise<T>; size: number }>();
  constructor(private readonly maxEntries: number, private readonly maxSize = Infinity) {}

  get(key: string, make: () => Promise<T>, sizeOf: (v: T) => number = () => 0): Promise<T> {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit.value;
    }
    const value = make();
    const entry = { value, size: 0 };
    this.map.set(key, entry);
    value.then((v) => { entry.size = sizeOf(v); this.trim(); }, () => { if (this.map.get(key) === entry) this.map.delete(key); });
    this.trim();
    return value;
  }

  private trim(): void {
    let total = 0;
    for (const e of this.map.values()) total += e.size;
    for (const [k, e] of this.map) {
      if (this.map.size <= 1 || (this.map.size <= this.maxEntries && total <= this.maxSize)) break;
      this.map.delete(k);
      total -= e.size;
    }
  }

  forget(prefix: string): void {
    for (const k of [...this.map.keys()]) if (k.startsWith(prefix)) this.map.delete(k);
  }
}

export class TextureService {
  private readonly assets = new PromiseCache<{ path: string; assets: PackageAsset[] }>(64);
  private readonly textures = new PromiseCache<Texture>(CACHED_TEXTURES);
  private readonly images = new PromiseCache<DecodedImage>(CACHED_IMAGES, CACHED_IMAGE_BYTES);

  constructor(private readonly opts: TextureServiceOptions) {}

  forget(installId: string): void {
    const prefix = `${installId}|`;
    this.assets.forget(prefix);
    this.textures.forget(prefix);
    this.images.forget(prefix);
  }

  async info(install: Install, req: AssetRequest): Promise<TextureView> {
    const { texture, asset, path } = await this.texture(install, req);
    const { readMip: _readMip, ...facts } = texture;
    const hdr = isHdrPixelFormat(texture.pixelFormat);
    // A format PakScope cannot decode still saves as .dds (its mips as stored) when the engine's table knows it.
    const decodes = canDecodePixelFormat(texture.pixelFormat), dds = canWriteDds(texture);
    return {
      ...structuredClone(facts),
      path,
      exportIndex: asset.exportIndex,
      hdr,
      converts: asset.converts.filter((c) => (c === 'dds' ? dds : decodes) && (c !== 'hdr' || hdr)),
    };
  }

  async pixels(install: Install, req: TexturePixelsRequest): Promise<TexturePixels> {
    const pixels = req.pixels ?? 'rgba8';
    const image = await this.image(install, req);
    let whole: Uint8Array;
    if (pixels === 'float32') {
      if (!image.float) throw new RequestError(`${req.path}: the pixel format holds no floats beyond 8 bits (ask for rgba8)`);
      whole = new Uint8Array(image.float.buffer, image.float.byteOffset, image.float.byteLength);
    } else {
      whole = image.rgba;
    }
    const offset = req.offset ?? 0;
    if (offset > whole.length) throw new RequestError(`${req.path}: offset ${offset} is past the end of the image (${whole.length} bytes)`);
    const length = Math.min(req.length ?? MAX_PIXEL_READ, MAX_PIXEL_READ, whole.length - offset);
    // A copy: the cached image is never handed out (IPC may transfer it, the page may keep it).
    return { width: image.width, height: image.height, pixels, offset, total: whole.length, bytes: whole.slice(offset, offset + length) };
  }

  async thumbnail(install: Install, req: ThumbnailRequest): Promise<AssetThumbnail> {
    const size = req.size ?? DEFAULT_THUMBNAIL;
    if (size < 16 || size > 256) throw new RequestError(`thumbnail size ${size} is out of range (16 to 256)`);
    let found: { path: string; assets: PackageAsset[] };
    try {
      found = await this.assetsOf(install, req.installId, req.path);
    } catch (e) {
      return { path: req.path, kind: null, error: messageOf(e) };
    }
    const first = found.assets[0];
    if (!first) return { path: found.path, kind: null };
    const out: AssetThumbnail = { path: found.path, kind: first.kind, name: first.name, class: first.class };
    if (first.kind !== 'texture') return out;
    try {
      const texture = await this.textureOf(install, { installId: req.installId, path: found.path, exportIndex: first.exportIndex });
      out.pixelFormat = texture.pixelFormat;
      out.width = texture.width;
      out.height = texture.height;
      const mip = thumbnailMip(texture, size);
      if (mip < 0) throw new Error(`no mip of ${texture.name} is in the install`);
      const image = await decodeForView(texture, { mip, slice: 0, pool: this.opts.pool });
      out.image = downscale(image, size);
    } catch (e) {
      out.error = messageOf(e);
    }
    return out;
  }

  /** The file bytes of a conversion (png/hdr: the mip and slice asked for; dds: every stored mip from the one asked for, by default the first the install has). */
  async convert(install: Install, req: SaveConversionRequest): Promise<Uint8Array> {
    const { texture } = await this.texture(install, req);
    const present = Math.max(0, texture.mips.findIndex((m) => !m.missing));
    const mip = req.mip ?? (req.format === 'dds' ? present : 0), slice = req.slice ?? 0;
    if (req.format !== 'dds') checkImage(texture, mip, slice);
    return encodeConversion(texture, req.format, { mip, slice, pool: this.opts.pool });
  }

  // ---- reading ----

  private async image(install: Install, req: TexturePixelsRequest): Promise<DecodedImage> {
    const { texture, key } = await this.texture(install, req);
    const mip = req.mip ?? 0;
    const slice = req.slice ?? 0;
    checkImage(texture, mip, slice);
    return this.images.get(`${key}|${mip}|${slice}`, () => decodeForView(texture, { mip, slice, pool: this.opts.pool }),
      (img) => img.rgba.byteLength + (img.float?.byteLength ?? 0));
  }

  private async texture(install: Install, req: AssetRequest): Promise<{ texture: Texture; asset: PackageAsset; path: string; key: string }> {
    const found = await this.assetsOf(install, req.installId, req.path, req.engine);
    const asset = req.exportIndex === undefined
      ? found.assets.find((a) => a.kind === 'texture')
      : found.assets.find((a) => a.exportIndex === req.exportIndex);
    if (!asset || asset.kind !== 'texture') {
      throw new RequestError(req.exportIndex === undefined ? `${found.path} holds no texture` : `export ${req.exportIndex} of ${found.path} is not a texture`);
    }
    const key = `${req.installId}|${found.path}|${asset.exportIndex}|${req.engine ?? ''}`;
    const texture = await this.textureOf(install, { ...req, path: found.path, exportIndex: asset.exportIndex }, key);
    return { texture, asset, path: found.path, key };
  }

  private textureOf(install: Install, req: AssetRequest & { exportIndex: number }, key = `${req.installId}|${req.path}|${req.exportIndex}|${req.engine ?? ''}`): Promise<Texture> {
    return this.textures.get(key, async () => {
      const packages = this.opts.packages.packagesOf(req.installId, install);
      const mappings = await this.opts.mappings(req.installId);
      return readInstallTexture(packages, req.path, {
        exportIndex: req.exportIndex, ...(mappings ? { mappings } : {}), ...(req.engine ? { engine: req.engine } : {}),
      });
    });
  }

  /** The exports of a package the registry knows, and the package's tree path. */
  private assetsOf(install: Install, installId: string, path: string, engine?: string): Promise<{ path: string; assets: PackageAsset[] }> {
    return this.assets.get(`${installId}|${path}|${engine ?? ''}`, async () => {
      const packages = this.opts.packages.packagesOf(installId, install);
      const opened = await packages.open(this.opts.packages.locate(packages, path), engine ? { engine } : {});
      return { path: opened.path, assets: packageAssets(opened.model) };
    });
  }
}

/** Refuses a mip or slice the texture does not have, or whose bytes the install lacks. */
function checkImage(texture: Texture, mip: number, slice: number): void {
  const m = texture.mips[mip];
  if (!m) throw new RequestError(`${texture.name} has ${texture.mips.length} mips: no mip ${mip}`);
  const slices = slicesOfMip(texture, mip);
  if (slice >= slices) throw new RequestError(`mip ${mip} of ${texture.name} has ${slices} slice(s): no slice ${slice}`);
  if (m.missing) throw new RequestError(`mip ${mip} of ${texture.name} (${m.width}x${m.height}) is not in the install: ${m.missing}`, 404);
}

/** 2D images of mip `mip`: a volume's depth shrinks with its mips; other textures keep their slices. */
export function slicesOfMip(texture: Pick<Texture, 'depth' | 'slices' | 'mips'>, mip: number): number {
  const m = texture.mips[mip];
  return texture.depth > 1 && m ? Math.max(1, m.depth) : Math.max(1, texture.slices);
}

/** The smallest mip in the install whose longest side is at least `side` (or the largest one there is); -1 if none is. */
export function thumbnailMip(texture: Pick<Texture, 'mips'>, side: number): number {
  let best = -1;
  texture.mips.forEach((m, i) => {
    if (m.missing || m.bytes === 0) return;
    if (best < 0 || Math.max(m.width, m.height) >= side) best = i;
  });
  return best;
}

/** Box-filters an RGBA image to at most `size` on its longest side (never up). */
export function downscale(image: Pick<DecodedImage, 'width' | 'height' | 'rgba'>, size: number): { width: number; height: number; rgba: Uint8Array } {
  const { width: w, height: h, rgba } = image;
  const scale = Math.min(1, size / Math.max(w, h));
  const tw = Math.max(1, Math.round(w * scale)), th = Math.max(1, Math.round(h * scale));
  if (tw === w && th === h) return { width: w, height: h, rgba: rgba.slice() };
  const out = new Uint8Array(tw * th * 4);
  for (let ty = 0; ty < th; ty++) {
    const y0 = Math.floor((ty * h) / th), y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * h) / th));
    for (let tx = 0; tx < tw; tx++) {
      const x0 = Math.floor((tx * w) / tw), x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * w) / tw));
      let r = 0, g = 0, b = 0, a = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const o = (y * w + x) * 4;
          r += rgba[o]!; g += rgba[o + 1]!; b += rgba[o + 2]!; a += rgba[o + 3]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0), o = (ty * tw + tx) * 4;
      out[o] = Math.round(r / n); out[o + 1] = Math.round(g / n); out[o + 2] = Math.round(b / n); out[o + 3] = Math.round(a / n);
    }
  }
  return { width: tw, height: th, rgba: out };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
