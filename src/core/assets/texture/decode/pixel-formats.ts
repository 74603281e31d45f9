/**
 * The one table of the engine's pixel formats (EPixelFormat names, "PF_DXT1"): block size and
 * bytes, channels, HDR, the DDS identifiers a .dds of the stored bytes uses, and the decoder.
 * The DDS writer and the PNG rules read it; decodePixels (index.ts) runs its decoders. A format
 * PakScope cannot decode is still here, with `decode` undefined, so its mips can be saved as DDS.
 *
 * What a decoder puts in DecodedImage.rgba, by `channels` (values as stored, no sRGB conversion):
 * - 'r':    the value in R; G = B = 0, A = 255 (BC4, G8, L8, R8, A8, G16, R16F, R32_FLOAT, EAC R11).
 * - 'rg':   X in R, Y in G; B = 0, A = 255 (BC5, R8G8, G16R16, V8U8, EAC RG11). No Z is rebuilt here.
 * - 'rgb':  R, G, B; A = 255 (BC1 also writes its 1-bit alpha: transparent black where it is 0).
 * - 'rgba': R, G, B, A.
 * HDR formats (`hdr`) also fill DecodedImage.float with RGBA floats laid out the same way (missing
 * colour channels 0, alpha 1.0), and their rgba is each float clamped to [0, 1], x255, truncated.
 * SNORM formats map [-1, 1] to [0, 255]; UINT formats are clamped to 255.
 */
import { decodeBlockImage, decodeFloatBlockImage, floatToRgba8, type BlockDecoder, type FloatBlockDecoder } from './block-image.js';
import { decodeBC1Block, decodeBC1Image, decodeBC2Block, decodeBC3Block, decodeBC4Block, decodeBC5Block } from './bc.js';
import { decodeBC6HBlock } from './bc6h.js';
import { decodeBC7Block, decodeBC7Image } from './bc7.js';
import { astcBlockDecoder, astcFloatBlockDecoder } from './astc.js';
import { decodeEACR11Block, decodeEACRG11Block, decodeETC1Block, decodeETC2RGBABlock, decodeETC2RGBBlock } from './etc.js';
import * as raw from './uncompressed.js';
import type { ImageDecoder } from './uncompressed.js';

export type { ImageDecoder, ImageTarget } from './uncompressed.js';
export type Channels = 'r' | 'rg' | 'rgb' | 'rgba';

export interface PixelFormatInfo {
  /** The engine's EPixelFormat name. */
  name: string;
  blockWidth: number;
  blockHeight: number;
  blockDepth: number;
  blockBytes: number;
  channels: Channels;
  /** Values beyond [0, 1] (float formats, BC6H, ASTC HDR): DecodedImage.float is filled. */
  hdr: boolean;
  /** The engine can sample it as sRGB (the texture's SRGB flag then applies). */
  srgbCapable: boolean;
  /**
   * How a .dds names these bytes: the DXGI_FORMAT of a DX10 header (0: none exists) and, where a
   * legacy header can say it, its FourCC. The ASTC values are those of the DXGI header's ASTC
   * entries (UNORM) that texture tools read.
   */
  dds: { dxgiFormat: number; fourCC?: string };
  /** Decodes one 2D image of this format; undefined: PakScope cannot decode it (DDS only). */
  decode?: ImageDecoder;
}

function blocks(width: number, height: number, bytes: number, block: BlockDecoder): ImageDecoder {
  return (data, w, h, into) => ({ width: w, height: h, rgba: decodeBlockImage(data, w, h, width, height, bytes, block, into?.rgba) });
}

function floatBlocks(width: number, height: number, bytes: number, block: FloatBlockDecoder): ImageDecoder {
  return (data, w, h, into) => {
    const float = decodeFloatBlockImage(data, w, h, width, height, bytes, block, into?.float);
    return { width: w, height: h, rgba: floatToRgba8(float, into?.rgba), float };
  };
}

type Entry = Omit<PixelFormatInfo, 'name' | 'blockDepth'> & { blockDepth?: number };

const px = (bytes: number, channels: Channels, dxgiFormat: number, decode?: ImageDecoder, more: Partial<Entry> = {}): Entry =>
  ({ blockWidth: 1, blockHeight: 1, blockBytes: bytes, channels, hdr: false, srgbCapable: false, dds: { dxgiFormat }, decode, ...more });

const hdrPx = (bytes: number, channels: Channels, dxgiFormat: number, decode?: ImageDecoder): Entry =>
  px(bytes, channels, dxgiFormat, decode, { hdr: true });

const bc = (bytes: number, channels: Channels, dxgiFormat: number, fourCC: string | undefined, block: BlockDecoder, srgbCapable = true): Entry =>
  ({ blockWidth: 4, blockHeight: 4, blockBytes: bytes, channels, hdr: false, srgbCapable, dds: { dxgiFormat, fourCC }, decode: blocks(4, 4, bytes, block) });

