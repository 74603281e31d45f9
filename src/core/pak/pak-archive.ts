/**
 * A .pak archive as an Archive of the install tree: the footer and index are read once at open
 * (entry data is never touched to list), files are read block by block through a BlockDecoder so
 * decompression can run in worker threads. An encrypted index without a working key leaves the
 * archive 'locked' with no files rather than failing; unlock() tries again with more keys.
 */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, ArchiveStatus, FileStorage, HashCheck } from '../archive.js';
import { aesDecrypt, type AesParams } from '../crypto/aes.js';
import { ZERO_GUID, type KeyRing } from '../crypto/keys.js';
import { asError, DecodeError, FormatError, KeyError } from '../errors.js';
import { sha1 } from '../hash/sha1.js';
import { BinaryReader } from '../io/binary-reader.js';
import { FileByteSource, type ByteSource } from '../io/byte-source.js';
import { inlineDecoder, jobIndexOf, type BlockDecoder, type BlockJob } from '../workers/block-job.js';
import { addPlanBlock, planRunnerOf, ShortBlockError, writeBatches, type BlockPlan, type PlannedBatch, type PlanRunner } from '../workers/block-plan.js';
import type { WriteOutcome, WriteResult, WriteTarget } from '../workers/file-write.js';
import { packWrites, WriteJobBuilder } from '../workers/packed-writes.js';
import { entryFormat, isEncrypted, readEncodedEntry, readEntryRecord, type EntryFormat, type PakEntry } from './entry.js';
import { readPakFooter, type PakFooter } from './footer.js';
import { equalBytes, isZero, readPakIndex, type PakIndex, type RegionDecryptor } from './index.js';
import { planEntryRead, type ReadPiece } from './read-plan.js';
import { pakVersionName, PakVersion } from './version.js';

export interface OpenPakOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
}

/** Pieces decoded per batch: bounds the stored bytes a huge entry holds in flight. */
const PIECES_PER_BATCH = 64;
/** One read() returns one Uint8Array; entries above this are refused rather than half-allocated. */
export const MAX_READ_BYTES = 2 ** 31 - 1;
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

/** Result of trying keys on an encrypted index. */
type IndexKeyResult = { key: Uint8Array; index: Uint8Array } | { locked: string };

export class PakArchive implements Archive {
  readonly kind = 'pak' as const;
  readonly name: string;
  private readonly fmt: EntryFormat;
  private index: PakIndex | null = null;
  private currentStatus: ArchiveStatus = { state: 'locked', message: 'not opened yet' };
  /** The key that opened the index, or the first candidate for encrypted entries of a plain index. */
  private key: Uint8Array | null = null;
  private candidates: Uint8Array[] = [];
  /** The decoder when it runs whole reads in workers and the pak is a plain file, else null. */
  private readonly planRunner: PlanRunner | null;

  constructor(
    readonly path: string,
    private readonly src: ByteSource,
    readonly footer: PakFooter,
    private readonly decoder: BlockDecoder,
  ) {
    this.name = basename(path, extname(path));
    this.fmt = entryFormat(footer);
    // Workers open files by path: a pak in memory (nested, tests) is decoded from its bytes instead.
    this.planRunner = src instanceof FileByteSource ? planRunnerOf(decoder) ?? null : null;
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
    this.candidates = keys?.candidates(this.keyGuid) ?? this.candidates;
    if (this.index) {
      this.key ??= this.candidates[0] ?? null;
      this.currentStatus = this.statusOf(this.index);
      return this.currentStatus;
    }
    const raw = await this.src.read(this.footer.indexOffset, this.footer.indexSize, 'pak index');
    let plain = raw;
    let decrypt: RegionDecryptor | null = null;
    if (this.footer.indexEncrypted) {
      const found = this.findIndexKey(raw);
      if ('locked' in found) {
        this.currentStatus = { state: 'locked', message: found.locked };
        return this.currentStatus;
      }
      this.key = found.key;
      plain = found.index;
      const key = found.key;
      decrypt = (data, iv) => aesDecrypt(data, this.indexAes(key, iv));
    }
    const index = await readPakIndex(this.src, this.footer, plain, decrypt);
    if (!this.footer.indexEncrypted && !isZero(this.footer.indexHash) && !equalBytes(sha1(raw), this.footer.indexHash)) {
      index.warnings.unshift('the index SHA1 does not match the one in the footer');
    }
    this.index = index;
    this.key ??= this.candidates[0] ?? null;
    this.currentStatus = this.statusOf(index);
    return this.currentStatus;
  }

