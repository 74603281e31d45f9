import { DecodeError } from '../errors.js';
import { checkDeclaredSize, type Codec } from './codec.js';

/**
 * The engine's "LZ4": one raw LZ4 block (LZ4_compress_default output, no frame). A block is a run
 * of sequences: a token (high nibble literal count, low nibble match length - 4, 15 meaning
 * "more bytes follow, each added, until one is not 255"), the literals, a 16-bit little-endian
 * match offset and the match length extension. The last sequence has literals only.
 *
 * Every read is checked against the input and every write against the declared size, and each
 * pass of the loop consumes at least one input byte, so a corrupt block throws and cannot
 * overrun or spin.
 */
export const lz4Codec: Codec = {
  name: 'LZ4',
  decode(input, uncompressedSize) {
    // A length byte of 255 adds 255 output bytes: the format's best ratio.
    checkDeclaredSize('LZ4', uncompressedSize, input.length, 255);
    const out = new Uint8Array(uncompressedSize);
    decodeLz4Block(input, out);
    return out;
  },
  // Straight into the caller's output: no buffer of its own per block.
  decodeInto(input, out) {
    checkDeclaredSize('LZ4', out.length, input.length, 255);
    decodeLz4Block(input, out);
  },
  decodePrefix(input, out) {
    decodeLz4Block(input, out, true);
  },
};

function fail(detail: string): never {
  throw new DecodeError('LZ4', detail);
}

/**
 * Copies of up to this many bytes go 4 at a time through DataViews (V8 compiles each get/set to
 * one unaligned load or store), writing up to 3 bytes past the run where the output has room:
 * those bytes are the next sequence's and are written again before anything reads them. Longer
 * ones are memcpy's (set, copyWithin), whose call costs more than it saves on short runs. On the
 * bench's LZ4 blocks (2,000 sequences of 21 literals and a 5-byte match per 64 KiB) this halved
 * the time a block takes (88 to 49 µs): byte loops of varying length mispredict their ends.
 */
const WORDS_UP_TO = 256;

/** Decodes the block into `out`, which it must fill exactly; with `prefix`, only until `out` is full. */
function decodeLz4Block(input: Uint8Array, out: Uint8Array, prefix = false): void {
  const size = out.length;
  const end = input.length;
  if (end === 0) fail('block is empty');
  const inWords = new DataView(input.buffer, input.byteOffset, end);
  const outWords = new DataView(out.buffer, out.byteOffset, size);
  let ip = 0;
  let op = 0;
  for (;;) {
    const token = input[ip++]!;

    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (ip >= end) fail(`literal length runs past the end of the block at input byte ${ip}`);
        b = input[ip++]!;
        literals += b;
      } while (b === 255);
    }
    if (literals > end - ip) fail(`${literals} literals at input byte ${ip} run past the end of the block`);
    if (prefix && literals >= size - op) {
      out.set(input.subarray(ip, ip + size - op), op);
      return;
    }
    if (literals > size - op) fail(`${literals} literals at output byte ${op} run past the declared size ${size}`);
    if (literals < WORDS_UP_TO && literals + 4 <= end - ip && literals + 4 <= size - op) {
      for (let i = 0; i < literals; i += 4) outWords.setUint32(op + i, inWords.getUint32(ip + i, true), true);
    } else if (literals < 32) {
      for (let i = 0; i < literals; i++) out[op + i] = input[ip + i]!;
    } else {
      out.set(input.subarray(ip, ip + literals), op);
    }
    ip += literals;
    op += literals;

    if (ip === end) break; // the last sequence: literals only

    if (end - ip < 2) fail(`match offset at input byte ${ip} is cut off`);
    const offset = input[ip]! | (input[ip + 1]! << 8);
    ip += 2;
    if (offset === 0 || offset > op) fail(`match offset ${offset} at output byte ${op} points outside the output`);

    let length = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (ip >= end) fail(`match length runs past the end of the block at input byte ${ip}`);
        b = input[ip++]!;
        length += b;
      } while (b === 255);
    }
    if (prefix && length >= size - op) length = size - op;
    if (length > size - op) fail(`match of ${length} bytes at output byte ${op} runs past the declared size ${size}`);
    const from = op - offset;
    if (offset >= 4 && length < WORDS_UP_TO && length + 4 <= size - op) {
      for (let i = 0; i < length; i += 4) outWords.setUint32(op + i, outWords.getUint32(from + i, true), true);
    } else if (offset >= length && length >= 32) {
      out.copyWithin(op, from, from + length);
    } else {
      for (let i = 0; i < length; i++) out[op + i] = out[from + i]!;
    }
    op += length;
    if (prefix && op === size) return;
    if (ip >= end) fail('block ends after a match; the last sequence must be literals');
  }
  if (op !== size) fail(`block decodes to ${op} bytes but ${size} are declared`);
}
