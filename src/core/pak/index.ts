/**
 * The pak index: the mount point and every entry with its name.
 * - Before v10 one block: mount point, count, then per entry its full name and FPakEntry record.
 * - From v10 (PathHashIndex) a primary index: mount point, count, path-hash seed, where the
 *   path-hash index and the full directory index lie (bool + offset, size, SHA1 each), the
 *   bit-packed entries, the non-encoded entries. Names come from the full directory index; the
 *   path-hash index only has hashes (and a pruned directory index, used when the full one is absent).
 */
import type { ArchiveFile } from '../archive.js';
import { FormatError } from '../errors.js';
import { sha1 } from '../hash/sha1.js';
import { BinaryReader } from '../io/binary-reader.js';
import type { ByteSource } from '../io/byte-source.js';
import { INVALID_LOCATION, readAnyDirectoryIndex, readDirectoryIndex, readIndexString } from './directory-index.js';
import {
  entryFormat, isDeleted, isEncrypted, readEncodedEntry, readEntryRecord, recordSize, type EntryFormat, type PakEntry,
} from './entry.js';
import type { PakFooter } from './footer.js';
import { MAX_PATH_CHARS, PathJoiner } from './paths.js';
import { PakVersion } from './version.js';

const IV_LENGTH = 12;

/** Where a secondary index lies (path-hash index, full directory index). */
export interface IndexRegion {
  offset: number;
  size: number;
  hash: Uint8Array;
}

/** Decrypts a secondary index with the key that opened the primary one (iv: AES-CTR paks). */
export type RegionDecryptor = (data: Uint8Array, iv: Uint8Array | null) => Uint8Array;

export interface PakIndex {
  mountPoint: string;
  /** The entry count the index states. */
  entryCount: number;
  /** Listed files; ref indexes `entries`. */
  files: ArchiveFile[];
  /** Per ref: the decoded record, or the offset of its bit-packed form in `encoded`. */
  entries: (PakEntry | number)[];
  /** The bit-packed entries (v10+). */
  encoded: BinaryReader | null;
  /** Paths a patch pak marks as deleted (v6+ delete records). */
  deletedPaths: string[];
  encryptedEntries: number;
  /** Codec name -> entries using it. */
  methodsUsed: Record<string, number>;
  pathHashSeed: bigint | null;
  pathHashIndex: IndexRegion | null;
  fullDirectoryIndex: IndexRegion | null;
  /** v13+: the full directory index is the flat, sorted form. */
  flatDirectoryIndex: boolean;
  /** Problems that do not stop listing (a secondary index whose SHA1 does not match, no names). */
  warnings: string[];
}

/**
 * Names entries (mount point + name, checked) and collects them; a path listed twice keeps its
 * last entry, as the engine's lookup would. Delete records are kept apart.
 */
class FileCollector {
  readonly files: ArchiveFile[] = [];
  readonly entries: (PakEntry | number)[] = [];
  readonly deletedPaths: string[] = [];
  readonly methodsUsed: Record<string, number> = {};
  encryptedEntries = 0;
  private readonly byPath = new Map<string, number>();
  private readonly paths: PathJoiner;

  constructor(mountPoint: string) {
    this.paths = new PathJoiner(mountPoint);
  }

  /** `at`: offset of the name in `r`, for the error when the name is unacceptable. */
  add(r: BinaryReader, at: number, name: string, entry: PakEntry | number, decoded: PakEntry): void {
    const joined = this.paths.join(name);
    if ('problem' in joined) throw r.error(`entry name: ${joined.problem}`, at);
    const path = joined.path;
    if (isDeleted(decoded)) {
      this.deletedPaths.push(path);
      return;
    }
    if (isEncrypted(decoded)) this.encryptedEntries++;
    this.methodsUsed[decoded.method] = (this.methodsUsed[decoded.method] ?? 0) + 1;
    const existing = this.byPath.get(path);
    if (existing !== undefined) {
      this.entries[existing] = entry;
      this.files[existing] = { path, size: decoded.uncompressedSize, ref: existing };
      return;
    }
    const ref = this.files.length;
    this.byPath.set(path, ref);
    this.entries.push(entry);
    this.files.push({ path, size: decoded.uncompressedSize, ref });
  }