/** ASTC sizes in the order of their DXGI entries (UNORM of size k: 134 + 4k). */
const ASTC_SIZES = ['4x4', '5x4', '5x5', '6x5', '6x6', '8x5', '8x6', '8x8', '10x5', '10x6', '10x8', '10x10', '12x10', '12x12'];

const ENTRIES: Record<string, Entry> = {
  PF_DXT1: { ...bc(8, 'rgb', 71, 'DXT1', decodeBC1Block), decode: (data, w, h, into) => ({ width: w, height: h, rgba: decodeBC1Image(data, w, h, into?.rgba) }) },
  PF_DXT3: bc(16, 'rgba', 74, 'DXT3', decodeBC2Block),
  PF_DXT5: bc(16, 'rgba', 77, 'DXT5', decodeBC3Block),
  PF_BC4: bc(8, 'r', 80, 'ATI1', decodeBC4Block, false),
  PF_BC5: bc(16, 'rg', 83, 'ATI2', decodeBC5Block, false),
  PF_BC6H: { blockWidth: 4, blockHeight: 4, blockBytes: 16, channels: 'rgb', hdr: true, srgbCapable: false, dds: { dxgiFormat: 95 }, decode: floatBlocks(4, 4, 16, decodeBC6HBlock) },
  PF_BC7: { ...bc(16, 'rgba', 98, undefined, decodeBC7Block), decode: (data, w, h, into) => ({ width: w, height: h, rgba: decodeBC7Image(data, w, h, into?.rgba) }) },

  PF_B8G8R8A8: px(4, 'rgba', 87, raw.decodeB8G8R8A8, { srgbCapable: true }),
  PF_A8R8G8B8: px(4, 'rgba', 87, raw.decodeB8G8R8A8, { srgbCapable: true }),
  PF_R8G8B8A8: px(4, 'rgba', 28, raw.decodeR8G8B8A8, { srgbCapable: true }),
  PF_R8G8B8A8_UINT: px(4, 'rgba', 30, raw.decodeR8G8B8A8),
  PF_R8G8B8A8_SNORM: px(4, 'rgba', 31, raw.decodeR8G8B8A8Snorm),
  PF_R8G8B8: px(3, 'rgb', 0, raw.decodeR8G8B8, { srgbCapable: true }),
  PF_XGXR8: px(4, 'rgba', 0),
  PF_G8: px(1, 'r', 61, raw.decodeR8, { srgbCapable: true }),
  PF_L8: px(1, 'r', 61, raw.decodeR8),
  PF_R8: px(1, 'r', 61, raw.decodeR8),
  PF_A8: px(1, 'r', 65, raw.decodeR8),
  PF_R8_UINT: px(1, 'r', 62, raw.decodeR8),
  PF_R8_SINT: px(1, 'r', 64),
  PF_A1: px(1, 'r', 0),
  PF_R8G8: px(2, 'rg', 49, raw.decodeR8G8),
  PF_R8G8_UINT: px(2, 'rg', 50, raw.decodeR8G8),
  PF_V8U8: px(2, 'rg', 51, raw.decodeV8U8),

  PF_G16: px(2, 'r', 56, raw.decodeG16),
  PF_R16_UINT: px(2, 'r', 57, raw.decodeR16Uint),
  PF_R16_SINT: px(2, 'r', 59),
  PF_G16R16: px(4, 'rg', 35, raw.decodeG16R16),
  PF_R16G16_UINT: px(4, 'rg', 36, raw.decodeR16G16Uint),
  PF_R16G16_SINT: px(4, 'rg', 38),
  PF_G16R16_SNORM: px(4, 'rg', 37, raw.decodeG16R16Snorm),
  PF_A16B16G16R16: px(8, 'rgba', 11, raw.decodeR16G16B16A16Unorm),
  PF_R16G16B16A16_UNORM: px(8, 'rgba', 11, raw.decodeR16G16B16A16Unorm),
  PF_R16G16B16A16_SNORM: px(8, 'rgba', 13, raw.decodeR16G16B16A16Snorm),
  PF_R16G16B16A16_UINT: px(8, 'rgba', 12, raw.decodeR16G16B16A16Uint),
  PF_R16G16B16A16_SINT: px(8, 'rgba', 14),
  PF_R5G6B5_UNORM: px(2, 'rgb', 85, raw.decodeR5G6B5),
  PF_B5G5R5A1_UNORM: px(2, 'rgba', 86, raw.decodeB5G5R5A1),
  PF_A2B10G10R10: px(4, 'rgba', 24, raw.decodeA2B10G10R10),

  PF_R16F: hdrPx(2, 'r', 54, raw.decodeR16F),
  PF_R16F_FILTER: hdrPx(2, 'r', 54, raw.decodeR16F),
  PF_G16R16F: hdrPx(4, 'rg', 34, raw.decodeG16R16F),
  PF_G16R16F_FILTER: hdrPx(4, 'rg', 34, raw.decodeG16R16F),
  PF_FloatRGBA: hdrPx(8, 'rgba', 10, raw.decodeFloatRGBA),
  PF_FloatRGB: hdrPx(4, 'rgb', 26, raw.decodeFloatR11G11B10),
  PF_FloatR11G11B10: hdrPx(4, 'rgb', 26, raw.decodeFloatR11G11B10),
  PF_R9G9B9EXP5: hdrPx(4, 'rgb', 67, raw.decodeR9G9B9E5),
  PF_R32_FLOAT: hdrPx(4, 'r', 41, raw.decodeR32F),
  PF_G32R32F: hdrPx(8, 'rg', 16, raw.decodeG32R32F),
  PF_R32G32B32F: hdrPx(12, 'rgb', 6, raw.decodeR32G32B32F),
  PF_A32B32G32R32F: hdrPx(16, 'rgba', 2, raw.decodeA32B32G32R32F),

  PF_R32_UINT: px(4, 'r', 42, raw.decodeR32Uint),
  PF_R32_SINT: px(4, 'r', 43),
  PF_R32G32_UINT: px(8, 'rg', 17, raw.decodeR32G32Uint),
  PF_R32G32B32_UINT: px(12, 'rgb', 7, raw.decodeR32G32B32Uint),
  PF_R32G32B32_SINT: px(12, 'rgb', 8),
  PF_R32G32B32A32_UINT: px(16, 'rgba', 3, raw.decodeR32G32B32A32Uint),
  PF_R64_UINT: px(8, 'r', 0),

  PF_DepthStencil: px(4, 'r', 45),
  PF_ShadowDepth: px(4, 'r', 45),
  PF_D24: px(4, 'r', 45),
  PF_X24_G8: px(4, 'r', 47),
  PF_UYVY: { ...px(4, 'rgb', 0), blockWidth: 2 },

  PF_PVRTC2: { ...px(8, 'rgba', 0), blockWidth: 8, blockHeight: 4, dds: { dxgiFormat: 0, fourCC: 'PTC2' } },
  PF_PVRTC4: { ...px(8, 'rgba', 0), blockWidth: 4, blockHeight: 4, dds: { dxgiFormat: 0, fourCC: 'PTC4' } },
  PF_ATC_RGB: { ...px(8, 'rgb', 0), blockWidth: 4, blockHeight: 4, dds: { dxgiFormat: 0, fourCC: 'ATC ' } },
  PF_ATC_RGBA_E: { ...px(16, 'rgba', 0), blockWidth: 4, blockHeight: 4, dds: { dxgiFormat: 0, fourCC: 'ATCA' } },
  PF_ATC_RGBA_I: { ...px(16, 'rgba', 0), blockWidth: 4, blockHeight: 4, dds: { dxgiFormat: 0, fourCC: 'ATCI' } },

  PF_ETC1: bc(8, 'rgb', 0, undefined, decodeETC1Block),
  PF_ETC2_RGB: bc(8, 'rgb', 0, undefined, decodeETC2RGBBlock),
  PF_ETC2_RGBA: bc(16, 'rgba', 0, undefined, decodeETC2RGBABlock),
  PF_ETC2_R11_EAC: bc(8, 'r', 0, undefined, decodeEACR11Block, false),
  PF_ETC2_RG11_EAC: bc(16, 'rg', 0, undefined, decodeEACRG11Block, false),
};

