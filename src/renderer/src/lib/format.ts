/** Numbers as the UI shows them: sizes in binary units, counts with thousands separators. */

import { formatCount } from '../../../shared/format.js';

// Sizes, counts and plurals are printed as the CLI prints them (one formatter in src/shared).
export { formatCount, formatSize, plural } from '../../../shared/format.js';

export function formatOffset(n: number): string {
  return `0x${n.toString(16).toUpperCase()} (${formatCount(n)})`;
}

/** "Oodle ×10, None ×3": codecs by block count, most used first. */
export function formatCodecs(codecs: Record<string, number>): string {
  const list = Object.entries(codecs).sort((a, b) => b[1] - a[1]);
  if (list.length === 0) return 'none';
  return list.map(([name, n]) => `${name} ×${formatCount(n)}`).join(', ');
}
