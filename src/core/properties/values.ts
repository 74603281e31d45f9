/** Turning stored numbers into JSON values. */
import { bytesToHex } from '../io/hex.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A 64-bit integer: a JSON number when it is exact, its decimal digits otherwise. */
export function int64Value(v: bigint): number | string {
  return v <= MAX_SAFE && v >= MIN_SAFE ? Number(v) : v.toString();
}

/** JSON has no NaN or infinities: those become strings. */
export function floatValue(v: number): number | string {
  return Number.isFinite(v) ? v : String(v);
}

/**
 * A float32 as the shortest decimal that reads back as the same float32 (1234.25, -18.9), not
 * the float64 expansion of its bits (-18.900001525878906).
 */
export function float32Value(v: number): number | string {
  if (!Number.isFinite(v)) return String(v);
  for (let digits = 1; digits < 9; digits++) {
    const short = Number(v.toPrecision(digits));
    if (Math.fround(short) === v) return short;
  }
  return v;
}

/** FDateTime ticks (100 ns since 0001-01-01) as ISO 8601 with all seven fraction digits. */
export function ticksToIso(ticks: bigint): string {
  if (ticks < 0n || ticks > 3155378975999999999n) return ticks.toString(); // outside FDateTime's range
  const TICKS_PER_MS = 10000n;
  // 0001-01-01 is 62135596800000 ms before 1970-01-01.
  const ms = Number(ticks / TICKS_PER_MS) - 62135596800000;
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = (ticks % 10000000n).toString().padStart(7, '0');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${frac}`;
}

/** Raw values keep at most this many bytes as hex (the hex view shows the rest). */
export const MAX_RAW_BYTES = 1024 * 1024;

/** What a raw value's note says after its reason when only its first bytes are kept. */
export function rawSuffix(length: number): string {
  return length > MAX_RAW_BYTES ? ` (the first ${MAX_RAW_BYTES} of its ${length} bytes are shown)` : '';
}

/** A raw value's bytes as hex: its first MAX_RAW_BYTES (rawSuffix says so). */
export function rawHex(b: Uint8Array): string {
  return bytesToHex(b.subarray(0, MAX_RAW_BYTES));
}
