/**
 * What every kind of container offers the install tree: an IoStore container (.utoc/.ucas), a
 * .pak archive, or a loose file on disk. The install merges the files of all archives into one
 * mount-point tree; the CLI, the backend and the exporter only talk to this interface.
 */
export type ArchiveKind = 'iostore' | 'pak' | 'loose';

export interface ArchiveFile {
  /** As `ls` prints it: mount point + relative path, leading "../" segments removed, "/" separators. */
  readonly path: string;
  /** Uncompressed size in bytes. */
  readonly size: number;
  /** Archive-local handle used by read() (TOC entry index for IoStore, entry index for pak). */
  readonly ref: number;
  /** IoStore only: 24 lowercase hex digits of the 12 stored chunk-id bytes. */
  readonly chunkId?: string;
  /** IoStore only: the engine's chunk type name (ExportBundleData, BulkData, ...). */
  readonly chunkType?: string;
}

/** Where and how one file is stored, for the details pane and `info`. */
export interface FileStorage {
  /** Offset in the container's (uncompressed, for IoStore) address space. */
  offset: number;
  size: number;
  compressedSize: number;
  /** Codec name -> number of blocks that use it ("None" included). */
  codecs: Record<string, number>;
  encrypted: boolean;
  /** Stored hash as hex, if the container keeps one. */
  storedHash?: string;
  /** Which partition file(s) hold it, for IoStore. */
  partitions?: number[];
}

export interface HashCheck {
  ok: boolean;
  /** The algorithm whose digest matched the stored one ('SHA1' | 'BLAKE3'), or null if none did. */
  algorithm: string | null;
  expected: string;
  actual: Record<string, string>;
}

export type ArchiveStatus =
  | { state: 'ok' }
  /** Listing works but reading does not (missing .ucas or partition). */
  | { state: 'warning'; message: string }
  /** Encrypted and no working key. */
  | { state: 'locked'; message: string }
  | { state: 'error'; message: string };

/** `pakscope info <container>` and the container list in the app. */
export interface ArchiveDescription {
  kind: ArchiveKind;
  path: string;
  /** Plain facts as label -> value, in display order (TOC version, flags, entry count, ...). */
  fields: Record<string, string | number | boolean | null>;
}

export interface Archive {
  readonly kind: ArchiveKind;
  /** Path of the archive on disk (.utoc for IoStore). */
  readonly path: string;
  /** File name without folder and extension (pakchunk0-Windows_P), used for patch priority. */
  readonly name: string;
  readonly mountPoint: string;
  readonly status: ArchiveStatus;
  /** Files with a path (those in the directory index). */
  files(): readonly ArchiveFile[];
  read(ref: number, signal?: AbortSignal): Promise<Uint8Array>;
  storage(ref: number): FileStorage;
  /** Decompresses (if needed) and checks the stored hash. */
  verify(ref: number): Promise<HashCheck | null>;
  describe(): ArchiveDescription;
  close(): Promise<void>;
}