  private statusOf(index: PakIndex): ArchiveStatus {
    const problems = [...index.warnings];
    if (index.encryptedEntries > 0 && !this.key) {
      problems.push(`${index.encryptedEntries} of ${index.files.length} files are encrypted with ${this.guidText()}; no AES key given for it`);
    }
    return problems.length ? { state: 'warning', message: problems.join('; ') } : { state: 'ok' };
  }

  private guidText(): string {
    return this.keyGuid === ZERO_GUID ? 'the zero key GUID (main key)' : `key GUID ${this.keyGuid}`;
  }

  private indexAes(key: Uint8Array, iv: Uint8Array | null): AesParams {
    if (this.footer.encryptionMethod === 'AES-CTR') {
      if (!iv) throw new FormatError(this.path, 'pak footer', this.footer.offset, 'AES-CTR pak without an index IV');
      return { mode: 'ctr', key, iv };
    }
    return { mode: 'ecb', key };
  }

  /**
   * The candidate whose decryption of the index has the footer's SHA1 (the engine hashes the
   * decrypted index). A pak with a zeroed hash is judged by a sane mount point and count instead.
   */
  private findIndexKey(raw: Uint8Array): IndexKeyResult {
    if (this.candidates.length === 0) {
      return { locked: `index encrypted with ${this.guidText()}; no AES key given for it` };
    }
    const hashed = !isZero(this.footer.indexHash);
    for (const key of this.candidates) {
      const params = this.indexAes(key, this.footer.indexIv);
      // One AES block decides most wrong keys before the whole index is decrypted.
      const head = aesDecrypt(raw.subarray(0, Math.min(16, raw.length - (raw.length % 16))), params);
      if (head.length >= 4 && !plausibleStringLength(new DataView(head.buffer, head.byteOffset, 4).getInt32(0, true))) continue;
      const plain = aesDecrypt(raw, params);
      if (hashed ? equalBytes(sha1(plain), this.footer.indexHash) : plausibleIndex(plain)) return { key, index: plain };
    }
    return {
      locked: `index encrypted with ${this.guidText()}; none of the ${this.candidates.length} AES key(s) given decrypts it (wrong key)`,
    };
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
    return this.readEntry(ref, e, 0, e.uncompressedSize, signal);
  }

