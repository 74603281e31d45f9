/**
 * Uncompressed pixel formats: whole images, one loop each. Channel placement follows the table's
 * rule (pixel-formats.ts): one-channel formats in R, two-channel in R and G, the missing colour
 * channels 0 and alpha 255 (1.0 in floats). UNORM values become 8 bits rounded (v * 255 / max),
 * SNORM values map [-1, 1] to [0, 255] like a normal map's texels, UINT values are clamped to 255,
 * float formats keep their floats and get the HDR rule's 8-bit image (clamped, x255, truncated).
 * Multi-byte values are little-endian, as every platform the engine cooks for stores them.
 */
import type { DecodedImage } from '../types.js';
import { floatToRgba8 } from './block-image.js';
import { HALF_TO_FLOAT, smallFloat } from './half.js';

/** Where a decoder may write its image: `rgba` (width x height x 4 bytes, 4-byte aligned) and, for HDR formats, `float`. */
export interface ImageTarget { rgba: Uint8Array; float?: Float32Array }

/**
 * Decodes one width x height image; with `into`, a decoder that can writes straight into its
 * arrays (the block formats do; decodePixels copies the others' output there).
 */
export type ImageDecoder = (data: Uint8Array, width: number, height: number, into?: ImageTarget) => DecodedImage;

function image(width: number, height: number): { rgba: Uint8Array; out: Uint32Array } {
  const rgba = new Uint8Array(width * height * 4);
  return { rgba, out: new Uint32Array(rgba.buffer) };
}

/** 4 bytes a pixel in R, G, B, A order (PF_R8G8B8A8, PF_R8G8B8A8_UINT). */
export const decodeR8G8B8A8: ImageDecoder = (data, width, height) =>
  ({ width, height, rgba: data.slice(0, width * height * 4) });

/** 4 bytes a pixel in B, G, R, A order (PF_B8G8R8A8; PF_A8R8G8B8, the D3D9 name of the same bytes). */
export const decodeB8G8R8A8: ImageDecoder = (data, width, height) => {
  const rgba = data.slice(0, width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) { const b = rgba[i]!; rgba[i] = rgba[i + 2]!; rgba[i + 2] = b; }
  return { width, height, rgba };
};

/** 3 bytes a pixel, R, G, B (PF_R8G8B8). */
export const decodeR8G8B8: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  for (let p = 0, i = 0; p < out.length; p++, i += 3) out[p] = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | 0xff000000;
  return { width, height, rgba };
};

/** One byte a pixel, into R (G8, L8, R8, A8, R8_UINT). */
export const decodeR8: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  for (let p = 0; p < out.length; p++) out[p] = data[p]! | 0xff000000;
  return { width, height, rgba };
};

/** Two bytes a pixel, R and G (R8G8, R8G8_UINT). */
export const decodeR8G8: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  for (let p = 0; p < out.length; p++) out[p] = data[2 * p]! | (data[2 * p + 1]! << 8) | 0xff000000;
  return { width, height, rgba };
};

/** A signed normalized byte as 0..255 (-1 -> 0, 0 -> 128, 1 -> 255). */
function snorm8(b: number): number {
  const v = Math.max(-1, ((b << 24) >> 24) / 127);
  return Math.round((v + 1) * 127.5);
}

/** Signed bytes, `channels` a pixel (V8U8: 2; R8G8B8A8_SNORM: 4). */
function snormBytes(channels: number): ImageDecoder {
  return (data, width, height) => {
    const rgba = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 4; c++) rgba[p * 4 + c] = c < channels ? snorm8(data[p * channels + c]!) : c === 3 ? 255 : 0;
    }
    return { width, height, rgba };
  };
}
export const decodeV8U8 = snormBytes(2);
export const decodeR8G8B8A8Snorm = snormBytes(4);

/** Little-endian 16-bit values, `channels` a pixel, as UNORM (G16, G16R16, R16G16B16A16_UNORM), SNORM or UINT. */
function words16(channels: number, kind: 'unorm' | 'snorm' | 'uint'): ImageDecoder {
  return (data, width, height) => {
    const rgba = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 4; c++) {
        let v = c === 3 ? 255 : 0;
        if (c < channels) {
          const i = (p * channels + c) * 2;
          const u = data[i]! | (data[i + 1]! << 8);
          v = kind === 'unorm' ? Math.round(u / 257)
            : kind === 'uint' ? Math.min(u, 255)
            : Math.round((Math.max(-1, ((u << 16) >> 16) / 32767) + 1) * 127.5);
        }
        rgba[p * 4 + c] = v;
      }
    }
    return { width, height, rgba };
  };
}
export const decodeG16 = words16(1, 'unorm');
export const decodeR16Uint = words16(1, 'uint');
export const decodeG16R16 = words16(2, 'unorm');
export const decodeR16G16Uint = words16(2, 'uint');
export const decodeG16R16Snorm = words16(2, 'snorm');
export const decodeR16G16B16A16Unorm = words16(4, 'unorm');
export const decodeR16G16B16A16Snorm = words16(4, 'snorm');
export const decodeR16G16B16A16Uint = words16(4, 'uint');

