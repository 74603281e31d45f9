/**
 * A write job's files packed for the trip to the workers: the few distinct file lists, codec
 * tables and keys once, and everything per file (head numbers, block tables, AES-CTR IVs, the
 * names as UTF-8) in one SharedArrayBuffer. A job shared by every thread (file-write.ts, Claim)
 * then crosses to each without a copy, and a thread decodes only the names of the files it takes.
 * Sent as PlannedWrite objects, a batch cost about 6 µs a file to clone and take apart; cloned
 * as plain arrays and strings, about 2 µs a file for each thread.
 */
import { PLAN_STRIDE, type BlockPlan } from './block-plan.js';
import { numberedTemp, type PlannedWrite, type SplitWriteTarget, type WriteTarget } from './file-write.js';

export interface PackedWrites {
  count: number;
  /** Distinct `files` and `codecs` lists of the plans, and distinct keys. */
  fileLists: string[][];
  codecLists: string[][];
  keys: Uint8Array[];
  /** HEAD_STRIDE numbers per file, in the order of Head. */
  heads: Float64Array;
  /** Every plan's block table, one after the other. */
  blocks: Float64Array;
  /** AES-CTR IVs of every plan that has them, one after the other. */
  ivs: Uint8Array;
  /** The folders of the targets (with their trailing separator; '' where a target is packed whole). */
  dirs: string[];
  /** The prefixes of numbered temporary names (SplitWriteTarget.tempPrefix). */
  tempPrefixes: string[];
  /**
   * Every target name, and every temporary name that is not numbered, UTF-8, where the heads say
   * (each after its folder in `dirs`).
   */
  names: Uint8Array;
}

/**
 * A file's numbers. `temp`, `tempBytes`: where its temporary name is in `names`, or, numbered,
 * its number and -(1 + the index of its prefix in `tempPrefixes`).
 */
const Head = {
  fileList: 0, codecList: 1, size: 2, firstBlock: 3, blockCount: 4, key: 5, ivStart: 6, ivLength: 7, checkTarget: 8,
  dir: 9, target: 10, targetBytes: 11, temp: 12, tempBytes: 13,
} as const;
const HEAD_STRIDE = 14;

/** A write job packed from files planned beforehand (a retry, a test). */
export function packWrites(files: readonly PlannedWrite[]): PackedWrites {
  const job = new WriteJobBuilder();
  for (const { plan, to } of files) job.addPlan(plan, to);
  return job.build();
}

/**
 * Packs a write job as its files are planned: an archive writes each file's head, blocks and IVs
 * straight into growing tables (IoStoreContainer.planChunkWrites), with no plan object or block
 * array per file for the collector, and build() copies the tables into one SharedArrayBuffer.
 *
 *   job.file(files, codecs, size, key, to);  // then its blocks, in order:
 *   job.block(file, offset, stored, compressed, uncompressed, codec, encrypted, iv, ctrBlock, at, skip, take);
 */
export class WriteJobBuilder {
  private heads = new Float64Array(HEAD_STRIDE * 32);
  private blocks = new Float64Array(PLAN_STRIDE * 32);
  private ivs = new Uint8Array(0);
  private names = Buffer.allocUnsafe(8 * 1024);
  private count = 0;
  private blockAt = 0;
  private ivAt = 0;
  private nameAt = 0;
  private readonly fileLists: string[][] = [];
  private readonly codecLists: string[][] = [];
  private readonly keys: Uint8Array[] = [];
  private readonly dirs: string[] = [];
  private readonly tempPrefixes: string[] = [];
  private readonly dirIndices = new Map<string, number>();
  private lastDir = '';
  private lastDirIndex = -1;

  /** Files in the job so far: the index the next file gets. */
  get files(): number {
    return this.count;
  }

