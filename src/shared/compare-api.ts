/**
 * The part of the API that compares two builds (backend/compare.ts over core/diff): a comparison
 * of two open installs, its merged tree with every change marked, one package's changes side by
 * side, and the change list as CSV or JSON.
 */
import type { InstallDiffJson, PackageChange } from '../core/diff/types.js';
import type { PropertyValue } from '../core/properties/types.js';

export type { InstallDiffJson, PackageChange };

export type ChangeStatus = 'added' | 'removed' | 'changed' | 'moved';

/** A tree entry's place in a comparison (TreeEntry.diff). */
export interface TreeDiff {
  /** File: what happened to it (null: unchanged). Folder: added or removed when only one build has it, changed when something below changed. */
  status: ChangeStatus | null;
  /** Files below a folder (a file: itself) added, removed, changed and moved. */
  added: number;
  removed: number;
  changed: number;
  moved: number;
  /** A changed file's size in the old build. */
  oldSize?: number;
  /** A moved file: where it was (in the new build's row) or where it went (in the old build's row). */
  movedFrom?: string;
  movedTo?: string;
}

export interface ComparisonSummary {
  comparisonId: string;
  oldId: string;
  newId: string;
  oldRoot: string;
  newRoot: string;
  added: number;
  removed: number;
  changed: number;
  moved: number;
  unchanged: number;
  /** Files told apart by the hashes the containers store, and files read and hashed. */
  byStoredHash: number;
  filesRead: number;
  /** Files that could not be read to compare them (counted as changed). */
  unreadable: { path: string; message: string }[];
}

/** One build's side of a compared package. */
export interface PackageSideView {
  path: string;
  names: string[];
  imports: { path: string; class: string }[];
  exports: { name: string; class: string; path: string; serialSize: number }[];
  /** Each export's top-level properties. */
  properties: { export: string; entries: { name: string; type: string; value: PropertyValue }[] }[];
  /** The package as JSON (its tables, each export with its properties), for the diff editor. */
  json: string;
  warnings: string[];
}

export interface PackageComparison {
  /** The path as the new build has it (the old one's for a removed package). */
  package: string;
  changes: PackageChange[];
  /** Null on the side that has no such package (added or removed). */
  old: PackageSideView | null;
  new: PackageSideView | null;
}

/** The change list as a file's text, for the page to save. */
export interface ChangeListFile {
  fileName: string;
  text: string;
}
