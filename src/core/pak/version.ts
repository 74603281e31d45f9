/**
 * The .pak format's versions, named after what each one added (the engine's EPakFileVersion).
 * Field reads elsewhere are guarded by these names, so the code reads like the format's history.
 */
export enum PakVersion {
  /** UE4.0: entries carry a timestamp. */
  Initial = 1,
  NoTimestamps = 2,
  /** Compression blocks, the entry flags byte (encrypted) and the block size. */
  CompressionEncryption = 3,
  /** The footer's index-encrypted byte. */
  IndexEncryption = 4,
  /** Compression block offsets relative to the entry instead of the file. */
  RelativeChunkOffsets = 5,
  /** Entry flag 0x02: a patch pak's record that a file was deleted. */
  DeleteRecords = 6,
  /** The footer's encryption-key GUID. */
  EncryptionKeyGuid = 7,
  /** Compression method names in the footer; entries store a slot number (UE4.22 "8A", UE4.23 "8B"). */
  FNameBasedCompressionMethod = 8,
  /** UE4.25: the footer's frozen-index byte (a memory-image index, withdrawn in 4.26). */
  FrozenIndex = 9,
  /** UE4.26: primary index + path-hash index + full directory index, bit-packed entries. */
  PathHashIndex = 10,
  /** UE4.27: the path hash's FNV-64 constants corrected. */
  Fnv64BugFix = 11,
  /** UE5.x: directory index names stored as UTF-8. */
  Utf8PakDirectory = 12,
  /** The full directory index may be a flat, sorted table ("PFDQ"). */
  SortedDirectoryIndex = 13,
  /** The footer's pakchunk index. */
  PakchunkIndex = 14,
  /** The footer's encryption method (AES-ECB or AES-CTR) and the index IVs. */
  EncryptionMethod = 15,
}

export const PAK_MAGIC = 0x5a6f12e1;
export const LATEST_PAK_VERSION = PakVersion.EncryptionMethod;

/** The member name for a version number ("Fnv64BugFix"), or "unknown". */
export function pakVersionName(version: number): string {
  return PakVersion[version] ?? 'unknown';
}
