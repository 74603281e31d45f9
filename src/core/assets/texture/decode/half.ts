/** IEEE half-precision floats: every one of the 65,536 bit patterns as a float, looked up. */
export const HALF_TO_FLOAT = new Float32Array(65536);

for (let h = 0; h < 65536; h++) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 31, mant = h & 1023;
  HALF_TO_FLOAT[h] = exp === 0 ? sign * mant * 2 ** -24
    : exp === 31 ? (mant ? NaN : sign * Infinity)
    : sign * (1024 + mant) * 2 ** (exp - 25);
}

/** An 11- or 10-bit unsigned float of R11G11B10 (5-bit exponent, `mantBits` of mantissa, no sign). */
export function smallFloat(v: number, mantBits: number): number {
  const exp = v >> mantBits, mant = v & ((1 << mantBits) - 1);
  if (exp === 0) return mant * 2 ** (-14 - mantBits);
  if (exp === 31) return mant ? NaN : Infinity;
  return ((1 << mantBits) + mant) * 2 ** (exp - 15 - mantBits);
}
