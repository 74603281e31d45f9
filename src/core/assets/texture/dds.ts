/**
 * DDS writer: a texture's stored mips as they are, no decoding, so that formats PakScope cannot
 * decode can still be saved. A legacy header where one can name the format (a FourCC such as
 * DXT1, or the bit masks of B8G8R8A8 and G8) and the texture is no array; otherwise the DX10
 * header with the format's DXGI_FORMAT (arrays, cube arrays, BC6H/BC7, ASTC ...). The engine
 * stores a mip's slices together; a DDS stores each array element (cube face) with its mips, so
 * the slices are regrouped; a volume's depth stays in its mip, as both store it.
 */
import { pixelFormatInfo, sliceBytes, UnsupportedPixelFormatError } from './decode/index.js';

export interface DdsTexture {
  pixelFormat: string;
  /** The first mip written (the largest present). */
  width: number;
  height: number;
  /** Volume depth of the first mip; 1 otherwise. */
  depth: number;
  /** 2D images per mip for arrays and cubes (6 per cube); 1 for a plain 2D texture or a volume. */
  layers: number;
  cube: boolean;
  volume: boolean;
}

const DDSD_CAPS = 0x1, DDSD_HEIGHT = 0x2, DDSD_WIDTH = 0x4, DDSD_PITCH = 0x8, DDSD_PIXELFORMAT = 0x1000;
const DDSD_MIPMAPCOUNT = 0x20000, DDSD_LINEARSIZE = 0x80000, DDSD_DEPTH = 0x800000;
const DDPF_ALPHAPIXELS = 0x1, DDPF_FOURCC = 0x4, DDPF_RGB = 0x40, DDPF_LUMINANCE = 0x20000;
const DDSCAPS_COMPLEX = 0x8, DDSCAPS_TEXTURE = 0x1000, DDSCAPS_MIPMAP = 0x400000;
const DDSCAPS2_CUBEMAP_ALLFACES = 0x200 | 0xfc00, DDSCAPS2_VOLUME = 0x200000;
const DIMENSION_TEXTURE2D = 3, DIMENSION_TEXTURE3D = 4, MISC_TEXTURECUBE = 0x4;

/** Uncompressed formats a legacy header names by bit masks: bits, flags, R, G, B, A masks. */
const LEGACY_MASKS: Record<string, [number, number, number, number, number, number]> = {
  PF_B8G8R8A8: [32, DDPF_RGB | DDPF_ALPHAPIXELS, 0xff0000, 0xff00, 0xff, 0xff000000],
  PF_R8G8B8A8: [32, DDPF_RGB | DDPF_ALPHAPIXELS, 0xff, 0xff00, 0xff0000, 0xff000000],
  PF_G8: [8, DDPF_LUMINANCE, 0xff, 0, 0, 0],
  PF_L8: [8, DDPF_LUMINANCE, 0xff, 0, 0, 0],
};

/**
 * A .dds can hold the format: a legacy header names it (not for an array) or a DXGI_FORMAT does.
 * The engine's ETC2/EAC formats have neither, so such a texture saves as .png only.
 */
export function ddsHolds(pixelFormat: string, array: boolean): boolean {
  const info = pixelFormatInfo(pixelFormat);
  if (!info) return false;
  return info.dds.dxgiFormat !== 0 || (!array && (info.dds.fourCC !== undefined || LEGACY_MASKS[pixelFormat] !== undefined));
}

/** More than one 2D image (cube face) per mip: a DDS array, which needs the DX10 header. */
export const isDdsArray = (t: Pick<DdsTexture, 'cube' | 'layers'>): boolean => (t.cube ? t.layers > 6 : t.layers > 1);

/**
 * The .dds file of `mips` (each the stored bytes of one mip, every slice, largest first; the
 * first at t.width x t.height). Throws UnsupportedPixelFormatError for a format unknown to
 * PakScope or with no DDS equivalent, RangeError when a mip is shorter than its size.
 */
