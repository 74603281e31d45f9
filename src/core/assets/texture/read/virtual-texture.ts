/**
 * FVirtualTextureBuiltData (UE4.23+, with UE5's per-mip tile offset tables) and the reassembly of
 * a virtual texture's tiles into one image per mip level.
 *
 * The texture is cut into square tiles of TileSize pixels, each stored with a TileBorderSize
 * border of pixels copied from its neighbours (so a physical tile is TileSize + 2 x border
 * pixels on a side), in the layer's pixel format, grouped into chunks (each one FByteBulkData,
 * in the .ubulk). A tile's place is its Morton code (x bits and y bits interleaved) inside its
 * mip level. Reassembly cuts each tile's border away and keeps its inner TileSize x TileSize
 * pixels: block-compressed tiles are cut at block boundaries, which the engine's borders (a
 * multiple of 4 for block formats) allow; a border that is not a multiple of the block size is
 * reported instead of guessed at. The result is the level's stored blocks, in the layer's format,
 * as a plain mip would hold them.
 *
 * UDIM: a UDIM set is one virtual texture of WidthInBlocks x HeightInBlocks blocks, each block a
 * source tile; block (u, v) of tile 1001 + u + 10v sits at column u, row v counted from the top,
 * so 1001 is top left, 1002 top right, 1011 bottom left. Reassembling the tiles therefore lays
 * the blocks out as the editor does, and the image is Width x Height pixels.
 */
import { FormatError } from '../../../errors.js';
import type { BinaryReader } from '../../../io/binary-reader.js';
import { type BulkDataRef, type BulkFiles, type BulkHeaderContext, readBulkData, readBulkPayload } from './bulk-data.js';
import { pixelFormatInfo } from '../decode/index.js';
import type { CookedTextureLayout } from './layout.js';

interface TileOffsetData {
  width: number;
  height: number;
  maxAddress: number;
  addresses: number[];
  offsets: number[];
}

export interface VirtualTextureChunk {
  sizeInBytes: number;
  codecPayloadSize: number;
  codecs: number[];
  codecPayloadOffsets: number[];
  bulk: BulkDataRef;
}

export interface VirtualTextureData {
  numLayers: number;
  widthInBlocks: number;
  heightInBlocks: number;
  tileSize: number;
  tileBorderSize: number;
  numMips: number;
  width: number;
  height: number;
  tileDataOffsetPerLayer: number[];
  chunkIndexPerMip: number[];
  baseOffsetPerMip: number[];
  tileOffsetData: TileOffsetData[];
  tileIndexPerChunk: number[];
  tileIndexPerMip: number[];
  tileOffsetInChunk: number[];
  layerTypes: string[];
  chunks: VirtualTextureChunk[];
}

/** EVirtualTextureCodec */
const CODEC_NAMES = ['Black', 'OpaqueBlack', 'White', 'Flat', 'RawGPU', 'ZippedGPU', 'Crunch'];
const RAW_GPU = 4;
const MAX_LAYERS = 8;

function u32Array(r: BinaryReader, what: string): number[] {
  const n = r.count(4, what);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = r.u32();
  return out;
}