  /**
   * Starts the next file: the stored bytes are in `files`, decoded by `codecs` (both indexed by
   * its blocks, which follow), `key` for its encrypted blocks; it goes to `to`.
   */
  file(files: string[], codecs: string[], size: number, key: Uint8Array | undefined, to: WriteTarget): void {
    const h = this.count * HEAD_STRIDE;
    if (h + HEAD_STRIDE > this.heads.length) this.heads = grown(this.heads, h + HEAD_STRIDE);
    const heads = this.heads;
    heads[h + Head.fileList] = indexOf(this.fileLists, files, sameStrings);
    heads[h + Head.codecList] = indexOf(this.codecLists, codecs, sameStrings);
    heads[h + Head.size] = size;
    heads[h + Head.firstBlock] = this.blockAt / PLAN_STRIDE;
    heads[h + Head.blockCount] = 0;
    // A key may be a view into a bigger buffer, which cloning would send whole.
    heads[h + Head.key] = key ? indexOf(this.keys, key, sameBytes, (k) => k.slice()) : -1;
    heads[h + Head.ivStart] = this.ivAt;
    heads[h + Head.ivLength] = -1;
    heads[h + Head.checkTarget] = to.checkTarget ? 1 : 0;
    // Split: the folder once per job, the name per file, the temporary name as its number. Else
    // both paths whole, after folder ''.
    if ('dirPrefix' in to) {
      const split = to as SplitWriteTarget;
      heads[h + Head.dir] = this.dirIndex(split.dirPrefix);
      this.addName(h + Head.target, split.name);
      heads[h + Head.temp] = split.tempNumber;
      heads[h + Head.tempBytes] = -1 - indexOf(this.tempPrefixes, split.tempPrefix, Object.is);
    } else {
      heads[h + Head.dir] = this.dirIndex('');
      this.addName(h + Head.target, to.target);
      this.addName(h + Head.temp, to.temp);
    }
    this.count++;
  }

  /** `name` appended to the names, its start and length at heads[at] and heads[at + 1]. */
  private addName(at: number, name: string): void {
    // A UTF-16 code unit is 3 UTF-8 bytes at most.
    const room = this.nameAt + 3 * name.length;
    if (room > this.names.length) {
      const names = Buffer.allocUnsafe(Math.max(room, 2 * this.names.length));
      this.names.copy(names, 0, 0, this.nameAt);
      this.names = names;
    }
    this.heads[at] = this.nameAt;
    this.nameAt += this.heads[at + 1] = this.names.write(name, this.nameAt, 'utf8');
  }

  /** The index of folder `dir` in the job's list: files come folder by folder. */
  private dirIndex(dir: string): number {
    if (dir === this.lastDir && this.lastDirIndex >= 0) return this.lastDirIndex;
    let i = this.dirIndices.get(dir);
    if (i === undefined) {
      i = this.dirs.push(dir) - 1;
      this.dirIndices.set(dir, i);
    }
    this.lastDir = dir;
    this.lastDirIndex = i;
    return i;
  }

  /** The next block of the file started last: the fields of PlanField, in order. */
  block(file: number, offset: number, stored: number, compressed: number, uncompressed: number, codec: number, encrypted: number,
    iv: number, ctrBlock: number, at: number, skip: number, take: number): void {
    const b = this.blockAt;
    if (b + PLAN_STRIDE > this.blocks.length) this.blocks = grown(this.blocks, b + PLAN_STRIDE);
    const t = this.blocks;
    t[b] = file;
    t[b + 1] = offset;
    t[b + 2] = stored;
    t[b + 3] = compressed;
    t[b + 4] = uncompressed;
    t[b + 5] = codec;
    t[b + 6] = encrypted;
    t[b + 7] = iv;
    t[b + 8] = ctrBlock;
    t[b + 9] = at;
    t[b + 10] = skip;
    t[b + 11] = take;
    this.blockAt = b + PLAN_STRIDE;
    this.heads[(this.count - 1) * HEAD_STRIDE + Head.blockCount]!++;
  }

  /** AES-CTR IVs of the file started last, appended to those it has (its blocks' `iv` index them, 12 bytes each). */
  addIvs(ivs: Uint8Array): void {
    if (this.ivAt + ivs.length > this.ivs.length) {
      const more = new Uint8Array(Math.max(this.ivAt + ivs.length, 2 * this.ivs.length));
      more.set(this.ivs.subarray(0, this.ivAt));
      this.ivs = more;
    }
    this.ivs.set(ivs, this.ivAt);
    this.ivAt += ivs.length;
    const h = (this.count - 1) * HEAD_STRIDE;
    this.heads[h + Head.ivLength] = this.ivAt - this.heads[h + Head.ivStart]!;
  }

