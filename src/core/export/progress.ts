/**
 * Counts an export's progress and reports it at most every `intervalMs`: files and bytes done,
 * the rate over a sliding window of recent samples (the start of a run, slow or fast, fades out)
 * and the time left at that rate.
 */
import type { ExportProgress } from './types.js';

/** The rate is measured over about this long. */
const WINDOW_MS = 5000;

export class ProgressMeter {
  filesDone = 0;
  bytesDone = 0;
  private current = '';
  private lastReport = -Infinity;
  /** [time, bytesDone] samples, oldest first. */
  private readonly samples: [number, number][] = [];

  constructor(
    readonly filesTotal: number,
    readonly bytesTotal: number,
    private readonly onProgress: ((p: ExportProgress) => void) | undefined,
    private readonly intervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.samples.push([this.now(), 0]);
  }

  started(path: string): void {
    this.current = path;
    this.maybeReport();
  }

  addBytes(n: number): void {
    this.bytesDone += n;
    this.maybeReport();
  }

  /** A file (or `files` of them) is finished (written, skipped or failed); `rest` are their bytes not yet counted. */
  fileDone(rest: number, files = 1): void {
    this.filesDone += files;
    this.bytesDone += rest;
    this.maybeReport();
  }

  /** The last report, whatever the interval. */
  finish(): void {
    this.report(this.now());
  }

  snapshot(t = this.now()): ExportProgress {
    this.sample(t);
    const [t0, b0] = this.samples[0]!;
    const seconds = (t - t0) / 1000;
    const bytesPerSecond = seconds > 0.05 ? Math.max(0, (this.bytesDone - b0) / seconds) : 0;
    const left = this.bytesTotal - this.bytesDone;
    return {
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      bytesPerSecond,
      secondsLeft: left <= 0 ? 0 : bytesPerSecond > 0 ? left / bytesPerSecond : null,
      current: this.current,
    };
  }

  private maybeReport(): void {
    if (!this.onProgress) return;
    const t = this.now();
    if (t - this.lastReport >= this.intervalMs) this.report(t);
  }

  private report(t: number): void {
    if (!this.onProgress) return;
    this.lastReport = t;
    this.onProgress(this.snapshot(t));
  }

  private sample(t: number): void {
    const last = this.samples[this.samples.length - 1]!;
    if (t - last[0] >= 100) this.samples.push([t, this.bytesDone]);
    // Keep one sample older than the window so the rate always spans about WINDOW_MS.
    while (this.samples.length > 2 && t - this.samples[1]![0] >= WINDOW_MS) this.samples.shift();
  }
}
