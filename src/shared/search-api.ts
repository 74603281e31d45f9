/**
 * The search panel's and the size map's part of the API (api.ts declares the methods and
 * validates their requests). Framework-free.
 */

/** The kinds a search looks in, as the panel's filters and the CLI's --in name them. */
export type SearchKind = 'paths' | 'names' | 'classes' | 'strings';
export const SEARCH_KINDS: readonly SearchKind[] = ['paths', 'names', 'classes', 'strings'];

export interface SearchRequest {
  installId: string;
  text: string;
  /** Default: every kind. */
  in?: string[];
  regex?: boolean;
  caseSensitive?: boolean;
  /** Only packages with an export of exactly this class (Texture2D or /Script/Engine.Texture2D). */
  class?: string;
}

export interface SearchStarted { searchId: string }

export interface SearchHit {
  /** The file as ls prints it. */
  path: string;
  /** The place in it: "path", "names[3]", "exports[0]", "exports[0].class", "imports[2]", an export's name (a string in its data), "de/Namespace/Key", "line 4". */
  where: string;
  text: string;
  /** path, name, export, import, class or string. */
  kind: string;
}

/** Hits a search sends at most; the rest are counted. */
export const MAX_SEARCH_HITS = 10_000;

export type SearchEvent =
  /** The install's index is being built (the first search of an install not indexed before). */
  | { type: 'search-progress'; searchId: string; done: number; total: number }
  | { type: 'search-results'; searchId: string; hits: SearchHit[] }
  | { type: 'search-done'; searchId: string; count: number; limited: boolean; cancelled: boolean; seconds: number; error?: string };

export type SizeMeasure = 'size' | 'stored';

export interface SizeMapRequest {
  installId: string;
  /** The folder shown ('' the root). */
  path: string;
  width: number;
  height: number;
  measure?: SizeMeasure;
}

export interface SizeMapRect {
  path: string;
  name: string;
  isDir: boolean;
  x: number;
  y: number;
  w: number;
  h: number;
  size: number;
  stored: number;
  fileCount: number;
  depth: number;
  /** File: package, map, export data, bulk, shader, text, media or other; folder: folder. */
  kind: string;
  /** File: its winning container's file name. */
  container: string;
}

export interface SizeMapView {
  folder: string;
  measure: SizeMeasure;
  total: number;
  rects: SizeMapRect[];
  hidden: number;
}