export function readVirtualTextureData(r: BinaryReader, layout: CookedTextureLayout, bulkCtx: BulkHeaderContext): VirtualTextureData {
  r.bool32(); // bCooked
  const layersAt = r.pos;
  const numLayers = r.u32();
  if (numLayers < 1 || numLayers > MAX_LAYERS) throw r.error(`virtual texture layer count ${numLayers} is not 1 to ${MAX_LAYERS}`, layersAt);
  const widthInBlocks = r.u32();
  const heightInBlocks = r.u32();
  const tileSize = r.u32();
  const tileBorderSize = r.u32();
  const tileDataOffsetPerLayer = layout.ue5 ? u32Array(r, 'tile data offsets per layer') : [];
  const numMips = r.u32();
  const width = r.u32();
  const height = r.u32();
  let chunkIndexPerMip: number[] = [], baseOffsetPerMip: number[] = [];
  const tileOffsetData: TileOffsetData[] = [];
  if (layout.ue5) {
    chunkIndexPerMip = u32Array(r, 'chunk index per mip');
    baseOffsetPerMip = u32Array(r, 'base offset per mip');
    const n = r.count(20, 'tile offset data');
    for (let i = 0; i < n; i++) {
      tileOffsetData.push({
        width: r.u32(), height: r.u32(), maxAddress: r.u32(),
        addresses: u32Array(r, 'tile addresses'), offsets: u32Array(r, 'tile offsets'),
      });
    }
  }
  const tileIndexPerChunk = u32Array(r, 'tile index per chunk');
  const tileIndexPerMip = u32Array(r, 'tile index per mip');
  const tileOffsetInChunk = u32Array(r, 'tile offset in chunk');
  const layerTypes: string[] = [];
  for (let i = 0; i < numLayers; i++) layerTypes.push(r.fstring(64));
  if (layout.ue5) r.skip(16 * numLayers); // LayerFallbackColors (FLinearColor each)
  const chunkCount = r.count(9, 'virtual texture chunks');
  const chunks: VirtualTextureChunk[] = [];
  for (let i = 0; i < chunkCount; i++) {
    if (layout.ue5) r.skip(20); // the chunk's SHA-1
    const sizeInBytes = r.u32();
    const codecPayloadSize = r.u32();
    const codecs: number[] = [], codecPayloadOffsets: number[] = [];
    for (let l = 0; l < numLayers; l++) {
      codecs.push(r.u8());
      codecPayloadOffsets.push(layout.vtCodecOffset32 ? r.u32() : r.u16());
    }
    chunks.push({ sizeInBytes, codecPayloadSize, codecs, codecPayloadOffsets, bulk: readBulkData(r, bulkCtx) });
  }
  return {
    numLayers, widthInBlocks, heightInBlocks, tileSize, tileBorderSize, numMips, width, height, tileDataOffsetPerLayer,
    chunkIndexPerMip, baseOffsetPerMip, tileOffsetData, tileIndexPerChunk, tileIndexPerMip, tileOffsetInChunk, layerTypes, chunks,
  };
}

/** Every other bit of `v` (the x or y half of a Morton code) packed together. */
function compactBits(v: number): number {
  let x = v & 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  x = (x | (x >>> 8)) & 0x0000ffff;
  return x >>> 0;
}

