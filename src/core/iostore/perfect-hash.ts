/**
 * Finding a chunk by its 12-byte id. From v4 the TOC stores perfect-hash seeds: the id's FNV-style
 * 64-bit hash picks a seed, the seed picks the entry (formats.md "Perfect hash lookup"); from v5
 * chunks the hash could not place sit in an overflow list. Older TOCs (and TOCs without seeds)
 * use a map built on first use.
 */
import { CHUNK_ID_SIZE, chunkIdHex, type Toc } from './toc.js';

const OFFSET_BASIS_HI = 0xcbf29ce4;
const OFFSET_BASIS_LO = 0x84222325;
const TWO_32 = 0x100000000;

/**
 * hash(seed) of 12 id bytes modulo `mod`: h = seed || offset basis; h = (h * 0x100000001b3) ^ byte,
 * in 64-bit arithmetic. Done on two 32-bit halves (prime = 2^40 + 0x1b3) to avoid BigInt.
 */
export function chunkIdHashMod(id: Uint8Array, at: number, seed: number, mod: number): number {
  let hi: number;
  let lo: number;
  if (seed !== 0) {
    // Seeds used for hashing are positive i32s, so the u64 is just the value.
    hi = 0;
    lo = seed >>> 0;
  } else {
    hi = OFFSET_BASIS_HI;
    lo = OFFSET_BASIS_LO;
  }
  for (let i = 0; i < CHUNK_ID_SIZE; i++) {
    // h * 0x1b3 + (h << 40), mod 2^64
    // Products stay below 2^53, so they are exact; `>>> 0` is an exact mod 2^32 on them.
    const loProduct = lo * 0x1b3;
    const newLo = loProduct >>> 0;
    const carry = (loProduct - newLo) / TWO_32;
    const shifted = (lo & 0xffffff) * 256; // the low 24 bits of h move to bits 40..63
    hi = (hi * 0x1b3 + carry + shifted) >>> 0;
    lo = (newLo ^ id[at + i]!) >>> 0;
  }
  return mod64(hi, lo, mod);
}

/** (hi * 2^32 + lo) % mod for mod < 2^32, in 16-bit steps so nothing exceeds 2^53. */
function mod64(hi: number, lo: number, mod: number): number {
  let r = hi % mod;
  r = (r * 0x10000 + (lo >>> 16)) % mod;
  r = (r * 0x10000 + (lo & 0xffff)) % mod;
  return r;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function sameId(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number): boolean {
  for (let i = 0; i < CHUNK_ID_SIZE; i++) if (a[aAt + i] !== b[bAt + i]) return false;
  return true;
}

export class ChunkLookup {
  private map: Map<string, number> | null = null;

  constructor(private readonly toc: Toc) {}

  /** Entry index of a chunk id (12 bytes), or undefined. */
  find(id: Uint8Array): number | undefined {
    if (id.length !== CHUNK_ID_SIZE) return undefined;
    const toc = this.toc;
    const seeds = toc.perfectHashSeeds;
    const count = toc.header.entryCount;
    if (count === 0) return undefined;
    if (seeds.length === 0) return this.findInMap(id);
    const seed = seeds[chunkIdHashMod(id, 0, 0, seeds.length)]!;
    if (seed === 0) return undefined;
    let slot: number;
    if (seed < 0) {
      slot = -seed - 1;
      if (slot >= count) return this.findWithoutPerfectHash(id);
    } else {
      slot = chunkIdHashMod(id, 0, seed, count);
    }
    return sameId(toc.chunkIds, slot * CHUNK_ID_SIZE, id, 0) ? slot : undefined;
  }

  private readonly scratch = new Uint8Array(CHUNK_ID_SIZE);

  /** Lookup by 24 hex digits; anything else is not an id and finds nothing. */
  findHex(hex: string): number | undefined {
    if (hex.length !== CHUNK_ID_SIZE * 2) return undefined;
    for (let i = 0; i < CHUNK_ID_SIZE; i++) {
      const hi = hexDigit(hex.charCodeAt(i * 2));
      const lo = hexDigit(hex.charCodeAt(i * 2 + 1));
      if (hi < 0 || lo < 0) return undefined;
      this.scratch[i] = hi * 16 + lo;
    }
    return this.find(this.scratch);
  }

  private findWithoutPerfectHash(id: Uint8Array): number | undefined {
    for (const e of this.toc.chunksWithoutPerfectHash) {
      if (sameId(this.toc.chunkIds, e * CHUNK_ID_SIZE, id, 0)) return e;
    }
    return undefined;
  }

  private findInMap(id: Uint8Array): number | undefined {
    if (!this.map) {
      const map = new Map<string, number>();
      for (let i = 0; i < this.toc.header.entryCount; i++) {
        const k = chunkIdHex(this.toc, i);
        if (!map.has(k)) map.set(k, i);
      }
      this.map = map;
    }
    let hex = '';
    for (const b of id) hex += b.toString(16).padStart(2, '0');
    return this.map.get(hex);
  }
}
