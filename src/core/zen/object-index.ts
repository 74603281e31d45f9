import type { BinaryReader } from '../io/binary-reader.js';
import { displayName } from './name-batch.js';
import { cityHash64Words, hexWords, lowerUtf16leBytes } from '../hash/cityhash64.js';

/**
 * FPackageObjectIndex decoded: the top two bits say what it points at.
 * - export: an export of this package (low 32 bits);
 * - script: a /Script object, by the 62-bit hash of its path (global ScriptObjects resolve it);
 * - package (UE5): imported package index (bits 32-61) and index into the imported public export hashes (low 32 bits);
 * - globalImport (UE4.26/27): a package import named by the 62-bit hash of the object's path;
 * - null: all bits set.
 * `raw` keeps the stored 64 bits as 16 hex digits.
 */
export type ObjectRef =
  | { kind: 'null'; raw: string }
  | { kind: 'export'; raw: string; index: number }
  | { kind: 'script'; raw: string }
  | { kind: 'package'; raw: string; packageIndex: number; hashIndex: number }
  | { kind: 'globalImport'; raw: string };

/**
 * Reads one FPackageObjectIndex. `legacyPackageImports` (UE4.26/27): package imports are path
 * hashes, not (package, hash) pairs.
 */
export function readObjectRef(r: BinaryReader, legacyPackageImports: boolean): ObjectRef {
  const lo = r.u32();
  const hi = r.u32();
  const raw = hexWords(hi, lo);
  const type = hi >>> 30;
  if (type === 3) {
    if (lo === 0xffffffff && hi === 0xffffffff) return { kind: 'null', raw };
    throw r.error(`object index 0x${raw} has the null type but is not all ones`, r.pos - 8);
  }
  if (type === 0) {
    if (hi !== 0 || lo > 0x7fffffff) throw r.error(`export index 0x${raw} does not fit 31 bits`, r.pos - 8);
    return { kind: 'export', raw, index: lo };
  }
  if (type === 1) return { kind: 'script', raw };
  if (legacyPackageImports) return { kind: 'globalImport', raw };
  return { kind: 'package', raw, packageIndex: hi & 0x3fffffff, hashIndex: lo };
}

/** FMappedName: u32 index (30 bits) and type (2 bits), u32 number. */
export interface MappedName {
  index: number;
  /** 0 package, 1 container, 2 global. */
  type: number;
  number: number;
}

export const MappedNameType = { Package: 0, Container: 1, Global: 2 } as const;

/** A u64 read as two words, as 16 hex digits (ids, hashes: no BigInt needed). */
export function readHex64(r: BinaryReader): string {
  const lo = r.u32();
  return hexWords(r.u32(), lo);
}

export function readMappedName(r: BinaryReader): MappedName {
  const indexAndType = r.u32();
  const number = r.u32();
  return { index: indexAndType & 0x3fffffff, type: indexAndType >>> 30, number };
}

/** The name an FMappedName stands for in `names`, with its number printed as the engine does. */
export function mappedNameText(r: BinaryReader, m: MappedName, names: readonly string[], what: string, at: number, expectedType: number): string {
  if (m.type !== expectedType) {
    throw r.error(`${what} is a ${['package', 'container', 'global', 'invalid'][m.type]} name where a ${['package', 'container', 'global'][expectedType]} name belongs`, at);
  }
  if (m.index >= names.length) throw r.error(`${what} name index ${m.index} is outside the ${names.length} names`, at);
  return displayName(names[m.index]!, m.number);
}

/**
 * FPackageObjectIndex::GenerateImportHashFromObjectPath with the type in the top two bits: the
 * path lowercased with '.' and ':' as '/', CityHash64 of its UTF-16LE, the top two bits replaced.
 */
function importIndex(objectPath: string, type: number): string {
  const [h, l] = cityHash64Words(lowerUtf16leBytes(objectPath.replace(/[.:]/g, '/')));
  return hexWords(((h & 0x3fffffff) | (type << 30)) >>> 0, l);
}

/** The raw index a package imports a script object by: FPackageObjectIndex::FromScriptPath("/Script/Engine.StaticMesh"). */
export function scriptImportIndex(objectPath: string): string {
  return importIndex(objectPath, 1);
}

/** UE4.26/27: the global import index of a package's public export, FPackageObjectIndex::FromPackagePath. */
export function legacyPackageImportIndex(objectPath: string): string {
  return importIndex(objectPath, 2);
}
