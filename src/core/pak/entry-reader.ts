/**
 * Reading a .pak entry's data: the pieces its record describes (read-plan.ts), read from the file
 * and decoded (decrypted, decompressed) inline or through a BlockDecoder, or run whole by a worker
 * (block-plan.ts). Encrypted entries of a pak whose index cannot tell the key are tried with each
 * key given, the one that worked first (EntryKeys).
 */
import type { AesParams } from '../crypto/aes.js';
import { keyGuidText } from '../crypto/index-key.js';
import { DecodeError, FormatError, KeyError } from '../errors.js';
import type { ByteSource } from '../io/byte-source.js';
import { jobIndexOf, type BlockDecoder, type BlockJob } from '../workers/block-job.js';
import { addPlanBlock, ShortBlockError, type BlockPlan, type PlanRunner } from '../workers/block-plan.js';
import { isEncrypted, type EntryFormat, type PakEntry } from './entry.js';
import { planEntryRead, type ReadPiece } from './read-plan.js';

/** Pieces decoded per batch: bounds the stored bytes a huge entry holds in flight. */
const PIECES_PER_BATCH = 64;
/** One read() returns one Uint8Array; entries above this are refused rather than half-allocated. */
export const MAX_READ_BYTES = 2 ** 31 - 1;

/** The keys for a pak's encrypted entries. */
export class EntryKeys {
  /** The key that opened the index or last decoded an entry, else the first candidate. */
  current: Uint8Array | null = null;
  candidates: Uint8Array[] = [];

  constructor(readonly guid: string) {}

  /** The working key first, then the other candidates: a plain index cannot tell which key is right. */
  ordered(): Uint8Array[] {
    return this.current ? [this.current, ...this.candidates.filter((k) => k !== this.current)] : this.candidates;
  }

  /** `key` decoded an entry: it is tried first from now on. */
  worked(key: Uint8Array): void {
    if (key !== this.current) this.current = key;
  }
}

export class PakEntryReader {
  constructor(
    /** The pak's path and name, for errors. */
    private readonly path: string,
    private readonly name: string,
    private readonly src: ByteSource,
    private readonly fmt: EntryFormat,
    private readonly decoder: BlockDecoder,
    /** Null when the pak is not a plain file or the decoder has no workers. */
    readonly planRunner: PlanRunner | null,
    readonly keys: EntryKeys,
  ) {}

  /**
   * The pieces covering [from, to) of an entry, once everything needed to read them is known to be
   * there; `oneRead`: they are read into one buffer, which holds MAX_READ_BYTES at most.
   */
  checkedPieces(e: PakEntry, path: string, from: number, to: number, oneRead = true): ReadPiece[] {
    const pieces = planEntryRead(e, this.path, this.src.size, path, from, to);
    if (oneRead && to - from > MAX_READ_BYTES) {
      throw new RangeError(`${this.name}: "${path}" is ${e.uncompressedSize} bytes, more than one read can return (${MAX_READ_BYTES}); read it in ranges`);
    }
    const encrypted = isEncrypted(e);
    if (encrypted && !this.keys.current) {
      throw new KeyError(`${this.name}: "${path}" is encrypted with ${keyGuidText(this.keys.guid)}; no AES key given for it`);
    }
    if (encrypted && this.fmt.ctr && !e.iv) {
      throw new FormatError(this.path, `entry "${path}"`, e.offset, 'encrypted entry of an AES-CTR pak has no IV');
    }
    return pieces;
  }

  /** Bytes [from, to) of the entry's data; `path` names it in errors. */
  async readEntry(e: PakEntry, path: string, from: number, to: number, signal?: AbortSignal): Promise<Uint8Array> {
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
  async runEntryPlan<T>(e: PakEntry, pieces: ReadPiece[], from: number, to: number, path: string,
    run: (plan: BlockPlan) => Promise<T>): Promise<T> {
    const encrypted = isEncrypted(e);
    let firstError: unknown = null;
    for (const key of encrypted ? this.keys.ordered() : [null]) {
      try {
        const result = await run(this.entryPlan(e, pieces, from, to, key));
        if (key) this.keys.worked(key);
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
  pieceError(err: unknown, pieces: ReadPiece[], path: string, encrypted: boolean): unknown {
    const piece = pieces[jobIndexOf(err) ?? 0];
    if (err instanceof ShortBlockError && piece) return this.badPieceSize(path, piece, err.decodedLength);
    if (!(err instanceof DecodeError) || !piece) return err;
    return new FormatError(this.path, `entry "${path}" block at ${piece.start}`, piece.start,
      `${err.message}${encrypted ? ' (wrong AES key?)' : ''}`);
  }

  entryPlan(e: PakEntry, pieces: ReadPiece[], from: number, to: number, key: Uint8Array | null): BlockPlan {
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
    const keys = encrypted ? this.keys.ordered() : [null];
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
        if (key) this.keys.worked(key);
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

  private entryAes(key: Uint8Array, e: PakEntry, p: ReadPiece): AesParams {
    if (this.fmt.ctr) return { mode: 'ctr', key, iv: e.iv!, blockIndex: p.ctrBlockIndex };
    return { mode: 'ecb', key };
  }
}
