/**
 * Finds the FStrings serialized in a package's export data without reading its properties: an
 * int32 length, then that many characters ending in a NUL (positive: Latin-1 bytes; negative:
 * UTF-16LE units). FText values, string table entries and string properties are all stored so,
 * tagged or unversioned alike, so a search needs no .usmap. Only strings of printable characters
 * with a letter or digit are kept, so that random bytes that happen to look like a length do not
 * turn into hits.
 */

/** Longest string kept (characters): longer runs are data, not text a user searches. */
const MAX_CHARS = 4096;
/** Shortest string kept, NUL included. */
const MIN_CHARS = 3;

/**
 * Calls `found(text, offset)` for each FString in bytes [from, to), offset being where its length
 * is; scanning goes on after each string found, else one byte on.
 */
export function scanFStrings(bytes: Uint8Array, from: number, to: number, found: (text: string, offset: number) => void): void {
  const end = Math.min(to, bytes.length);
  let i = Math.max(0, from);
  while (i + 4 < end) {
    const n = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    if (n >= MIN_CHARS && n <= MAX_CHARS) {
      const stop = i + 4 + n;
      if (stop <= end && bytes[stop - 1] === 0) {
        const text = latin1(bytes, i + 4, stop - 1);
        if (text !== undefined) {
          found(text, i);
          i = stop;
          continue;
        }
      }
    } else if (n <= -MIN_CHARS && n >= -MAX_CHARS) {
      const stop = i + 4 - 2 * n;
      if (stop <= end && bytes[stop - 1] === 0 && bytes[stop - 2] === 0) {
        const text = utf16(bytes, i + 4, stop - 2);
        if (text !== undefined) {
          found(text, i);
          i = stop;
          continue;
        }
      }
    }
    i++;
  }
}

/** The text of bytes [from, to) when every one is printable (tabs and newlines allowed) and one is a letter or digit. */
function latin1(bytes: Uint8Array, from: number, to: number): string | undefined {
  let word = false;
  for (let k = from; k < to; k++) {
    const c = bytes[k]!;
    if (c < 0x20 ? c !== 9 && c !== 10 && c !== 13 : c === 0x7f || (c >= 0x80 && c < 0xa0)) return undefined;
    if (!word && isWordCode(c)) word = true;
  }
  if (!word) return undefined;
  let s = '';
  for (let k = from; k < to; k += 4096) s += String.fromCharCode(...bytes.subarray(k, Math.min(to, k + 4096)));
  return s;
}

function utf16(bytes: Uint8Array, from: number, to: number): string | undefined {
  let word = false;
  const units: number[] = [];
  for (let k = from; k + 1 < to; k += 2) {
    const c = bytes[k]! | (bytes[k + 1]! << 8);
    if (c < 0x20 ? c !== 9 && c !== 10 && c !== 13 : c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0xfffe || c === 0xffff) return undefined;
    // A lone surrogate is not text.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = k + 3 < to ? bytes[k + 2]! | (bytes[k + 3]! << 8) : 0;
      if (next < 0xdc00 || next > 0xdfff) return undefined;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      const prev = units.length > 0 ? units[units.length - 1]! : 0;
      if (prev < 0xd800 || prev > 0xdbff) return undefined;
    }
    if (!word && (isWordCode(c) || c >= 0xa0)) word = true;
    units.push(c);
  }
  return word ? String.fromCharCode(...units) : undefined;
}

function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0;
}
