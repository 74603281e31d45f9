import type { ZlibOptions } from 'node:zlib';
import { DecodeError } from '../errors.js';
import { checkDecodedSize, checkDeclaredSize, type Codec } from './codec.js';
import type { ReusedInflater } from './reused-inflater.js';

/** Deflate's best ratio: a 258-byte match costs at least 2 bits. */
export const DEFLATE_MAX_RATIO = 1032;

/** Output buffers beyond this grow as data really comes out instead of being allocated up front. */
const MAX_CHUNK = 16 * 1024 * 1024;

type NodeInflate = (input: Uint8Array, options: ZlibOptions) => Buffer;

/**
 * A codec over one of node:zlib's synchronous decoders (inflate, gunzip, zstd). With `reused` (a
 * stream kept from block to block, reused-inflater.ts) blocks decode straight into their buffer.
 * Otherwise each block is one inflateSync call, its output bounded by the declared size and its
 * chunk size set to it so zlib fills one buffer instead of concatenating 16 KiB pieces (1.7x
 * faster on 64 KiB blocks); the +1 lets zlib finish without allocating a second chunk just to see
 * that nothing follows. `maxRatio` is the format's best compression ratio (see checkDeclaredSize).
 */
export function nodeZlibCodec(name: string, inflate: NodeInflate, maxRatio: number, reused?: ReusedInflater | null): Codec {
  const viaInflateSync = (input: Uint8Array, uncompressedSize: number): Uint8Array => {
    let output: Buffer;
    try {
      output = inflate(input, {
        maxOutputLength: Math.max(1, uncompressedSize),
        chunkSize: Math.min(Math.max(64, uncompressedSize + 1), MAX_CHUNK),
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new DecodeError(name, `block decodes to more than the declared ${uncompressedSize} bytes`);
      }
      throw new DecodeError(name, `block does not decode (${(e as Error).message})`);
    }
    return checkDecodedSize(name, output, uncompressedSize);
  };
  if (!reused) {
    return {
      name,
      decode(input, uncompressedSize) {
        checkDeclaredSize(name, uncompressedSize, input.length, maxRatio);
        return viaInflateSync(input, uncompressedSize);
      },
    };
  }
  const into = (input: Uint8Array, out: Uint8Array, room = false): void => {
    let got: number;
    try {
      got = reused.inflateInto(input, out, room);
    } catch (e) {
      throw new DecodeError(name, `block does not decode (${(e as Error).message})`);
    }
    if (got > out.length) throw new DecodeError(name, `block decodes to more than the declared ${out.length} bytes`);
    if (got < out.length) throw new DecodeError(name, `block decodes to ${got} bytes but ${out.length} are declared`);
  };
  return {
    name,
    decode(input, uncompressedSize) {
      checkDeclaredSize(name, uncompressedSize, input.length, maxRatio);
      // An empty output has no room for the stream's end to be told apart: inflateSync decides.
      if (uncompressedSize === 0) return viaInflateSync(input, 0);
      const out = new Uint8Array(uncompressedSize);
      into(input, out);
      return out;
    },
    decodeInto(input, out, room) {
      checkDeclaredSize(name, out.length, input.length, maxRatio);
      if (out.length === 0) {
        viaInflateSync(input, 0);
        return;
      }
      into(input, out, room && out.byteOffset + out.length < out.buffer.byteLength);
    },
    decodePrefix(input, out) {
      if (out.length === 0) return;
      let got: number;
      try {
        got = reused.inflatePrefix(input, out);
      } catch (e) {
        throw new DecodeError(name, `block does not decode (${(e as Error).message})`);
      }
      if (got < out.length) throw new DecodeError(name, `block decodes to ${got} bytes, fewer than the ${out.length} wanted`);
    },
  };
}
