/**
 * FTexturePlatformData as cooked:
 *
 *   UE5: 16 placeholder bytes (from 5.2 the first is bUsingDerivedData, never set in a cooked game)
 *   SizeX, SizeY: i32; PackedData: u32 (bit 31 cube map, bit 30 optional data, bit 29 a CPU copy
 *     (5.4+), the rest the slice count); PixelFormat: FString
 *   [bit 30] FOptTexturePlatformData: ExtData, NumMipsInTail (u32 each)
 *   [bit 29] FSharedImage: SizeX, SizeY, SizeZ, raw image format (u8), gamma space (u8), i64 size and the pixels
 *   FirstMipToSerialize: i32; mip count: i32; the mips (mip.ts)
 *   4.23+: bIsVirtual (bool32), then FVirtualTextureBuiltData when set
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import type { BulkHeaderContext } from './bulk-data.js';
import type { CookedTextureLayout } from './layout.js';
import { type CookedMip, readMip } from './mip.js';
import { readVirtualTextureData, type VirtualTextureData } from './virtual-texture.js';

export interface PlatformData {
  width: number;
  height: number;
  cube: boolean;
  /** 2D images per mip as PackedData says (6 for a cube, 6 x N for a cube array, array layers, 1 for a volume). */
  packedSlices: number;
  pixelFormat: string;
  firstMipToSerialize: number;
  mips: CookedMip[];
  virtual?: VirtualTextureData;
  /** A CPU copy of the top mip (UE5.4+ textures that keep one): its size. */
  cpuCopyBytes?: number;
}

const CUBE = 1 << 31;
const HAS_OPT_DATA = 1 << 30;
const HAS_CPU_COPY = 1 << 29;
const SLICES_MASK = HAS_CPU_COPY - 1;
/** A texture has at most 17 mips below 65536 pixels; more is corrupt data. */
const MAX_MIPS = 32;

export function readPlatformData(r: BinaryReader, layout: CookedTextureLayout, bulkCtx: BulkHeaderContext, serializeMipData: boolean): PlatformData {
  if (layout.ue5) {
    const at = r.pos;
    const usingDerivedData = r.u8();
    if (usingDerivedData !== 0) throw r.error('the platform data refers to derived data instead of holding its mips (an editor cache, not a cooked texture)', at);
    r.skip(15);
  }
  const sizeAt = r.pos;
  const width = r.i32();
  const height = r.i32();
  if (width < 0 || height < 0) throw r.error(`texture size ${width}x${height}`, sizeAt);
  const packed = r.u32();
  const formatAt = r.pos;
  const pixelFormat = r.fstring(64);
  if (!/^PF_\w+$/.test(pixelFormat)) throw r.error(`pixel format "${pixelFormat}" is not an EPixelFormat name`, formatAt);
  if ((packed & HAS_OPT_DATA) !== 0) r.skip(8);
  let cpuCopyBytes: number | undefined;
  if ((packed & HAS_CPU_COPY) !== 0) {
    r.skip(12 + 1 + 1); // SizeX, SizeY, SizeZ; the raw image format and gamma space (u8 each)
    const at = r.pos;
    cpuCopyBytes = r.i64n('CPU copy size');
    if (cpuCopyBytes < 0) throw r.error(`CPU copy size ${cpuCopyBytes}`, at);
    r.skip(cpuCopyBytes);
  }
  const firstMipToSerialize = r.i32();
  const countAt = r.pos;
  const mipCount = r.i32();
  if (mipCount < 0 || mipCount > MAX_MIPS) throw r.error(`mip count ${mipCount} is not 0 to ${MAX_MIPS}`, countAt);
  const mips: CookedMip[] = [];
  for (let i = 0; i < mipCount; i++) mips.push(readMip(r.struct(`mip ${i}`), layout, bulkCtx, serializeMipData));
  r.struct('texture platform data');
  let virtual: VirtualTextureData | undefined;
  if (layout.virtualTextures && r.bool32()) virtual = readVirtualTextureData(r.struct('virtual texture data'), layout, bulkCtx);
  return {
    width: mips[0]?.width ?? virtual?.width ?? width,
    height: mips[0]?.height ?? virtual?.height ?? height,
    cube: (packed & CUBE) !== 0,
    packedSlices: Math.max(1, packed & SLICES_MASK),
    pixelFormat, firstMipToSerialize, mips,
    ...(virtual ? { virtual } : {}),
    ...(cpuCopyBytes !== undefined ? { cpuCopyBytes } : {}),
  };
}
