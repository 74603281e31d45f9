/**
 * The window's state and what changes it: the open install, recent installs, the tree and its
 * filter, the selection and its details, the package shown, the dialogs and banners. Components
 * read it and call its methods; it talks to the backend only through `api`. The parts of the page
 * it moves (the tree's focus and scroll) are handed in as `AppView`.
 */
import { tick } from 'svelte';
import type { AppInfo, ContainerSummary, FileDetails, InstallSummary, MenuCommand, TreeEntry } from '../../../shared/api.js';
import { rememberOpenPath, type Bridge } from './api.js';
import { CompareState, type CompareRequest } from './compare-state.svelte.js';
import { withConfirmation } from './confirm-path.js';
import { NavHistory } from './nav-history.js';
import { cycle, neighbourAfterClose, newTab, replaceTab, type PackageTab } from './package-tabs.js';
import { isMainPackageEntry, isPackageTreeEntry } from './package-view.js';
import { TreeModel } from './tree-model.js';
import { revealPath } from './tree-reveal.js';
import type { VerifyState } from './verify-state.js';
import type { MenuEntry } from './context-actions.js';
import { jsonFileName, packageJsonText } from './package-json.js';
import { copyText, saveText } from './save-file.js';

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
  /** The format chosen at first (the context menu's "Export as JSON", a bank's "Save all as WAV"). */
  format: 'raw' | 'json' | 'convert';
}

/** The right-click menu shown, where. */
export interface ContextMenuState {
  x: number;
  y: number;
  entries: MenuEntry[];
}

/** What the state moves in the page: set by the components once they exist. */
export interface AppView {
  focusTree(): void;
  revealTreeRow(index: number): void;
  focusFilter(): void;
  focusPath(): void;
  /** The search panel's query box, once the panel shows. */
  focusSearch?(): void;
}

export interface PackageOpenOptions {
  /** In a new tab (Ctrl+click, middle-click, the context menu). */
  newTab?: boolean | undefined;
  /** The package view's tab to show (graph, imports, ...). */
  view?: string | undefined;
  /** An export's object path to show (a followed reference). */
  focus?: string | undefined;
  /** A row of the view's table to select: "export:3", "import:2", "name:5" (a search hit's place). */
  row?: string | undefined;
}

/** A place back and forward go to: a package shown, or a file selected in the file view. */
export interface Place {
  kind: 'package' | 'file';
  path: string;
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
  /** "Compare with…": the dialog, then the comparison of the shown install with another build. */
  compareOpen = $state(false);
  compare = $state.raw<CompareState | null>(null);
  /** The panel over the right pane: the search (Ctrl+Shift+F) or the size map. */
  panel = $state<'search' | 'sizemap' | null>(null);
  /** The search panel's last query (kept while it is closed). */
  searchText = $state('');
  exporting = $state.raw<ExportRequest | null>(null);
  /** Browser mode: the host stopped answering (the page retries quietly). */
  connectionLost = $state(false);
  menu = $state.raw<ContextMenuState | null>(null);
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

