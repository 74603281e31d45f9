/**
 * The window's state and what changes it: the open install, recent installs, the tree and its
 * filter, the selection and its details, the package shown, the dialogs and banners. Components
 * read it and call its methods; it talks to the backend only through `api`. The parts of the page
 * it moves (the tree's focus and scroll) are handed in as `AppView`.
 */
import { tick } from 'svelte';
import type { AppInfo, ContainerSummary, FileDetails, InstallSummary, MenuCommand, TreeEntry } from '../../../shared/api.js';
import { rememberOpenPath, type Bridge } from './api.js';
import { isPackageTreeEntry } from './package-view.js';
import { TreeModel } from './tree-model.js';
import { revealPath } from './tree-reveal.js';
import type { VerifyState } from './verify-state.js';

export interface OpeningState {
  path: string;
  phase: string;
  done: number;
  total: number;
  current?: string;
}

/** The Export dialog with what it exports (the tree's selection when it opened). */
export interface ExportRequest {
  entries: TreeEntry[];
  filter: string | undefined;
  whole: { fileCount: number; size: number };
}

/** What the state moves in the page: set by the components once they exist. */
export interface AppView {
  focusTree(): void;
  revealTreeRow(index: number): void;
  focusFilter(): void;
  focusPath(): void;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The last part of a path (a folder's or a file's name). */
export function shortName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.at(-1) ?? path;
}

export class AppState {
  readonly api: Bridge;
  readonly electron: boolean;
  view: AppView = { focusTree() {}, revealTreeRow() {}, focusFilter() {}, focusPath() {} };

  info = $state.raw<AppInfo | null>(null);
  install = $state.raw<InstallSummary | null>(null);
  opening = $state<OpeningState | null>(null);
  banners = $state<{ id: number; message: string }[]>([]);
  recent = $state<string[]>([]);
  recentOpen = $state(false);
  pathInput = $state('');
  keysOpen = $state(false);
  exporting = $state.raw<ExportRequest | null>(null);
  dragging = $state(false);
  containersOpen = $state(true);
  /** The panes the View menu shows (Electron: the main process remembers them and says so at start). */
  panes = $state({ sidebar: true, details: true });
  selectedContainer = $state.raw<ContainerSummary | null>(null);

  /** The tree model is plain data; treeVersion says when it changed. */
  treeVersion = $state(0);
  filterText = $state('');
  filtering = $state(false);
  selected = $state.raw<TreeEntry | null>(null);
  details = $state.raw<FileDetails | null>(null);
  detailsError = $state<string | null>(null);
  verify = $state<VerifyState>({ state: 'idle' });

  /** The package shown over the file view, and its install; the tab stays when another package opens. */
  pkg = $state.raw<{ installId: string; path: string } | null>(null);
  pkgTab = $state('summary');

  readonly tree: TreeModel;

  constructor(api: Bridge, electron: boolean) {
    this.api = api;
    this.electron = electron;
    this.tree = new TreeModel({
      list: (path, filter) => {
        const install = this.install;
        if (!install) return Promise.resolve([]);
        return api.listDir(filter ? { installId: install.id, path, filter } : { installId: install.id, path });
      },
      onChange: () => {
        this.treeVersion++;
        this.selectionChanged();
      },
      onError: (e, path) => this.showError(`${path || 'top level'}: ${messageOf(e)}`),
    });
  }

