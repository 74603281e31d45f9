import type { BinaryReader } from '../io/binary-reader.js';

/**
 * Checks a table's count and offset (both from the summary) against the bytes there are before
 * anything is allocated, then seeks to it. Errors point at the summary field that is wrong.
 */
export function seekTable(
  r: BinaryReader, what: string, count: number, offset: number, minEntrySize: number,
  countFieldAt: number | undefined, offsetFieldAt: number | undefined,
): void {
  r.struct(what);
  if (!Number.isSafeInteger(count) || count < 0) throw r.error(`${what} count ${count} is negative`, countFieldAt);
  if (count === 0) return;
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset > r.length) {
    throw r.error(`${what} offset ${offset} is outside the ${r.length}-byte header`, offsetFieldAt);
  }
  if (count * minEntrySize > r.length - offset) {
    throw r.error(`${what} count ${count} needs at least ${count * minEntrySize} bytes at ${offset} but the header has ${r.length - offset} there`, countFieldAt);
  }
  r.seek(offset);
}
