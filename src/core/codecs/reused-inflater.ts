/**
 * Inflates whole blocks into a caller's buffer with one zlib stream per thread, reused from block
 * to block. node:zlib's inflateSync builds a Transform stream and a native zlib context for every
 * call and returns buffers of its own: on 64 KiB blocks that is about a fifth of the time, and on
 * the small chunks of an export much more. Here the native handle behind one zlib.Inflate (or
 * Gunzip) is driven directly: writeSync(flush, in, inOff, inLen, out, outOff, outLen), then
 * reset() for the next block. That handle is Node's internal API (the same in Node 20 and in
 * Electron's Node 22), so it is looked for, and checked on a known block, before first use; where
 * it is missing or misbehaves, `create` returns null and the codec keeps using inflateSync.
 */
import { constants, deflateSync, gzipSync, type Gunzip, type Inflate } from 'node:zlib';

/** The parts of a node:zlib stream's native handle this uses. */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  close(): void;
  onerror: ((message: string, errno: number, code?: string) => void) | undefined;
}

/** What a failed inflate reports: zlib's own message ("unexpected end of file", "invalid distance too far back"...). */
export class InflateError extends Error {}

/** One spare byte, for telling "the stream ends here" from "more would come". */
const PROBE = new Uint8Array(1);

export class ReusedInflater {
  private handle: ZlibHandle | null = null;
  private state: Uint32Array | null = null;
  private error: string | null = null;

  private constructor(private readonly make: () => Inflate | Gunzip) {}

  /** A reusable inflater for streams `make` decodes, or null where this Node cannot drive one. */
  static create(make: () => Inflate | Gunzip, format: 'zlib' | 'gzip'): ReusedInflater | null {
    const sample = new TextEncoder().encode('PakScope checks its inflater on this line. '.repeat(40));
    const packed = format === 'zlib' ? deflateSync(sample) : gzipSync(sample);
    try {
      const inflater = new ReusedInflater(make);
      // Twice: the second run checks that reset() readied the stream for another block.
      for (let i = 0; i < 2; i++) {
        const out = new Uint8Array(sample.length);
        if (inflater.inflateInto(packed, out) !== sample.length || !out.every((b, k) => b === sample[k])) return null;
      }
      // Too small and too big a buffer must both be told.
      if (inflater.inflateInto(packed, new Uint8Array(sample.length - 1)) !== sample.length) return null;
      if (inflater.inflateInto(packed, new Uint8Array(sample.length + 1)) !== sample.length) return null;
      // A prefix stops where asked, and the next block still starts afresh.
      const head = new Uint8Array(10);
      if (inflater.inflatePrefix(packed, head) !== head.length || !head.every((b, k) => b === sample[k])) return null;
      const roomy = new Uint8Array(sample.length + 1);
      if (inflater.inflateInto(packed, roomy.subarray(0, sample.length), true) !== sample.length) return null;
      if (inflater.inflateInto(packed, roomy.subarray(0, sample.length - 1), true) !== sample.length) return null;
      return inflater;
    } catch {
      return null;
    }
  }

  /**
   * Inflates `input` (one whole stream; bytes after its end are ignored, as inflateSync does) into
   * `out`. Returns the bytes it holds: out.length + 1 when the stream holds more than fits, fewer
   * than out.length when it ends early. A stream zlib cannot decode throws InflateError. With
   * `room`, the byte after `out` in its buffer may be overwritten: one call then also tells
   * whether the stream ends there.
   */
  inflateInto(input: Uint8Array, out: Uint8Array, room = false): number {
    const handle = this.open();
    const state = this.state!;
    const space = room ? out.length + 1 : out.length;
    handle.writeSync(constants.Z_FINISH, input, 0, input.length, room ? new Uint8Array(out.buffer, out.byteOffset, space) : out, 0, space);
    this.throwIfFailed();
    const produced = space - state[0]!;
    const used = input.length - state[1]!;
    if (room || produced < out.length) {
      // Room left over and no error: zlib saw the stream's end (Z_FINISH short of it fails).
      this.reset();
      return produced;
    }
    // The buffer is full: the stream must end here. One more byte of room either stays empty (it
    // ended) or is filled (more would come); a stream cut short fails as "unexpected end of file".
    handle.writeSync(constants.Z_FINISH, input, used, input.length - used, PROBE, 0, 1);
    this.throwIfFailed();
    const more = state[0] === 0;
    this.reset();
    return more ? out.length + 1 : out.length;
  }

  /**
   * Inflates the first out.length bytes of `input`'s stream into `out` and stops there (no probe
   * of what follows: a prefix wants no more). Returns the bytes it holds, fewer than out.length
   * when the stream ends early. A stream zlib cannot decode as far throws InflateError.
   */
  inflatePrefix(input: Uint8Array, out: Uint8Array): number {
    const handle = this.open();
    handle.writeSync(constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
    this.throwIfFailed();
    const produced = out.length - this.state![0]!;
    this.reset();
    return produced;
  }

  private open(): ZlibHandle {
    if (this.handle) return this.handle;
    const stream = this.make() as unknown as { _handle?: ZlibHandle; _writeState?: Uint32Array };
    const handle = stream._handle;
    const state = stream._writeState;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
      throw new Error('node:zlib has no native handle to reuse');
    }
    // Errors come here instead of destroying the stream; the handle is dropped after one.
    handle.onerror = (message) => {
      this.error = message;
    };
    this.handle = handle;
    this.state = state;
    return handle;
  }

  private throwIfFailed(): void {
    if (this.error === null) return;
    const message = this.error;
    this.error = null;
    // After an error the native context is not trusted again: the next block gets a new one.
    try {
      this.handle?.close();
    } catch {
      // Closed already.
    }
    this.handle = null;
    this.state = null;
    throw new InflateError(message);
  }

  private reset(): void {
    this.handle?.reset();
  }
}
