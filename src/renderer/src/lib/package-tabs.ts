/**
 * The package tabs of the right pane: each shows one package of an install, with its own open
 * view (Summary, Properties, ...). Besides them the pane has the file view ("Files", the null
 * tab). Plain functions on an immutable list, tested in Node.
 */
export interface PackageTab {
  readonly id: number;
  readonly installId: string;
  readonly path: string;
  /** The package view's tab (summary, properties, names, ...). */
  readonly view: string;
  /** An object of the package to show when it opens (an export's object path): a followed reference. */
  readonly focus?: string | undefined;
  /**
   * A table row to select when the package shows ("export:3", "import:2", "name:5": a search
   * hit's place); `seq` tells a second click on the same hit from the first.
   */
  readonly row?: { ref: string; seq: number } | undefined;
}

let nextId = 1;

export function newTab(installId: string, path: string, view: string, focus?: string, row?: PackageTab['row']): PackageTab {
  return { id: nextId++, installId, path, view, focus, row };
}

/** The tab to show when `id` closes: the next one, else the one before, else the file view (null). */
export function neighbourAfterClose(tabs: readonly PackageTab[], id: number): number | null {
  const i = tabs.findIndex((t) => t.id === id);
  if (i < 0) return null;
  return tabs[i + 1]?.id ?? tabs[i - 1]?.id ?? null;
}

/** Ctrl+Tab order: the file view, then the tabs left to right, round. */
export function cycle(tabs: readonly PackageTab[], active: number | null, step: 1 | -1): number | null {
  const order: (number | null)[] = [null, ...tabs.map((t) => t.id)];
  const at = Math.max(0, order.indexOf(active));
  return order[(at + step + order.length) % order.length] ?? null;
}

export function replaceTab(tabs: readonly PackageTab[], id: number, change: Partial<Omit<PackageTab, 'id'>>): PackageTab[] {
  return tabs.map((t) => (t.id === id ? { ...t, ...change } : t));
}
