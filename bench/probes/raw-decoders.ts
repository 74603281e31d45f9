/**
 * The raw baselines every decode and extract ratio divides by, written once: the best plain use
 * of each decoder that the project knows, with no PakScope plumbing around it. Each decodes one
 * block into a reused output buffer and checks the size.
 * - Zlib: one zlib stream per thread reused from block to block, writing straight into the output
 *   (src/core/codecs/reused-inflater.ts); where this Node cannot drive one, inflateSync with the
 *   output size hint (maxOutputLength and chunkSize = size + 1), as node-zlib.ts does.
 * - Oodle: one ooz instance from ooz-wasm's own factory with input and output buffers in wasm memory
 *   reused across blocks (as src/core/codecs/oodle.ts), the output copied once into the reused
 *   JS buffer: ooz-wasm's `decompress` would allocate both and a result per block.
 * - LZ4: the project's LZ4 decoder called directly, into the reused output (its decodeInto; until
 *   2026-11-26 it had no such form and made a buffer per block, as the app then did too).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Inflate, inflateSync } from 'node:zlib';
import { lz4Codec } from '../../src/core/codecs/lz4.js';
import { ReusedInflater } from '../../src/core/codecs/reused-inflater.js';

export type RawCodec = 'Zlib' | 'Oodle' | 'LZ4';

/** Decodes `input` into out[0, size) and returns the bytes written. */
export type RawDecoder = (input: Uint8Array, out: Uint8Array, size: number) => number;

/** What each baseline is, for the notes. */
export const RAW_BASELINE: Record<RawCodec, string> = {
  Zlib: 'node:zlib with a reused stream into a reused buffer',
  Oodle: 'ooz-wasm (reused instance and wasm buffers, one copy out)',
  LZ4: 'the project\'s LZ4 decoder called directly into a reused buffer',
};

function zlibDecoder(): RawDecoder {
  const reused = ReusedInflater.create(() => new Inflate(), 'zlib');
  if (reused) return (input, out, size) => reused.inflateInto(input, out.subarray(0, size));
  return (input, out, size) => {
    const got = inflateSync(input, { maxOutputLength: Math.max(1, size), chunkSize: Math.max(64, size + 1) });
    out.set(got);
    return got.length;
  };
}

interface OozInstance {
  readonly HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _Kraken_Decompress(src: number, srcLen: number, dst: number, dstLen: number): number;
}

async function oodleDecoder(): Promise<RawDecoder> {
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('ooz-wasm'));
  const factory = ((await import(new URL('./build/ooz.js', entry).href)) as { default: () => Promise<OozInstance> }).default;
  const ooz = await factory();
  let src = 0;
  let srcSize = 0;
  let dst = 0;
  let dstSize = 0;
  // Grown to the biggest block seen (never freed: the baseline's few buffers live for the run).
  return (input, out, size) => {
    if (input.length > srcSize) { src = ooz._malloc(input.length); srcSize = input.length; }
    if (size + 64 > dstSize) { dst = ooz._malloc(size + 64); dstSize = size + 64; } // ooz writes up to 64 bytes past the end
    ooz.HEAPU8.set(input, src);
    const written = ooz._Kraken_Decompress(src, input.length, dst, size);
    if (written > 0) out.set(ooz.HEAPU8.subarray(dst, dst + written));
    return written;
  };
}

function lz4Decoder(): RawDecoder {
  return (input, out, size) => {
    lz4Codec.decodeInto!(input, out.subarray(0, size));
    return size;
  };
}

export async function rawDecoder(codec: RawCodec): Promise<RawDecoder> {
  return codec === 'Zlib' ? zlibDecoder() : codec === 'Oodle' ? oodleDecoder() : lz4Decoder();
}
