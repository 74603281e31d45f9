/**
 * The .utoc format's history as the engine names it (EIoStoreTocVersion). Every version-dependent
 * field in toc.ts is guarded by one of these members, so the reader shows when each field appeared.
 */
export enum TocVersion {
  Invalid = 0,
  /** UE4.25: chunk ids, offsets, compression blocks, method names, metas. */
  Initial = 1,
  /** UE4.26: the directory index (paths of the files). */
  DirectoryIndex = 2,
  /** UE4.27: containers split into partitions (X.ucas, X_s1.ucas ...) of PartitionSize bytes. */
  PartitionSize = 3,
  /** UE5.0 early: perfect-hash seeds for chunk lookup. */
  PerfectHash = 4,
  /** UE5.0-5.3: plus a list of chunks the perfect hash could not place. */
  PerfectHashWithOverflow = 5,
  /** UE5.4: extra hashes per chunk and block when the OnDemand flag is set. */
  OnDemandMetaData = 6,
  RemovedOnDemandMetaData = 7,
  /** UE5.5-5.7: chunk metas hold a 20-byte FIoHash instead of a 32-byte FIoChunkHash. */
  ReplaceIoChunkHashWithIoHash = 8,
  /** UE6.0 (UE5.8.1 still writes v8): source hash count in the header. */
  AddedSourceHashes = 9,
  /** UE6.0: EncryptionMethod byte (AES-ECB or AES-CTR with per-block IVs). */
  ContainerEncryptionMethod = 10,
}

export const LATEST_TOC_VERSION = TocVersion.ContainerEncryptionMethod;

export function tocVersionName(v: number): string {
  return TocVersion[v] ?? `Unknown(${v})`;
}

/** EIoContainerFlags. */
export enum ContainerFlags {
  None = 0,
  Compressed = 1 << 0,
  Encrypted = 1 << 1,
  Signed = 1 << 2,
  Indexed = 1 << 3,
  OnDemand = 1 << 4,
}

const FLAG_NAMES: [ContainerFlags, string][] = [
  [ContainerFlags.Compressed, 'Compressed'],
  [ContainerFlags.Encrypted, 'Encrypted'],
  [ContainerFlags.Signed, 'Signed'],
  [ContainerFlags.Indexed, 'Indexed'],
  [ContainerFlags.OnDemand, 'OnDemand'],
];

/** Flag names in bit order; unknown bits as 0x.. so nothing is hidden. */
export function containerFlagNames(flags: number): string[] {
  const names: string[] = [];
  let rest = flags;
  for (const [bit, name] of FLAG_NAMES) {
    if (flags & bit) names.push(name);
    rest &= ~bit;
  }
  if (rest) names.push(`0x${rest.toString(16)}`);
  return names;
}

/** EIoEncryptionMethod (stored from v10; before that the Encrypted flag means AES-ECB). */
export enum EncryptionMethod {
  None = 0,
  AesEcb = 1,
  AesCtr = 2,
}

export function encryptionMethodName(m: EncryptionMethod): string {
  return m === EncryptionMethod.AesEcb ? 'AES-ECB' : m === EncryptionMethod.AesCtr ? 'AES-CTR' : 'None';
}

/** FIoStoreTocEntryMeta flags. */
export enum ChunkMetaFlags {
  None = 0,
  Compressed = 1 << 0,
  MemoryMapped = 1 << 1,
}
