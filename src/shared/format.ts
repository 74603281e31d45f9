/**
 * Sizes and counts as PakScope prints them, the same in the app and the CLI: sizes in binary units
 * with three significant digits ("1.68 KiB", "2.35 MiB"), counts with thousands separators.
 * Framework-free: the renderer, the CLI and the backend import it.
 */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 512 -> "512 B", 1721 -> "1.68 KiB"; "—" for a size that is not one. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${UNITS[u]}`;
}

const counter = new Intl.NumberFormat('en-US');

/** 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return counter.format(n);
}

/** "1 file" / "1,234 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
