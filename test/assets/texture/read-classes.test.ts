// Texture classes the fixtures do not have: render targets and dynamic textures, which serialize
// only UTexture's part (no pixels), and picking an export by index.
import { describe, expect, it } from 'vitest';
import type { SourceExport, TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { textureOf } from '../../../src/core/assets/texture/read/read.js';
import { FormatError } from '../../../src/core/errors.js';
import type { PropertyEntry } from '../../../src/core/properties/types.js';
import { Bytes } from './bytes.js';

function source(cls: string, properties: PropertyEntry[], native: Uint8Array): TextureSource {
  const exp: SourceExport = {
    index: 0, name: 'RT', class: cls, bytes: native, base: 0, file: 'RT.uexp', streamOffset: 0,
    properties: { index: 0, name: 'RT', class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: native.length, encoding: 'tagged', error: null },
  };
  return {
    path: 'RT.uasset', packageName: '/Game/RT', names: ['None'], ue4: 522, ue5: 1018, exports: [exp],
    bulk: { largeOffsets: true, bulkDataStartOffset: 0 }, files: { separate: () => undefined }, warnings: [],
  };
}

// UObject's bHasGuid and UTexture's strip flags (editor data stripped): all a render target stores natively.
const UTEXTURE_ONLY = Uint8Array.from(new Bytes().u32(0).u8(1).u8(0).parts);

describe('texture classes without stored pixels', () => {
  it('a cooked TextureRenderTarget2D: its size and format from its properties, no mips, readMip a FormatError', async () => {
    const t = textureOf(source('TextureRenderTarget2D', [
      { name: 'SizeX', type: 'IntProperty', value: 256 }, { name: 'SizeY', type: 'IntProperty', value: 128 },
      { name: 'OverrideFormat', type: 'ByteProperty<EPixelFormat>', value: 'EPixelFormat::PF_FloatRGBA' },
    ], UTEXTURE_ONLY), {});
    expect([t.class, t.pixelFormat, t.width, t.height, t.mips.length]).toEqual(['TextureRenderTarget2D', 'PF_FloatRGBA', 256, 128, 0]);
    expect(t.notes.join(' ')).toMatch(/no stored pixels/);
    await expect(t.readMip(0)).rejects.toThrow(FormatError);
  });

  it('a Texture2DDynamic: no pixels either', () => {
    const t = textureOf(source('Texture2DDynamic', [], UTEXTURE_ONLY), {});
    expect([t.class, t.mips.length, t.cube]).toEqual(['Texture2DDynamic', 0, false]);
  });

  it('an uncooked texture (editor data not stripped) is a FormatError pointing to its source art', () => {
    const editor = Uint8Array.from(new Bytes().u32(0).u8(0).u8(0).parts);
    expect(() => textureOf(source('Texture2D', [], editor), {})).toThrow(/RT\.uexp: .* at byte 4: editor data is not stripped: an uncooked texture/);
  });

  it('exportIndex picks an export; one outside the map or of another class is a FormatError', () => {
    const src = source('TextureRenderTarget2D', [], UTEXTURE_ONLY);
    expect(textureOf(src, { exportIndex: 0 }).class).toBe('TextureRenderTarget2D');
    expect(() => textureOf(src, { exportIndex: 3 })).toThrow(/no export 3 \(the package has 1\)/);
    src.exports[0]!.class = 'StaticMesh';
    expect(() => textureOf(src, { exportIndex: 0 })).toThrow(/a StaticMesh, not a texture class/);
    expect(() => textureOf(src, {})).toThrow(/no texture export \(its exports are RT: StaticMesh\)/);
  });
});

describe('an unversioned texture without mappings whose data cannot be found', () => {
  it('4 MiB of zeros, the pixel format name being name 0: a FormatError asking for mappings, found quickly', () => {
    const src = source('Texture2D', [], new Uint8Array(4 << 20));
    src.names = ['PF_DXT1', 'None'];
    const exp = src.exports[0]!;
    exp.properties = { ...exp.properties, encoding: 'unversioned', notes: ['unversioned properties: a mappings file (.usmap) for this game is needed to read them'] };
    expect(() => textureOf(src, {})).toThrow(/the texture data was not found without the game's mappings \(\.usmap\); pass them/);
  });
});