function spreadBits(v: number): number {
  let x = v & 0x0000ffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

export const mortonCode = (x: number, y: number): number => (spreadBits(x) | (spreadBits(y) << 1)) >>> 0;
export const mortonX = (code: number): number => compactBits(code);

/** Where one tile's bytes of one layer are: chunk, offset in it and length; undefined when the tile holds no data. */
function tileLocation(vt: VirtualTextureData, level: number, address: number, layer: number): { chunk: number; offset: number; length: number } | undefined {
  const legacy = vt.tileOffsetInChunk.length > 0;
  if (legacy) {
    const tileIndex = vt.tileIndexPerMip[level]! + address * vt.numLayers;
    if (tileIndex >= (vt.tileIndexPerMip[level + 1] ?? 0)) return undefined;
    let chunk = vt.chunks.length - 1;
    for (let i = 0; i < vt.chunks.length - 1; i++) {
      if (tileIndex >= vt.tileIndexPerChunk[i]! && tileIndex < vt.tileIndexPerChunk[i + 1]!) { chunk = i; break; }
    }
    const offsetOf = (t: number): number => (t < (vt.tileIndexPerChunk[chunk + 1] ?? Infinity) ? vt.tileOffsetInChunk[t]! : vt.chunks[chunk]!.sizeInBytes);
    const start = offsetOf(tileIndex), next = offsetOf(tileIndex + vt.numLayers);
    if (start === next) return undefined;
    const offset = offsetOf(tileIndex + layer);
    return { chunk, offset, length: offsetOf(tileIndex + layer + 1) - offset };
  }
  const tod = vt.tileOffsetData[level];
  const base = vt.baseOffsetPerMip[level];
  const chunk = vt.chunkIndexPerMip[level];
  if (!tod || base === undefined || chunk === undefined || base === 0xffffffff) return undefined;
  // The block of addresses this one falls in: the last whose first address is <= it.
  let block = -1;
  for (let i = 0; i < tod.addresses.length; i++) {
    if (tod.addresses[i]! <= address) block = i;
    else break;
  }
  if (block < 0 || tod.offsets[block] === 0xffffffff) return undefined;
  const tileOffset = tod.offsets[block]! + (address - tod.addresses[block]!);
  const tileDataSize = vt.tileDataOffsetPerLayer[vt.tileDataOffsetPerLayer.length - 1] ?? 0;
  const layerStart = layer === 0 ? 0 : vt.tileDataOffsetPerLayer[layer - 1]!;
  const layerEnd = vt.tileDataOffsetPerLayer[layer]!;
  return { chunk, offset: base + tileOffset * tileDataSize + layerStart, length: layerEnd - layerStart };
}

/** Size of level `level` of a virtual texture. */
export const levelSize = (vt: VirtualTextureData, level: number): { width: number; height: number } =>
  ({ width: Math.max(1, vt.width >>> level), height: Math.max(1, vt.height >>> level) });

/**
 * Reassembles level `level` of layer 0 from its tiles: the stored blocks of the whole image in the
 * layer's format, rows of blocks top to bottom. Tiles with no data (a uniform codec, or none
 * stored) stay zero.
 */
export async function assembleVirtualLevel(vt: VirtualTextureData, level: number, files: BulkFiles, file: string, signal?: AbortSignal): Promise<Uint8Array> {
  const format = vt.layerTypes[0]!;
  const info = pixelFormatInfo(format);
  if (!info) throw new FormatError(file, 'virtual texture', 0, `unknown pixel format ${format}`);
  const block = { w: info.blockWidth, h: info.blockHeight, bytes: info.blockBytes };
  const { tileSize, tileBorderSize: border } = vt;
  if (tileSize % block.w !== 0 || tileSize % block.h !== 0 || border % block.w !== 0 || border % block.h !== 0) {
    throw new FormatError(file, 'virtual texture', 0, `tiles of ${tileSize} pixels with a ${border}-pixel border do not cut at ${format}'s ${block.w}x${block.h} blocks`);
  }
  const { width, height } = levelSize(vt, level);
  const blocksX = Math.ceil(width / block.w), blocksY = Math.ceil(height / block.h);
  const rowBytes = blocksX * block.bytes;
  const out = new Uint8Array(rowBytes * blocksY);
  const physBlocks = (tileSize + 2 * border) / block.w;
  const physRowBytes = physBlocks * block.bytes;
  const tileBytes = physRowBytes * ((tileSize + 2 * border) / block.h);
  const tileBlocksX = tileSize / block.w, tileBlocksY = tileSize / block.h;
  const borderBlocksX = border / block.w, borderBlocksY = border / block.h;
  const tilesX = Math.ceil(width / tileSize), tilesY = Math.ceil(height / tileSize);
  const chunkData = new Map<number, Promise<Uint8Array>>();
  const chunkBytes = (i: number): Promise<Uint8Array> => {
    let p = chunkData.get(i);
    if (!p) {
      const c = vt.chunks[i];
      if (!c) throw new FormatError(file, 'virtual texture', 0, `tile data in chunk ${i} of ${vt.chunks.length}`);
      p = readBulkPayload(c.bulk, files, `virtual texture chunk ${i}`, signal);
      chunkData.set(i, p);
    }
    return p;
  };
  for (let ty = 0; ty < tilesY; ty++) {
    signal?.throwIfAborted();
    for (let tx = 0; tx < tilesX; tx++) {
      const loc = tileLocation(vt, level, mortonCode(tx, ty), 0);
      if (!loc) continue;
      const c = vt.chunks[loc.chunk];
      if (c && c.codecs[0] !== RAW_GPU) {
        throw new FormatError(file, `virtual texture chunk ${loc.chunk}`, 0, `tiles stored with the ${CODEC_NAMES[c.codecs[0]!] ?? c.codecs[0]} codec are not supported`);
      }
      const data = await chunkBytes(loc.chunk);
      if (loc.length < tileBytes || loc.offset + tileBytes > data.length) {
        throw new FormatError(file, `virtual texture chunk ${loc.chunk}`, loc.offset, `tile (${tx}, ${ty}) of level ${level} needs ${tileBytes} bytes at ${loc.offset}, the chunk has ${data.length} and the tile ${loc.length}`);
      }
      const copyX = Math.min(tileBlocksX, blocksX - tx * tileBlocksX);
      const copyY = Math.min(tileBlocksY, blocksY - ty * tileBlocksY);
      for (let by = 0; by < copyY; by++) {
        const src = loc.offset + (by + borderBlocksY) * physRowBytes + borderBlocksX * block.bytes;
        const dst = (ty * tileBlocksY + by) * rowBytes + tx * tileBlocksX * block.bytes;
        out.set(data.subarray(src, src + copyX * block.bytes), dst);
      }
    }
  }
  return out;
}
