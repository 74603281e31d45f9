/** Numbers as the UI shows them: sizes in binary units, counts with thousands separators. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

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

export function formatCount(n: number): string {
  return counter.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatOffset(n: number): string {
  return `0x${n.toString(16).toUpperCase()} (${formatCount(n)})`;
}

/** "Oodle ×10, None ×3": codecs by block count, most used first. */
export function formatCodecs(codecs: Record<string, number>): string {
  const list = Object.entries(codecs).sort((a, b) => b[1] - a[1]);
  if (list.length === 0) return 'none';
  return list.map(([name, n]) => `${name} ×${formatCount(n)}`).join(', ');
}
