/**
 * How the bench talks to its probes (child processes running bundled code, so what they measure
 * is PakScope's own process, not the bench's): arguments as one JSON argv entry, the result as
 * one "RESULT {json}" line on stdout. Progress goes to stderr.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const RESULT_PREFIX = 'RESULT ';

export function probeArgs<T>(): T {
  const raw = process.argv[2];
  if (!raw) throw new Error('a probe takes its arguments as one JSON string');
  return JSON.parse(raw) as T;
}

export function emitResult(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Median of the numbers (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/**
 * This process's own peak resident size in MiB: VmHWM from /proc/self/status (threads share it,
 * so workers count). Not process.resourceUsage().maxRSS: Linux carries a forked child's RSS over
 * exec into it, so a probe started from a big bench process would report the bench's size.
 * Elsewhere (no /proc) maxRSS it is.
 */
export function peakRssMb(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = /^VmHWM:\s*(\d+)\s*kB/m.exec(status)?.[1];
    if (kib !== undefined) return Number(kib) / 1024;
  } catch {
    // No procfs.
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** CPU ns of each thread of this process, by thread id (Linux's schedstat: time on a core); empty without /proc. */
export function threadCpu(): Map<string, number> {
  const m = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return m;
  }
  for (const t of tasks) {
    try {
      m.set(t, Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return m;
}