  /** `length` bytes from `offset` of a file's data (clamped to its size), decoding only the blocks that cover them. */
  async readRange(ref: number, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new RangeError(`range ${offset}+${length} is not a valid byte range`);
    }
    const e = this.entry(ref);
    const from = Math.min(offset, e.uncompressedSize);
    return this.readEntry(ref, e, from, Math.min(e.uncompressedSize, from + length), signal);
  }

  /** True when writeEntriesToFiles can have workers write files (a pak file read through the worker pool). */
  get writesInWorkers(): boolean {
    return this.planRunner !== null;
  }

  /**
   * Has workers read, decode and write whole files, file `refs[i]` to `to[i]` (export; see
   * file-write.ts), so their bytes never come to this thread; many go in one job, encrypted ones
   * with the key that worked so far. Needs writesInWorkers. One result per file: a failure is that
   * file's own, as read() reports it; one that fails with a key while others are left tries those.
   */
  async writeEntriesToFiles(refs: readonly number[], to: readonly WriteTarget[], signal?: AbortSignal): Promise<WriteResult[]> {
    const job = new WriteJobBuilder();
    const [results] = await writeBatches(job, [this.planEntryWrites(refs, to, job)], signal);
    return results!;
  }

  /** writeEntriesToFiles planned into `job`, which writeBatches runs with other archives' files. */
  planEntryWrites(refs: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): PlannedBatch {
    const runner = this.planRunner;
    if (!runner) throw new Error(`${this.name}: its decoder cannot write files (no worker pool)`);
    const slots: (number | Error)[] = [];
    /** Per file asked for that was planned: what its result is settled with. */
    const sent: ({ e: PakEntry; pieces: ReadPiece[]; path: string } | undefined)[] = [];
    for (const [i, ref] of refs.entries()) {
      try {
        const e = this.entry(ref);
        const path = this.pathOf(ref);
        // Written by a worker in pieces (file-write.ts): no single read of it, so no size limit.
        const pieces = this.checkedPieces(e, path, 0, e.uncompressedSize, false);
        const key = isEncrypted(e) ? this.entryKeys()[0]! : null;
        job.addPlan(this.entryPlan(e, pieces, 0, e.uncompressedSize, key), to[i]!);
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
      if (isEncrypted(e) && this.entryKeys().length > 1 && r instanceof DecodeError) {
        // A decode error with the first key: the others are tried, one file at a time.
        return this.runEntryPlan(e, pieces, 0, e.uncompressedSize, path, async (plan): Promise<WriteOutcome> => {
          const [one] = await runner.writePacked(packWrites([{ plan, to: to[i]! }]), signal);
          if (typeof one !== 'string') throw one;
          return one;
        }).catch(asError);
      }
      return asError(this.pieceError(r, pieces, path, isEncrypted(e)));
    };
    return { runner, slots, settle };
  }

  /** writeEntriesToFiles for one file: its outcome, or its failure thrown. */
  async writeEntryToFile(ref: number, to: WriteTarget, signal?: AbortSignal): Promise<WriteOutcome> {
    const [r] = await this.writeEntriesToFiles([ref], [to], signal);
    if (typeof r !== 'string') throw r;
    return r;
  }

  /**
   * The pieces covering [from, to) of an entry, once everything needed to read them is known to be
   * there; `oneRead`: they are read into one buffer, which holds MAX_READ_BYTES at most.
   */
  private checkedPieces(e: PakEntry, path: string, from: number, to: number, oneRead = true): ReadPiece[] {
    const pieces = planEntryRead(e, this.path, this.src.size, path, from, to);
    if (oneRead && to - from > MAX_READ_BYTES) {
      throw new RangeError(`${this.name}: "${path}" is ${e.uncompressedSize} bytes, more than one read can return (${MAX_READ_BYTES}); read it in ranges`);
    }
    const encrypted = isEncrypted(e);
    if (encrypted && !this.key) {
      throw new KeyError(`${this.name}: "${path}" is encrypted with ${this.guidText()}; no AES key given for it`);
    }
    if (encrypted && this.fmt.ctr && !e.iv) {
      throw new FormatError(this.path, `entry "${path}"`, e.offset, 'encrypted entry of an AES-CTR pak has no IV');
    }
    return pieces;
  }

  private async readEntry(ref: number, e: PakEntry, from: number, to: number, signal?: AbortSignal): Promise<Uint8Array> {
    const path = this.pathOf(ref);
    const pieces = this.checkedPieces(e, path, from, to);
    const encrypted = isEncrypted(e);
    const needsWork = encrypted || pieces.some((p) => p.codec !== 'None');
    // With a worker pool, a worker reads the stored bytes itself and sends back the file's bytes.
    if (this.planRunner && needsWork) {
      const runner = this.planRunner;
      return this.runEntryPlan(e, pieces, from, to, path, (plan) => runner.readPlan(plan, signal));
    }
    const out = new Uint8Array(to - from);
    for (let p0 = 0; p0 < pieces.length; p0 += PIECES_PER_BATCH) {
      signal?.throwIfAborted();
      const batch = pieces.slice(p0, p0 + PIECES_PER_BATCH);
      const stored = await this.readStored(batch, path);
      const decoded = needsWork ? await this.decodeBatch(e, batch, stored, path, signal) : stored;
      batch.forEach((p, i) => {
        const d = decoded[i]!;
        if (d.length !== p.uncompressedSize) throw this.badPieceSize(path, p, d.length);
        const s = Math.max(from, p.outOffset), t = Math.min(to, p.outOffset + p.uncompressedSize);
        out.set(d.subarray(s - p.outOffset, t - p.outOffset), s - from);
      });
    }
    return out;
  }

  private badPieceSize(path: string, p: ReadPiece, decoded: number): FormatError {
    return new FormatError(this.path, `entry "${path}"`, p.start, `block decodes to ${decoded} bytes, not ${p.uncompressedSize}`);
  }

  /**
   * Runs the plan for bytes [from, to) of an entry in a worker, with the working key first and
   * then the other candidates (see decodeBatch); errors as the inline path reports them.
   */
  private async runEntryPlan<T>(e: PakEntry, pieces: ReadPiece[], from: number, to: number, path: string,
    run: (plan: BlockPlan) => Promise<T>): Promise<T> {
    const encrypted = isEncrypted(e);
    let firstError: unknown = null;
    for (const key of encrypted ? this.entryKeys() : [null]) {
      try {
        const result = await run(this.entryPlan(e, pieces, from, to, key));
        if (key && key !== this.key) this.key = key; // the key that works for this pak's entries
        return result;
      } catch (err) {
        const mapped = this.pieceError(err, pieces, path, encrypted);
        // Only a block that does not decode may be a wrong key.
        if (!(err instanceof DecodeError) || mapped === err) throw mapped;
        firstError ??= mapped;
      }
    }
    throw firstError;
  }

  /**
   * A failure of a planned read or write as the inline path reports it: a short block is a
   * FormatError naming its piece, a DecodeError one naming the block (a wrong key, when
   * encrypted); anything else is returned as it is.
   */
  private pieceError(err: unknown, pieces: ReadPiece[], path: string, encrypted: boolean): unknown {
    const piece = pieces[jobIndexOf(err) ?? 0];
    if (err instanceof ShortBlockError && piece) return this.badPieceSize(path, piece, err.decodedLength);
    if (!(err instanceof DecodeError) || !piece) return err;
    return new FormatError(this.path, `entry "${path}" block at ${piece.start}`, piece.start,
      `${err.message}${encrypted ? ' (wrong AES key?)' : ''}`);
  }

  private entryPlan(e: PakEntry, pieces: ReadPiece[], from: number, to: number, key: Uint8Array | null): BlockPlan {
    const codecs: string[] = [];
    const blocks: number[] = [];
    for (const p of pieces) {
      let codec = codecs.indexOf(p.codec);
      if (codec < 0) codec = codecs.push(p.codec) - 1;
      const s = Math.max(from, p.outOffset), t = Math.min(to, p.outOffset + p.uncompressedSize);
      addPlanBlock(blocks, {
        file: 0, offset: p.start, stored: p.storedSize, compressed: p.compressedSize, uncompressed: p.uncompressedSize, codec,
        encrypted: key !== null, iv: 0, ctrBlock: p.ctrBlockIndex, at: s - from, skip: s - p.outOffset, take: t - s,
      });
    }
    return {
      files: [this.src.name], codecs, size: to - from, blocks,
      ...(key ? { key: key.slice() } : {}), ...(key && this.fmt.ctr ? { ctrIvs: e.iv!.slice() } : {}),
    };
  }

  /** Stored bytes of each piece; neighbouring pieces are read in one go. */
  private async readStored(pieces: ReadPiece[], path: string): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    let i = 0;
    while (i < pieces.length) {
      const first = pieces[i]!;
      let end = first.start + first.storedSize;
      let j = i + 1;
      while (j < pieces.length && pieces[j]!.start === end) end += pieces[j++]!.storedSize;
      const bytes = await this.src.read(first.start, end - first.start, `entry "${path}" data`);
      for (let k = i; k < j; k++) {
        const p = pieces[k]!;
        out.push(bytes.subarray(p.start - first.start, p.start - first.start + p.storedSize));
      }
      i = j;
    }
    return out;
  }

  private async decodeBatch(e: PakEntry, pieces: ReadPiece[], stored: Uint8Array[], path: string, signal?: AbortSignal): Promise<Uint8Array[]> {
    const encrypted = isEncrypted(e);
    const keys = encrypted ? this.entryKeys() : [null];
    let firstError: unknown = null;
    for (const key of keys) {
      const jobs: BlockJob[] = pieces.map((p, i) => ({
        data: stored[i]!,
        codec: p.codec,
        compressedSize: p.compressedSize,
        uncompressedSize: p.uncompressedSize,
        aes: key ? this.entryAes(key, e, p) : undefined,
      }));
      try {
        const decoded = await this.decoder.decode(jobs, signal);
        if (key && key !== this.key) this.key = key; // the key that works for this pak's entries
        return decoded;
      } catch (err) {
        if (!(err instanceof DecodeError)) throw err;
        const piece = pieces[jobIndexOf(err) ?? 0]!;
        firstError ??= new FormatError(this.path, `entry "${path}" block at ${piece.start}`, piece.start,
          `${err.message}${encrypted ? ' (wrong AES key?)' : ''}`);
      }
    }
    throw firstError;
  }

  /** The working key first, then the other candidates: a plain index cannot tell which key is right. */
  private entryKeys(): Uint8Array[] {
    return this.key ? [this.key, ...this.candidates.filter((k) => k !== this.key)] : this.candidates;
  }

  private entryAes(key: Uint8Array, e: PakEntry, p: ReadPiece): AesParams {
    if (this.fmt.ctr) return { mode: 'ctr', key, iv: e.iv!, blockIndex: p.ctrBlockIndex };
    return { mode: 'ecb', key };
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
      ...(e.hash && !isZero(e.hash) ? { storedHash: hex(e.hash) } : {}),
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
    const expected = hex(stored);
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
    fields['Index SHA1'] = hex(f.indexHash);
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

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex');
}

/** An FString length a mount point can have. */
function plausibleStringLength(n: number): boolean {
  return Math.abs(n) <= 1024;
}

/** A decrypted index that starts with a sane mount point and entry count (for paks with no hash). */
function plausibleIndex(plain: Uint8Array): boolean {
  try {
    const r = new BinaryReader(plain, 'index');
    const mountPoint = r.fstring(1024);
    if (/[\u0000-\u001f\u007f-\u009f]/.test(mountPoint)) return false;
    return r.i32() >= 0;
  } catch {
    return false;
  }
}
