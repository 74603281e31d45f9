// A UE4 (4.23-4.27) virtual texture, built field by field as FVirtualTextureBuiltData was then
// serialized (tile offsets per tile, no per-mip tables, 16-bit codec offsets before 4.27), read
// and reassembled: each tile's 2-pixel border cut away, tiles placed by their Morton address.
import { describe, expect, it } from 'vitest';
import type { BulkFiles } from '../../../src/core/assets/texture/read/bulk-data.js';
import type { SourceExport, TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { memoryPayload } from '../../../src/core/assets/texture/read/payload.js';
import { readCookedTexture } from '../../../src/core/assets/texture/read/texture-serialize.js';
import { assembleVirtualLevel } from '../../../src/core/assets/texture/read/virtual-texture.js';
import { Bytes } from './bytes.js';

const STREAM_OFFSET = 500;
const TILE = 4, BORDER = 2, PHYS = TILE + 2 * BORDER, TILE_BYTES = PHYS * PHYS * 4;
/** Pixel value of the level's image at (x, y): what the reassembled image must hold. */
const pixel = (level: number, x: number, y: number): number[] => [x * 16 + y, level, 7, 255];

/** Level 0 (8x8: 2x2 tiles, Morton addresses 0-3) and level 1 (4x4: one tile), tiles in address order. */
function chunkData(): Uint8Array {
  const out = new Bytes();
  for (const [level, tiles] of [[0, [[0, 0], [1, 0], [0, 1], [1, 1]]], [1, [[0, 0]]]] as const) {
    for (const [tx, ty] of tiles) {
      for (let py = 0; py < PHYS; py++) {
        for (let px = 0; px < PHYS; px++) {
          const inner = px >= BORDER && px < BORDER + TILE && py >= BORDER && py < BORDER + TILE;
          for (const v of inner ? pixel(level, tx * TILE + px - BORDER, ty * TILE + py - BORDER) : [0xee, 0xee, 0xee, 0xee]) out.u8(v);
        }
      }
    }
  }
  return Uint8Array.from(out.parts);
}

function native(codecOffset32: boolean): Uint8Array {
  const b = new Bytes();
  b.u32(0).u8(1).u8(0).u8(1).u8(0).u32(1); // bHasGuid, strip flags x2, bCooked
  b.name(1);
  const skipAt = b.length;
  b.i64(0);
  b.u32(8).u32(8).u32(1).fstring('PF_B8G8R8A8').u32(0).u32(0); // no plain mips
  b.u32(1); // bIsVirtual
  b.u32(1).u32(1).u32(1).u32(1).u32(TILE).u32(BORDER); // bCooked, layers, blocks, tile size, border
  b.u32(2).u32(8).u32(8); // NumMips, Width, Height
  const arr = (xs: number[]): void => { b.u32(xs.length); for (const x of xs) b.u32(x); };
  arr([0, 5]); // TileIndexPerChunk
  arr([0, 4, 5]); // TileIndexPerMip
  arr([0, 1, 2, 3, 4].map((i) => i * TILE_BYTES)); // TileOffsetInChunk
  b.fstring('PF_B8G8R8A8');
  b.u32(1).u32(5 * TILE_BYTES).u32(0).u8(4); // one chunk: size, codec payload size, RawGPU
  if (codecOffset32) b.u32(0); else b.u16(0);
  b.u32(0x10101).u32(5 * TILE_BYTES).u32(5 * TILE_BYTES).i64(0); // in the .ubulk, offset 0
  const end = b.length;
  const patch = new Bytes().i64(STREAM_OFFSET + end);
  b.parts.splice(skipAt, 8, ...patch.parts);
  b.name(0);
  return Uint8Array.from(b.parts);
}

function read(codecOffset32: boolean, ue4: number): Promise<Uint8Array[]> {
  const bytes = native(codecOffset32);
  const exp: SourceExport = {
    index: 0, name: 'T', class: 'Texture2D', bytes, base: 0, file: 'T.uexp', streamOffset: STREAM_OFFSET,
    properties: { index: 0, name: 'T', class: 'Texture2D', properties: [], propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'tagged', error: null },
  };
  const ubulk = memoryPayload('T.ubulk', chunkData());
  const files: BulkFiles = { inline: memoryPayload('T.uexp', bytes), separate: (loc) => (loc === '.ubulk' ? ubulk : undefined) };
  const src: TextureSource = {
    path: 'T.uasset', packageName: '/Game/T', names: ['None', 'PF_B8G8R8A8'], ue4, ue5: 0, exports: [exp],
    bulk: { largeOffsets: true, bulkDataStartOffset: 0 }, files, warnings: [],
  };
  const vt = readCookedTexture(exp, src, '2d').platform!.virtual!;
  expect([vt.width, vt.height, vt.tileSize, vt.tileBorderSize, vt.numMips, vt.layerTypes]).toEqual([8, 8, TILE, BORDER, 2, ['PF_B8G8R8A8']]);
  return Promise.all([0, 1].map((level) => assembleVirtualLevel(vt, level, files, 'T.uasset')));
}

const image = (level: number, size: number): Uint8Array => {
  const out: number[] = [];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out.push(...pixel(level, x, y));
  return Uint8Array.from(out);
};

describe('UE4 virtual textures (legacy tile tables)', () => {
  it('4.25 (16-bit codec offsets): both levels reassembled, borders cut away', async () => {
    const [l0, l1] = await read(false, 518);
    expect(l0).toEqual(image(0, 8));
    expect(l1).toEqual(image(1, 4));
  });

  it('4.27 (32-bit codec offsets) and 4.26 (16-bit, the same object versions): the same image', async () => {
    expect((await read(true, 522))[0]).toEqual(image(0, 8));
    expect((await read(false, 522))[0]).toEqual(image(0, 8));
  });
});
