/**
 * Keeps the main thread's V8 heap from collecting without pause while reads stream in.
 *
 * PakScope's main isolate is small (an install's tables are typed arrays, off the heap: 11 to 31
 * MB), and on a heap that small V8 starts incremental marking whenever the old generation's
 * headroom (its allocation limit less its size) is below the young generation's capacity
 * (Heap::IncrementalMarkingLimitReached). The young generation grows to 16 MB while an install
 * opens, past the 8 to 15 MB of headroom V8 gives a small heap, so while chunks stream to this
 * thread one mark-compact followed the other, each freeing under 1 MB: 40 to 110 µs of CPU per 64
 * KiB block read, more than the main thread's own work (bench/README.md, "Where the time of a read
 * goes"). `--initial-old-space-size` cures it but only on the command line, which Electron's main
 * process does not take; `--heap-growing-percent` is read by V8 every time it sets the next limit
 * (MemoryController::GrowingFactor), so it can be set from here.
 *
 * The growth is set so that the limit lies about HEADROOM_BYTES above the heap's size after each
 * mark-compact: a small heap gets a large factor, a heap of OWN_GROWTH_BYTES or more V8's own
 * dynamic one again (flag 0): the storm is a small heap's (the heap the app holds while it reads
 * is 11 to 31 MB), and a heap past 128 MB is mostly one being built (the dependency graph, the
 * search index), where V8's own factor, up to 4, may be the larger. So the
 * heap may hold at most about HEADROOM_BYTES of garbage more than V8 would let it, which bounds
 * what this costs in memory. Flags are the
 * process's: worker threads' heaps get the same factor (they are a few MB; the headroom is
 * then theirs, below HEADROOM_BYTES). Best effort: a V8 that refuses the flag is left as it is.
 * Started by createWorkerPool and never stopped: the gc observer holds no handle that keeps the
 * process alive (a CLI run still exits), and a test file that makes a pool runs the rest of its
 * process with the flag set.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

/**
 * Bytes of headroom above the heap's live size. With 32 MB the main thread still ran 5 mark-compacts
 * in 9 passes of 24 MiB read, with 64 and 128 MB 3 (started by the outputs' external memory then).
 */
const HEADROOM_BYTES = 64 * 2 ** 20;
/** From this size on, V8's own growth. */
const OWN_GROWTH_BYTES = 2 * HEADROOM_BYTES;
/** The largest factor asked for (1 + 600 %), for heaps under 11 MB. */
const MAX_PERCENT = 600;

let started = false;
let percent = -1;

/** Starts keeping the headroom (once per process; on the main thread only). */
export function keepHeapHeadroom(): void {
  if (started || !isMainThread) return;
  started = true;
  if (!apply()) return;
  // After each mark-compact, for the limit the next one sets (this one's limit is set already).
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        apply();
        break;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** The growth for the heap's present size; false when V8 refused the flag. */
function apply(): boolean {
  const size = getHeapStatistics().used_heap_size;
  const wanted = growthPercent(size);
  if (wanted === percent) return true;
  try {
    setFlagsFromString(`--heap-growing-percent=${wanted}`);
    percent = wanted;
    return true;
  } catch {
    return false;
  }
}

/** The percent by which a heap of `size` bytes grows to get HEADROOM_BYTES above it (0: V8's own). */
export function growthPercent(size: number): number {
  if (size >= OWN_GROWTH_BYTES) return 0;
  return Math.min(MAX_PERCENT, Math.ceil((HEADROOM_BYTES / Math.max(1, size)) * 100));
}
