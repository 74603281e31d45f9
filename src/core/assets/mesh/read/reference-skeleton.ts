/**
 * FReferenceSkeleton as USkeleton and USkeletalMesh serialize it: TArray<FMeshBoneInfo> (the
 * bone's FName and parent index; no export name in cooked data), TArray<FTransform> (the bind
 * pose relative to the parent: rotation quaternion, translation, scale; doubles from UE5), and the
 * name -> index map. Parents must come before their children, which also rules out a cycle.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import { readFNameOf } from '../../../uasset/names.js';
import type { MeshBone, MeshTransform } from '../types.js';
import { Release } from './versions.js';

/** Bones a skeleton may have before the count is corrupt data (the engine indexes them with 16 bits). */
const MAX_BONES = 65536;

export function readTransform(r: BinaryReader, release: number): MeshTransform {
  const f = release >= Release.LargeWorldCoordinates ? () => r.f64() : () => r.f32();
  const rotation: [number, number, number, number] = [f(), f(), f(), f()];
  const translation: [number, number, number] = [f(), f(), f()];
  const scale: [number, number, number] = [f(), f(), f()];
  return { translation, rotation, scale };
}

export function readReferenceSkeleton(r: BinaryReader, names: readonly string[], release: number): MeshBone[] {
  const what = r.structure;
  r.struct(`${what}: reference skeleton`);
  const countAt = r.pos;
  const count = r.count(12, 'bones');
  if (count > MAX_BONES) throw r.error(`${count} bones (at most ${MAX_BONES})`, countAt);
  const info: { name: string; parent: number }[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const name = readFNameOf(r, names);
    const parent = r.i32();
    if (i === 0 ? parent !== -1 : parent < 0 || parent >= i) {
      throw r.error(i === 0
        ? `the root bone "${name}" has parent ${parent}, not -1`
        : `bone ${i} "${name}" has parent ${parent}: a parent must be an earlier bone (a later one could make a cycle)`, at);
    }
    info.push({ name, parent });
  }
  const poseAt = r.pos;
  const poses = r.count(40, 'bind pose transforms');
  if (poses !== count) throw r.error(`${poses} bind pose transforms for ${count} bones`, poseAt);
  const bones: MeshBone[] = info.map((b) => ({ ...b, local: readTransform(r, release) }));
  const mapAt = r.pos;
  const mapped = r.count(12, 'bone name map');
  if (mapped !== count) throw r.error(`the bone name map has ${mapped} entries for ${count} bones`, mapAt);
  for (let i = 0; i < mapped; i++) {
    const at = r.pos;
    const name = readFNameOf(r, names);
    const index = r.i32();
    if (bones[index]?.name !== name) throw r.error(`the bone name map says "${name}" is bone ${index}`, at);
  }
  r.struct(what);
  return bones;
}
