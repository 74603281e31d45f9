/**
 * A .pak archive as an Archive of the install tree: the footer and index are read once at open
 * (entry data is never touched to list), files are read block by block through a BlockDecoder so
 * decompression can run in worker threads. An encrypted index without a working key leaves the
 * archive 'locked' with no files rather than failing; unlock() tries again with more keys.
 */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, ArchiveStatus, FileStorage, HashCheck } from '../archive.js';
import { aesDecrypt } from '../crypto/aes.js';
import { getCodec } from '../codecs/registry.js';
import { keyGuidText } from '../crypto/index-key.js';
import { ZERO_GUID, type KeyRing } from '../crypto/keys.js';
import { asError, DecodeError, FormatError } from '../errors.js';
import { sha1 } from '../hash/sha1.js';
import { BinaryReader } from '../io/binary-reader.js';
import { bytesToHex } from '../io/hex.js';
import { FileByteSource, type ByteSource } from '../io/byte-source.js';
import { inlineDecoder, type BlockDecoder } from '../workers/block-job.js';
import { planRunnerOf, type PlannedBatch } from '../workers/block-plan.js';
import type { WriteOutcome, WriteResult, WriteTarget } from '../workers/file-write.js';
import { packWrites, type WriteJobBuilder } from '../workers/packed-writes.js';
import { entryFormat, isEncrypted, readEncodedEntry, readEntryRecord, type EntryFormat, type PakEntry } from './entry.js';
import { EntryKeys, PakEntryReader } from './entry-reader.js';
import { readPakFooter, type PakFooter } from './footer.js';
import { equalBytes, isZero, readPakIndex, type PakIndex, type RegionDecryptor } from './index.js';
import { findPakIndexKey, pakIndexAes } from './index-key.js';
import { planEntryRead, type ReadPiece } from './read-plan.js';
import { pakVersionName, PakVersion } from './version.js';

export { MAX_READ_BYTES } from './entry-reader.js';

export interface OpenPakOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
}

/** Bytes hashed per step in verify(). */
const HASH_STEP = 8 << 20;

export async function openPakArchive(path: string, opts: OpenPakOptions = {}): Promise<PakArchive> {
  const src = await FileByteSource.open(path);
  try {
    return await openPakFromSource(src, opts, path);
  } catch (e) {
    await src.close();
    throw e;
  }
}

/** Opens a pak from any byte source (tests, nested containers); the archive owns `src`. */
export async function openPakFromSource(src: ByteSource, opts: OpenPakOptions = {}, path = src.name): Promise<PakArchive> {
  const footer = await readPakFooter(src);
  const archive = new PakArchive(path, src, footer, opts.decoder ?? inlineDecoder);
  await archive.unlock(opts.keys);
  return archive;
}

export class PakArchive implements Archive {
  readonly kind = 'pak' as const;
  readonly name: string;
  private readonly fmt: EntryFormat;
  private index: PakIndex | null = null;
  private currentStatus: ArchiveStatus = { state: 'locked', message: 'not opened yet' };
  private readonly keys: EntryKeys;
  private readonly reader: PakEntryReader;

  constructor(
    readonly path: string,
    private readonly src: ByteSource,
    readonly footer: PakFooter,
    decoder: BlockDecoder,
  ) {
    this.name = basename(path, extname(path));
    this.fmt = entryFormat(footer);
    // Workers open files by path: a pak in memory (nested, tests) is decoded from its bytes instead.
    this.keys = new EntryKeys(footer.encryptionKeyGuid ?? ZERO_GUID);
    this.reader = new PakEntryReader(path, this.name, src, this.fmt, decoder,
      src instanceof FileByteSource ? planRunnerOf(decoder) ?? null : null, this.keys);
  }

