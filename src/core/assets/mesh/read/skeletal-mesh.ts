/**
 * The native data of a cooked USkeletalMesh (UE4.14 on), after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   FStripDataFlags; ImportedBounds (FBoxSphereBounds); TArray<FSkeletalMaterial> (the material,
 *     the slot name, [4.22+ bSerializeImportedMaterialSlotName and that name], UV channel data,
 *     [5.6+ the overlay material]); FReferenceSkeleton (reference-skeleton.ts)
 *   Before 4.19: TArray<FStaticLODModel> (skeletal-legacy.ts).
 *   4.19 on: bCooked (bool32), then TArray of FSkeletalMeshLODRenderData: before 4.24 in one piece
 *     (skeletal-legacy.ts); from 4.24 (the "new cooked format"): FStripDataFlags; bIsLODCookedOut,
 *     bInlined (bool32); RequiredBones; the render sections (FSkelMeshSection); ActiveBoneIndices;
 *     the buffers' size; then the buffers (skeletal-buffers.ts) inline, or in an FByteBulkData
 *     (always from 5.8) followed by the buffers' metadata.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { readFNameOf } from '../../../uasset/names.js';
import { type BulkDataRef, readBulkData } from '../../texture/read/bulk-data.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import type { MeshBone } from '../types.js';
import { avStripped, editorStripped, readBoxSphereBounds, readStripFlags, skipArray } from './buffers.js';
import { readReferenceSkeleton } from './reference-skeleton.js';
import { readRenderSection, readSkeletalBuffers, type SkeletalLod, type SkeletalSection } from './skeletal-buffers.js';
import { readLegacyRenderLod, readStaticLodModel } from './skeletal-legacy.js';
import { Release } from './versions.js';

export interface SkeletalLodRaw {
  sections: SkeletalSection[];
  /** The LOD read inline, or where a streamed LOD's buffers are; undefined: cooked out or stripped. */
  data?: SkeletalLod | { bulk: BulkDataRef };
}

export interface SkeletalMeshNative {
  release: number;
  bones: MeshBone[];
  /** Slot names of the native FSkeletalMaterial array, with the material's package index. */
  slots: { name: string; material: number }[];
  lods: SkeletalLodRaw[];
  bounds: { origin: [number, number, number]; extent: [number, number, number]; radius: number };
}

const MAX_LODS = 16;
const MAX_SECTIONS = 1 << 16;

function readLod(r: BinaryReader, source: PackageSource, release: number, hasColors: boolean, index: number): SkeletalLodRaw {
  r.struct(`skeletal mesh LOD ${index}`);
  const strip = readStripFlags(r);
  const cookedOut = r.bool32();
  const inlined = r.bool32();
  skipArray(r, 2, 'required bones');
  if (avStripped(strip) || cookedOut) return { sections: [] };
  const sectionCount = r.count(20, 'render sections');
  if (sectionCount > MAX_SECTIONS) throw r.error(`${sectionCount} render sections`, r.pos - 4);
  const sections = Array.from({ length: sectionCount }, () => readRenderSection(r, release));
  skipArray(r, 2, 'active bone indices');
  r.u32(); // the buffers' size
  const metadata = (): void => {
    // What the buffers' headers hold, kept beside a streamed payload.
    let n = 5 + (release < Release.NoAdjacency && (strip.klass & 1) === 0 ? 5 : 0) + 16 + 8 + 8;
    n += release < Release.UnlimitedBoneInfluences ? 12 : 16 + 4 + (release >= Release.SkinWeight16 ? 4 : 0) + 4;
    r.skip(n);
    if (sections.some((s) => s.cloth)) {
      // The cloth buffer's: its index mapping (u64 each), two u32, [5.0+ a LOD bias per mapping].
      const mappings = skipArray(r, 8, 'cloth index mapping');
      r.skip(8 + (release >= Release.SkeletalUE5 ? 4 * mappings : 0));
    }
    const profiles = r.count(8, 'skin weight profile names');
    r.skip(profiles * 8);
    if (release >= Release.SourceMeshBounds) r.skip(24);
  };
  if (release >= Release.SkeletalBulkAlways || !inlined) {
    const bulk = readBulkData(r, source.bulk);
    if (bulk.elementCount === 0) return { sections };
    metadata();
    return { sections, data: { bulk } };
  }
  return { sections, data: readSkeletalBuffers(r, release, hasColors, sections, index, (x) => readFNameOf(x, source.names)) };
}

