/**
 * What the right-click menus offer: on a file or folder of the tree, and on a row of a package's
 * Imports or Exports table (an object, in this package or another one of the install).
 */
import type { TreeEntry } from '../../../shared/api.js';
import type { AppState } from './app-state.svelte.js';
import { isPackageTreeEntry } from './package-view.js';

/** A menu item, or null for a separator. */
export type MenuEntry = {
  id: string;
  label: string;
  run: () => void | Promise<void>;
  hint?: string;
  title?: string;
  disabled?: boolean;
} | null;

export function treeEntryMenu(app: AppState, entry: TreeEntry): MenuEntry[] {
  const pkg = isPackageTreeEntry(entry);
  const notPackage = !pkg;
  return [
    { id: 'open', label: 'Open', hint: 'Enter', run: () => app.openEntry(entry) },
    { id: 'open-new-tab', label: 'Open in a new tab', hint: 'Middle-click', disabled: notPackage, run: () => app.openPackage(entry.path, { newTab: true }) },
    null,
    { id: 'export', label: 'Export…', hint: 'Ctrl+E', run: () => app.exportEntries(app.menuSelection(entry), 'raw') },
    {
      id: 'save-json', label: pkg ? 'Save as JSON' : 'Export as JSON…',
      title: pkg ? 'The package with every export\'s properties, as one .json file' : 'Packages as their parsed model with properties (.json), other files as they are',
      run: () => (pkg ? app.savePackageJson(entry.path) : app.exportEntries(app.menuSelection(entry), 'json')),
    },
    null,
    { id: 'copy-path', label: 'Copy path', run: () => app.copy(entry.path) },
    { id: 'copy-package-name', label: 'Copy package name', disabled: notPackage, run: () => app.copyPackageName(entry.path) },
    null,
    { id: 'show-graph', label: 'Show in the graph', disabled: notPackage, run: () => app.goToPackage(entry.path, { view: 'graph' }) },
    { id: 'show-dependencies', label: 'Show dependencies', title: 'The objects the package imports', disabled: notPackage, run: () => app.goToPackage(entry.path, { view: 'imports' }) },
    { id: 'reveal-container', label: 'Reveal the container', disabled: entry.isDir || !entry.container, run: () => app.revealContainer(entry.container ?? '') },
  ];
}

/** An object's package name: its path up to the first dot ("/Game/A/B.B:C" -> "/Game/A/B"). */
export function packageOfObject(objectPath: string): string {
  const dot = objectPath.indexOf('.');
  return dot < 0 ? objectPath : objectPath.slice(0, dot);
}

/**
 * A row of the Imports or Exports table: the object `objectPath` (an export of its package, or
 * the package itself), in the package `packageName` (this one for exports).
 */
export function objectMenu(app: AppState, objectPath: string, packageName: string): MenuEntry[] {
  const script = packageName.startsWith('/Script/');
  const focus = objectPath !== packageName ? objectPath : undefined;
  const inPackage = (f: (path: string) => void | Promise<void>) => async () => {
    const path = await app.packagePathOf(packageName);
    if (path !== null) await f(path);
  };
  return [
    { id: 'open', label: 'Open', run: inPackage((p) => app.goToPackage(p, { focus })), disabled: script },
    { id: 'open-new-tab', label: 'Open in a new tab', run: inPackage((p) => app.goToPackage(p, { focus, newTab: true })), disabled: script },
    null,
    { id: 'export', label: 'Export…', run: inPackage((p) => app.exportPackageFile(p)), disabled: script },
    { id: 'save-json', label: 'Save as JSON', title: 'The package with every export\'s properties, as one .json file', run: inPackage((p) => app.savePackageJson(p)), disabled: script },
    null,
    { id: 'copy-path', label: 'Copy path', title: objectPath, run: () => app.copy(objectPath) },
    { id: 'copy-package-name', label: 'Copy package name', title: packageName, run: () => app.copy(packageName) },
    null,
    { id: 'show-graph', label: 'Show in the graph', run: inPackage((p) => app.goToPackage(p, { view: 'graph' })), disabled: script },
    { id: 'show-dependencies', label: 'Show dependencies', run: inPackage((p) => app.goToPackage(p, { view: 'imports' })), disabled: script },
    { id: 'reveal-container', label: 'Reveal the container', run: inPackage((p) => app.revealContainerOf(p)), disabled: script },
  ];
}
