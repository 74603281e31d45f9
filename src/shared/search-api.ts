/**
 * The search panel's and the size map's part of the API (api.ts declares the methods and
 * validates their requests). Framework-free. The size map's rectangles are the core's own types.
 */
import type { SizeMapLayout, SizeMeasure } from '../core/install/size-map.js';

export type { SizeMapLayout, SizeMapRect, SizeMeasure } from '../core/install/size-map.js';

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

export interface SizeMapRequest {
  installId: string;
  /** The folder shown ('' the root). */
  path: string;
  width: number;
  height: number;
  measure?: SizeMeasure;
}

/** The laid-out map the backend sends: the core's layout as it is. */
export type SizeMapView = SizeMapLayout;