/** Little-endian 32-bit unsigned integers, `channels` a pixel, clamped to 255. */
function uints32(channels: number): ImageDecoder {
  return (data, width, height) => {
    const rgba = new Uint8Array(width * height * 4);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 4; c++) {
        rgba[p * 4 + c] = c < channels ? Math.min(view.getUint32((p * channels + c) * 4, true), 255) : c === 3 ? 255 : 0;
      }
    }
    return { width, height, rgba };
  };
}
export const decodeR32Uint = uints32(1);
export const decodeR32G32Uint = uints32(2);
export const decodeR32G32B32Uint = uints32(3);
export const decodeR32G32B32A32Uint = uints32(4);

/** Float formats: `read(data, pixel, float4)` fills one pixel's RGBA floats. */
function floats(read: (data: Uint8Array, view: DataView, p: number, f: Float32Array, at: number) => void): ImageDecoder {
  return (data, width, height) => {
    const float = new Float32Array(width * height * 4);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let p = 0; p < width * height; p++) read(data, view, p, float, p * 4);
    return { width, height, rgba: floatToRgba8(float), float };
  };
}

/** Half floats, `channels` a pixel (R16F: 1, G16R16F: 2, FloatRGBA: 4). */
function halves(channels: number): ImageDecoder {
  return floats((data, _view, p, f, at) => {
    for (let c = 0; c < 4; c++) {
      const i = (p * channels + c) * 2;
      f[at + c] = c < channels ? HALF_TO_FLOAT[data[i]! | (data[i + 1]! << 8)]! : c === 3 ? 1 : 0;
    }
  });
}
export const decodeR16F = halves(1);
export const decodeG16R16F = halves(2);
export const decodeFloatRGBA = halves(4);

/** Single floats, `channels` a pixel (R32_FLOAT: 1, G32R32F: 2, R32G32B32F: 3, A32B32G32R32F: 4, R, G, B, A in memory). */
function singles(channels: number): ImageDecoder {
  return floats((_data, view, p, f, at) => {
    for (let c = 0; c < 4; c++) f[at + c] = c < channels ? view.getFloat32((p * channels + c) * 4, true) : c === 3 ? 1 : 0;
  });
}
export const decodeR32F = singles(1);
export const decodeG32R32F = singles(2);
export const decodeR32G32B32F = singles(3);
export const decodeA32B32G32R32F = singles(4);

/** R11G11B10 unsigned floats (PF_FloatRGB and PF_FloatR11G11B10): R in the low 11 bits. */
export const decodeFloatR11G11B10 = floats((_data, view, p, f, at) => {
  const v = view.getUint32(p * 4, true);
  f[at] = smallFloat(v & 0x7ff, 6);
  f[at + 1] = smallFloat((v >>> 11) & 0x7ff, 6);
  f[at + 2] = smallFloat(v >>> 22, 5);
  f[at + 3] = 1;
});

/** R9G9B9E5: three 9-bit mantissas and a shared 5-bit exponent (bias 15). */
export const decodeR9G9B9E5 = floats((_data, view, p, f, at) => {
  const v = view.getUint32(p * 4, true);
  const scale = 2 ** ((v >>> 27) - 15 - 9);
  f[at] = (v & 511) * scale;
  f[at + 1] = ((v >>> 9) & 511) * scale;
  f[at + 2] = ((v >>> 18) & 511) * scale;
  f[at + 3] = 1;
});

/** A 5- or 6-bit value widened to 8 bits by repeating its top bits. */
const widen5 = (v: number): number => (v << 3) | (v >> 2);
const widen6 = (v: number): number => (v << 2) | (v >> 4);

/** PF_R5G6B5_UNORM (DXGI B5G6R5): B in bits 0-4, G in 5-10, R in 11-15. */
export const decodeR5G6B5: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  for (let p = 0; p < out.length; p++) {
    const v = data[2 * p]! | (data[2 * p + 1]! << 8);
    out[p] = widen5(v >> 11) | (widen6((v >> 5) & 63) << 8) | (widen5(v & 31) << 16) | 0xff000000;
  }
  return { width, height, rgba };
};

/** PF_B5G5R5A1_UNORM: B in bits 0-4, G in 5-9, R in 10-14, A in bit 15. */
export const decodeB5G5R5A1: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  for (let p = 0; p < out.length; p++) {
    const v = data[2 * p]! | (data[2 * p + 1]! << 8);
    out[p] = widen5((v >> 10) & 31) | (widen5((v >> 5) & 31) << 8) | (widen5(v & 31) << 16) | (v & 0x8000 ? 0xff000000 : 0);
  }
  return { width, height, rgba };
};

/** PF_A2B10G10R10 (DXGI R10G10B10A2_UNORM): R in bits 0-9, G 10-19, B 20-29, A 30-31. */
export const decodeA2B10G10R10: ImageDecoder = (data, width, height) => {
  const { rgba, out } = image(width, height);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let p = 0; p < out.length; p++) {
    const v = view.getUint32(p * 4, true);
    out[p] = Math.round((v & 1023) * 255 / 1023) | (Math.round(((v >>> 10) & 1023) * 255 / 1023) << 8) |
      (Math.round(((v >>> 20) & 1023) * 255 / 1023) << 16) | (((v >>> 30) * 85) << 24);
  }
  return { width, height, rgba };
};
