/**
 * A comparison of the shown install with another build ("Compare with…"): the other build opened
 * beside the shown one, the comparison's tree (both builds' folders merged, each change marked,
 * counts per folder; "changes only" lists only what changed), the package shown side by side,
 * and the exports of the change list and of the added and changed files.
 */
import type { ComparisonSummary, PackageComparison, TreeEntry } from '../../../shared/api.js';
import type { Bridge } from './api.js';
import { withConfirmation } from './confirm-path.js';
import { saveText } from './save-file.js';
import { TreeModel } from './tree-model.js';

export interface CompareRequest {
  path: string;
  /** AES keys for the other build only. */
  aesKeys: string[];
  /** Whether the shown install is the new build (the other the old one). */
  shownIsNew: boolean;
}

export class CompareState {
  summary = $state.raw<ComparisonSummary | null>(null);
  changesOnly = $state(true);
  treeVersion = $state(0);
  pkg = $state.raw<PackageComparison | null>(null);
  pkgLoading = $state<string | null>(null);
  pkgError = $state<string | null>(null);
  /** The added and changed files of the new build, for the export dialog. */
  exportEntries = $state.raw<TreeEntry[] | null>(null);
  readonly tree: TreeModel;
  /** The install opened for the comparison (closed with it), unless it is the shown one. */
  private otherId: string | null = null;

  constructor(private readonly api: Bridge, private readonly electron: boolean, readonly shownId: string) {
    this.tree = new TreeModel({
      list: (path) => this.summary ? this.api.comparisonDir({ comparisonId: this.summary.comparisonId, path, changesOnly: this.changesOnly }) : Promise.resolve([]),
      onChange: () => this.treeVersion++,
    });
  }

  /** Opens the other build and compares; throws what went wrong (a path that is no install, the same install, a locked container). */
  async start(req: CompareRequest): Promise<void> {
    const path = req.path.trim();
    const other = await withConfirmation(this.electron, `Open ${path} to compare with?\n\nPakScope will read the files there. Confirm only a path you typed yourself.`,
      (confirmed) => this.api.openInstall({ path, ...(req.aesKeys.length ? { aesKeys: req.aesKeys } : {}), ...(confirmed ? { confirmed } : {}) }));
    if (other.id !== this.shownId) this.otherId = other.id;
    this.summary = await this.api.compareInstalls(req.shownIsNew ? { oldId: other.id, newId: this.shownId } : { oldId: this.shownId, newId: other.id });
    await this.tree.reset();
  }

  async setChangesOnly(on: boolean): Promise<void> {
    this.changesOnly = on;
    await this.tree.reset();
  }

  async openPackage(path: string): Promise<void> {
    if (!this.summary) return;
    this.pkgLoading = path;
    this.pkgError = null;
    try {
      this.pkg = await this.api.comparePackage({ comparisonId: this.summary.comparisonId, path });
    } catch (e) {
      this.pkg = null;
      this.pkgError = e instanceof Error ? e.message : String(e);
    } finally {
      this.pkgLoading = null;
    }
  }

  closePackage(): void {
    this.pkg = null;
    this.pkgError = null;
  }

  /** Saves the change list (a download in a browser, the save dialog in Electron). */
  async saveChanges(format: 'csv' | 'json'): Promise<void> {
    if (!this.summary) return;
    const f = await this.api.comparisonChanges({ comparisonId: this.summary.comparisonId, format });
    saveText(f.fileName, f.text, format === 'csv' ? 'text/csv' : 'application/json');
  }

  /** The new build's added, changed and moved files, for an export of them only. */
  async collectExport(): Promise<void> {
    if (!this.summary) return;
    const list = JSON.parse((await this.api.comparisonChanges({ comparisonId: this.summary.comparisonId, format: 'json' })).text) as {
      added: { path: string; size: number }[]; changed: { path: string; newSize: number }[]; moved: { newPath: string; size?: number }[];
    };
    const file = (path: string, size: number): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: false, size, fileCount: 1 });
    // An empty selection would mean the whole install to the export dialog.
    if (list.added.length + list.changed.length + list.moved.length === 0) throw new Error('The new build has no added, changed or moved file to export.');
    this.exportEntries = [
      ...list.added.map((f) => file(f.path, f.size)), ...list.changed.map((f) => file(f.path, f.newSize)), ...list.moved.map((m) => file(m.newPath, m.size ?? 0)),
    ];
  }

  /** Ends the comparison and closes the build opened for it. */
  async close(): Promise<void> {
    const s = this.summary;
    this.summary = null;
    this.tree.clear();
    if (s) await this.api.closeComparison({ comparisonId: s.comparisonId }).catch(() => undefined);
    if (this.otherId) await this.api.closeInstall({ installId: this.otherId }).catch(() => undefined);
  }
}