  get status(): ArchiveStatus { return this.currentStatus; }
  get version(): PakVersion { return this.footer.version; }
  /** As stored ("../../../Game/"); file paths have the leading "../" removed. */
  get mountPoint(): string { return this.index?.mountPoint ?? ''; }
  /** Paths this (patch) pak marks as deleted. */
  get deletedPaths(): readonly string[] { return this.index?.deletedPaths ?? []; }
  get keyGuid(): string { return this.footer.encryptionKeyGuid ?? ZERO_GUID; }

  /**
   * Reads the index with the keys given (again, if it was locked). Resolves to the new status; a
   * pak that is open already only takes up keys for its encrypted entries.
   */
  async unlock(keys?: KeyRing): Promise<ArchiveStatus> {
    const k = this.keys;
    k.candidates = keys?.candidates(this.keyGuid) ?? k.candidates;
    if (this.index) {
      k.current ??= k.candidates[0] ?? null;
      this.currentStatus = this.statusOf(this.index);
      return this.currentStatus;
    }
    const raw = await this.src.read(this.footer.indexOffset, this.footer.indexSize, 'pak index');
    let plain = raw;
    let decrypt: RegionDecryptor | null = null;
    if (this.footer.indexEncrypted) {
      const found = findPakIndexKey(raw, this.footer, this.path, this.keyGuid, k.candidates);
      if ('locked' in found) {
        this.currentStatus = { state: 'locked', message: found.locked };
        return this.currentStatus;
      }
      k.current = found.key;
      plain = found.index;
      const key = found.key;
      decrypt = (data, iv) => aesDecrypt(data, pakIndexAes(this.footer, this.path, key, iv));
    }
    const index = await readPakIndex(this.src, this.footer, plain, decrypt);
    if (!this.footer.indexEncrypted && !isZero(this.footer.indexHash) && !equalBytes(sha1(raw), this.footer.indexHash)) {
      index.warnings.unshift('the index SHA1 does not match the one in the footer');
    }
    this.index = index;
    k.current ??= k.candidates[0] ?? null;
    this.currentStatus = this.statusOf(index);
    return this.currentStatus;
  }

  private statusOf(index: PakIndex): ArchiveStatus {
    const problems = [...index.warnings];
    if (index.encryptedEntries > 0 && !this.keys.current) {
      problems.push(`${index.encryptedEntries} of ${index.files.length} files are encrypted with ${keyGuidText(this.keyGuid)}; no AES key given for it`);
    }
    return problems.length ? { state: 'warning', message: problems.join('; ') } : { state: 'ok' };
  }

  files(): readonly ArchiveFile[] {
    return this.index?.files ?? [];
  }

  /** The entry record of a listed file (bit-packed entries are decoded on demand). */
  entry(ref: number): PakEntry {
    const index = this.index;
    const e = index?.entries[ref];
    if (!index || e === undefined) {
      throw new RangeError(`${this.name}: no entry ${ref} (the pak lists ${index?.files.length ?? 0} files)`);
    }
    return typeof e === 'number' ? readEncodedEntry(index.encoded!.seek(e), this.fmt) : e;
  }

  private pathOf(ref: number): string {
    return this.index?.files[ref]?.path ?? `#${ref}`;
  }

  async read(ref: number, signal?: AbortSignal): Promise<Uint8Array> {
    const e = this.entry(ref);
    return this.reader.readEntry(e, this.pathOf(ref), 0, e.uncompressedSize, signal);
  }

