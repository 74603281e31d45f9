/**
 * A write job's files packed for the trip to the workers: the few distinct file lists, codec
 * tables and keys once, and everything per file (head numbers, block tables, AES-CTR IVs, the
 * names as UTF-8) in one SharedArrayBuffer. A job shared by every thread (file-write.ts, Claim)
 * then crosses to each without a copy, and a thread decodes only the names of the files it takes.
 * Sent as PlannedWrite objects, a batch cost about 6 µs a file to clone and take apart; cloned
 * as plain arrays and strings, about 2 µs a file for each thread.
 */
import { PLAN_STRIDE, type BlockPlan } from './block-plan.js';
import type { PlannedWrite, WriteTarget } from './file-write.js';

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
  /** Every target and temporary name, UTF-8, where the heads say. */
  names: Uint8Array;
}

const Head = {
  fileList: 0, codecList: 1, size: 2, firstBlock: 3, blockCount: 4, key: 5, ivStart: 6, ivLength: 7, checkTarget: 8,
  target: 9, targetBytes: 10, temp: 11, tempBytes: 12,
} as const;
const HEAD_STRIDE = 13;

export function packWrites(files: readonly PlannedWrite[]): PackedWrites {
  let blockNumbers = 0;
  let ivBytes = 0;
  let nameRoom = 0;
  for (const { plan, to } of files) {
    blockNumbers += plan.blocks.length;
    ivBytes += plan.ctrIvs?.length ?? 0;
    // A UTF-16 code unit is 3 UTF-8 bytes at most.
    nameRoom += 3 * (to.target.length + to.temp.length);
  }
  const headBytes = 8 * HEAD_STRIDE * files.length;
  const shared = new SharedArrayBuffer(headBytes + 8 * blockNumbers + ivBytes + nameRoom);
  const heads = new Float64Array(shared, 0, HEAD_STRIDE * files.length);
  const blocks = new Float64Array(shared, headBytes, blockNumbers);
  const ivs = new Uint8Array(shared, headBytes + 8 * blockNumbers, ivBytes);
  const nameBytes = Buffer.from(shared, headBytes + 8 * blockNumbers + ivBytes, nameRoom);
  const fileLists: string[][] = [];
  const codecLists: string[][] = [];
  const keys: Uint8Array[] = [];
  let blockAt = 0;
  let ivAt = 0;
  let nameAt = 0;
  for (const [i, { plan, to }] of files.entries()) {
    const h = i * HEAD_STRIDE;
    heads[h + Head.fileList] = indexOf(fileLists, plan.files, sameStrings);
    heads[h + Head.codecList] = indexOf(codecLists, plan.codecs, sameStrings);
    heads[h + Head.size] = plan.size;
    heads[h + Head.firstBlock] = blockAt / PLAN_STRIDE;
    heads[h + Head.blockCount] = plan.blocks.length / PLAN_STRIDE;
    // A key may be a view into a bigger buffer, which cloning would send whole.
    heads[h + Head.key] = plan.key ? indexOf(keys, plan.key, sameBytes, (k) => k.slice()) : -1;
    heads[h + Head.ivStart] = ivAt;
    heads[h + Head.ivLength] = plan.ctrIvs?.length ?? -1;
    heads[h + Head.checkTarget] = to.checkTarget ? 1 : 0;
    blocks.set(plan.blocks, blockAt);
    blockAt += plan.blocks.length;
    if (plan.ctrIvs) {
      ivs.set(plan.ctrIvs, ivAt);
      ivAt += plan.ctrIvs.length;
    }
    heads[h + Head.target] = nameAt;
    nameAt += heads[h + Head.targetBytes] = nameBytes.write(to.target, nameAt, 'utf8');
    heads[h + Head.temp] = nameAt;
    nameAt += heads[h + Head.tempBytes] = nameBytes.write(to.temp, nameAt, 'utf8');
  }
  return { count: files.length, fileLists, codecLists, keys, heads, blocks, ivs, names: nameBytes.subarray(0, nameAt) };
}

/** File `i` of a packed job, as it was planned (its block table a view into the packed one). */
export function unpackWrite(p: PackedWrites, i: number): PlannedWrite {
  const h = i * HEAD_STRIDE;
  const first = p.heads[h + Head.firstBlock]! * PLAN_STRIDE;
  const plan: BlockPlan = {
    files: p.fileLists[p.heads[h + Head.fileList]!]!,
    codecs: p.codecLists[p.heads[h + Head.codecList]!]!,
    size: p.heads[h + Head.size]!,
    blocks: p.blocks.subarray(first, first + p.heads[h + Head.blockCount]! * PLAN_STRIDE),
  };
  const key = p.heads[h + Head.key]!;
  if (key >= 0) plan.key = p.keys[key]!;
  const ivLength = p.heads[h + Head.ivLength]!;
  if (ivLength >= 0) plan.ctrIvs = p.ivs.subarray(p.heads[h + Head.ivStart]!, p.heads[h + Head.ivStart]! + ivLength);
  return { plan, to: new PackedTarget(p, h) };
}

/** A file's names, read from the packed job when asked (the temporary name seldom is). */
class PackedTarget implements WriteTarget {
  private own: string | undefined;

  constructor(private readonly p: PackedWrites, private readonly h: number) {}

  get target(): string {
    return this.own ??= this.name(Head.target, Head.targetBytes);
  }

  get temp(): string {
    return this.name(Head.temp, Head.tempBytes);
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
function indexOf<T>(list: T[], item: T, same: (a: T, b: T) => boolean, own: (x: T) => T = (x) => x): number {
  let i = list.indexOf(item);
  if (i < 0) i = list.findIndex((x) => same(x, item));
  return i < 0 ? list.push(own(item)) - 1 : i;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
