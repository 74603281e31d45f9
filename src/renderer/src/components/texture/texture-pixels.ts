/**
 * The texture view's pixel work, without the DOM (tested in Node): fetching a mip's pixels page by
 * page, the channel toggles and HDR exposure applied to them, the zoom and pan arithmetic, and
 * the value under the cursor.
 */
import { MAX_PIXEL_READ, type PakScopeApi, type TexturePixelsRequest } from '../../../../shared/api.js';

export interface LoadedImage {
  width: number;
  height: number;
  /** 8-bit RGBA as the PNG holds it. */
  rgba: Uint8Array;
  /** HDR formats, when asked for: the floats, RGBA. */
  float?: Float32Array;
}

/** Fetches a whole image: every page of its rgba8 bytes (and of its floats when `withFloat`). */
export async function loadImage(
  api: Pick<PakScopeApi, 'texturePixels'>, req: Omit<TexturePixelsRequest, 'pixels' | 'offset' | 'length'>, withFloat: boolean,
  stale: () => boolean = () => false,
): Promise<LoadedImage | null> {
  const fetchAll = async (pixels: 'rgba8' | 'float32'): Promise<{ width: number; height: number; bytes: Uint8Array } | null> => {
    const first = await api.texturePixels({ ...req, pixels, offset: 0, length: MAX_PIXEL_READ });
    if (first.bytes.length === first.total) return { width: first.width, height: first.height, bytes: first.bytes };
    const bytes = new Uint8Array(first.total);
    bytes.set(first.bytes, 0);
    for (let at = first.bytes.length; at < first.total;) {
      if (stale()) return null; // another mip was asked for meanwhile
      const page = await api.texturePixels({ ...req, pixels, offset: at, length: MAX_PIXEL_READ });
      if (page.bytes.length === 0) throw new Error(`the image's bytes ended at ${at} of ${first.total}`);
      bytes.set(page.bytes, at);
      at += page.bytes.length;
    }
    return { width: first.width, height: first.height, bytes };
  };
  const rgba = await fetchAll('rgba8');
  if (!rgba || stale()) return null;
  const out: LoadedImage = { width: rgba.width, height: rgba.height, rgba: rgba.bytes };
  if (withFloat) {
    const f = await fetchAll('float32');
    if (!f) return null;
    // Copied to a fresh buffer: the page bytes may not be 4-aligned in their buffer.
    const aligned = new Uint8Array(f.bytes.length);
    aligned.set(f.bytes);
    out.float = new Float32Array(aligned.buffer);
  }
  return out;
}

export interface Channels {
  r: boolean;
  g: boolean;
  b: boolean;
  a: boolean;
}

export const ALL_CHANNELS: Channels = { r: true, g: true, b: true, a: true };

/**
 * The pixels as drawn: one channel alone shows as gray (opaque); otherwise the channels turned
 * off are 0 (alpha off: opaque). HDR floats (with `exposure` in stops) replace the 8-bit values,
 * clamped to [0, 1]; alpha stays as stored.
 */
export function shownPixels(image: LoadedImage, channels: Channels, exposure: number | null, out?: Uint8ClampedArray): Uint8ClampedArray {
  const n = image.width * image.height;
  const dst = out && out.length === n * 4 ? out : new Uint8ClampedArray(n * 4);
  let src: Uint8Array | Uint8ClampedArray = image.rgba;
  if (exposure !== null && image.float) {
    const f = image.float, scale = 2 ** exposure * 255;
    const tmp = new Uint8ClampedArray(n * 4);
    for (let i = 0; i < n * 4; i += 4) {
      tmp[i] = f[i]! * scale; tmp[i + 1] = f[i + 1]! * scale; tmp[i + 2] = f[i + 2]! * scale; tmp[i + 3] = image.rgba[i + 3]!;
    }
    src = tmp;
  }
  const on = [channels.r, channels.g, channels.b, channels.a];
  const count = on.filter(Boolean).length;
  if (count === 1) {
    const c = on.indexOf(true);
    for (let i = 0; i < n * 4; i += 4) {
      const v = src[i + c]!;
      dst[i] = v; dst[i + 1] = v; dst[i + 2] = v; dst[i + 3] = 255;
    }
    return dst;
  }
  if (count === 4) {
    dst.set(src);
    return dst;
  }
  for (let i = 0; i < n * 4; i += 4) {
    dst[i] = channels.r ? src[i]! : 0;
    dst[i + 1] = channels.g ? src[i + 1]! : 0;
    dst[i + 2] = channels.b ? src[i + 2]! : 0;
    dst[i + 3] = channels.a ? src[i + 3]! : 255;
  }
  return dst;
}

