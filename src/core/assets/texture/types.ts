/**
 * A texture as the readers find it and the decoders and converters use it: plain facts plus a way
 * to fetch each mip's stored bytes. Readers (cooked UTexture*, editor FTextureSource, UE1/2
 * textures) produce it; decode/ turns a mip's bytes into pixels; the converters write PNG, DDS
 * and HDR from it. Nothing here knows where the bytes come from.
 */

/** One stored mip: every slice of it (cube faces, array layers, volume depth) back to back. */
export interface TextureMip {
  width: number;
  height: number;
  /** Depth of a volume mip; 1 otherwise. */
  depth: number;
  /** Stored bytes of this mip (all slices); 0 when the data is not in the install. */
  bytes: number;
  /** Where the bytes are: "inline", "end of file", ".ubulk", ".m.ubulk", ".uptnl", "source", ... */
  location: string;
  /** Set when the mip's bytes cannot be had (an optional .uptnl that is absent): why. */
  missing?: string;
}

/** The facts the app shows beside the image and `pakscope texture --json` prints. */
export interface TextureInfo {
  /** Export class: "Texture2D", "TextureCube", "Texture2DArray", "VolumeTexture", ... */
  class: string;
  /** Export name in its package. */
  name: string;
  /** The engine's EPixelFormat name: "PF_DXT1", "PF_B8G8R8A8", "PF_ASTC_6x6". */
  pixelFormat: string;
  width: number;
  height: number;
  /** Volume depth (1 otherwise). */
  depth: number;
  /** 2D images per mip: 6 for a cube, 6xN for a cube array, layers of an array, depth of a volume, 1 otherwise. */
  slices: number;
  cube: boolean;
  virtual: boolean;
  srgb: boolean;
  /** Every stored mip, largest first (a virtual texture or UDIM set: one per virtual texture level, each the whole reassembled image). */
  mips: TextureMip[];
  /** Property values shown as facts where present: "TC_Normalmap", "TEXTUREGROUP_World", ... */
  compressionSettings?: string;
  lodGroup?: string;
  /** Anything the reader wants the user to know (first mips missing, tiles absent...). */
  notes: string[];
}

/** A texture whose mips can be read. */
export interface Texture extends TextureInfo {
  /** Stored bytes of mip `index` (all its slices), as the pixel decoders take them. Throws FormatError. */
  readMip(index: number, signal?: AbortSignal): Promise<Uint8Array>;
}

/** Decoded pixels of one 2D image (one slice of one mip). */
export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, as stored (no sRGB conversion): what a PNG holds. */
  rgba: Uint8Array;
  /** HDR formats only: RGBA floats, the values as stored (for .hdr and exposure). */
  float?: Float32Array;
}
