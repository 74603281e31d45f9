/**
 * Counts an export's progress and reports it at most every `intervalMs`: files and bytes done,
 * the rate over a sliding window of recent samples (the start of a run, slow or fast, fades out)
 * and the time left at that rate. Files that workers write in big batches count as they finish:
 * the meter looks at each batch in flight (watch) when it reports, on a timer while any is.
 */
import type { ExportProgress } from './types.js';

/** The rate is measured over about this long. */
const WINDOW_MS = 5000;

/** Reports on the timer come this often at most, whatever the interval (0: every change, for tests). */
const TIMER_MS = 50;

/** What a batch in flight has finished so far. */
export type LiveCount = () => { files: number; bytes: number };

export class ProgressMeter {
  /** Files and bytes of settled work; snapshot() adds what the batches in flight have done. */
  private settledFiles = 0;
  private settledBytes = 0;
  private current = '';
  private readonly live = new Set<LiveCount>();
  private timer: ReturnType<typeof setInterval> | undefined;
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
    this.settledBytes += n;
    this.maybeReport();
  }

  /** A file (or `files` of them) is finished (written, skipped or failed); `rest` are their bytes not yet counted. */
  fileDone(rest: number, files = 1): void {
    this.settledFiles += files;
    this.settledBytes += rest;
    this.maybeReport();
  }

  /**
   * Counts a batch in flight by asking `count` at each report, until the returned function is
   * called (then its files are settled with fileDone). Reports come on a timer meanwhile: nothing
   * else calls the meter while workers write a big batch.
   */
  watch(count: LiveCount): () => void {
    this.live.add(count);
    if (this.onProgress && !this.timer) {
      this.timer = setInterval(() => this.maybeReport(), Math.max(TIMER_MS, this.intervalMs));
      this.timer.unref?.();
    }
    return () => {
      this.live.delete(count);
      if (this.live.size === 0) this.stopTimer();
    };
  }

  /** The last report, whatever the interval. */
  finish(): void {
    this.stopTimer();
    this.report(this.now());
  }

  snapshot(t = this.now()): ExportProgress {
    let filesDone = this.settledFiles;
    let bytesDone = this.settledBytes;
    for (const count of this.live) {
      const c = count();
      filesDone += c.files;
      bytesDone += c.bytes;
    }
    this.sample(t, bytesDone);
    const [t0, b0] = this.samples[0]!;
    const seconds = (t - t0) / 1000;
    const bytesPerSecond = seconds > 0.05 ? Math.max(0, (bytesDone - b0) / seconds) : 0;
    const left = this.bytesTotal - bytesDone;
    return {
      filesDone,
      filesTotal: this.filesTotal,
      bytesDone,
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

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sample(t: number, bytesDone: number): void {
    const last = this.samples[this.samples.length - 1]!;
    if (t - last[0] >= 100) this.samples.push([t, bytesDone]);
    // Keep one sample older than the window so the rate always spans about WINDOW_MS.
    while (this.samples.length > 2 && t - this.samples[1]![0] >= WINDOW_MS) this.samples.shift();
  }
}