/** Zoom and pan: an image pixel x lands at CSS pixel x * zoom + panX of the canvas. */
export interface ViewTransform {
  zoom: number;
  panX: number;
  panY: number;
}

export const MIN_ZOOM = 1 / 64;
export const MAX_ZOOM = 256;
/** From this zoom on, the pixel grid is drawn. */
export const GRID_ZOOM = 8;

/** The whole image in the canvas, centred (small images and small mips are enlarged to fill it). */
export function fitTransform(width: number, height: number, canvasWidth: number, canvasHeight: number, margin = 12): ViewTransform {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.min((canvasWidth - 2 * margin) / width, (canvasHeight - 2 * margin) / height)));
  return { zoom, panX: (canvasWidth - width * zoom) / 2, panY: (canvasHeight - height * zoom) / 2 };
}

/** One image pixel per CSS pixel, centred. */
export function actualSize(width: number, height: number, canvasWidth: number, canvasHeight: number): ViewTransform {
  return { zoom: 1, panX: Math.round((canvasWidth - width) / 2), panY: Math.round((canvasHeight - height) / 2) };
}

/** Zooms by `factor` keeping the image point under (x, y) where it is. */
export function zoomAround(t: ViewTransform, factor: number, x: number, y: number): ViewTransform {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, t.zoom * factor));
  const ix = (x - t.panX) / t.zoom, iy = (y - t.panY) / t.zoom;
  return { zoom, panX: x - ix * zoom, panY: y - iy * zoom };
}

/** The image pixel under canvas point (x, y), or null outside the image. */
export function pixelAt(t: ViewTransform, x: number, y: number, width: number, height: number): { x: number; y: number } | null {
  const px = Math.floor((x - t.panX) / t.zoom), py = Math.floor((y - t.panY) / t.zoom);
  return px >= 0 && py >= 0 && px < width && py < height ? { x: px, y: py } : null;
}

/** "R 255 G 128 B 0 A 255" (and the floats of an HDR image). */
export function describePixel(image: LoadedImage, x: number, y: number): string {
  const o = (y * image.width + x) * 4;
  const v = image.rgba;
  const bytes = `R ${v[o]} G ${v[o + 1]} B ${v[o + 2]} A ${v[o + 3]}`;
  if (!image.float) return bytes;
  const f = image.float;
  const num = (n: number) => (Math.abs(n) >= 1000 || (n !== 0 && Math.abs(n) < 0.001) ? n.toExponential(3) : n.toFixed(4));
  return `R ${num(f[o]!)} G ${num(f[o + 1]!)} B ${num(f[o + 2]!)} A ${num(f[o + 3]!)}`;
}

/** The cube faces in the engine's order. */
export const CUBE_FACES = ['+X', '−X', '+Y', '−Y', '+Z', '−Z'] as const;

/** The file name a save suggests: the asset's name, with the slice and mip when they are not the first. */
export function suggestedName(name: string, format: string, mip = 0, slice = 0): string {
  const safe = name.replace(/[^\w.-]+/g, '_') || 'texture';
  return `${safe}${slice > 0 && format !== 'dds' ? `_${slice}` : ''}${mip > 0 && format !== 'dds' ? `_mip${mip}` : ''}.${format}`;
}

/** Bytes of the mips by where they are stored: ".ubulk: 3 mips, 341.3 KiB". */
export function bulkLocations(mips: readonly { bytes: number; location: string; missing?: string }[]): { location: string; mips: number; bytes: number; missing: number }[] {
  const by = new Map<string, { location: string; mips: number; bytes: number; missing: number }>();
  for (const m of mips) {
    let e = by.get(m.location);
    if (!e) by.set(m.location, (e = { location: m.location, mips: 0, bytes: 0, missing: 0 }));
    e.mips++;
    e.bytes += m.bytes;
    if (m.missing) e.missing++;
  }
  return [...by.values()];
}
