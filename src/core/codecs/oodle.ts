/**
 * The engine's "Oodle" (Kraken, Mermaid, Selkie, Leviathan, ...) through ooz-wasm 2.0.0, the
 * open-source ooz decoder compiled to WebAssembly.
 *
 * ooz-wasm's own `decompress` wraps one module-wide instance. A corrupt block can trap inside
 * it ("memory access out of bounds"), which leaves the instance's stack and heap broken: after
 * enough traps even valid blocks fail. So this codec drives instances made by the package's own
 * factory (build/ooz.js) and replaces one that trapped. Replacement is asynchronous; async callers
 * (the inline decoder, the worker) await `oodleReady()` first.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { DecodeError } from '../errors.js';
import { checkDeclaredSize, type Codec } from './codec.js';

/** What the emscripten build of ooz exports. */
interface OozInstance {
  readonly HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  /** Returns the number of bytes written, or -1. */
  _Kraken_Decompress(src: number, srcLen: number, dst: number, dstLen: number): number;
}

/** ooz may write up to this many bytes past the end of the output (ooz-wasm reserves the same). */
const OOZ_SAFE_SPACE = 64;
/**
 * Every 256 KiB of output costs at least a 2-byte block header and 3-byte quantum headers (a
 * memset quantum is nothing more), so Kraken-family streams cannot beat about 52000:1.
 */
const OODLE_MAX_RATIO = 65536;
/** WebAssembly memory never shrinks: a corrupt size must not grow an instance to gigabytes. */
const OODLE_MAX_BLOCK = 256 * 1024 * 1024;
/** Each block header has its own compressor: byte 0 low nibble 0xC, byte 1 low 7 bits the type. */
const DECODER_TYPES: Record<number, string> = { 5: 'LZNA', 6: 'Kraken', 10: 'Mermaid/Selkie', 11: 'BitKnit', 12: 'Leviathan' };

/**
 * The Oodle compressor named by a block's header (ooz's Kraken_ParseHeader). Mermaid and Selkie
 * share one decoder type and cannot be told apart.
 */
export function oodleCompressor(block: Uint8Array): string {
  const b0 = block[0];
  const b1 = block[1];
  if (b0 === undefined || b1 === undefined) return 'empty block';
  if ((b0 & 0x0f) !== 0x0c || (b0 & 0x30) !== 0) return `unknown header 0x${hex2(b0)}${hex2(b1)}`;
  return DECODER_TYPES[b1 & 0x7f] ?? `unknown decoder type ${b1 & 0x7f}`;
}

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

type OozFactory = () => Promise<OozInstance>;

async function loadFactory(): Promise<OozFactory> {
  // The package exports only index.js; its factory sits beside it.
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('ooz-wasm'));
  const mod = (await import(new URL('./build/ooz.js', entry).href)) as { default: OozFactory };
  return mod.default;
}

/** One ooz instance with input and output buffers that grow and are reused across blocks. */
class OozDecoder {
  private readonly input = { ptr: 0, size: 0 };
  private readonly output = { ptr: 0, size: 0 };
  constructor(private readonly ooz: OozInstance) {}

  /** Decodes into wasm memory and copies out into a new buffer: the one copy ooz-wasm's `decompress` makes too. */
  decode(input: Uint8Array, size: number, method: string): Uint8Array {
    const dst = this.decodeInWasm(input, size, method);
    return this.ooz.HEAPU8.slice(dst, dst + size);
  }

  /** Decodes into wasm memory and copies out once, into `out` (no buffer of its own per block). */
  decodeInto(input: Uint8Array, out: Uint8Array, method: string): void {
    const dst = this.decodeInWasm(input, out.length, method);
    out.set(this.ooz.HEAPU8.subarray(dst, dst + out.length));
  }

  /** The block decoded into the reused output buffer in wasm memory; returns where it starts. */
  private decodeInWasm(input: Uint8Array, size: number, method: string): number {
    const src = this.reserve(this.input, input.length, method);
    const dst = this.reserve(this.output, size + OOZ_SAFE_SPACE, method);
    this.ooz.HEAPU8.set(input, src); // HEAPU8 is read after malloc, which may have grown memory
    const written = this.ooz._Kraken_Decompress(src, input.length, dst, size);
    if (written < 0) throw new DecodeError(method, 'block does not decode (corrupt data or wrong size)');
    if (written !== size) throw new DecodeError(method, `block decodes to ${written} bytes but ${size} are declared`);
    return dst;
  }

  /** A buffer of at least `size` bytes in wasm memory, reused while it is big enough. */
  private reserve(buf: { ptr: number; size: number }, size: number, method: string): number {
    if (buf.ptr === 0 || buf.size < size) {
      if (buf.ptr !== 0) this.ooz._free(buf.ptr);
      buf.ptr = this.ooz._malloc(Math.max(size, 1));
      buf.size = buf.ptr === 0 ? 0 : size;
      if (buf.ptr === 0) throw new DecodeError(method, `no memory for a ${size}-byte block`);
    }
    return buf.ptr;
  }
}

const factory = await loadFactory();
let decoder: OozDecoder | null = new OozDecoder(await factory());
let restarting: Promise<void> | null = null;

/** Drops a decoder that trapped and starts making a fresh one. */
function replaceDecoder(): void {
  decoder = null;
  restarting ??= factory().then(
    (ooz) => { decoder = new OozDecoder(ooz); },
    () => { /* decoder stays null; the next decode starts another attempt */ },
  ).finally(() => { restarting = null; });
}

/** Resolves when a decoder is ready (at once unless one is being replaced after a trap). */
export function oodleReady(): Promise<void> {
  return restarting ?? Promise.resolve();
}

/** Checks the declared size, then runs `decode` on a ready decoder, replacing one that traps. */
function withDecoder<T>(input: Uint8Array, uncompressedSize: number, decode: (d: OozDecoder, method: string) => T): T {
  const method = `Oodle (${oodleCompressor(input)})`;
  checkDeclaredSize(method, uncompressedSize, input.length, OODLE_MAX_RATIO);
  if (uncompressedSize > OODLE_MAX_BLOCK) {
    throw new DecodeError(method, `declared size ${uncompressedSize} is over the ${OODLE_MAX_BLOCK}-byte limit for one block`);
  }
  if (!decoder) {
    if (!restarting) replaceDecoder();
    throw new Error('the Oodle decoder is restarting after a crash; await oodleReady() and retry');
  }
  try {
    return decode(decoder, method);
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError)) throw e;
    replaceDecoder();
    throw new DecodeError(method, `block crashed the decoder (${e.message}): corrupt data or wrong key`);
  }
}

export const oodleCodec: Codec = {
  name: 'Oodle',
  decode(input, uncompressedSize) {
    return withDecoder(input, uncompressedSize, (d, method) => d.decode(input, uncompressedSize, method));
  },
  // A block of a bigger output goes straight to its place: no buffer and no second copy per block.
  decodeInto(input, out) {
    withDecoder(input, out.length, (d, method) => d.decodeInto(input, out, method));
  },
};
