/**
 * A World Partition map with its cells' actors: each cell's generated package read as a level of
 * its own and its actors merged into the map's, marked with their cell. A cell package is read once however many cells name it, the map's own package never,
 * and a cell package's own cells are not followed: cells naming cells cannot loop.
 */
import type { InstallPackages } from '../../package/open-package.js';
import { countLevel, readLevel, type LevelReadOptions } from './read.js';
import type { LevelAsset } from './types.js';

/** More cells than this are merged only so far (a note says so): the view stays usable. */
export const MAX_MERGED_CELLS = 4096;

/**
 * The map at `ref` with every cell's actors merged in (LevelAsset.mergedCells lists the cell
 * packages read). A cell package that does not read is a note; the others still merge.
 */
export async function readLevelWithCells(packages: InstallPackages, ref: string, exportIndex: number | undefined, opts: LevelReadOptions = {}): Promise<LevelAsset> {
  const level = await readLevel({ packages, ref }, exportIndex, opts);
  await mergeCells(level, (pkg) => readLevel({ packages, ref: pkg }, undefined, opts), opts.signal);
  return level;
}

/** Merges into `level` the actors of each of its cells' packages, as `readCell` reads them. */
export async function mergeCells(level: LevelAsset, readCell: (pkg: string) => Promise<LevelAsset>, signal?: AbortSignal): Promise<void> {
  const read = new Set<string>([level.package]);
  const merged: string[] = [];
  for (const cell of level.cells) {
    if (!cell.package || read.has(cell.package)) continue;
    if (merged.length >= MAX_MERGED_CELLS) {
      level.notes.push(`the map has more than ${MAX_MERGED_CELLS} cell packages: only the first ${MAX_MERGED_CELLS} are merged`);
      break;
    }
    read.add(cell.package);
    signal?.throwIfAborted();
    try {
      const sub = await readCell(cell.package);
      for (const a of sub.actors) level.actors.push({ ...a, cell: cell.name });
      level.notes.push(...sub.notes.map((n) => `cell ${cell.name}: ${n}`));
      merged.push(cell.package);
    } catch (e) {
      if (signal?.aborted) throw e;
      level.notes.push(`cell ${cell.name}: its package ${cell.package} does not read: ${(e as Error).message}`);
    }
  }
  level.mergedCells = merged;
  level.counts = countLevel(level.actors);
}
