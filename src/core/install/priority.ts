/**
 * Which container wins when several hold the same path: the engine's pak mount order
 * (FPakPlatformFile::Mount in IPlatformFilePak.cpp; CUE4Parse's VfsReader.ReadOrder and
 * FileProviderDictionary follow it, and IoStore containers mount with their .pak's order):
 *
 * - Every container starts at the same order. (The engine adds 0-4 by folder: Content/Paks/Proj-*
 *   above Content, Engine/Content, Saved; CUE4Parse treats it as one constant, and so do we.)
 * - A patch container, whose name ends in "_P" (X_P.pak, X_P.utoc, optional segment X_P.o.utoc),
 *   adds 100 * chunk version. The chunk version is N for "..._N_P" when N >= 1, plus one so the
 *   first numbered patch still outranks an unnumbered one; otherwise (X_P, X_0_P) it is 1.
 *   So base < X_P = X_0_P < X_1_P < X_2_P ...
 * - The higher order wins. At equal order the engine mounts the files it found in descending
 *   path order and keeps that order (a stable sort by read order), so the path that sorts last
 *   wins the tie.
 */
import { basename } from 'node:path';
import type { Archive } from '../archive.js';

/** The engine's read order of a container, from its file path or name. */
export function readOrder(containerPath: string): number {
  const name = containerBaseName(containerPath);
  if (!/_p$/i.test(name)) return 0;
  // The version sits between the last two underscores: "pakchunk0-Windows_2_P" -> "2".
  const parts = name.split('_');
  const version = parts.length >= 3 ? parts[parts.length - 2]! : '';
  const n = /^\d+$/.test(version) ? Number(version) : 0;
  const chunkVersion = n >= 1 ? n + 1 : 1;
  return 100 * chunkVersion;
}

/** "dir/pakchunk0-Windows_P.o.utoc" -> "pakchunk0-Windows_P". */
function containerBaseName(p: string): string {
  return basename(p.replace(/\\/g, '/')).replace(/\.(utoc|ucas|pak)$/i, '').replace(/\.o$/i, '');
}

/** Sort comparator: the winning container first. */
export function compareByPriority(a: Pick<Archive, 'path'>, b: Pick<Archive, 'path'>): number {
  const order = readOrder(b.path) - readOrder(a.path);
  if (order !== 0) return order;
  return a.path < b.path ? 1 : a.path > b.path ? -1 : 0;
}
