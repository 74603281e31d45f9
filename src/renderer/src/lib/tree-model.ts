/**
 * The file tree as a flat list of visible rows: the top level, plus the children of every
 * expanded folder right below it. Folders are listed lazily (listDir) when first expanded, so a
 * 250,000-file install costs only what is on screen; expanding or collapsing splices one run of
 * rows in or out. Keyboard moves follow the usual tree-view keys. No DOM here, so it is tested
 * in Node.
 */
import type { TreeEntry } from '../../../shared/api.js';

export interface TreeRow {
  entry: TreeEntry;
  depth: number;
  expanded: boolean;
  loading: boolean;
}

export type ListDir = (path: string, filter: string | undefined) => Promise<TreeEntry[]>;

export interface TreeModelOptions {
  list: ListDir;
  /** Called after every change of rows or selection. */
  onChange?: () => void;
  /** A folder that failed to list (the rest of the tree keeps working). */
  onError?: (error: unknown, path: string) => void;
}

export class TreeModel {
  rows: TreeRow[] = [];
  selected = -1;
  filter: string | undefined;
  /** Files at the top level and below (matching the filter, if any). */
  matchCount = 0;
  /** Bytes in those files. */
  matchSize = 0;
  /** Bumped by reset(); answers to older listDir calls are dropped. */
  private generation = 0;

  constructor(private readonly opts: TreeModelOptions) {}

  private changed(): void {
    this.opts.onChange?.();
  }

  get selectedRow(): TreeRow | undefined {
    return this.rows[this.selected];
  }

  /** Lists the top level again (a new install or a new filter). */
  async reset(filter?: string): Promise<void> {
    const gen = ++this.generation;
    this.filter = filter || undefined;
    const entries = await this.opts.list('', this.filter);
    if (gen !== this.generation) return;
    this.rows = entries.map((entry) => ({ entry, depth: 0, expanded: false, loading: false }));
    this.matchCount = entries.reduce((n, e) => n + e.fileCount, 0);
    this.matchSize = entries.reduce((n, e) => n + e.size, 0);
    this.selected = -1;
    this.changed();
  }

  clear(): void {
    this.generation++;
    this.rows = [];
    this.selected = -1;
    this.matchCount = 0;
    this.matchSize = 0;
    this.filter = undefined;
    this.changed();
  }

  async expand(index: number): Promise<void> {
    const row = this.rows[index];
    if (!row || !row.entry.isDir || row.expanded || row.loading) return;
    const gen = this.generation;
    row.loading = true;
    this.changed();
    let entries: TreeEntry[];
    try {
      entries = await this.opts.list(row.entry.path, this.filter);
    } catch (e) {
      row.loading = false;
      this.changed();
      this.opts.onError?.(e, row.entry.path);
      return;
    }
    if (gen !== this.generation) return;
    row.loading = false;
    // Rows above may have changed while the listing was on its way: find the folder again.
    const at = this.rows[index] === row ? index : this.rows.indexOf(row);
    if (at < 0 || row.expanded) return;
    row.expanded = true;
    const children: TreeRow[] = entries.map((entry) => ({ entry, depth: row.depth + 1, expanded: false, loading: false }));
    // concat, not splice(...children): a folder may hold more children than a call takes arguments.
    this.rows = this.rows.slice(0, at + 1).concat(children, this.rows.slice(at + 1));
    if (this.selected > at) this.selected += children.length;
    this.changed();
  }

  collapse(index: number): void {
    const row = this.rows[index];
    if (!row || !row.expanded) return;
    const end = this.subtreeEnd(index);
    row.expanded = false;
    this.rows = this.rows.slice(0, index + 1).concat(this.rows.slice(end));
    if (this.selected > index && this.selected < end) this.selected = index;
    else if (this.selected >= end) this.selected -= end - index - 1;
    this.changed();
  }

  toggle(index: number): Promise<void> {
    const row = this.rows[index];
    if (row?.expanded) {
      this.collapse(index);
      return Promise.resolve();
    }
    return this.expand(index);
  }

  select(index: number): void {
    if (this.rows.length === 0) return;
    const i = Math.max(0, Math.min(this.rows.length - 1, index));
    if (i === this.selected) return;
    this.selected = i;
    this.changed();
  }

  /** The row after the last descendant of rows[index]. */
  subtreeEnd(index: number): number {
    const depth = this.rows[index]!.depth;
    let j = index + 1;
    while (j < this.rows.length && this.rows[j]!.depth > depth) j++;
    return j;
  }

  parentIndex(index: number): number {
    const depth = this.rows[index]?.depth ?? 0;
    for (let j = index - 1; j >= 0; j--) if (this.rows[j]!.depth < depth) return j;
    return -1;
  }

  /**
   * One key press in the tree; resolves true if the key was used. Enter on a file resolves
   * 'open' so the view can show it.
   */
  async key(key: string, pageSize: number): Promise<boolean | 'open'> {
    if (this.rows.length === 0) return false;
    const sel = this.selected;
    const row = this.rows[sel];
    switch (key) {
      case 'ArrowDown': this.select(sel < 0 ? 0 : sel + 1); return true;
      case 'ArrowUp': this.select(sel < 0 ? 0 : sel - 1); return true;
      case 'Home': this.select(0); return true;
      case 'End': this.select(this.rows.length - 1); return true;
      case 'PageDown': this.select(Math.max(sel, 0) + Math.max(1, pageSize)); return true;
      case 'PageUp': this.select(Math.max(sel, 0) - Math.max(1, pageSize)); return true;
      case 'ArrowRight':
        if (!row) { this.select(0); return true; }
        if (row.entry.isDir && !row.expanded) await this.expand(sel);
        else if (row.expanded && this.rows[sel + 1]?.depth === row.depth + 1) this.select(sel + 1);
        return true;
      case 'ArrowLeft': {
        if (!row) return true;
        if (row.expanded) { this.collapse(sel); return true; }
        const parent = this.parentIndex(sel);
        if (parent >= 0) this.select(parent);
        return true;
      }
      case 'Enter':
      case ' ':
        if (!row) return false;
        if (row.entry.isDir) { await this.toggle(sel); return true; }
        return 'open';
      default:
        return false;
    }
  }

  /**
   * After a filter change: opens folders top-down so the matches show without clicking, until
   * about `budget` rows are visible or `maxCalls` folders were listed.
   */
  async expandMatches(budget = 400, maxCalls = 40): Promise<void> {
    const gen = this.generation;
    let calls = 0;
    for (let i = 0; i < this.rows.length && calls < maxCalls; i++) {
      if (gen !== this.generation || this.rows.length >= budget) return;
      const row = this.rows[i]!;
      if (!row.entry.isDir || row.expanded) continue;
      // fileCount bounds the rows a folder can add; skip folders that would swamp the view,
      // unless the folder is alone at its level (Game/Content/...): opening it is the only way in.
      const alone = (this.rows[i - 1]?.depth ?? -1) < row.depth && (this.rows[i + 1]?.depth ?? -1) < row.depth;
      if (!alone && row.entry.fileCount > budget - this.rows.length) continue;
      await this.expand(i);
      calls++;
    }
  }

  /** Index of the row showing `path`, or -1 if it is not visible. */
  indexOf(path: string): number {
    return this.rows.findIndex((r) => r.entry.path === path);
  }
}
