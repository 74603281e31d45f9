/**
 * How many bytes a 2D image of a pixel format takes, which the reader needs to check mip sizes
 * and to cut virtual texture tiles. Block size and bytes per block only: the pixel decoders'
 * table (decode/pixel-formats.ts) knows everything else about a format.
 */

export interface FormatBlock {
  /** Block width and height in pixels (1 for uncompressed formats). */
  w: number;
  h: number;
  /** Bytes per block (per pixel for uncompressed formats). */
  bytes: number;
}

const B = (w: number, h: number, bytes: number): FormatBlock => ({ w, h, bytes });

const BLOCKS: Record<string, FormatBlock> = {
  PF_DXT1: B(4, 4, 8), PF_DXT3: B(4, 4, 16), PF_DXT5: B(4, 4, 16), PF_BC4: B(4, 4, 8), PF_BC5: B(4, 4, 16),
  PF_BC6H: B(4, 4, 16), PF_BC7: B(4, 4, 16), PF_ATC_RGB: B(4, 4, 8), PF_ATC_RGBA_E: B(4, 4, 16), PF_ATC_RGBA_I: B(4, 4, 16),
  PF_ETC1: B(4, 4, 8), PF_ETC2_RGB: B(4, 4, 8), PF_ETC2_RGBA: B(4, 4, 16), PF_ETC2_R11_EAC: B(4, 4, 8), PF_ETC2_RG11_EAC: B(4, 4, 16),
  PF_PVRTC2: B(8, 4, 8), PF_PVRTC4: B(4, 4, 8),
  PF_A8: B(1, 1, 1), PF_G8: B(1, 1, 1), PF_L8: B(1, 1, 1), PF_R8: B(1, 1, 1), PF_R8_UINT: B(1, 1, 1), PF_R8_SINT: B(1, 1, 1),
  PF_G16: B(1, 1, 2), PF_R16F: B(1, 1, 2), PF_R16F_FILTER: B(1, 1, 2), PF_R16_UINT: B(1, 1, 2), PF_R16_SINT: B(1, 1, 2),
  PF_R8G8: B(1, 1, 2), PF_V8U8: B(1, 1, 2), PF_R5G6B5_UNORM: B(1, 1, 2), PF_B5G5R5A1_UNORM: B(1, 1, 2),
  PF_B8G8R8A8: B(1, 1, 4), PF_R8G8B8A8: B(1, 1, 4), PF_A8R8G8B8: B(1, 1, 4), PF_R8G8B8A8_UINT: B(1, 1, 4), PF_R8G8B8A8_SNORM: B(1, 1, 4),
  PF_G16R16: B(1, 1, 4), PF_G16R16F: B(1, 1, 4), PF_G16R16F_FILTER: B(1, 1, 4), PF_R16G16_UINT: B(1, 1, 4), PF_G16R16_SNORM: B(1, 1, 4),
  PF_FloatRGB: B(1, 1, 4), PF_FloatR11G11B10: B(1, 1, 4), PF_A2B10G10R10: B(1, 1, 4), PF_R32_FLOAT: B(1, 1, 4),
  PF_R32_UINT: B(1, 1, 4), PF_R32_SINT: B(1, 1, 4), PF_D24: B(1, 1, 4),
  PF_FloatRGBA: B(1, 1, 8), PF_A16B16G16R16: B(1, 1, 8), PF_R16G16B16A16_UNORM: B(1, 1, 8), PF_R16G16B16A16_SNORM: B(1, 1, 8),
  PF_R16G16B16A16_UINT: B(1, 1, 8), PF_R16G16B16A16_SINT: B(1, 1, 8), PF_G32R32F: B(1, 1, 8), PF_R32G32_UINT: B(1, 1, 8),
  PF_A32B32G32R32F: B(1, 1, 16), PF_R32G32B32A32_UINT: B(1, 1, 16), PF_R32G32B32F: B(1, 1, 12),
};

/** The format's block, or undefined for a name this table does not know. */
export function formatBlock(pixelFormat: string): FormatBlock | undefined {
  const known = BLOCKS[pixelFormat];
  if (known) return known;
  // PF_ASTC_4x4, PF_ASTC_10x5_HDR, PF_ASTC_6x6_NORM_RG: 16 bytes per block of the size named.
  const m = /^PF_ASTC_(\d+)x(\d+)(?:_HDR|_NORM_RG)?$/.exec(pixelFormat);
  return m ? B(Number(m[1]), Number(m[2]), 16) : undefined;
}

/** Bytes of one width x height image in the format; undefined for an unknown format. */
export function imageBytes(pixelFormat: string, width: number, height: number): number | undefined {
  const b = formatBlock(pixelFormat);
  if (!b) return undefined;
  return Math.ceil(width / b.w) * Math.ceil(height / b.h) * b.bytes;
}
