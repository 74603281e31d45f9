/** What the exporter takes and reports; the app's export dialog and the CLI both speak this. */
import type { Usmap } from '../usmap/types.js';
import type { WorkerPool } from '../workers/pool.js';

/**
 * Which files to export. `paths` are paths as `ls` prints them: a file, or a folder meaning
 * everything below it (case-insensitive, as the install looks paths up). `filters` are globs or
 * substrings with the tree filter's rules (path-filter.ts); a file matching any of them is in.
 * Given both, a file must be below one of the paths and match one of the filters (the tree's
 * selected folder with its filter box). Given neither: every file of the install.
 */
export interface ExportSelection {
  paths?: readonly string[];
  filters?: readonly string[];
}

/**
 * raw: the bytes as the game stores them; json: packages as their parsed model, the rest raw;
 * convert: assets the converter registry knows as what they convert to (a texture as .png, one
 * file per slice; its .uexp/.ubulk left out), the rest raw.
 */
export type ExportFormat = 'raw' | 'json' | 'convert';

/**
 * What happens when the output file already exists: 'skip' leaves it (listed as skipped),
 * 'overwrite' replaces it, 'keep-both' writes "name (2).ext".
 */
export type ConflictPolicy = 'overwrite' | 'skip' | 'keep-both';

export interface ExportProgress {
  filesDone: number;
  filesTotal: number;
  /** Bytes of the selected files handled so far (their stored, uncompressed sizes). */
  bytesDone: number;
  bytesTotal: number;
  /** Over the last few seconds; 0 until there is something to measure. */
  bytesPerSecond: number;
  /** null until the rate is known. */
  secondsLeft: number | null;
  /** The file most recently started. */
  current: string;
}

export interface ExportOptions {
  /** Output folder (created if missing). Exactly one of `out` and `zip` is given. */
  out?: string;
  /** Write one .zip file at this path instead of a folder. */
  zip?: string;
  format?: ExportFormat;
  /** Default 'skip'. */
  conflict?: ConflictPolicy;
  /** convert: decode in these workers (textures); else on this thread. */
  pool?: WorkerPool;
  /**
   * Raw and convert formats: a selected package brings the files it needs beside it: its .uexp, and its bulk
   * data as .ubulk, .uptnl (optional bulk) and .m.ubulk (memory-mapped bulk). Default true.
   */
  companions?: boolean;
  /**
   * Files streamed at once (default 8): those bigger than one piece, zip entries, JSON models.
   * Smaller files to a folder through a worker pool are read, decoded and written by the workers,
   * many at once. Decompression itself runs in the install's decoder.
   */
  concurrency?: number;
  /** json and convert: the mappings unversioned properties are read with (without them those stay unread). */
  mappings?: Usmap;
  /** Deflate level of zip entries, 0 (stored) to 9; default 6. */
  zipLevel?: number;
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
  /** Least time between two onProgress calls (default 100 ms); the last call always comes. */
  progressIntervalMs?: number;
}

export interface ExportFailure {
  /** The file's path as `ls` prints it. */
  path: string;
  error: string;
}

export interface ExportSkip {
  path: string;
  reason: string;
}

export interface ExportSummary {
  /** Files written. */
  files: number;
  /** Bytes written (file contents; for a zip, before compression). */
  bytes: number;
  failed: ExportFailure[];
  skipped: ExportSkip[];
  /** The signal aborted the export: what was written stays, the file in progress was removed. */
  cancelled: boolean;
  seconds: number;
}
