/**
 * The file tree as a flat list of visible rows: the top level, plus the children of every
 * expanded folder right below it. Folders are listed lazily (listDir) when first expanded, so a
 * 250,000-file install costs only what is on screen; expanding or collapsing splices one run of
 * rows in or out. Keyboard moves follow the usual tree-view keys. No DOM here, so it is tested
 * in Node.
 *
 * Selection: `selected` is the focused row (the one the details pane shows); `selection` holds
 * the paths of every selected row: a click selects one, shift extends a range from the anchor,
 * ctrl/cmd toggles one, selectAll takes every visible row. Paths, not indices, so it survives
 * rows moving when folders open above. exportPaths() says what an export of it covers.
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
  /** The focused row; -1 for none. */
  selected = -1;
  /** Paths of the selected rows, the focused one included. */
  selection = new Set<string>();
  /** Where shift-click ranges start: the row last clicked or moved to without shift. */
  private anchor = -1;
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
    this.anchor = -1;
    this.selection = new Set();
    this.changed();
  }

  clear(): void {
    this.generation++;
    this.rows = [];
    this.selected = -1;
    this.anchor = -1;
    this.selection = new Set();
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
    if (this.anchor > at) this.anchor += children.length;
    this.changed();
  }

  collapse(index: number): void {
    const row = this.rows[index];
    if (!row || !row.expanded) return;
    const end = this.subtreeEnd(index);
    row.expanded = false;
    // Hidden rows leave the selection: an export never takes what the user cannot see.
    for (let j = index + 1; j < end; j++) this.selection.delete(this.rows[j]!.entry.path);
    const focusHidden = this.selected > index && this.selected < end;
    this.rows = this.rows.slice(0, index + 1).concat(this.rows.slice(end));
    if (focusHidden) {
      this.selected = index;
      this.selection.add(row.entry.path);
    } else if (this.selected >= end) this.selected -= end - index - 1;
    if (this.anchor > index && this.anchor < end) this.anchor = index;
    else if (this.anchor >= end) this.anchor -= end - index - 1;
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

  /** No row selected (what the right pane shows is not in view: a filter hides it). */
  clearSelection(): void {
    if (this.selected < 0 && this.selection.size === 0) return;
    this.selected = -1;
    this.selection = new Set();
    this.changed();
  }

  /** Selects one row (a plain click or arrow key): it becomes the focus, the anchor and the whole selection. */
  select(index: number): void {
    if (this.rows.length === 0) return;
    const i = this.clamp(index);
    const path = this.rows[i]!.entry.path;
    this.anchor = i;
    if (i === this.selected && this.selection.size === 1 && this.selection.has(path)) return;
    this.selected = i;
    this.selection = new Set([path]);
    this.changed();
  }

  /** Shift-click or shift+arrow: every row from the anchor to `index`; the anchor stays. */
  selectRange(index: number): void {
    if (this.rows.length === 0) return;
    const i = this.clamp(index);
    const from = this.anchor >= 0 && this.anchor < this.rows.length ? this.anchor : i;
    const [lo, hi] = from <= i ? [from, i] : [i, from];
    this.selection = new Set(this.rows.slice(lo, hi + 1).map((r) => r.entry.path));
    this.selected = i;
    this.anchor = from;
    this.changed();
  }

  /** Ctrl/cmd-click: adds or removes one row; it becomes the focus and the anchor. */
  toggleSelected(index: number): void {
    const row = this.rows[index];
    if (!row) return;
    const next = new Set(this.selection);
    if (next.has(row.entry.path)) next.delete(row.entry.path);
    else next.add(row.entry.path);
    this.selection = next;
    this.selected = index;
    this.anchor = index;
    this.changed();
  }

  /** Ctrl+A: every visible row (under a filter, the matches and their folders). */
  selectAll(): void {
    if (this.rows.length === 0) return;
    this.selection = new Set(this.rows.map((r) => r.entry.path));
    if (this.selected < 0) this.selected = 0;
    this.changed();
  }

  isSelected(index: number): boolean {
    const row = this.rows[index];
    return row !== undefined && this.selection.has(row.entry.path);
  }

  /** The selected rows' entries, top to bottom. */
  selectedEntries(): TreeEntry[] {
    return this.rows.filter((r) => this.selection.has(r.entry.path)).map((r) => r.entry);
  }

  /**
   * What exporting the selection takes: the selected rows minus those below a selected folder
   * (the folder covers them), top to bottom. With the tree's filter, a folder stands for its
   * matching files, and its entry's fileCount and size count just those.
   */
  exportEntries(): TreeEntry[] {
    const out: TreeEntry[] = [];
    let cover = -1; // depth of the selected folder whose rows we are in, or -1
    for (const r of this.rows) {
      if (cover >= 0 && r.depth <= cover) cover = -1;
      if (cover >= 0 || !this.selection.has(r.entry.path)) continue;
      out.push(r.entry);
      if (r.entry.isDir) cover = r.depth;
    }
    return out;
  }

  exportPaths(): string[] {
    return this.exportEntries().map((e) => e.path);
  }

  private clamp(index: number): number {
    return Math.max(0, Math.min(this.rows.length - 1, index));
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
  async key(key: string, pageSize: number, extend = false): Promise<boolean | 'open'> {
    if (this.rows.length === 0) return false;
    const sel = this.selected;
    const row = this.rows[sel];
    // With shift, the moves extend the selection from the anchor instead of moving it.
    const move = (i: number): true => {
      if (extend) this.selectRange(i);
      else this.select(i);
      return true;
    };
    switch (key) {
      case 'ArrowDown': return move(sel < 0 ? 0 : sel + 1);
      case 'ArrowUp': return move(sel < 0 ? 0 : sel - 1);
      case 'Home': return move(0);
      case 'End': return move(this.rows.length - 1);
      case 'PageDown': return move(Math.max(sel, 0) + Math.max(1, pageSize));
      case 'PageUp': return move(Math.max(sel, 0) - Math.max(1, pageSize));
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

  /**
   * Lists the tree again with the same filter, keeping what is open, the focus and the selection
   * where their rows still exist: after the install changed in place (a container unlocked).
   */
  async reload(): Promise<void> {
    const open = new Set(this.rows.filter((r) => r.expanded).map((r) => r.entry.path));
    const focus = this.selectedRow?.entry.path;
    const anchor = this.rows[this.anchor]?.entry.path;
    const selection = this.selection;
    await this.reset(this.filter);
    const gen = this.generation;
    // Top-down: a folder's children are in the rows before the loop reaches them.
    for (let i = 0; i < this.rows.length && open.size > 0; i++) {
      const path = this.rows[i]!.entry.path;
      if (!open.delete(path)) continue;
      await this.expand(i);
      if (gen !== this.generation) return;
    }
    this.selection = new Set(this.rows.filter((r) => selection.has(r.entry.path)).map((r) => r.entry.path));
    this.selected = focus === undefined ? -1 : this.indexOf(focus);
    this.anchor = anchor === undefined ? -1 : this.indexOf(anchor);
    this.changed();
  }
}