  collected(): Pick<PakIndex, 'files' | 'entries' | 'deletedPaths' | 'encryptedEntries' | 'methodsUsed'> {
    const { files, entries, deletedPaths, encryptedEntries, methodsUsed } = this;
    return { files, entries, deletedPaths, encryptedEntries, methodsUsed };
  }
}

/**
 * Parses a decrypted primary index. `decrypt` is null when the index is not encrypted; the
 * secondary indexes of v10+ are read from `src` (bounded by the footer) and decrypted the same way.
 */
export async function readPakIndex(
  src: ByteSource, footer: PakFooter, index: Uint8Array, decrypt: RegionDecryptor | null,
): Promise<PakIndex> {
  const r = new BinaryReader(index, src.name, footer.indexOffset).struct('pak index');
  if (footer.frozenIndex) {
    throw r.error('the index is a frozen memory image (UE4.25 bFrozenIndex), which PakScope does not read');
  }
  const fmt = entryFormat(footer);
  const utf8 = footer.version >= PakVersion.Utf8PakDirectory;
  const mountPoint = readMountPoint(r, utf8);
  return footer.version >= PakVersion.PathHashIndex
    ? readPathHashIndex(src, footer, r, fmt, mountPoint, decrypt)
    : readLegacyIndex(r, fmt, mountPoint);
}

function readMountPoint(r: BinaryReader, utf8: boolean): string {
  const at = r.pos;
  const mountPoint = readIndexString(r, utf8);
  if (/[\u0000-\u001f]/.test(mountPoint)) throw r.error('mount point contains a control character', at);
  return mountPoint;
}

/** Before v10: count, then (name, record) pairs. */
function readLegacyIndex(r: BinaryReader, fmt: EntryFormat, mountPoint: string): PakIndex {
  const count = r.count(4 + recordSize(fmt, false, 0), 'entry count');
  const c = new FileCollector(mountPoint);
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const name = r.fstring(MAX_PATH_CHARS);
    const entry = readEntryRecord(r, fmt);
    c.add(r, at, name, entry, entry);
  }
  return {
    mountPoint, entryCount: count, ...c.collected(), encoded: null, pathHashSeed: null, pathHashIndex: null,
    fullDirectoryIndex: null, flatDirectoryIndex: false, warnings: [],
  };
}

function readRegion(r: BinaryReader, what: string): IndexRegion | null {
  if (!r.bool32()) return null;
  const at = r.pos;
  const offset = r.i64n(`${what} offset`);
  const size = r.i64n(`${what} size`);
  if (offset < 0 || size < 0) throw r.error(`${what} at ${offset} of ${size} bytes`, at);
  return { offset, size, hash: r.bytesView(20).slice() };
}

