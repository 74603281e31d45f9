/**
 * What a level's classes serialize after their property stream (UObject's bHasGuid and FGuid
 * first), as far as the level view needs it:
 * - UWorld: PersistentLevel, ExtraReferencedObjects, StreamingLevels (object references).
 * - ULevel: Actors (object references; null where an actor was deleted).
 * - UInstancedStaticMeshComponent and its subclasses: PerInstanceSMData (a bulk array of
 *   FMatrix, 64 bytes with floats, 128 with doubles) and PerInstanceSMCustomData (a bulk array
 *   of floats). A UE5 cook writes before them UActorComponent's UCSModifiedProperties (an
 *   array of 28-byte member references), UStaticMeshComponent's LODData (an array) and cooked
 *   mesh paint texture (a bool and, when set, an object reference), then the ISM's bCooked and
 *   bHasSkipSerializationPropertiesData bools. Older cooks leave some of those out; where that
 *   sequence does not lead to a valid instance array the bytes are searched for one (its
 *   element size, a count that fits and matrices whose last column is (0, 0, 0, 1)).
 * - UWorldPartition: bCooked and, when set, its StreamingPolicy (an object reference).
 * Every export also gets its object path, which the property stream does not carry.
 */
import { FormatError } from '../../errors.js';
import type { BinaryReader } from '../../io/binary-reader.js';
import type { NativeDataReader } from '../../properties/context.js';
import type { PropertyReader } from '../../properties/reader.js';

export interface NativeWorld {
  persistentLevel: string | null;
  streamingLevels: (string | null)[];
}

export interface NativeInstances {
  /** 16 numbers per instance, row-major. */
  matrices: number[][];
  customData: number[];
}

export interface NativeLevelObject {
  /** The export's object path. */
  path?: string;
  world?: NativeWorld;
  /** ULevel's Actors. */
  actors?: (string | null)[];
  instances?: NativeInstances;
  /** UWorldPartition's bCooked and, when cooked, its StreamingPolicy. */
  worldPartition?: { cooked: boolean; streamingPolicy: string | null };
  /** Why this class's native data did not read (its properties still did). */
  error?: string;
}

/** Does a class keep per-instance transforms (ISM, HISM, foliage ISM and other subclasses)? */
export const isInstancedMeshClass = (cls: string): boolean => /InstancedStaticMeshComponent$/.test(cls);

const MAX_REFS = 1 << 20;

function skipGuid(r: BinaryReader): void {
  if (r.remaining >= 4 && r.bool32()) r.skip(16);
}

function objectArray(pr: PropertyReader, r: BinaryReader, what: string): (string | null)[] {
  const n = r.count(4, what);
  if (n > MAX_REFS) throw r.error(`${what} ${n} is more than ${MAX_REFS}`);
  const out: (string | null)[] = [];
  for (let i = 0; i < n; i++) out.push(pr.object(r));
  return out;
}

function readWorld(pr: PropertyReader, r: BinaryReader): NativeWorld {
  skipGuid(r);
  const persistentLevel = pr.object(r);
  objectArray(pr, r, 'ExtraReferencedObjects count');
  const streamingLevels = r.remaining >= 4 ? objectArray(pr, r, 'StreamingLevels count') : [];
  return { persistentLevel, streamingLevels };
}

function readLevelActors(pr: PropertyReader, r: BinaryReader): (string | null)[] {
  skipGuid(r);
  return objectArray(pr, r, 'Actors count');
}

/** A bulk array of FMatrix at `at`, checked: undefined when the bytes there are not one. */
function matrixArrayAt(r: BinaryReader, at: number): { matrices: number[][]; end: number } | undefined {
  const bytes = r.remaining + r.pos;
  if (at + 8 > bytes) return undefined;
  const save = r.pos;
  try {
    r.seek(at);
    const size = r.i32();
    const count = r.i32();
    if ((size !== 64 && size !== 128) || count < 0 || count * size > r.remaining) return undefined;
    const matrices: number[][] = [];
    for (let i = 0; i < count; i++) {
      const m: number[] = [];
      for (let k = 0; k < 16; k++) m.push(size === 128 ? r.f64() : r.f32());
      const w = [m[3]!, m[7]!, m[11]!, m[15]!];
      if (Math.abs(w[0]!) > 1e-3 || Math.abs(w[1]!) > 1e-3 || Math.abs(w[2]!) > 1e-3 || Math.abs(w[3]! - 1) > 1e-3) return undefined;
      if (m.some((v) => !Number.isFinite(v))) return undefined;
      matrices.push(m);
    }
    return { matrices, end: r.pos };
  } finally {
    r.seek(save);
  }
}

/** PerInstanceSMCustomData at `at`: a bulk array of 4-byte floats; empty when absent. */
function customDataAt(r: BinaryReader, at: number): number[] {
  const save = r.pos;
  try {
    if (at + 8 > r.pos + r.remaining) return [];
    r.seek(at);
    const size = r.i32();
    const count = r.i32();
    if (size !== 4 || count < 0 || count * 4 > r.remaining) return [];
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push(r.f32());
    return out;
  } finally {
    r.seek(save);
  }
}

/** The UE5 sequence before PerInstanceSMData; the offset of its bulk array, or undefined where it does not fit. */
function ue5InstanceDataStart(r: BinaryReader): number | undefined {
  const save = r.pos;
  try {
    const ucsModified = r.count(28, 'UCSModifiedProperties count');
    r.skip(ucsModified * 28);
    if (r.i32() !== 0) return undefined; // LODData: per-LOD vertex colours and lightmaps; not walked
    if (r.bool32()) r.skip(4); // cooked mesh paint texture
    r.bool32(); // bCooked
    if (!r.bool32()) return undefined; // no instance data serialized
    return r.pos;
  } catch {
    return undefined;
  } finally {
    r.seek(save);
  }
}

function readInstances(r: BinaryReader): NativeInstances {
  skipGuid(r);
  const start = r.pos;
  const known = ue5InstanceDataStart(r);
  let found = known !== undefined ? matrixArrayAt(r, known) : undefined;
  for (let at = start; !found && at + 8 <= r.pos + r.remaining; at += 4) found = matrixArrayAt(r, at);
  if (!found) throw r.error('no per-instance transforms (PerInstanceSMData) found after the properties');
  return { matrices: found.matrices, customData: customDataAt(r, found.end) };
}

function readWorldPartition(pr: PropertyReader, r: BinaryReader): { cooked: boolean; streamingPolicy: string | null } {
  skipGuid(r);
  // UE5.1 and later (WorldPartitionSerializeStreamingPolicyOnCook); older packages end here.
  if (r.remaining < 4) return { cooked: false, streamingPolicy: null };
  const cooked = r.bool32();
  return { cooked, streamingPolicy: cooked ? pr.object(r) : null };
}

/** The level view's native reader: every export's path, and the classes above. */
export const levelNativeReader: NativeDataReader = (pr, r, exp) => {
  const out: NativeLevelObject = {};
  const path = exp.index !== undefined ? pr.ctx.objectPath(exp.index + 1) : undefined;
  if (path) out.path = path;
  try {
    if (exp.class === 'World') out.world = readWorld(pr, r);
    else if (exp.class === 'Level') out.actors = readLevelActors(pr, r);
    else if (isInstancedMeshClass(exp.class)) out.instances = readInstances(r);
    else if (exp.class === 'WorldPartition' && r.remaining > 0) out.worldPartition = readWorldPartition(pr, r);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    out.error = e.message;
  }
  return out;
};
