/**
 * The native data of a USkeleton, after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   FReferenceSkeleton (reference-skeleton.ts)
 *   AnimRetargetSources: TMap<FName, FReferencePose> (only an empty map is read past)
 *   Guid; before 5.8 the smart name mappings; 4.21+ FStripDataFlags (then marker names in editor data)
 *
 * Only the reference skeleton is used; what follows it is checked as far as the bone data needs.
 * The sockets (USkeletalMeshSocket exports) and virtual bones come from the properties.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import type { MeshBone } from '../types.js';
import { readReferenceSkeleton } from './reference-skeleton.js';

export function readSkeletonNative(exp: SourceExport, source: PackageSource, start: number, release: number): MeshBone[] {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const bones = readReferenceSkeleton(r, source.names, release);
  if (bones.length === 0) throw r.error('the skeleton has no bones');
  return bones;
}

export function readSkeletonAnyRelease(exp: SourceExport, source: PackageSource, start: number, releases: readonly number[]): MeshBone[] {
  let first: unknown;
  for (const release of releases) {
    try {
      return readSkeletonNative(exp, source, start, release);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  throw first;
}

const SCAN_LIMIT = 1 << 20;

/** The skeleton's bones when the property stream cannot be read: the first offset they read from. */
export function findSkeletonNative(exp: SourceExport, source: PackageSource, releases: readonly number[]): MeshBone[] | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 24 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1) continue;
    const s = p + (guid ? 20 : 4);
    // A bone count, then the root's name (index into the name map) and parent -1.
    if (s + 16 > b.length || v.getInt32(s, true) <= 0 || v.getUint32(s + 4, true) >= source.names.length || v.getInt32(s + 12, true) !== -1) continue;
    for (const release of releases) {
      try {
        return readSkeletonNative(exp, source, p, release);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
      }
    }
  }
  return undefined;
}
