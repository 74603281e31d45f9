import { FormatError } from '../../src/core/errors.js';

/** The FormatError `f` throws; fails the test when it throws something else or nothing. */
export function formatError(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw new Error(`expected a FormatError, got ${String(e)}`);
  }
  throw new Error('expected a FormatError, but it parsed');
}

/** A copy of `bytes` with a little-endian i32 written at `at`. */
export function withI32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer, copy.byteOffset).setInt32(at, value, true);
  return copy;
}
