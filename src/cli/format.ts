/** Text formatting shared by the commands. */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** 512 -> "512 B", 1536 -> "1.5 KiB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${UNITS[u]}`;
}

/** "1 file" / "2 files". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
