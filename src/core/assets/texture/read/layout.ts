/**
 * Which fields a cooked texture's native data has, by engine release. The object versions in a
 * package do not always tell: 4.19 and 4.20 both save UE4 version 516 (4.20 added the mip's SizeZ
 * and 64-bit skip offsets), 4.21-4.23 share 517 (4.23 added virtual textures), 4.26 and 4.27 share
 * 522 (4.27 widened the virtual texture codec offsets), 5.2 and 5.3 share UE5 version 1009 (5.3
 * added bSerializeMipData). Where the versions leave a choice, every fitting layout is tried in
 * turn and the one that reads to the pixel format's skip offset wins (texture-serialize.ts).
 */
import { findClassicEngineRelease } from '../../../uasset/versions.js';

export interface CookedTextureLayout {
  /** "4.27", "5.3": the release the layout is that of, for notes. */
  label: string;
  /** UE5: 16 placeholder bytes before FTexturePlatformData, no per-mip bCooked, relative skip offsets, UE5 virtual texture fields. */
  ue5: boolean;
  /** UE5.3+: UTexture2D writes bSerializeMipData before its platform data. */
  serializeMipDataFlag: boolean;
  /** UE4.20+: the skip offset is 64-bit; the mip has SizeZ. */
  ue420: boolean;
  /** UE4.23+: FTexturePlatformData ends with bIsVirtual (and the virtual texture data). */
  virtualTextures: boolean;
  /** UE4.27+: virtual texture chunks store 32-bit codec payload offsets. */
  vtCodecOffset32: boolean;
}

function layoutOf(major: number, minor: number): CookedTextureLayout {
  const v = major * 100 + minor;
  return {
    label: `${major}.${minor}`,
    ue5: v >= 500,
    serializeMipDataFlag: v >= 503,
    ue420: v >= 420,
    virtualTextures: v >= 423,
    vtCodecOffset32: v >= 427,
  };
}

/** The releases (newest first) whose layout may be that of a package with these versions. */
export function candidateLayouts(ue4: number, ue5: number, engine?: string): CookedTextureLayout[] {
  if (engine !== undefined) {
    const rel = findClassicEngineRelease(engine);
    if (rel) {
      const [a, b] = rel.engine.split('.').map(Number);
      return [layoutOf(a!, b!)];
    }
  }
  const pairs: [number, number][] = [];
  if (ue5 >= 1000) {
    if (ue5 > 1009) pairs.push([5, 4]);
    else if (ue5 === 1009) pairs.push([5, 3], [5, 2]);
    else pairs.push([5, 0]);
  } else if (ue4 >= 522) pairs.push([4, 27], [4, 26]);
  else if (ue4 >= 518) pairs.push([4, 25]);
  else if (ue4 === 517) pairs.push([4, 23], [4, 21]);
  else if (ue4 === 516) pairs.push([4, 20], [4, 19]);
  else pairs.push([4, 18]);
  return pairs.map(([a, b]) => layoutOf(a, b));
}
