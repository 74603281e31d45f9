import { DecodeError } from '../errors.js';

/**
 * One decompressor. Each codec lives in its own file in this folder and is listed in registry.ts.
 * `decode` gets exactly the compressed bytes and the uncompressed size the container declares and
 * must return exactly that many bytes, or throw (DecodeError for bad data, UnsupportedCodecError
 * for data this build cannot decode).
 */
export interface Codec {
  /** Canonical name as the engine writes it in method tables: None, Zlib, Gzip, LZ4, Oodle, Zstd. */
  readonly name: string;
  decode(input: Uint8Array, uncompressedSize: number): Uint8Array;
  /**
   * Where the codec can: decodes into `out`, which must come out exactly full (its length is the
   * declared size), with the same checks and errors as decode. Saves a buffer and a copy per block.
   * `room`: the byte after `out` in its buffer may be overwritten (a scratch buffer), which can
   * spare the codec work.
   */
  decodeInto?(input: Uint8Array, out: Uint8Array, room?: boolean): void;
  /**
   * Where the codec can stop early: decodes only the block's first `out.length` bytes into `out`
   * (the block must hold at least that many), leaving the rest undecoded. A read of a chunk's
   * first bytes (a package's header) then costs what those bytes cost, not the whole block.
   */
  decodePrefix?(input: Uint8Array, out: Uint8Array): void;
}

/**
 * Rejects a declared size before anything is allocated for it: it must be a byte count, and no
 * more than `maxRatio` times the compressed bytes (plus a little for headers), the best ratio the
 * format can reach. A corrupt size fails here instead of allocating gigabytes.
 */
export function checkDeclaredSize(method: string, size: number, inputLength: number, maxRatio: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new DecodeError(method, `declared size ${size} is not a byte count`);
  if (size > inputLength * maxRatio + 1024) {
    throw new DecodeError(method, `declared size ${size} is more than ${inputLength} compressed bytes can hold`);
  }
}

/** The one output check every codec ends with. */
export function checkDecodedSize(method: string, output: Uint8Array, size: number): Uint8Array {
  if (output.length !== size) {
    throw new DecodeError(method, `block decodes to ${output.length} bytes but ${size} are declared`);
  }
  return output;
}