export function readSkeletalMeshNative(exp: SourceExport, source: PackageSource, start: number, release: number, hasColors: boolean): SkeletalMeshNative {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const stripAt = r.pos;
  const strip = readStripFlags(r);
  const bounds = readBoxSphereBounds(r, release);
  const slotCount = r.count(12, 'materials');
  const slots: SkeletalMeshNative['slots'] = [];
  for (let i = 0; i < slotCount; i++) {
    const material = r.i32();
    const name = readFNameOf(r, source.names);
    if (release >= Release.SkeletalMaterialStripping && r.bool32()) readFNameOf(r, source.names);
    r.bool32(); // UV channel data: bInitialized
    r.bool32(); // bOverrideDensities
    r.skip(16); // LocalUVDensities
    if (release >= Release.SkeletalOverlayMaterial) r.i32();
    slots.push({ name, material });
  }
  const bones = readReferenceSkeleton(r, source.names, release);
  if (!editorStripped(strip)) throw r.error('an uncooked skeletal mesh: its geometry is editor source data, which PakScope does not read', stripAt);
  const lods: SkeletalLodRaw[] = [];
  const lodCount = (): number => {
    const at = r.pos;
    const n = r.count(8, 'LODs');
    if (n > MAX_LODS) throw r.error(`${n} LODs (at most ${MAX_LODS})`, at);
    return n;
  };
  if (release < Release.SplitSkeletalRenderData) {
    for (let i = 0, n = lodCount(); i < n; i++) lods.push(readStaticLodModel(r, release, hasColors, i));
    checkBoneMaps(r, lods, bones.length);
    return { release, bones, slots, lods, bounds };
  }
  const cookedAt = r.pos;
  if (!r.bool32()) throw r.error('the skeletal mesh says it is not cooked', cookedAt);
  const names = (x: BinaryReader): string => readFNameOf(x, source.names);
  for (let i = 0, n = lodCount(); i < n; i++) {
    lods.push(release < Release.NewCookedSkeletalLod ? readLegacyRenderLod(r, release, hasColors, i, names) : readLod(r, source, release, hasColors, i));
  }
  checkBoneMaps(r, lods, bones.length);
  return { release, bones, slots, lods, bounds };
}

/** Every section's bone map names a bone of the skeleton (the skin's joints come from them). */
function checkBoneMaps(r: BinaryReader, lods: readonly SkeletalLodRaw[], bones: number): void {
  for (const [l, lod] of lods.entries()) {
    for (const [i, s] of lod.sections.entries()) {
      const bad = s.boneMap.findIndex((b) => b >= bones);
      if (bad >= 0) throw r.error(`LOD ${l} section ${i}: its bone map names bone ${s.boneMap[bad]} of the ${bones} bones`);
    }
  }
}

/** Each candidate release, and (without properties) with and without vertex colours, in turn. */
export function readSkeletalMeshAny(exp: SourceExport, source: PackageSource, start: number, releases: readonly number[], colors: readonly boolean[]): SkeletalMeshNative & { hasColors: boolean } {
  let first: unknown;
  for (const release of releases) {
    for (const hasColors of colors) {
      try {
        return { ...readSkeletalMeshNative(exp, source, start, release, hasColors), hasColors };
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        first ??= e;
      }
    }
  }
  throw first;
}

const SCAN_LIMIT = 1 << 20;

/** The native data when the property stream cannot be read: the first offset that reads. */
export function findSkeletalMeshNative(exp: SourceExport, source: PackageSource, releases: readonly number[]): (SkeletalMeshNative & { hasColors: boolean }) | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 12 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1) continue;
    const s = p + (guid ? 20 : 4);
    if (s + 2 > b.length || (b[s]! & 1) === 0) continue;
    try {
      // Property bytes can pass for an empty mesh: the data sought has bones and LODs.
      const found = readSkeletalMeshAny(exp, source, p, releases, [true, false]);
      if (found.bones.length > 0 && found.lods.length > 0) return found;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return undefined;
}
