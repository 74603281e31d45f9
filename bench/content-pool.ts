/**
 * Bytes that compress like game data, made once and sliced for every file: tagged-property
 * streams (FName indices, small ints: compress about 4:1), vertex and animation floats (about
 * 1.5:1), block-compressed texture and audio data (barely), and real decoded game blocks (the
 * Kraken blocks' contents). Slicing a pool is fast, and each slice compresses like its source.
 */
import { Rng } from './rng.js';

export type ContentKind = 'properties' | 'floats' | 'texture' | 'audio';

export const POOL_BLOCK = 65536;

function properties(rng: Rng, out: Uint8Array): void {
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let at = 0;
  while (at + 32 <= out.length) {
    // FPropertyTag-like: name index, type name index, size, array index, a value.
    dv.setUint32(at, rng.skewed(400, 2), true);
    dv.setUint32(at + 4, 0, true);
    dv.setUint32(at + 8, rng.skewed(24, 2), true);
    dv.setUint32(at + 12, rng.pick([4, 8, 12, 16, 24]), true);
    dv.setUint32(at + 16, 0, true);
    const kind = rng.int(4);
    if (kind === 0) dv.setFloat32(at + 20, Math.round(rng.next() * 100) / 4, true);
    else if (kind === 1) dv.setInt32(at + 20, rng.skewed(64, 3), true);
    else if (kind === 2) dv.setUint32(at + 20, rng.int(0x7fffffff), true);
    else dv.setUint32(at + 20, 0xffffffff, true);
    dv.setUint32(at + 24, rng.chance(0.7) ? 0 : rng.int(256), true);
    dv.setUint32(at + 28, rng.chance(0.5) ? 0 : rng.skewed(400, 2), true);
    at += 32;
  }
}

function floats(rng: Rng, out: Uint8Array): void {
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  // Interleaved position, normal, uv streams along a smooth surface.
  let t = rng.next() * 100;
  for (let at = 0; at + 32 <= out.length; at += 32) {
    t += 0.01 + rng.next() * 0.02;
    dv.setFloat32(at, Math.fround(Math.sin(t) * 120.5), true);
    dv.setFloat32(at + 4, Math.fround(Math.cos(t * 0.7) * 80.25), true);
    dv.setFloat32(at + 8, Math.fround(t * 3), true);
    dv.setInt8(at + 12, Math.round(Math.sin(t) * 127));
    dv.setInt8(at + 13, Math.round(Math.cos(t) * 127));
    dv.setInt8(at + 14, 0);
    dv.setInt8(at + 15, 127);
    dv.setUint16(at + 16, Math.round(((t * 0.1) % 1) * 65535), true);
    dv.setUint16(at + 18, Math.round(((t * 0.37) % 1) * 65535), true);
    dv.setUint32(at + 20, 0xff000000 | rng.int(4), true);
    dv.setFloat32(at + 24, Math.fround(1 - ((t * 0.05) % 1)), true);
    dv.setFloat32(at + 28, 0, true);
  }
}

function texture(rng: Rng, out: Uint8Array): void {
  // BC1-like 8-byte blocks: two close 565 colours, 32 bits of 2-bit indices.
  let base = rng.int(65536);
  for (let at = 0; at + 8 <= out.length; at += 8) {
    base = (base + rng.range(-40, 40)) & 0xffff;
    const c1 = (base + rng.int(64)) & 0xffff;
    out[at] = base & 0xff; out[at + 1] = base >> 8;
    out[at + 2] = c1 & 0xff; out[at + 3] = c1 >> 8;
    const flat = rng.chance(0.2);
    for (let k = 4; k < 8; k++) out[at + k] = flat ? 0 : rng.int(256);
  }
}

function audio(rng: Rng, out: Uint8Array): void {
  // Already compressed audio packets: nearly random, with small frame headers.
  for (let at = 0; at < out.length; at++) out[at] = rng.int(256);
  for (let at = 0; at + 4 <= out.length; at += 1024) { out[at] = 0x4f; out[at + 1] = 0x67; out[at + 2] = 0x67; out[at + 3] = 0x53; }
}

const MAKERS: Record<ContentKind, (rng: Rng, out: Uint8Array) => void> = { properties, floats, texture, audio };

export function makeBlock(kind: ContentKind, rng: Rng): Uint8Array {
  const b = new Uint8Array(POOL_BLOCK);
  MAKERS[kind](rng, b);
  return b;
}

/** A pool of bytes to slice export data from: the given kinds' blocks, plus real decoded blocks. */
export class ContentPool {
  readonly bytes: Uint8Array;

  constructor(rng: Rng, blocksPerKind: Partial<Record<ContentKind, number>>, real: readonly Uint8Array[]) {
    const parts: Uint8Array[] = [];
    for (const [kind, n] of Object.entries(blocksPerKind) as [ContentKind, number][]) {
      for (let i = 0; i < n; i++) parts.push(makeBlock(kind, rng));
    }
    parts.push(...real);
    this.bytes = Buffer.concat(parts);
  }

  /** `size` bytes made of slices of 1-16 KiB from random places in the pool. */
  slice(rng: Rng, size: number): Uint8Array {
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const n = Math.min(size - at, rng.range(1024, 16384));
      const from = rng.int(this.bytes.length - n);
      out.set(this.bytes.subarray(from, from + n), at);
      at += n;
    }
    return out;
  }
}
