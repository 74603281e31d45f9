/**
 * The window's keyboard shortcuts (the tree, the tables and the dialogs handle their own keys):
 * Ctrl+O opens (a dialog in Electron, the path box in a browser), Ctrl+F goes to the filter,
 * Ctrl+E exports, Esc closes the Recent menu.
 */
import type { AppState } from './app-state.svelte.js';

export function windowKeydown(app: AppState): (e: KeyboardEvent) => void {
  return (e) => {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === 'o') {
      e.preventDefault();
      if (app.electron) void app.pick(e.shiftKey ? 'file' : 'folder');
      else app.view.focusPath();
    } else if (mod && key === 'f' && app.install && !(e.target as Element).closest('.monaco-editor')) {
      e.preventDefault();
      app.view.focusFilter();
    } else if (mod && key === 'e' && app.install) {
      e.preventDefault();
      app.openExport();
    } else if (e.key === 'Escape' && app.recentOpen) {
      app.recentOpen = false;
    }
  };
}