  /** The open packages (tabs over the file view), and the one shown (null: the file view). */
  tabs = $state.raw<PackageTab[]>([]);
  activeTab = $state<number | null>(null);

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
      const summary = await withConfirmation(this.electron, `Open ${path}?\n\nPakScope will read the files there. Confirm only a path you typed yourself.`,
        (confirmed) => this.api.openInstall(confirmed ? { path, confirmed } : { path }));
      const previous = this.install;
      // Forget the old tree and selection first, so nothing asks the new install for old paths.
      this.tree.clear();
      this.install = summary;
      if (previous && previous.id !== summary.id) void this.api.closeInstall({ installId: previous.id }).catch(() => undefined);
      rememberOpenPath(summary.root);
      this.pathInput = summary.root;
      this.banners = []; // an open that worked: the errors of earlier tries are past
      this.#forgetPlaces();
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
    await this.stopCompare();
    this.install = null;
    this.selectedContainer = null;
    this.keysOpen = false;
    this.#forgetPlaces();
    this.filterText = '';
    this.pathInput = '';
    rememberOpenPath(null);
    try {
      await this.api.closeInstall({ installId: install.id });
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  // ---- comparing with another build ----
  /** Compares the shown install with the build at `req.path`; what went wrong is thrown for the dialog to show. */
  async startCompare(req: CompareRequest): Promise<void> {
    if (!this.install) return;
    const c = new CompareState(this.api, this.electron, this.install.id);
    try {
      await c.start(req);
    } catch (e) {
      await c.close();
      throw e;
    }
    await this.compare?.close();
    this.compare = c;
    this.compareOpen = false;
  }

  async stopCompare(): Promise<void> {
    const c = this.compare;
    this.compare = null;
    await c?.close();
  }

  /** A newly opened (or re-opened) install starts with no package tabs and no history. */
  #forgetPlaces(): void {
    void this.stopCompare();
    this.tabs = [];
    this.activeTab = null;
    this.#history.clear();
    this.historyVersion++;
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
  /** Enter in the filter box: the first (or only) file that matches is selected, and opened when it is a package. */
  async openFirstMatch(): Promise<boolean> {
    clearTimeout(this.#filterTimer);
    if ((this.tree.filter ?? '') !== this.filterText.trim()) await this.applyFilter(this.filterText);
    const at = this.tree.rows.findIndex((r) => !r.entry.isDir);
    if (at < 0) return false;
    this.tree.select(at);
    this.view.revealTreeRow(at);
    const entry = this.tree.rows[at]!.entry;
    if (isPackageTreeEntry(entry)) this.openPackage(entry.path);
    return true;
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

  /** The install's asset registry has been read: details shown waiting for it are asked for again. */
  /** The Wwise media's labels are known now (TreeEntry.label): the tree lists again, keeping what is open and selected. */
  wwiseNamesReady(installId: string): void {
    if (this.install?.id !== installId) return;
    void this.tree.reload().catch((e: unknown) => this.showError(messageOf(e)));
  }
  registryReady(installId: string): void {
    const install = this.install, entry = this.selected;
    if (!install || install.id !== installId || !entry || !this.details?.registryLoading) return;
    const seq = this.#detailsSeq;
    this.api.fileDetails({ installId, path: entry.path }).then(
      (d) => { if (seq === this.#detailsSeq) this.details = d; },
      (e: unknown) => { if (seq === this.#detailsSeq) this.detailsError = messageOf(e); },
    );
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
    this.exporting = { entries: tree.exportEntries(), filter: tree.filter, whole: { fileCount: tree.matchCount, size: tree.matchSize }, format: 'raw' };
  }
  /** The Export dialog for these entries (the context menu). */
  exportEntries(entries: TreeEntry[], format: ExportRequest['format']): void {
    if (!this.install || this.exporting) return;
    this.exporting = { entries, filter: undefined, whole: { fileCount: 0, size: 0 }, format };
  }
  /** The Export dialog for one file named by its tree path ("convert" first for a bank's "Save all as WAV"). */
  async exportPackageFile(path: string, format: ExportRequest['format'] = 'raw'): Promise<void> {
    const install = this.install;
    if (!install) return;
    try {
      const d = await this.api.fileDetails({ installId: install.id, path });
      this.exportEntries([{ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: false, size: d.size, fileCount: 1, container: d.container }], format);
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  // ---- the context menu's actions ----
  openMenu(x: number, y: number, entries: MenuEntry[]): void {
    this.menu = { x, y, entries };
  }
  closeMenu(): void {
    this.menu = null;
  }
  /** What a menu on a tree row acts on: the selection when the row is part of it, else the row. */
  menuSelection(entry: TreeEntry): TreeEntry[] {
    const selected = this.tree.exportEntries();
    return selected.some((e) => e.path === entry.path) ? selected : [entry];
  }
  /** "Open" on a tree row: a package opens, another file shows in the file view, a folder opens. */
  async openEntry(entry: TreeEntry): Promise<void> {
    if (isPackageTreeEntry(entry)) {
      await this.goToPackage(entry.path);
      return;
    }
    this.showFiles();
    await this.#reveal(entry.path);
    const at = this.tree.indexOf(entry.path);
    if (entry.isDir && at >= 0 && !this.tree.rows[at]!.expanded) await this.tree.expand(at);
  }
  async copy(text: string): Promise<void> {
    if (!(await copyText(text))) this.showError('The page may not use the clipboard here.');
  }
  async copyPackageName(path: string): Promise<void> {
    const install = this.install;
    if (!install) return;
    try {
      const view = await this.api.openPackage({ installId: install.id, path });
      await this.copy(view.name);
    } catch (e) {
      this.showError(messageOf(e));
    }
  }
  /** The tree path of a package named by its name, or null (a banner says why). */
  async packagePathOf(packageName: string): Promise<string | null> {
    const install = this.install;
    if (!install) return null;
    try {
      return (await this.api.openPackage({ installId: install.id, path: packageName })).path;
    } catch {
      this.showError(`${packageName} is not in this install.`);
      return null;
    }
  }
  /** One click: the package with every export's properties as a .json file. */
  async savePackageJson(path: string): Promise<void> {
    const install = this.install;
    if (!install) return;
    try {
      const view = await this.api.openPackage({ installId: install.id, path });
      const props = await this.api.packageProperties({ installId: install.id, path }).catch(() => null);
      saveText(jsonFileName(view.name), packageJsonText(view, props));
    } catch (e) {
      this.showError(messageOf(e));
    }
  }
  /** Selects a container (by name) in the Containers list: the details pane describes it. */
  revealContainer(name: string): void {
    const container = this.install?.containers.find((c) => c.name === name || c.path === name);
    if (!container) return;
    this.containersOpen = true;
    this.selectedContainer = container;
    this.showFiles();
  }
  async revealContainerOf(path: string): Promise<void> {
    const install = this.install;
    if (!install) return;
    try {
      this.revealContainer((await this.api.fileDetails({ installId: install.id, path })).container);
    } catch (e) {
      this.showError(messageOf(e));
    }
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

  // ---- package tabs ----
  /** The package tab shown, or null for the file view. */
  get pkg(): PackageTab | null {
    const install = this.install;
    return this.tabs.find((t) => t.id === this.activeTab && t.installId === install?.id) ?? null;
  }
  /** The shown package's view (Summary, Properties, ...); a new tab starts at the last one chosen. */
  get pkgTab(): string {
    return this.pkg?.view ?? this.#lastView;
  }
  set pkgTab(view: string) {
    this.#lastView = view;
    const pkg = this.pkg;
    if (pkg && pkg.view !== view) this.tabs = replaceTab(this.tabs, pkg.id, { view });
  }
  #lastView = 'summary';

  /**
   * Shows a package: in a new tab (`newTab`, or when the file view is showing and no tab has it),
   * else in the tab shown. A tab that already shows it is brought forward.
   */
  #rowSeq = 0;
  openPackage(path: string, opts: PackageOpenOptions = {}): void {
    const install = this.install;
    if (!install) return;
    const pkg = this.pkg;
    const existing = this.tabs.find((t) => t.installId === install.id && t.path === path);
    const view = opts.view ?? (existing ?? pkg)?.view ?? this.#lastView;
    const row = opts.row !== undefined ? { ref: opts.row, seq: ++this.#rowSeq } : undefined;
    if (existing) {
      this.tabs = replaceTab(this.tabs, existing.id, { focus: opts.focus, view, row });
      this.activeTab = existing.id;
    } else if (pkg && !opts.newTab) this.tabs = replaceTab(this.tabs, pkg.id, { path, focus: opts.focus, view, row });
    else {
      const tab = newTab(install.id, path, view, opts.focus, row);
      this.tabs = [...this.tabs, tab];
      this.activeTab = tab.id;
    }
    this.#visited();
  }
  /** Back to the file view; the package tabs stay. */
  showFiles(): void {
    this.activeTab = null;
    this.#visited();
  }
  /** Esc and the package view's back button. */
  closePackage(): void {
    this.showFiles();
  }
  showTab(id: number | null): void {
    this.activeTab = id;
    this.#visited();
  }
  closeTab(id: number): void {
    if (this.activeTab === id) this.activeTab = neighbourAfterClose(this.tabs, id);
    this.tabs = this.tabs.filter((t) => t.id !== id);
    this.#visited();
  }
  /** Ctrl+W: closes the package tab shown (the file view stays). */
  closeActiveTab(): boolean {
    const pkg = this.pkg;
    if (!pkg) return false;
    this.closeTab(pkg.id);
    return true;
  }
  /** Ctrl+Tab, Ctrl+Shift+Tab. */
  cycleTab(step: 1 | -1): void {
    const install = this.install;
    this.showTab(cycle(this.tabs.filter((t) => t.installId === install?.id), this.pkg?.id ?? null, step));
  }

  /** Shows a file in the file view, selected in the tree (a search hit, a size map file). */
  async revealFile(path: string): Promise<void> {
    this.showFiles();
    await this.#reveal(path);
  }

  /** From the graph or a reference: show the package and select it in the tree (opening folders; a filter that hides it goes). */
  async goToPackage(path: string, opts: PackageOpenOptions = {}): Promise<void> {
    this.openPackage(path, opts);
    await this.#reveal(path, true);
  }
  /**
   * Selects `path` in the tree, opening its folders. A filter that hides it goes, unless
   * `keepFilter` (a package shown: the user's filter stays, and no row claims to be shown).
   */
  async #reveal(path: string, keepFilter = false): Promise<void> {
    if (await revealPath(this.tree, path)) {
      this.view.revealTreeRow(this.tree.selected);
      return;
    }
    if (keepFilter && this.tree.filter) {
      this.tree.clearSelection();
      return;
    }
    if (this.tree.filter) {
      this.filterText = '';
      await this.applyFilter('');
      await revealPath(this.tree, path);
    }
    this.view.revealTreeRow(this.tree.selected);
  }
  /**
   * The right pane shows what is selected: a package file selected while a package shows replaces
   * it; any other file (a .ubulk or .uexp too) shows in the file view.
   */
  #packageFollowsSelection(): void {
    const s = this.selected;
    const pkg = this.pkg;
    if (!s || s.isDir) return;
    if (pkg && s.path !== pkg.path) {
      if (isMainPackageEntry(s)) this.tabs = replaceTab(this.tabs, pkg.id, { path: s.path });
      else this.activeTab = null;
    }
    this.#visited();
  }

  // ---- back and forward ----
  readonly #history = new NavHistory<Place>((a, b) => a.kind === b.kind && a.path === b.path);
  /** Set while history moves, so the moves themselves are not recorded. */
  #travelling = 0;
  /** Bumped when the history changes (it is plain data). */
  historyVersion = $state(0);
  get canBack(): boolean {
    void this.historyVersion;
    return this.#history.canBack;
  }
  get canForward(): boolean {
    void this.historyVersion;
    return this.#history.canForward;
  }
  /** Records where the user is now: the package shown, else the file selected. */
  #visited(): void {
    if (this.#travelling) return;
    const pkg = this.pkg;
    const s = this.selected;
    const place: Place | null = pkg ? { kind: 'package', path: pkg.path } : s && !s.isDir ? { kind: 'file', path: s.path } : null;
    if (!place) return;
    this.#history.visit(place);
    this.historyVersion++;
  }
  back(): Promise<void> {
    return this.#travel(this.#history.back());
  }
  forward(): Promise<void> {
    return this.#travel(this.#history.forward());
  }
  async #travel(place: Place | undefined): Promise<void> {
    this.historyVersion++;
    if (!place || !this.install) return;
    this.#travelling++;
    try {
      if (place.kind === 'package') this.openPackage(place.path);
      else this.activeTab = null;
      await this.#reveal(place.path, place.kind === 'package');
    } finally {
      this.#travelling--;
    }
  }

  // ---- native menu (Electron) ----
  menuCommand(command: MenuCommand): void {
    if (command === 'export') this.openExport();
    else if (command === 'close-install') void this.closeInstall();
    else if (command === 'close-tab') this.closeActiveTab();
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
