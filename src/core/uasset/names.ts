import type { BinaryReader } from '../io/binary-reader.js';
import { displayName } from '../zen/name-batch.js';
import type { PackageLayout } from './layout.js';
import { UE4Version } from './versions.js';

/** FNameEntrySerialized: a name map entry. */
export interface NameEntry {
  name: string;
  /** Stored hashes (UE4 NAME_HASHES_SERIALIZED on): low 16 bits of the engine's case-insensitive and case-preserving CRCs. */
  nonCasePreservingHash: number | null;
  casePreservingHash: number | null;
  /** Where the entry starts. */
  offset: number;
}

export function nameMapHasHashes(layout: PackageLayout): boolean {
  return layout.ue4 >= UE4Version.NAME_HASHES_SERIALIZED;
}

/** Longest name the engine allows (NAME_SIZE). */
const MAX_NAME_CHARS = 1024;

/** Reads the name map; the caller has checked count and offset (seekTable) and seeked there. */
export function readNameMap(r: BinaryReader, count: number, layout: PackageLayout): NameEntry[] {
  const hashes = nameMapHasHashes(layout);
  const out: NameEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const offset = r.pos;
    const name = r.fstring(MAX_NAME_CHARS);
    let nonCasePreservingHash: number | null = null, casePreservingHash: number | null = null;
    if (hashes) { nonCasePreservingHash = r.u16(); casePreservingHash = r.u16(); }
    out[i] = { name, nonCasePreservingHash, casePreservingHash, offset };
  }
  return out;
}

/** Reads an FName (name index + number) and checks the index. */
export function readFName(r: BinaryReader, names: readonly NameEntry[]): string {
  return readFNameWith(r, names.length, (i) => names[i]?.name);
}

/** Reads an FName against a name map given as plain strings (a Zen package's, an asset reader's). */
export function readFNameOf(r: BinaryReader, names: readonly string[]): string {
  return readFNameWith(r, names.length, (i) => names[i]);
}

function readFNameWith(r: BinaryReader, count: number, nameAt: (index: number) => string | undefined): string {
  const at = r.pos;
  const index = r.i32();
  const number = r.i32();
  const base = nameAt(index);
  if (base === undefined) throw r.error(`name index ${index} is outside the name map (${count} names)`, at);
  if (number < 0) throw r.error(`name number ${number} is negative`, at + 4);
  return displayName(base, number);
}
