/**
 * FTexture2DMipMap as cooked: (UE4: bCooked) the mip's FByteBulkData, SizeX, SizeY and (4.20+)
 * SizeZ. UE5.3+ textures cooked without mip data (bSerializeMipData false) omit the bulk data.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import { type BulkDataRef, type BulkHeaderContext, readBulkData } from './bulk-data.js';
import type { CookedTextureLayout } from './layout.js';

export interface CookedMip {
  width: number;
  height: number;
  depth: number;
  /** Absent when the texture was cooked without mip data. */
  bulk?: BulkDataRef;
}

/** Mips bigger than this on a side are corrupt data (the engine's limit is 16384, virtual textures aside). */
const MAX_MIP_SIDE = 1 << 17;

export function readMip(r: BinaryReader, layout: CookedTextureLayout, bulkCtx: BulkHeaderContext, serializeMipData: boolean): CookedMip {
  if (!layout.ue5) r.bool32(); // bCooked: always true in cooked packages
  const bulk = serializeMipData ? readBulkData(r, bulkCtx) : undefined;
  const at = r.pos;
  const width = r.i32();
  const height = r.i32();
  const depth = layout.ue420 ? r.i32() : 1;
  for (const [n, v] of [['width', width], ['height', height], ['depth', depth]] as const) {
    if (v < 0 || v > MAX_MIP_SIDE) throw r.error(`mip ${n} ${v} is not a texture size`, at);
  }
  return { width, height, depth, ...(bulk ? { bulk } : {}) };
}