async function readPathHashIndex(
  src: ByteSource, footer: PakFooter, r: BinaryReader, fmt: EntryFormat, mountPoint: string, decrypt: RegionDecryptor | null,
): Promise<PakIndex> {
  const countAt = r.pos;
  const entryCount = r.i32();
  if (entryCount < 0) throw r.error(`entry count ${entryCount} is negative`, countAt);
  const pathHashSeed = r.u64();
  const pathHashIndex = readRegion(r, 'path-hash index');
  const fullDirectoryIndex = readRegion(r, 'full directory index');
  const encodedSize = r.count(1, 'encoded entries size');
  const encoded = r.sub(encodedSize, 'encoded pak entries');
  const nonEncodedCount = r.count(recordSize(fmt, false, 0), 'non-encoded entry count');
  const nonEncoded: PakEntry[] = [];
  for (let i = 0; i < nonEncodedCount; i++) nonEncoded.push(readEntryRecord(r, fmt));
  if (fmt.ctr) {
    // AES-CTR paks follow the non-encoded entries with one IV each.
    r.checkCount(nonEncodedCount, IV_LENGTH, 'non-encoded entry IVs');
    for (const e of nonEncoded) e.iv = r.bytesView(IV_LENGTH).slice();
  }

  const c = new FileCollector(mountPoint);
  const warnings: string[] = [];
  let flat = false;
  const region = fullDirectoryIndex ?? pathHashIndex;
  if (region) {
    const isFull = region === fullDirectoryIndex;
    const what = isFull ? 'full directory index' : 'path-hash index';
    const iv = isFull ? footer.fullDirectoryIndexIv : footer.pathHashIndexIv;
    const blob = await readRegionBytes(src, footer, region, what, decrypt, iv, warnings);
    const dr = new BinaryReader(blob, src.name, region.offset).struct(what);
    if (!isFull) {
      // Hashes first; the pruned directory index after them is all that has names.
      const hashCount = dr.count(12, 'path hash count');
      dr.skip(hashCount * 12);
      warnings.push('the pak has no full directory index: only the names in its pruned directory index are listed');
    }
    const visit = (dir: string, name: string, location: number, at: number): void => {
      if (location === INVALID_LOCATION) return;
      let entry: PakEntry | number;
      let decoded: PakEntry;
      if (location >= 0) {
        if (location >= encoded.length) throw dr.error(`entry location ${location} is past the ${encoded.length} bytes of encoded entries`, at);
        decoded = readEncodedEntry(encoded.seek(location), fmt);
        entry = location;
      } else {
        const e = nonEncoded[-location - 1];
        if (!e) throw dr.error(`entry location ${location} names non-encoded entry ${-location - 1} of ${nonEncoded.length}`, at);
        entry = decoded = e;
      }
      // Directories are "/" for the root and "Sub/Dir/" below it; the joiner drops the extra "/".
      c.add(dr, at, dir + name, entry, decoded);
    };
    if (isFull) {
      flat = readAnyDirectoryIndex(dr, footer.version, visit);
    } else {
      readDirectoryIndex(dr, footer.version >= PakVersion.Utf8PakDirectory, visit);
    }
  } else if (entryCount > 0) {
    warnings.push(`the pak has neither a full directory index nor a path-hash index: its ${entryCount} entries have no names`);
  }
  return {
    mountPoint, entryCount, ...c.collected(), encoded, pathHashSeed, pathHashIndex, fullDirectoryIndex,
    flatDirectoryIndex: flat, warnings,
  };
}

/** Reads, bounds-checks, decrypts and hash-checks a secondary index. */
async function readRegionBytes(
  src: ByteSource, footer: PakFooter, region: IndexRegion, what: string,
  decrypt: RegionDecryptor | null, iv: Uint8Array | null, warnings: string[],
): Promise<Uint8Array> {
  if (region.offset + region.size > footer.offset) {
    throw new FormatError(src.name, 'pak index', footer.indexOffset,
      `${what} at ${region.offset} of ${region.size} bytes does not lie before the footer at ${footer.offset}`);
  }
  let bytes = await src.read(region.offset, region.size, what);
  if (decrypt) {
    if (footer.encryptionMethod === 'AES-ECB' && region.size % 16 !== 0) {
      throw new FormatError(src.name, what, region.offset, `encrypted size ${region.size} is not a multiple of the AES block (16)`);
    }
    bytes = decrypt(bytes, iv);
  }
  if (!isZero(region.hash) && !equalBytes(sha1(bytes), region.hash)) {
    warnings.push(`the ${what}'s SHA1 does not match the one the index stores for it`);
  }
  return bytes;
}

export function isZero(b: Uint8Array): boolean {
  return b.every((x) => x === 0);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