  /** `length` bytes from `offset` of a file's data (clamped to its size), decoding only the blocks that cover them. */
  async readRange(ref: number, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new RangeError(`range ${offset}+${length} is not a valid byte range`);
    }
    const e = this.entry(ref);
    const from = Math.min(offset, e.uncompressedSize);
    return this.reader.readEntry(e, this.pathOf(ref), from, Math.min(e.uncompressedSize, from + length), signal);
  }

  /** True when planWrites can be called: a pak file read through the worker pool (see workers/archive-writes.ts). */
  get writesInWorkers(): boolean {
    return this.reader.planRunner !== null;
  }

  /**
   * File `refs[i]` to `to[i]`, planned into `job` for workers to read, decode and write (their
   * bytes never come to this thread); encrypted ones with the key that worked so far. Needs
   * writesInWorkers. A failure is that file's own, as read() reports it; one that fails with a key
   * while others are left tries those.
   */
  planWrites(refs: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): PlannedBatch {
    const reader = this.reader;
    const runner = reader.planRunner;
    if (!runner) throw new Error(`${this.name}: its decoder cannot write files (no worker pool)`);
    const slots: (number | Error)[] = [];
    /** Per file asked for that was planned: what its result is settled with. */
    const sent: ({ e: PakEntry; pieces: ReadPiece[]; path: string } | undefined)[] = [];
    for (const [i, ref] of refs.entries()) {
      try {
        const e = this.entry(ref);
        const path = this.pathOf(ref);
        // Written by a worker in pieces (file-write.ts): no single read of it, so no size limit.
        const pieces = reader.checkedPieces(e, path, 0, e.uncompressedSize, false);
        const key = isEncrypted(e) ? this.keys.ordered()[0]! : null;
        job.addPlan(reader.entryPlan(e, pieces, 0, e.uncompressedSize, key), to[i]!);
        slots.push(job.files - 1);
        sent[i] = { e, pieces, path };
      } catch (err) {
        slots.push(asError(err));
      }
    }
    // A promise only where another key is tried: most files settle at once.
    const settle = (i: number, r: WriteResult, signal?: AbortSignal): WriteResult | Promise<WriteResult> => {
      const { e, pieces, path } = sent[i]!;
      if (typeof r === 'string') return r;
      if (isEncrypted(e) && this.keys.ordered().length > 1 && r instanceof DecodeError) {
        // A decode error with the first key: the others are tried, one file at a time.
        return reader.runEntryPlan(e, pieces, 0, e.uncompressedSize, path, async (plan): Promise<WriteOutcome> => {
          const [one] = await runner.writePacked(packWrites([{ plan, to: to[i]! }]), signal);
          if (typeof one !== 'string') throw one;
          return one;
        }).catch(asError);
      }
      return asError(reader.pieceError(r, pieces, path, isEncrypted(e)));
    };
    return { runner, slots, settle };
  }

  storage(ref: number): FileStorage {
    const e = this.entry(ref);
    const codecs: Record<string, number> = {};
    codecs[e.method] = e.blocks ? e.blocks.length / 2 : 1;
    return {
      offset: e.offset,
      size: e.uncompressedSize,
      compressedSize: e.compressedSize,
      codecs,
      encrypted: isEncrypted(e),
      ...(e.hash && !isZero(e.hash) ? { storedHash: bytesToHex(e.hash) } : {}),
    };
  }

  /**
   * Checks the SHA1 the pak stores for an entry. It covers the stored bytes (compressed, and
   * encrypted, as they lie in the file: `compressedSize` bytes after the in-data record), so no
   * key is needed. The index keeps it before v10; bit-packed entries have it only in the in-data
   * record, which is read and checked against the index. Null when the hash is zeroed.
   */
  async verify(ref: number): Promise<HashCheck | null> {
    const e = this.entry(ref);
    const path = this.pathOf(ref);
    const record = await this.readInDataRecord(e, path);
    // What a read checks of the entry's layout (the block count its sizes imply, every block
    // inside the file): an entry no read can return is not ok, whatever its hash says.
    const pieces = planEntryRead(e, this.path, this.src.size, path);
    // A method no codec decodes (a damaged method table) cannot be read either.
    for (const codec of new Set(pieces.map((p) => p.codec))) getCodec(codec);
    if (this.fmt.ctr && isEncrypted(e) && !e.iv) {
      throw new FormatError(this.path, `entry "${path}"`, e.offset, 'encrypted entry of an AES-CTR pak has no IV');
    }
    const stored = e.hash ?? record.hash!;
    if (isZero(stored)) return null;
    const start = e.offset + e.recordSize;
    if (start + e.compressedSize > this.src.size) {
      throw new FormatError(this.path, `entry "${path}"`, e.offset,
        `its ${e.compressedSize} stored bytes at ${start} lie past the end of the file (${this.src.size} bytes)`);
    }
    const h = createHash('sha1');
    for (let at = 0; at < e.compressedSize; at += HASH_STEP) {
      const n = Math.min(HASH_STEP, e.compressedSize - at);
      h.update(await this.src.read(start + at, n, `entry "${path}" data`));
    }
    const actual = h.digest('hex');
    const expected = bytesToHex(stored);
    return { ok: actual === expected, algorithm: actual === expected ? 'SHA1' : null, expected, actual: { SHA1: actual } };
  }

  /** The FPakEntry written in front of the entry's bytes; its sizes must agree with the index. */
  private async readInDataRecord(e: PakEntry, path: string): Promise<PakEntry> {
    const bytes = await this.src.read(e.offset, e.recordSize, `entry "${path}" record`);
    const r = new BinaryReader(bytes, this.path, e.offset).struct(`entry "${path}" record`);
    const record = readEntryRecord(r, this.fmt);
    if (record.compressedSize !== e.compressedSize || record.uncompressedSize !== e.uncompressedSize || record.method !== e.method) {
      throw r.error(`in-data record (${record.compressedSize}/${record.uncompressedSize} bytes, ${record.method}) ` +
        `differs from the index (${e.compressedSize}/${e.uncompressedSize} bytes, ${e.method})`, 0);
    }
    return record;
  }

  describe(): ArchiveDescription {
    const f = this.footer;
    const index = this.index;
    const fields: ArchiveDescription['fields'] = {
      'Pak version': `${f.label} (${pakVersionName(f.version)})`,
      'Mount point': index ? index.mountPoint : null,
      Entries: index ? index.entryCount : null,
      Files: index ? index.files.length : 0,
    };
    if (f.version >= PakVersion.DeleteRecords) fields['Deleted records'] = index ? index.deletedPaths.length : null;
    fields['Encrypted files'] = index ? index.encryptedEntries : null;
    fields['Index encrypted'] = f.indexEncrypted;
    if (f.version >= PakVersion.EncryptionKeyGuid) fields['Encryption key GUID'] = f.encryptionKeyGuid;
    if (f.version >= PakVersion.EncryptionMethod) fields.Encryption = f.encryptionMethod;
    fields['Compression methods'] = f.version >= PakVersion.FNameBasedCompressionMethod
      ? f.compressionMethods.filter((m) => m !== '').join(', ') || 'None'
      : 'Zlib, Gzip, Oodle (by entry flags)';
    fields['Methods used'] = index
      ? Object.entries(index.methodsUsed).map(([m, n]) => `${m}: ${n}`).join(', ') || 'None'
      : null;
    fields['Index offset'] = f.indexOffset;
    fields['Index size'] = f.indexSize;
    fields['Index SHA1'] = bytesToHex(f.indexHash);
    if (f.version === PakVersion.FrozenIndex) fields['Frozen index'] = f.frozenIndex;
    if (f.version >= PakVersion.PathHashIndex && index) {
      fields['Path hash seed'] = index.pathHashSeed === null ? null : `0x${index.pathHashSeed.toString(16).toUpperCase()}`;
      fields['Path hash index'] = index.pathHashIndex ? `${index.pathHashIndex.size} bytes at ${index.pathHashIndex.offset}` : 'None';
      fields['Full directory index'] = index.fullDirectoryIndex
        ? `${index.fullDirectoryIndex.size} bytes at ${index.fullDirectoryIndex.offset}${index.flatDirectoryIndex ? ' (flat)' : ''}`
        : 'None';
    }
    if (f.pakchunkIndex !== null) fields['Pakchunk index'] = f.pakchunkIndex;
    fields['Footer size'] = f.size;
    return { kind: 'pak', path: this.path, fields };
  }

  async close(): Promise<void> {
    await this.src.close();
  }
}