ASTC_SIZES.forEach((size, k) => {
  const [w, h] = size.split('x').map(Number) as [number, number];
  const base = { blockWidth: w, blockHeight: h, blockBytes: 16, srgbCapable: true, dds: { dxgiFormat: 134 + 4 * k } };
  ENTRIES[`PF_ASTC_${size}`] = { ...base, channels: 'rgba', hdr: false, decode: blocks(w, h, 16, astcBlockDecoder(w, h)) };
  ENTRIES[`PF_ASTC_${size}_HDR`] = { ...base, channels: 'rgba', hdr: true, srgbCapable: false, decode: floatBlocks(w, h, 16, astcFloatBlockDecoder(w, h)) };
  // The high-precision normal map variants: decoded as stored (which channels hold X and Y is the
  // normal map's business, as for the other ASTC normal maps: X in RGB, Y in alpha).
  ENTRIES[`PF_ASTC_${size}_NORM_RG`] = { ...base, channels: 'rgba', hdr: false, srgbCapable: false, decode: blocks(w, h, 16, astcBlockDecoder(w, h)) };
});

export const PIXEL_FORMATS: ReadonlyMap<string, PixelFormatInfo> = new Map(
  Object.entries(ENTRIES).map(([name, e]) => [name, { name, blockDepth: 1, ...e }]),
);

export { blocks, floatBlocks };