  /** Each file's size (its output bytes), by its index in the job. */
  sizes(): Float64Array {
    const sizes = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) sizes[i] = this.heads[i * HEAD_STRIDE + Head.size]!;
    return sizes;
  }

  /** Takes back the file started last (planning it failed part-way). */
  dropFile(): void {
    const h = (this.count - 1) * HEAD_STRIDE;
    this.blockAt = this.heads[h + Head.firstBlock]! * PLAN_STRIDE;
    this.ivAt = this.heads[h + Head.ivStart]!;
    this.nameAt = this.heads[h + Head.target]!;
    this.count--;
  }

  /** A file planned as a BlockPlan. */
  addPlan(plan: BlockPlan, to: WriteTarget): void {
    this.file(plan.files, plan.codecs, plan.size, plan.key, to);
    const n = plan.blocks.length;
    if (this.blockAt + n > this.blocks.length) this.blocks = grown(this.blocks, this.blockAt + n);
    this.blocks.set(plan.blocks, this.blockAt);
    this.blockAt += n;
    this.heads[(this.count - 1) * HEAD_STRIDE + Head.blockCount] = n / PLAN_STRIDE;
    if (plan.ctrIvs) this.addIvs(plan.ctrIvs);
  }

  /** The job, its tables copied into one SharedArrayBuffer. */
  build(): PackedWrites {
    const headNumbers = HEAD_STRIDE * this.count;
    const shared = new SharedArrayBuffer(8 * (headNumbers + this.blockAt) + this.ivAt + this.nameAt);
    const heads = new Float64Array(shared, 0, headNumbers);
    heads.set(this.heads.subarray(0, headNumbers));
    const blocks = new Float64Array(shared, 8 * headNumbers, this.blockAt);
    blocks.set(this.blocks.subarray(0, this.blockAt));
    const ivs = new Uint8Array(shared, 8 * (headNumbers + this.blockAt), this.ivAt);
    ivs.set(this.ivs.subarray(0, this.ivAt));
    const names = new Uint8Array(shared, 8 * (headNumbers + this.blockAt) + this.ivAt, this.nameAt);
    names.set(this.names.subarray(0, this.nameAt));
    return {
      count: this.count, fileLists: this.fileLists, codecLists: this.codecLists, keys: this.keys, heads, blocks, ivs, dirs: this.dirs,
      tempPrefixes: this.tempPrefixes, names,
    };
  }
}

/** A copy of `a` with room for `need` numbers at least. */
function grown(a: Float64Array, need: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}

/** Bytes the job's files come to. */
export function packedBytes(p: PackedWrites): number {
  let n = 0;
  for (let h = Head.size; h < p.heads.length; h += HEAD_STRIDE) n += p.heads[h]!;
  return n;
}

/** File `i` of a packed job, as it was planned (its block table a view into the packed one). */
export function unpackWrite(p: PackedWrites, i: number): PlannedWrite {
  const h = i * HEAD_STRIDE;
  const first = p.heads[h + Head.firstBlock]! * PLAN_STRIDE;
  const plan: BlockPlan = {
    // `| 0`: the heads are doubles, and an array indexed by a double is looked up by its string.
    files: p.fileLists[p.heads[h + Head.fileList]! | 0]!,
    codecs: p.codecLists[p.heads[h + Head.codecList]! | 0]!,
    size: p.heads[h + Head.size]!,
    blocks: p.blocks.subarray(first, first + p.heads[h + Head.blockCount]! * PLAN_STRIDE),
  };
  const key = p.heads[h + Head.key]!;
  if (key >= 0) plan.key = p.keys[key | 0]!;
  const ivLength = p.heads[h + Head.ivLength]!;
  if (ivLength >= 0) plan.ctrIvs = p.ivs.subarray(p.heads[h + Head.ivStart]!, p.heads[h + Head.ivStart]! + ivLength);
  return { plan, to: new PackedTarget(p, h) };
}

/** A file's names, read from the packed job when asked (the temporary name seldom is). */
class PackedTarget implements WriteTarget {
  private own: string | undefined;

  constructor(private readonly p: PackedWrites, private readonly h: number) {}

  get target(): string {
    return this.own ??= this.dir() + this.name(Head.target, Head.targetBytes);
  }

  get temp(): string {
    const prefix = this.p.heads[this.h + Head.tempBytes]!;
    if (prefix < 0) return this.dir() + numberedTemp(this.p.tempPrefixes[-1 - prefix]!, this.p.heads[this.h + Head.temp]!);
    return this.dir() + this.name(Head.temp, Head.tempBytes);
  }

  private dir(): string {
    return this.p.dirs[this.p.heads[this.h + Head.dir]! | 0]!;
  }

  get checkTarget(): boolean {
    return this.p.heads[this.h + Head.checkTarget] === 1;
  }

  private name(start: number, bytes: number): string {
    const at = this.p.heads[this.h + start]!;
    return Buffer.prototype.utf8Slice.call(this.p.names, at, at + this.p.heads[this.h + bytes]!) as string;
  }
}

/** The index of `item` in `list` (by identity first, then by content), added (as `own(item)`) when missing. */
function indexOf<T>(list: T[], item: T, same: (a: T, b: T) => boolean, own: (x: T) => T = itself): number {
  let i = list.indexOf(item);
  if (i < 0) i = list.findIndex((x) => same(x, item));
  return i < 0 ? list.push(own(item)) - 1 : i;
}

/** A shared default: a default `(x) => x` would be a new closure per call, twice per packed file. */
function itself<T>(x: T): T {
  return x;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
