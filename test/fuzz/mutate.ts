/**
 * Mutations of a file's bytes, each a small JSON record (kind, offsets, values) so a failure can
 * be saved as a recipe and replayed without keeping any game bytes. `generateMutations` makes them
 * from a seed and the bytes; `applyMutations` replays them.
 */

/** A seeded PRNG (mulberry32): the same seed gives the same mutations on every machine. */
export class Rng {
  private s: number;
  constructor(seed: number) { this.s = seed >>> 0; }
  /** Uniform in [0, 2^32). */
  u32(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number { return n <= 0 ? 0 : Math.floor((this.u32() / 2 ** 32) * n); }
  pick<T>(items: readonly T[]): T { return items[this.int(items.length)]!; }
  chance(p: number): boolean { return this.u32() / 2 ** 32 < p; }
}

/** Flip one bit. */
export interface FlipMutation { kind: 'flip'; offset: number; bit: number }
/** Overwrite bytes with values. */
export interface SetMutation { kind: 'set'; offset: number; values: number[] }
/** Cut the file to `length` bytes. */
export interface TruncateMutation { kind: 'truncate'; length: number }
/**
 * Replace an integer field that looks like a count, size or offset: `width` bytes, little- or
 * big-endian (the .utoc's 40-bit offsets are big-endian), `value` as decimal text (u64 fits).
 */
export interface IntMutation { kind: 'int'; offset: number; width: 2 | 4 | 5 | 8; endian: 'le' | 'be'; value: string; was: string }
/**
 * Bytes of another file: with `length`, they overwrite [at, at+length); without, the file becomes
 * its first `at` bytes followed by the other file from `fromOffset` on.
 */
export interface SpliceMutation {
  kind: 'splice'; at: number; from: string; fromSha256: string; fromOffset: number; length?: number;
}

export type Mutation = FlipMutation | SetMutation | TruncateMutation | IntMutation | SpliceMutation;

/** The bytes of a splice's other file, by the name the recipe gives it. */
export type SpliceSource = (name: string) => Uint8Array;

export function readUint(b: Uint8Array, at: number, width: number, endian: 'le' | 'be'): bigint {
  let v = 0n;
  for (let i = 0; i < width; i++) {
    const byte = b[endian === 'le' ? at + width - 1 - i : at + i]!;
    v = (v << 8n) | BigInt(byte);
  }
  return v;
}

function writeUint(b: Uint8Array, at: number, width: number, endian: 'le' | 'be', value: bigint): void {
  let v = BigInt.asUintN(width * 8, value);
  for (let i = 0; i < width; i++) {
    b[endian === 'le' ? at + i : at + width - 1 - i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** Applies the mutations in order to a copy of `bytes`; offsets past the (current) end are skipped. */
export function applyMutations(bytes: Uint8Array, mutations: readonly Mutation[], other: SpliceSource): Uint8Array {
  let b = bytes.slice();
  for (const m of mutations) {
    switch (m.kind) {
      case 'flip':
        if (m.offset < b.length) b[m.offset] = b[m.offset]! ^ (1 << (m.bit & 7));
        break;
      case 'set':
        m.values.forEach((v, i) => { if (m.offset + i < b.length) b[m.offset + i] = v & 0xff; });
        break;
      case 'truncate':
        b = b.subarray(0, Math.min(b.length, m.length));
        break;
      case 'int':
        if (m.offset + m.width <= b.length) writeUint(b, m.offset, m.width, m.endian, BigInt(m.value));
        break;
      case 'splice': {
        const src = other(m.from);
        if (m.length !== undefined) {
          const piece = src.subarray(m.fromOffset, m.fromOffset + m.length);
          b.set(piece.subarray(0, Math.max(0, b.length - m.at)), Math.min(m.at, b.length));
        } else {
          const head = b.subarray(0, Math.min(m.at, b.length));
          const tail = src.subarray(Math.min(m.fromOffset, src.length));
          const out = new Uint8Array(head.length + tail.length);
          out.set(head);
          out.set(tail, head.length);
          b = out;
        }
        break;
      }
    }
  }
  return b;
}

/** A file another mutation may splice in: its name for the recipe, hash and bytes. */
export interface SpliceCandidate { name: string; sha256: string; bytes: Uint8Array }

export interface GenerateOptions {
  /** Files of the same kind to splice from. */
  spliceFrom?: readonly SpliceCandidate[];
  /** Integer fields are big-endian 40-bit here too (a .utoc's offset-and-length table). */
  utoc?: boolean;
  /** Where mutations should land more often (a .utoc's header, a pak's footer and index): [start, end). */
  hotRanges?: readonly [number, number][];
}

/** Values a hostile count, size or offset takes, given the stored one and the file size. */
function hostileValues(was: bigint, fileSize: number, width: number): bigint[] {
  const size = BigInt(fileSize);
  const out = [
    0n, 1n, was + 1n, was - 1n, was + 4n, was - 4n, was + 8n, was * 2n, was + size, size, size - 1n,
    was << 8n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0xfffffffen, 0x10000000n, 0x40000000n, 0x00ffffffn,
  ];
  if (width === 8) out.push(2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 64n - 1n, 2n ** 32n + was, -was);
  if (width === 5) out.push(2n ** 40n - 1n, 2n ** 32n + was);
  if (width === 2) out.push(0xffffn, 0x8000n);
  return out.map((v) => BigInt.asUintN(width * 8, v));
}

/** An offset: in a hot range half the time, else anywhere. */
function pickOffset(rng: Rng, length: number, opts: GenerateOptions, room = 1): number {
  const hot = opts.hotRanges?.filter(([s, e]) => e - s >= room && e <= length) ?? [];
  if (hot.length > 0 && rng.chance(0.5)) {
    const [s, e] = rng.pick(hot);
    return s + rng.int(e - s - room + 1);
  }
  return rng.int(Math.max(1, length - room + 1));
}

/**
 * An integer field that looks like a count (small) or an offset/size (inside the file): a few
 * random places are looked at and the first that fits is taken, 4-byte aligned ones preferred.
 */
function findIntField(rng: Rng, b: Uint8Array, opts: GenerateOptions): { offset: number; width: 2 | 4 | 5 | 8; endian: 'le' | 'be'; was: bigint } | null {
  const widths: { width: 2 | 4 | 5 | 8; endian: 'le' | 'be' }[] = [
    { width: 4, endian: 'le' }, { width: 4, endian: 'le' }, { width: 4, endian: 'le' }, { width: 8, endian: 'le' }, { width: 2, endian: 'le' },
  ];
  if (opts.utoc) widths.push({ width: 5, endian: 'be' }, { width: 5, endian: 'be' });
  for (let tries = 0; tries < 64; tries++) {
    const { width, endian } = rng.pick(widths);
    if (b.length < width) return null;
    let offset = pickOffset(rng, b.length, opts, width);
    if (width !== 5 && rng.chance(0.7)) offset -= offset % Math.min(width, 4);
    const was = readUint(b, offset, width, endian);
    const countLike = was >= 1n && was <= 100_000n;
    const offsetLike = was >= 16n && was < BigInt(b.length) * 4n;
    if (countLike || offsetLike) return { offset, width, endian, was };
  }
  return null;
}

/** 1 to 3 mutations (mostly 1) of `bytes`, from `rng`. */
export function generateMutations(rng: Rng, bytes: Uint8Array, opts: GenerateOptions = {}): Mutation[] {
  const n = rng.chance(0.7) ? 1 : rng.chance(0.6) ? 2 : 3;
  const out: Mutation[] = [];
  let length = bytes.length;
  for (let k = 0; k < n && length > 0; k++) {
    const roll = rng.int(100);
    if (roll < 40) {
      const field = findIntField(rng, bytes, opts);
      if (field && field.offset + field.width <= length) {
        const value = rng.pick(hostileValues(field.was, bytes.length, field.width));
        out.push({ kind: 'int', offset: field.offset, width: field.width, endian: field.endian, value: value.toString(), was: field.was.toString() });
        continue;
      }
    }
    if (roll < 60) {
      out.push({ kind: 'flip', offset: pickOffset(rng, length, opts), bit: rng.int(8) });
    } else if (roll < 75) {
      const count = 1 + rng.int(4);
      const offset = pickOffset(rng, length, opts, Math.min(count, length));
      const fill = rng.pick([0x00, 0xff, 0x7f, 0x80, -1]);
      out.push({ kind: 'set', offset, values: Array.from({ length: count }, () => (fill < 0 ? rng.int(256) : fill)) });
    } else if (roll < 87) {
      // Cut near the end (footers), in a hot range, or anywhere.
      const cut = rng.chance(0.3) ? Math.max(0, length - 1 - rng.int(256)) : pickOffset(rng, length, opts);
      out.push({ kind: 'truncate', length: cut });
      length = cut;
    } else {
      const others = opts.spliceFrom ?? [];
      if (others.length === 0) { out.push({ kind: 'flip', offset: pickOffset(rng, length, opts), bit: rng.int(8) }); continue; }
      const o = rng.pick(others);
      if (o.bytes.length === 0) continue;
      const at = pickOffset(rng, length, opts);
      const fromOffset = rng.int(o.bytes.length);
      if (rng.chance(0.5)) {
        const len = Math.min(1 + rng.int(256), o.bytes.length - fromOffset);
        out.push({ kind: 'splice', at, from: o.name, fromSha256: o.sha256, fromOffset, length: len });
      } else {
        out.push({ kind: 'splice', at, from: o.name, fromSha256: o.sha256, fromOffset });
        length = at + o.bytes.length - fromOffset;
      }
    }
  }
  return out;
}
