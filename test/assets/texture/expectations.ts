/**
 * What the cue58 fixture textures are, as CUE4Parse's fixture tests list them
 * (CUE4Parse.Tests/Fixtures/Tests/FixtureTestUtilities.cs TextureExpectations and
 * FixtureTextureDecodeTests.cs: formats, sizes, mip counts, slice counts), and the mip sizes
 * each format needs, counted here from the format's block size.
 */
import { expect } from 'vitest';
import type { Texture } from '../../../src/core/assets/texture/types.js';

export interface Expected {
  class: string;
  pixelFormat: string;
  width: number;
  height: number;
  depth?: number;
  slices?: number;
  cube?: boolean;
  virtual?: boolean;
  mips: number;
}

export const ZEN_TEXTURES: Record<string, Expected> = {
  T_BC1: { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 64, height: 64, mips: 1 },
  T_BC3: { class: 'Texture2D', pixelFormat: 'PF_DXT5', width: 64, height: 64, mips: 1 },
  T_BC4: { class: 'Texture2D', pixelFormat: 'PF_BC4', width: 64, height: 64, mips: 1 },
  T_BC5: { class: 'Texture2D', pixelFormat: 'PF_BC5', width: 64, height: 64, mips: 1 },
  T_BC6H: { class: 'Texture2D', pixelFormat: 'PF_BC6H', width: 64, height: 64, mips: 1 },
  T_BC7: { class: 'Texture2D', pixelFormat: 'PF_BC7', width: 64, height: 64, mips: 1 },
  T_BGRA8: { class: 'Texture2D', pixelFormat: 'PF_B8G8R8A8', width: 64, height: 64, mips: 1 },
  T_G8: { class: 'Texture2D', pixelFormat: 'PF_G8', width: 64, height: 64, mips: 1 },
  T_Mips: { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 64, height: 64, mips: 7 },
  T_Streaming: { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 512, height: 512, mips: 10 },
  // Virtual textures: one mip per virtual texture level (CUE4Parse: NumMips > 1), 512x512 and 256x256 DXT1.
  T_Virtual: { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 512, height: 512, virtual: true, mips: 10 },
  T_UDIM: { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 256, height: 256, virtual: true, mips: 9 },
  T_Cube: { class: 'TextureCube', pixelFormat: 'PF_B8G8R8A8', width: 16, height: 16, slices: 6, cube: true, mips: 1 },
  T_Array: { class: 'Texture2DArray', pixelFormat: 'PF_B8G8R8A8', width: 16, height: 16, slices: 4, mips: 1 },
  T_Volume: { class: 'VolumeTexture', pixelFormat: 'PF_B8G8R8A8', width: 8, height: 8, depth: 4, slices: 4, mips: 1 },
  T_CubeArray: { class: 'TextureCubeArray', pixelFormat: 'PF_B8G8R8A8', width: 16, height: 16, slices: 12, cube: true, mips: 1 },
  T_G16: { class: 'Texture2D', pixelFormat: 'PF_G16', width: 16, height: 16, mips: 1 },
  T_R16F: { class: 'Texture2D', pixelFormat: 'PF_R16F', width: 16, height: 16, mips: 1 },
  T_FloatRGBA: { class: 'Texture2D', pixelFormat: 'PF_FloatRGBA', width: 16, height: 16, mips: 1 },
  T_IES: { class: 'TextureLightProfile', pixelFormat: 'PF_G8', width: 16, height: 16, mips: 1 },
  T_CurveAtlas: { class: 'CurveLinearColorAtlas', pixelFormat: 'PF_FloatRGBA', width: 64, height: 1, mips: 1 },
};

/** Block width, height and bytes of the formats the fixtures use (the engine's GPixelFormats). */
const BLOCK: Record<string, [number, number, number]> = {
  PF_DXT1: [4, 4, 8], PF_DXT5: [4, 4, 16], PF_BC4: [4, 4, 8], PF_BC5: [4, 4, 16], PF_BC6H: [4, 4, 16], PF_BC7: [4, 4, 16],
  PF_B8G8R8A8: [1, 1, 4], PF_G8: [1, 1, 1], PF_G16: [1, 1, 2], PF_R16F: [1, 1, 2], PF_FloatRGBA: [1, 1, 8],
  PF_ASTC_4x4: [4, 4, 16], PF_ASTC_6x6: [6, 6, 16], PF_ASTC_8x8: [8, 8, 16], PF_ASTC_10x10: [10, 10, 16], PF_ASTC_12x12: [12, 12, 16],
  PF_ETC2_RGB: [4, 4, 8], PF_ETC2_RGBA: [4, 4, 16], PF_ETC2_R11_EAC: [4, 4, 8], PF_ETC2_RG11_EAC: [4, 4, 16],
};

export function formatBytes(format: string, w: number, h: number): number {
  const b = BLOCK[format];
  if (!b) throw new Error(`test table lacks ${format}`);
  return Math.ceil(w / b[0]) * Math.ceil(h / b[1]) * b[2];
}

/** The facts and every mip's size and bytes, read through readMip. */
export async function expectTexture(t: Texture, e: Expected): Promise<void> {
  expect({ class: t.class, pixelFormat: t.pixelFormat, width: t.width, height: t.height, depth: t.depth, slices: t.slices, cube: t.cube, virtual: t.virtual })
    .toEqual({ class: e.class, pixelFormat: e.pixelFormat, width: e.width, height: e.height, depth: e.depth ?? 1, slices: e.slices ?? 1, cube: e.cube ?? false, virtual: e.virtual ?? false });
  expect(t.mips).toHaveLength(e.mips);
  for (let i = 0; i < e.mips; i++) {
    const w = Math.max(1, e.width >> i), h = Math.max(1, e.height >> i);
    const depth = e.depth ?? 1;
    const want = formatBytes(e.pixelFormat, w, h) * (e.slices ?? 1);
    expect(t.mips[i]).toMatchObject({ width: w, height: h, depth, bytes: want });
    expect(t.mips[i]!.missing).toBeUndefined();
    expect((await t.readMip(i)).length).toBe(want);
  }
}

/** The generated slice pattern of T_Cube, T_Array, T_Volume and T_CubeArray (FixtureTextureDecodeTests.MakeFixtureColor), as B, G, R, A bytes. */
export function fixtureSlice(w: number, h: number, slice: number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      out[o + 2] = (x * 17 + slice * 41) & 0xff;
      out[o + 1] = (y * 29 + slice * 67) & 0xff;
      out[o] = ((x + y) * 11 + slice * 97) & 0xff;
      out[o + 3] = 255 - ((x * 3 + y * 5 + slice * 7) & 0x7f);
    }
  }
  return out;
}
