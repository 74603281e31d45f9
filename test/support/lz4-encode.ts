/**
 * A small greedy LZ4 block compressor for test fixtures (raw block, no frame), following the
 * block format's end rules so real LZ4 decoders accept its output too: the last 5 bytes are
 * literals and no match starts within the last 12 bytes.
 */
const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
const MAX_OFFSET = 65535;
const HASH_BITS = 16;

export function lz4CompressBlock(data: Uint8Array): Uint8Array {
  const n = data.length;
  // LZ4_compressBound: incompressible input grows by one byte per 255 plus the token.
  const out = new Uint8Array(n + Math.ceil(n / 255) + 16);
  const table = new Int32Array(1 << HASH_BITS).fill(-1);
  let op = 0;
  let anchor = 0;
  let ip = 0;
  const matchEnd = n - LAST_LITERALS;

  const writeLength = (rest: number): void => {
    while (rest >= 255) {
      out[op++] = 255;
      rest -= 255;
    }
    out[op++] = rest;
  };
  const writeLiterals = (matchNibble: number): void => {
    const literals = ip - anchor;
    out[op++] = (Math.min(literals, 15) << 4) | matchNibble;
    if (literals >= 15) writeLength(literals - 15);
    out.set(data.subarray(anchor, ip), op);
    op += literals;
  };

  while (ip < n - MF_LIMIT) {
    const seq = read32(data, ip);
    const h = Math.imul(seq, 2654435761) >>> (32 - HASH_BITS);
    const ref = table[h]!;
    table[h] = ip;
    if (ref < 0 || ip - ref > MAX_OFFSET || read32(data, ref) !== seq) {
      ip++;
      continue;
    }
    let length = MIN_MATCH;
    while (ip + length < matchEnd && data[ref + length] === data[ip + length]) length++;
    const extra = length - MIN_MATCH;
    writeLiterals(Math.min(extra, 15));
    out[op++] = (ip - ref) & 0xff;
    out[op++] = (ip - ref) >>> 8;
    if (extra >= 15) writeLength(extra - 15);
    ip += length;
    anchor = ip;
  }
  ip = n;
  writeLiterals(0);
  return out.slice(0, op);
}

function read32(d: Uint8Array, i: number): number {
  return (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0;
}
