/**
 * The dependency nodes (FDependsNode) of an AssetRegistry.bin: i32 node count, then per node an
 * FAssetIdentifier (u8 field bits, then the FNames they name: package, primary asset type,
 * object, value) and its links as node indices.
 *
 * Before AddedDependencyFlags: i32 counts of hard, soft, name, soft-manage, (from AddedHardManage)
 * hard-manage and referencer links, then the i32 indices in that order.
 * From AddedDependencyFlags on, in a section whose i64 size comes first: i32-counted package
 * dependencies, their property bits (a fixed width per dependency, packed in u32 words, no count),
 * name dependencies, manage dependencies, their bits, referencers. The widths changed without a
 * version of their own (package properties 3 bits, later 5 holding up to three 3-bit sets; manage
 * properties 1 bit, 3 from the cook rule on); the section's stated size tells which was written.
 */
import type { RegistryArchive } from './archive.js';
import type { AssetIdentifier, DependsNode, PackageDependency } from './types.js';
import { AssetRegistryVersion as V } from './version.js';

/** Package property sets (Hard 1, Game 2, Build 4) of a 5-bit packed value 8..18: the engine's FPropertyCombinationPack3 table. */
const PACKED_SETS: Record<number, number[]> = {
  8: [1, 2], 9: [1, 4], 10: [1, 6], 11: [2, 4], 12: [2, 5], 13: [3, 4], 14: [3, 5], 15: [3, 6], 16: [5, 6], 17: [1, 2, 4], 18: [3, 5, 6],
};

interface Widths { pkg: 3 | 5; manage: 1 | 3 }

function identifier(ar: RegistryArchive): AssetIdentifier {
  const bits = ar.r.u8();
  const id: AssetIdentifier = {};
  if (bits & 1) id.packageName = ar.name();
  if (bits & 2) id.primaryAssetType = ar.name();
  if (bits & 4) id.objectName = ar.name();
  if (bits & 8) id.valueName = ar.name();
  return id;
}

/** The bits of `count` entries of `width` bits each, in u32 words. */
function flagBits(ar: RegistryArchive, count: number, width: number): (i: number) => number {
  const words = Math.ceil((count * width) / 32);
  const bytes = ar.r.bytesView(ar.r.need(words * 4));
  return (i) => {
    let v = 0;
    for (let b = 0; b < width; b++) {
      const bit = i * width + b;
      if (bytes[bit >> 3]! & (1 << (bit & 7))) v |= 1 << b;
    }
    return v;
  };
}

function indices(ar: RegistryArchive, n: number, nodes: number, what: string): number[] {
  const at = ar.r.pos;
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = ar.r.i32();
    if (v < 0 || v >= nodes) throw ar.r.error(`${what} ${i} names node ${v} of ${nodes}`, at + 4 * i);
    out[i] = v;
  }
  return out;
}

function nodeWithFlags(ar: RegistryArchive, nodes: number, w: Widths): DependsNode {
  const r = ar.r;
  const id = identifier(ar);
  const pkgs = indices(ar, r.count(4, 'package dependency count'), nodes, 'package dependency');
  const pkgBits = flagBits(ar, pkgs.length, w.pkg);
  const packages: PackageDependency[] = pkgs.map((node, i) => {
    const v = pkgBits(i);
    const properties = w.pkg === 3 || v < 8 ? [v] : PACKED_SETS[v];
    if (!properties) throw r.error(`package dependency ${i} has the property set ${v}, not one the engine packs`);
    return { node, properties };
  });
  const names = indices(ar, r.count(4, 'name dependency count'), nodes, 'name dependency');
  const manages = indices(ar, r.count(4, 'manage dependency count'), nodes, 'manage dependency');
  flagBits(ar, manages.length, w.manage);
  const referencers = indices(ar, r.count(4, 'referencer count'), nodes, 'referencer');
  return { id, packages, names, manages, referencers };
}

function nodeBeforeFlags(ar: RegistryArchive, nodes: number): DependsNode {
  const r = ar.r;
  const id = identifier(ar);
  const nHard = r.count(0, 'hard dependency count');
  const nSoft = r.count(0, 'soft dependency count');
  const nName = r.count(0, 'name dependency count');
  const nSoftManage = r.count(0, 'soft manage count');
  const nHardManage = ar.version >= V.AddedHardManage ? r.count(0, 'hard manage count') : 0;
  const nRef = r.count(0, 'referencer count');
  r.need(4 * (nHard + nSoft + nName + nSoftManage + nHardManage + nRef));
  const packages = [
    ...indices(ar, nHard, nodes, 'hard dependency').map((node) => ({ node, properties: [1] })),
    ...indices(ar, nSoft, nodes, 'soft dependency').map((node) => ({ node, properties: [0] })),
  ];
  const names = indices(ar, nName, nodes, 'name dependency');
  const manages = indices(ar, nSoftManage + nHardManage, nodes, 'manage dependency');
  const referencers = indices(ar, nRef, nodes, 'referencer');
  return { id, packages, names, manages, referencers };
}

/**
 * Reads the dependency nodes at the reader's position. From AddedDependencyFlags on a section
 * whose layout is not known is skipped by its size, with a warning, so the package data after
 * it still reads.
 */
export function readDependencies(ar: RegistryArchive, warnings: string[]): DependsNode[] {
  const r = ar.r;
  r.struct('asset registry dependencies');
  if (ar.version < V.AddedDependencyFlags) {
    const n = r.count(1, 'dependency node count');
    return Array.from({ length: n }, () => nodeBeforeFlags(ar, n));
  }
  const sizeAt = r.pos;
  const size = r.i64n('dependency section size');
  if (size < 0 || size > r.remaining) throw r.error(`the dependency section's size ${size} runs past the file (${r.remaining} bytes remain)`, sizeAt);
  const start = r.pos;
  const end = start + size;
  const guess: Widths = { pkg: 5, manage: ar.version >= V.ManageDependenciesCookRule ? 3 : 1 };
  const candidates: Widths[] = [guess, { pkg: 3, manage: guess.manage }, { pkg: guess.pkg, manage: guess.manage === 3 ? 1 : 3 }, { pkg: 3, manage: guess.manage === 3 ? 1 : 3 }];
  let firstError: unknown;
  for (const w of candidates) {
    r.seek(start);
    try {
      const n = r.count(1, 'dependency node count');
      const nodes = Array.from({ length: n }, () => nodeWithFlags(ar, n, w));
      if (r.pos === end) return nodes;
      firstError ??= r.error(`the dependency nodes end at byte ${r.base + r.pos}, not at the section's end (byte ${r.base + end})`);
    } catch (e) {
      if (!(e instanceof Error) || e.name !== 'FormatError') throw e;
      firstError ??= e;
    }
  }
  r.seek(end);
  warnings.push(`dependencies not read: ${(firstError as Error).message}`);
  return [];
}
