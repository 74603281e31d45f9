/**
 * Loads gallery thumbnails a few at a time, only those the grid shows now: each scroll replaces
 * the wanted list, so a fast scroll through 5,000 textures asks for the cells it stops on, not
 * for every cell it passed. Results are kept (a cell scrolled back to shows at once).
 */
export class ThumbnailQueue<T> {
  private wanted: string[] = [];
  private readonly running = new Set<string>();
  private readonly done = new Map<string, T>();
  private closed = false;

  constructor(
    private readonly load: (path: string) => Promise<T>,
    private readonly settle: (path: string, value: T) => void,
    private readonly concurrency = 3,
  ) {}

  /** The result for `path`, when it has loaded. */
  get(path: string): T | undefined {
    return this.done.get(path);
  }

  /** The paths in view, in the order to load them; earlier wants that are not running are dropped. */
  want(paths: readonly string[]): void {
    this.wanted = paths.filter((p) => !this.done.has(p) && !this.running.has(p));
    this.pump();
  }

  /** Loads in flight (for tests and the status line). */
  get pending(): number {
    return this.running.size;
  }

  close(): void {
    this.closed = true;
    this.wanted = [];
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency && this.wanted.length > 0) {
      const path = this.wanted.shift()!;
      if (this.done.has(path) || this.running.has(path)) continue;
      this.running.add(path);
      this.load(path).then((value) => {
        this.running.delete(path);
        if (this.closed) return;
        this.done.set(path, value);
        this.settle(path, value);
        this.pump();
      }, () => {
        // load() answers its failures as values; a rejection (a closed install) is dropped.
        this.running.delete(path);
        this.pump();
      });
    }
  }
}

/** Columns of a grid `width` pixels wide with cells `cell` wide and `gap` apart (at least one). */
export function gridColumns(width: number, cell: number, gap: number): number {
  return Math.max(1, Math.floor((width - gap) / (cell + gap)));
}