export function encodeDds(t: DdsTexture, mips: readonly Uint8Array[]): Uint8Array {
  const info = pixelFormatInfo(t.pixelFormat);
  if (!info) throw new UnsupportedPixelFormatError(t.pixelFormat, false);
  if (mips.length === 0) throw new RangeError('a DDS file needs at least one mip');
  const masks = LEGACY_MASKS[t.pixelFormat];
  const array = isDdsArray(t);
  const legacy = !array && (info.dds.fourCC !== undefined || masks !== undefined);
  if (!ddsHolds(t.pixelFormat, array)) {
    const e = new UnsupportedPixelFormatError(t.pixelFormat, true);
    e.message = `pixel format ${t.pixelFormat} has no DDS equivalent${info.dds.fourCC ? ` for an array (only the FourCC ${info.dds.fourCC})` : ''}`;
    throw e;
  }
  const sizes = mips.map((_, m) => ({ w: Math.max(1, t.width >> m), h: Math.max(1, t.height >> m), d: t.volume ? Math.max(1, t.depth >> m) : 1 }));
  const perImage = sizes.map((s) => sliceBytes(t.pixelFormat, s.w, s.h));
  const images = t.volume ? 1 : t.layers;
  for (const [m, data] of mips.entries()) {
    const need = perImage[m]! * sizes[m]!.d * images;
    if (data.length < need) throw new RangeError(`mip ${m} holds ${data.length} bytes, ${need} needed`);
  }

  const head = 4 + 124 + (legacy ? 0 : 20);
  const body = mips.reduce((n, _, m) => n + perImage[m]! * sizes[m]!.d * images, 0);
  const out = new Uint8Array(head + body);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20], 0); // "DDS "
  const compressed = info.blockWidth > 1 || info.blockHeight > 1;
  let flags = DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | (compressed ? DDSD_LINEARSIZE : DDSD_PITCH);
  if (mips.length > 1) flags |= DDSD_MIPMAPCOUNT;
  if (t.volume) flags |= DDSD_DEPTH;
  const h = 4;
  v.setUint32(h, 124, true);
  v.setUint32(h + 4, flags, true);
  v.setUint32(h + 8, t.height, true);
  v.setUint32(h + 12, t.width, true);
  v.setUint32(h + 16, compressed ? perImage[0]! : Math.ceil(t.width / info.blockWidth) * info.blockBytes, true);
  v.setUint32(h + 20, t.volume ? t.depth : 0, true);
  v.setUint32(h + 24, mips.length, true);
  // DDS_PIXELFORMAT at 72 in the header
  const pf = h + 72;
  v.setUint32(pf, 32, true);
  if (!legacy) {
    v.setUint32(pf + 4, DDPF_FOURCC, true);
    writeFourCC(out, pf + 8, 'DX10');
  } else if (info.dds.fourCC !== undefined && masks === undefined) {
    v.setUint32(pf + 4, DDPF_FOURCC, true);
    writeFourCC(out, pf + 8, info.dds.fourCC);
  } else {
    const [bits, pfFlags, r, g, b, a] = masks!;
    v.setUint32(pf + 4, pfFlags, true);
    v.setUint32(pf + 12, bits, true);
    v.setUint32(pf + 16, r, true);
    v.setUint32(pf + 20, g, true);
    v.setUint32(pf + 24, b, true);
    v.setUint32(pf + 28, a, true);
  }
  const complex = mips.length > 1 || t.cube || t.volume || array;
  v.setUint32(h + 104, DDSCAPS_TEXTURE | (complex ? DDSCAPS_COMPLEX : 0) | (mips.length > 1 ? DDSCAPS_MIPMAP : 0), true);
  v.setUint32(h + 108, (t.cube ? DDSCAPS2_CUBEMAP_ALLFACES : 0) | (t.volume ? DDSCAPS2_VOLUME : 0), true);
  if (!legacy) {
    const x = 4 + 124;
    v.setUint32(x, info.dds.dxgiFormat, true);
    v.setUint32(x + 4, t.volume ? DIMENSION_TEXTURE3D : DIMENSION_TEXTURE2D, true);
    v.setUint32(x + 8, t.cube ? MISC_TEXTURECUBE : 0, true);
    v.setUint32(x + 12, t.cube ? Math.max(1, Math.floor(t.layers / 6)) : t.volume ? 1 : t.layers, true);
  }

  let at = head;
  if (t.volume || images === 1) {
    for (const [m, data] of mips.entries()) {
      const n = perImage[m]! * sizes[m]!.d;
      out.set(data.subarray(0, n), at);
      at += n;
    }
  } else {
    // Each face / layer with all its mips, in the engine's face order (+X -X +Y -Y +Z -Z).
    for (let s = 0; s < images; s++) {
      for (const [m, data] of mips.entries()) {
        const n = perImage[m]!;
        out.set(data.subarray(s * n, (s + 1) * n), at);
        at += n;
      }
    }
  }
  return out;
}

function writeFourCC(out: Uint8Array, at: number, code: string): void {
  for (let i = 0; i < 4; i++) out[at + i] = code.charCodeAt(i);
}
