/** Where exported files go: a folder (disk-sink.ts) or one zip file (zip-sink.ts). */

/** One output file being written. */
export interface EntryWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the file visible; returns the relative path it got (keep-both may number it), or null when skipped after all. */
  commit(): Promise<{ path: string } | { skipped: string }>;
  /** Removes what was written. */
  discard(): Promise<void>;
}

export interface ExportSink {
  /**
   * Starts the file at `path` (already checked by safe-path.ts); `{skipped}` when the conflict
   * policy says not to write it.
   */
  begin(path: string, segments: readonly string[], size: number): Promise<{ writer: EntryWriter } | { skipped: string }>;
  /** Finishes the output once every file is committed or discarded. */
  close(): Promise<void>;
  /** Removes output that cannot be complete (a half-written zip); files already committed to a folder stay. */
  abort(): Promise<void>;
}
