/**
 * A write job's files packed for the trip to a worker: every plan's blocks in one Float64Array,
 * the few distinct file lists, codec tables and keys once, the names in one array. Sent as
 * PlannedWrite objects, a batch of 64 files cost about 6 µs a file to copy across (mostly the
 * worker taking apart 64 small object trees); packed, well under one.
 */
import { PLAN_STRIDE, type BlockPlan } from './block-plan.js';
import type { PlannedWrite } from './file-write.js';

export interface PackedWrites {
  count: number;
  /** Distinct `files` and `codecs` lists of the plans, and distinct keys. */
  fileLists: string[][];
  codecLists: string[][];
  keys: Uint8Array[];
  /** AES-CTR IVs of every plan that has them, one after the other. */
  ivs: Uint8Array;
  /** HEAD_STRIDE numbers per file, in the order of Head. */
  heads: Float64Array;
  /** Every plan's block table, one after the other. */
  blocks: Float64Array;
  /** Per file its target, then its temporary name. */
  names: string[];
}

const Head = { fileList: 0, codecList: 1, size: 2, firstBlock: 3, blockCount: 4, key: 5, ivStart: 6, ivLength: 7, checkTarget: 8 } as const;
const HEAD_STRIDE = 9;

export function packWrites(files: readonly PlannedWrite[]): PackedWrites {
  const fileLists: string[][] = [];
  const codecLists: string[][] = [];
  const keys: Uint8Array[] = [];
  const ivParts: Uint8Array[] = [];
  const heads = new Float64Array(files.length * HEAD_STRIDE);
  const blocks = new Float64Array(files.reduce((n, f) => n + f.plan.blocks.length, 0));
  const names: string[] = [];
  let blockAt = 0;
  let ivAt = 0;
  for (const [i, { plan, to }] of files.entries()) {
    const h = i * HEAD_STRIDE;
    heads[h + Head.fileList] = indexOf(fileLists, plan.files, sameStrings);
    heads[h + Head.codecList] = indexOf(codecLists, plan.codecs, sameStrings);
    heads[h + Head.size] = plan.size;
    heads[h + Head.firstBlock] = blockAt / PLAN_STRIDE;
    heads[h + Head.blockCount] = plan.blocks.length / PLAN_STRIDE;
    heads[h + Head.key] = plan.key ? indexOf(keys, plan.key, sameBytes) : -1;
    heads[h + Head.ivStart] = ivAt;
    heads[h + Head.ivLength] = plan.ctrIvs?.length ?? -1;
    heads[h + Head.checkTarget] = to.checkTarget ? 1 : 0;
    blocks.set(plan.blocks, blockAt);
    blockAt += plan.blocks.length;
    if (plan.ctrIvs) {
      ivParts.push(plan.ctrIvs);
      ivAt += plan.ctrIvs.length;
    }
    names.push(to.target, to.temp);
  }
  const ivs = new Uint8Array(ivAt);
  let at = 0;
  for (const p of ivParts) {
    ivs.set(p, at);
    at += p.length;
  }
  return { count: files.length, fileLists, codecLists, keys, ivs, heads, blocks, names };
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
  return { plan, to: { target: p.names[2 * i]!, temp: p.names[2 * i + 1]!, checkTarget: p.heads[h + Head.checkTarget] === 1 } };
}

/** The index of `item` in `list` (by identity first, then by content), added when missing. */
function indexOf<T>(list: T[], item: T, same: (a: T, b: T) => boolean): number {
  let i = list.indexOf(item);
  if (i < 0) i = list.findIndex((x) => same(x, item));
  return i < 0 ? list.push(item) - 1 : i;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
