// The cooked texture layouts of releases the corpus has no texture of (UE4.14-4.26 classic,
// UE5.0-5.3), built here field by field as those engines serialize UTexture2D (Texture2D.cpp,
// TextureDerivedData.cpp of each release), and the releases that share object versions told
// apart: 4.19/4.20 (UE4 516), 4.21/4.23 (517), 5.2/5.3 (UE5 1009).
import { describe, expect, it } from 'vitest';
import type { SourceExport, TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { readCookedTexture } from '../../../src/core/assets/texture/read/texture-serialize.js';
import { FormatError } from '../../../src/core/errors.js';
import { Bytes } from './bytes.js';

interface Release {
  ue5: boolean;
  /** 5.3+ */
  serializeMipData: boolean;
  /** 4.20+: 64-bit skip offset, mip SizeZ */
  ue420: boolean;
  /** 4.23+: bIsVirtual */
  vt: boolean;
}

const R = {
  '4.19': { ue5: false, serializeMipData: false, ue420: false, vt: false },
  '4.20': { ue5: false, serializeMipData: false, ue420: true, vt: false },
  '4.21': { ue5: false, serializeMipData: false, ue420: true, vt: false },
  '4.23': { ue5: false, serializeMipData: false, ue420: true, vt: true },
  '5.1': { ue5: true, serializeMipData: false, ue420: true, vt: true },
  '5.2': { ue5: true, serializeMipData: false, ue420: true, vt: true },
  '5.3': { ue5: true, serializeMipData: true, ue420: true, vt: true },
} satisfies Record<string, Release>;

const NAMES = ['None', 'PF_DXT1', 'PF_BC7'];
const STREAM_OFFSET = 1000;

/** One Texture2D export's native data: PF_DXT1 mips of 8x8 and 4x4 inline, then a second format (PF_BC7) to skip. */
function texture2D(rel: Release, cpuCopy = false): Uint8Array {
  const b = new Bytes();
  b.u32(0); // bHasGuid
  b.u8(1).u8(0); // UTexture strip flags: editor data stripped
  b.u8(1).u8(0); // UTexture2D strip flags
  b.u32(1); // bCooked
  if (rel.serializeMipData) b.u32(1);
  for (const format of [1, 2]) {
    b.name(format);
    const skipAt = b.length;
    if (rel.ue420) b.i64(0); else b.u32(0);
    const platformStart = b.length;
    if (rel.ue5) b.fill(16);
    b.u32(8).u32(8).u32(cpuCopy ? (1 | (1 << 29)) : 1).fstring(NAMES[format]!);
    // UE5.4+ FSharedImage (PackedData bit 29): SizeX, SizeY, SizeZ, raw format, gamma space (u8 each), i64 size, pixels.
    if (cpuCopy) b.u32(2).u32(2).u32(1).u8(1).u8(1).i64(16).fill(16, 0xcc);
    b.u32(0).u32(2); // FirstMipToSerialize, mip count
    for (const [w, bytes] of [[8, 32], [4, 8]] as const) {
      if (!rel.ue5) b.u32(1); // bCooked
      b.u32(0x40).u32(bytes).u32(bytes).i64(0).fill(bytes, w); // inline FByteBulkData
      b.u32(w).u32(w);
      if (rel.ue420) b.u32(1);
    }
    if (rel.vt) b.u32(0); // bIsVirtual
    const end = b.length;
    expect(end).toBeGreaterThan(platformStart);
    // The skip offset: UE5 relative to itself, UE4 absolute in the package stream.
    const value = rel.ue5 ? end - skipAt : STREAM_OFFSET + end;
    const patch = new Bytes();
    if (rel.ue420) patch.i64(value); else patch.u32(value);
    b.parts.splice(skipAt, patch.length, ...patch.parts);
  }
  b.name(0);
  return Uint8Array.from(b.parts);
}

function source(bytes: Uint8Array, ue4: number, ue5: number, engine?: string): { exp: SourceExport; src: TextureSource } {
  const exp: SourceExport = {
    index: 0, name: 'T', class: 'Texture2D', bytes, base: 0, file: 'T.uexp', streamOffset: STREAM_OFFSET,
    properties: { index: 0, name: 'T', class: 'Texture2D', properties: [], propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'tagged', error: null },
  };
  const src: TextureSource = {
    path: 'T.uasset', packageName: '/Game/T', names: NAMES, ue4, ue5, ...(engine ? { engine } : {}), exports: [exp],
    bulk: { largeOffsets: true, bulkDataStartOffset: 0 }, files: { separate: () => undefined }, warnings: [],
  };
  return { exp, src };
}

function read(rel: Release, ue4: number, ue5: number, engine?: string, cpuCopy = false): { label: string; mips: string[]; other: string[] } {
  const { exp, src } = source(texture2D(rel, cpuCopy), ue4, ue5, engine);
  const t = readCookedTexture(exp, src, '2d');
  return { label: t.layout.label, mips: t.platform!.mips.map((m) => `${m.width}x${m.height}x${m.depth}:${m.bulk!.sizeOnDisk}`), other: t.otherFormats };
}

describe('cooked texture layouts by release', () => {
  const MIPS = ['8x8x1:32', '4x4x1:8'];
  it.each([
    ['4.19', R['4.19'], 516, 0], ['4.20', R['4.20'], 516, 0], ['4.21', R['4.21'], 517, 0], ['4.23', R['4.23'], 517, 0],
    ['5.0', R['5.1'], 522, 1004], ['5.2', R['5.2'], 522, 1009], ['5.3', R['5.3'], 522, 1009],
  ] as const)('%s: read with its own layout, the second format skipped by its skip offset', (label, rel, ue4, ue5) => {
    expect(read(rel, ue4, ue5)).toEqual({ label, mips: MIPS, other: ['PF_BC7'] });
  });

  it('older releases (UE4 514, 4.18) read with the 4.19 layout: 32-bit skip offsets, no SizeZ, no virtual texture flag', () => {
    expect(read(R['4.19'], 514, 0)).toMatchObject({ label: '4.18', mips: MIPS });
  });

  it('5.4+: a CPU copy of the image (PackedData bit 29) is read past', () => {
    expect(read(R['5.3'], 522, 1012, undefined, true)).toEqual({ label: '5.4', mips: MIPS, other: ['PF_BC7'] });
  });

  it('the engine given decides where versions leave a choice, and a wrong one is an error, not a misread', () => {
    expect(read(R['5.2'], 522, 1009, '5.2').label).toBe('5.2');
    expect(() => read(R['5.2'], 522, 1009, '5.3')).toThrow(FormatError);
  });

  it('a cut-off stream is a FormatError naming the file and the offset', () => {
    const bytes = texture2D(R['5.3']).subarray(0, 60);
    const { exp, src } = source(bytes, 522, 1009);
    expect(() => readCookedTexture(exp, src, '2d')).toThrow(/T\.uexp: .* at byte \d+: /);
  });
});