  // ---- banners ----
  #bannerId = 0;
  showError(message: string): void {
    // The same message twice in a row is shown once.
    if (this.banners.at(-1)?.message === message) return;
    this.banners = [...this.banners.slice(-3), { id: ++this.#bannerId, message }];
  }
  dismissBanner(id: number): void {
    this.banners = this.banners.filter((b) => b.id !== id);
  }

  // ---- opening installs ----
  async openPath(path: string): Promise<void> {
    path = path.trim();
    if (!path || this.opening) return;
    this.recentOpen = false;
    this.opening = { path, phase: 'scan', done: 0, total: 0 };
    try {
      // Keys remembered for this install (Keys dialog) are applied by the backend.
      const summary = await this.api.openInstall({ path });
      const previous = this.install;
      // Forget the old tree and selection first, so nothing asks the new install for old paths.
      this.tree.clear();
      this.install = summary;
      if (previous && previous.id !== summary.id) void this.api.closeInstall({ installId: previous.id }).catch(() => undefined);
      rememberOpenPath(summary.root);
      this.pathInput = summary.root;
      this.filterText = '';
      this.selectedContainer = null;
      await this.tree.reset();
      await tick();
      this.view.focusTree();
      void this.refreshRecent();
    } catch (e) {
      this.showError(messageOf(e));
    } finally {
      this.opening = null;
    }
  }

  async pick(kind: 'folder' | 'file'): Promise<void> {
    try {
      const path = await this.api.pickPath({ kind });
      if (path) await this.openPath(path);
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  async refreshRecent(): Promise<void> {
    try {
      this.recent = await this.api.recentInstalls();
    } catch {
      this.recent = [];
    }
  }

  async closeInstall(): Promise<void> {
    const install = this.install;
    if (!install || this.opening || this.exporting) return; // an open Export dialog is closed first
    this.tree.clear();
    this.install = null;
    this.selectedContainer = null;
    this.keysOpen = false;
    this.filterText = '';
    this.pathInput = '';
    rememberOpenPath(null);
    try {
      await this.api.closeInstall({ installId: install.id });
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  // ---- filter ----
  #filterTimer: ReturnType<typeof setTimeout> | undefined;
  #filterSeq = 0;
  /** The filter box changed: applied after a short pause, so typing does not list the tree per key. */
  filterInput(): void {
    clearTimeout(this.#filterTimer);
    this.#filterTimer = setTimeout(() => void this.applyFilter(this.filterText), 220);
  }
  async applyFilter(text: string): Promise<void> {
    if (!this.install) return;
    const seq = ++this.#filterSeq;
    this.filtering = true;
    try {
      await this.tree.reset(text.trim() || undefined);
      if (text.trim()) await this.tree.expandMatches();
    } catch (e) {
      this.showError(messageOf(e));
    } finally {
      if (seq === this.#filterSeq) this.filtering = false;
    }
  }
  clearFilter(): void {
    this.filterText = '';
    clearTimeout(this.#filterTimer);
    void this.applyFilter('');
  }

  // ---- selection, details, verify ----
  #detailsSeq = 0;
  #detailsTimer: ReturnType<typeof setTimeout> | undefined;
  selectionChanged(): void {
    const entry = this.tree.selectedRow?.entry ?? null;
    const selected = this.selected;
    if (entry?.path === selected?.path && entry?.isDir === selected?.isDir) {
      this.selected = entry; // the same row, maybe with new counts
      return;
    }
    this.selected = entry;
    this.#packageFollowsSelection();
    if (entry) this.selectedContainer = null;
    this.details = null;
    this.detailsError = null;
    this.verify = { state: 'idle' };
    const seq = ++this.#detailsSeq;
    clearTimeout(this.#detailsTimer);
    const install = this.install;
    if (!entry || entry.isDir || !install) return;
    // A short pause, so holding an arrow key does not ask for the details of every row passed.
    this.#detailsTimer = setTimeout(() => {
      this.api.fileDetails({ installId: install.id, path: entry.path }).then(
        (d) => { if (seq === this.#detailsSeq) this.details = d; },
        (e: unknown) => { if (seq === this.#detailsSeq) this.detailsError = messageOf(e); },
      );
    }, 60);
  }

  async runVerify(): Promise<void> {
    const install = this.install;
    const selected = this.selected;
    if (!install || !selected || selected.isDir) return;
    const seq = this.#detailsSeq;
    this.verify = { state: 'running' };
    try {
      const result = await this.api.verifyFile({ installId: install.id, path: selected.path });
      if (seq === this.#detailsSeq) this.verify = { state: 'done', result };
    } catch (e) {
      if (seq === this.#detailsSeq) this.verify = { state: 'error', message: messageOf(e) };
    }
  }

  // ---- export and keys ----
  openExport(): void {
    if (!this.install || this.exporting) return;
    const tree = this.tree;
    this.exporting = { entries: tree.exportEntries(), filter: tree.filter, whole: { fileCount: tree.matchCount, size: tree.matchSize } };
  }
  closeExport(): void {
    this.exporting = null;
    this.view.focusTree();
  }
  unlocked(summary: InstallSummary): void {
    if (this.install?.id !== summary.id) return;
    this.install = summary;
    const container = this.selectedContainer;
    if (container) this.selectedContainer = summary.containers.find((c) => c.path === container.path) ?? null;
    void this.tree.reload().catch((e: unknown) => this.showError(messageOf(e)));
  }

  // ---- package view ----
  openPackage(path: string): void {
    const install = this.install;
    if (!install) return;
    if (this.pkg?.installId !== install.id) this.pkgTab = 'summary'; // a fresh view starts at the summary
    this.pkg = { installId: install.id, path };
  }
  closePackage(): void {
    this.pkg = null;
  }
  /** From the graph: show the package and select it in the tree (opening folders; a filter that hides it goes). */
  async goToPackage(path: string): Promise<void> {
    this.openPackage(path);
    if (!(await revealPath(this.tree, path)) && this.tree.filter) {
      this.filterText = '';
      await this.applyFilter('');
      await revealPath(this.tree, path);
    }
    this.view.revealTreeRow(this.tree.selected);
  }
  /** While a package is shown, selecting another package file shows that one; another file goes back to the file view. */
  #packageFollowsSelection(): void {
    const s = this.selected;
    const pkg = this.pkg;
    if (!pkg || !s || s.isDir || s.path === pkg.path) return;
    this.pkg = isPackageTreeEntry(s) ? { ...pkg, path: s.path } : null;
  }

  // ---- native menu (Electron) ----
  menuCommand(command: MenuCommand): void {
    if (command === 'export') this.openExport();
    else if (command === 'close-install') void this.closeInstall();
    else if (command === 'show-sidebar' || command === 'hide-sidebar') this.panes.sidebar = command === 'show-sidebar';
    else if (command === 'show-details' || command === 'hide-details') this.panes.details = command === 'show-details';
  }

  // ---- derived facts the toolbar, the sidebar and the status bar show ----
  get treeInfo(): { filter: string | undefined; matchCount: number } {
    void this.treeVersion;
    return { filter: this.tree.filter, matchCount: this.tree.matchCount };
  }
  get selectedCount(): number {
    void this.treeVersion;
    return this.tree.selection.size;
  }
  get problemCount(): number {
    return this.install ? this.install.containers.filter((c) => c.status.state !== 'ok').length : 0;
  }
  get lockedCount(): number {
    return this.install ? this.install.containers.filter((c) => c.status.state === 'locked').length : 0;
  }
}
