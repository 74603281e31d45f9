/**
 * Hex text of bytes, and hex digits back to numbers: the one place either is done (ids, hashes,
 * raw values, keys).
 */

/** Lowercase hex of the bytes, two digits each, in order. */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Value of each hex digit's char code; -1 for other characters. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** The value of the hex digit with char code `c` (either case); -1 when it is not one. */
export function hexDigit(c: number): number {
  return c < 128 ? NIBBLE[c]! : -1;
}

/** 8 hex digits of `s` from `at` as a u32, most significant first; -1 when one is not a hex digit. */
export function hexWord(s: string, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const d = hexDigit(s.charCodeAt(i));
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v >>> 0;
}
