/**
 * What comparing two builds finds: the JSON `pakscope diff --json` prints and the app shows.
 * Paths are as `ls` prints them (the winning container's spelling).
 */
import type { PropertyValue } from '../properties/types.js';

export interface AddedOrRemovedFile { path: string; size: number }
export interface ChangedFile { path: string; oldSize: number; newSize: number }
/** The same content under a new path (a package moved): one entry, not a removal and an addition. */
export interface MovedFile { oldPath: string; newPath: string }

export interface InstallDiffJson {
  added: AddedOrRemovedFile[];
  removed: AddedOrRemovedFile[];
  changed: ChangedFile[];
  moved: MovedFile[];
  /** Files at the same path with the same content. */
  unchanged: number;
}

export interface InstallDiff extends InstallDiffJson {
  /** How same content was told: by the chunk hashes both containers store, or by reading and hashing. */
  stats: { byStoredHash: number; bySize: number; byDigest: number; filesRead: number };
  /** Files that could not be read to compare them (counted as changed), with why. */
  unreadable: { path: string; message: string }[];
}

/**
 * One difference inside a package. `where` names a table (`names`, `imports`, `exports`) or a
 * property by its path, `Export.Property[.Field...]` (elements as `[i]`, map entries as
 * `[key]`); `old`/`new` are values as `pakscope props --json` encodes them, null where one
 * side has none.
 */
export interface PackageChange {
  where: string;
  old: PropertyValue;
  new: PropertyValue;
}

export interface PackageDiffJson {
  /** The package's file as `ls` prints it (the new side's). */
  package: string;
  changes: PackageChange[];
}
