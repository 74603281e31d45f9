import { describe, expect, it, vi } from 'vitest';
import { ProgressMeter } from '../../src/core/export/progress.js';
import type { ExportProgress } from '../../src/core/export/types.js';

describe('ProgressMeter', () => {
  it('reports at most every interval, with the rate over the recent window and the time left at it', () => {
    let now = 0;
    const seen: ExportProgress[] = [];
    const m = new ProgressMeter(4, 4000, (p) => seen.push(p), 100, () => now);
    m.started('a');
    expect(seen).toEqual([{ filesDone: 0, filesTotal: 4, bytesDone: 0, bytesTotal: 4000, bytesPerSecond: 0, secondsLeft: null, current: 'a' }]);
    now = 50;
    m.addBytes(100); // within the interval: not reported
    expect(seen).toHaveLength(1);
    now = 1000;
    m.addBytes(900); // 1000 bytes in 1 s
    expect(seen[1]).toMatchObject({ bytesDone: 1000, bytesPerSecond: 1000, secondsLeft: 3 });
    now = 1050;
    m.fileDone(0);
    expect(seen).toHaveLength(2);
    m.finish(); // always reported
    expect(seen[2]).toMatchObject({ filesDone: 1, bytesDone: 1000 });
  });

  it('forgets the start once the window has passed: a slow start does not drag the estimate', () => {
    let now = 0;
    const m = new ProgressMeter(1, 100_000, undefined, 100, () => now);
    for (let t = 100; t <= 10_000; t += 100) {
      now = t;
      m.addBytes(t <= 5000 ? 1 : 1000); // 1 B per step for 5 s, then 1000 B per step
      m.snapshot();
    }
    // The last 5 s moved 1000 B per 0.1 s.
    expect(m.snapshot().bytesPerSecond).toBeGreaterThan(9000);
    expect(m.snapshot().bytesPerSecond).toBeLessThanOrEqual(10_000);
  });

  it('says 0 seconds left when everything is done', () => {
    let now = 0;
    const m = new ProgressMeter(1, 10, undefined, 100, () => now);
    now = 500;
    m.fileDone(10);
    expect(m.snapshot()).toMatchObject({ filesDone: 1, bytesDone: 10, secondsLeft: 0 });
  });

  it('counts a batch in flight as its files finish, reporting on a timer until it is settled', () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const seen: ExportProgress[] = [];
      const m = new ProgressMeter(10, 1000, (p) => seen.push(p), 100, () => now);
      let live = { files: 0, bytes: 0 };
      const unwatch = m.watch(() => live);
      live = { files: 3, bytes: 300 };
      now = 100;
      vi.advanceTimersByTime(100); // nothing called the meter: the timer reported
      expect(seen.at(-1)).toMatchObject({ filesDone: 3, bytesDone: 300, bytesPerSecond: 3000 });
      live = { files: 7, bytes: 700 };
      now = 200;
      vi.advanceTimersByTime(100);
      expect(seen.at(-1)).toMatchObject({ filesDone: 7, bytesDone: 700 });
      // Settled: its files count once, and the timer stops.
      unwatch();
      m.fileDone(1000, 10);
      expect(m.snapshot()).toMatchObject({ filesDone: 10, bytesDone: 1000 });
      const reports = seen.length;
      now = 1000;
      vi.advanceTimersByTime(1000);
      expect(seen).toHaveLength(reports);
    } finally {
      vi.useRealTimers();
    }
  });
});
