/**
 * Wwise's Vorbis codebooks. Wwise strips each codebook of its setup packet down to a number
 * into a fixed library (packed_codebooks_aoTuV_603.bin for every Wwise since 2011), and stores
 * the library's books in a packed form: 4-bit dimensions, 14-bit entry count, codeword lengths
 * in as few bits as they need, a 1-bit lookup type. Rebuilding writes them back as Vorbis I
 * codebooks ("BCV", 16-bit dimensions, 24-bit entries, 5-bit lengths, 4-bit lookup type).
 *
 * The library file: the books one after another, then a table of u32 (little-endian) offsets,
 * then the offset of that table in the last 4 bytes. Book i runs from offset i to offset i + 1.
 */
import { FormatError } from '../../../errors.js';
import { BitReader, ilog, type BitWriter } from './bits.js';
import { PACKED_CODEBOOKS_BASE64 } from './packed-codebooks.js';
import { PACKED_CODEBOOKS_AOTUV603_BASE64 } from './packed-codebooks-aotuv603.js';

/**
 * A book whose codeword lengths do not make a complete prefix code: the file's books come from
 * the other library (Wwise names books by number in both, and nothing in the file says which).
 */
export class CodebookMismatch extends Error {}

export class CodebookLibrary {
  private readonly offsets: number[];

  constructor(private readonly data: Uint8Array, readonly name: string) {
    if (data.length < 4) throw new FormatError(name, 'codebook library', 0, 'too short');
    const table = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(data.length - 4, true);
    if (table > data.length - 4) throw new FormatError(name, 'codebook library', data.length - 4, `offset table at ${table} is past the end`);
    const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.offsets = [];
    for (let at = table; at + 4 <= data.length; at += 4) this.offsets.push(v.getUint32(at, true));
  }

  /** Books 0 to count - 1 exist (the last offset only closes the last book). */
  get count(): number { return this.offsets.length - 1; }

  /** The packed bytes of book `id`, undefined when the library has no such book. */
  book(id: number): Uint8Array | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.count) return undefined;
    const start = this.offsets[id]!;
    const end = this.offsets[id + 1]!;
    if (start > end || end > this.data.length) return undefined;
    return this.data.subarray(start, end);
  }
}

let aotuv: CodebookLibrary | undefined;
let standard: CodebookLibrary | undefined;

/** The aoTuV 6.03 library most Wwise versions name their codebooks from. */
export function aotuvCodebooks(): CodebookLibrary {
  aotuv ??= new CodebookLibrary(base64Bytes(PACKED_CODEBOOKS_AOTUV603_BASE64), 'packed_codebooks_aoTuV_603.bin');
  return aotuv;
}

/** The standard library of older Wwise versions (Mass Effect 3's banks, version 56). */
export function standardCodebooks(): CodebookLibrary {
  standard ??= new CodebookLibrary(base64Bytes(PACKED_CODEBOOKS_BASE64), 'packed_codebooks.bin');
  return standard;
}

function base64Bytes(s: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(s, 'base64'));
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Writes one packed book (from the library) as a Vorbis I codebook. */
export function rebuildCodebook(packed: Uint8Array, out: BitWriter, file: string, what: string): void {
  const r = new BitReader(packed, file, what);
  const dimensions = r.read(4);
  const entries = r.read(14);
  out.write(0x564342, 24);
  out.write(dimensions, 16);
  out.write(entries, 24);
  const ordered = r.read(1);
  out.write(ordered, 1);
  if (ordered) {
    out.write(r.read(5), 5);
    for (let current = 0; current < entries;) {
      const bits = ilog(entries - current);
      const n = r.read(bits);
      out.write(n, bits);
      current += n;
      if (n === 0 && bits === 0) break;
      if (current > entries) throw new FormatError(file, what, 0, `ordered codeword lengths cover ${current} entries of ${entries}`);
    }
  } else {
    const lengthBits = r.read(3);
    const sparse = r.read(1);
    if (lengthBits === 0 || lengthBits > 5) throw new FormatError(file, what, 0, `codeword lengths of ${lengthBits} bits (1 to 5)`);
    out.write(sparse, 1);
    // Kraft sum of the code: exactly 1 for a usable book of more than one entry.
    let kraft = 0;
    let used = 0;
    for (let i = 0; i < entries; i++) {
      if (sparse) {
        const present = r.read(1);
        out.write(present, 1);
        if (!present) continue;
      }
      const length = r.read(lengthBits);
      out.write(length, 5);
      kraft += 2 ** -(length + 1);
      used++;
    }
    if (kraft > 1 || (used > 1 && kraft < 1)) throw new CodebookMismatch(`${what}: its ${used} codeword lengths do not make a prefix code`);
  }
  const lookup = r.read(1);
  out.write(lookup, 4);
  if (lookup === 1) {
    out.write(r.read(32), 32);
    out.write(r.read(32), 32);
    const valueBits = r.read(4);
    out.write(valueBits, 4);
    out.write(r.read(1), 1);
    const n = quantValues(entries, dimensions, file, what);
    for (let i = 0; i < n; i++) out.write(r.read(valueBits + 1), valueBits + 1);
  }
}

/** Lookup type 1's value count: the largest v with v^dimensions <= entries. */
function quantValues(entries: number, dimensions: number, file: string, what: string): number {
  if (dimensions === 0) throw new FormatError(file, what, 0, 'a lookup table with 0 dimensions');
  let v = Math.floor(entries ** (1 / dimensions));
  while (v > 0 && v ** dimensions > entries) v--;
  while ((v + 1) ** dimensions <= entries) v++;
  return v;
}
