/**
 * The window's keyboard and mouse shortcuts (the tree, the tables and the dialogs handle their
 * own keys): Ctrl+O opens (a dialog in Electron, the path box in a browser), Ctrl+F goes to the
 * filter, Ctrl+Shift+F to the search panel, Ctrl+E exports, Ctrl+W closes the package tab shown, Ctrl+Tab / Ctrl+Shift+Tab switch
 * tabs, Alt+Left / Alt+Right and the mouse's back and forward buttons go back and forward, Esc
 * closes the Recent menu or returns to the file view.
 */
import type { AppState } from './app-state.svelte.js';

/** Where Esc belongs to the element (clearing a field, closing a dropdown, Monaco's own uses). */
const OWN_ESCAPE = 'input, select, textarea, .monaco-editor, [role="dialog"], .dialog';

export function windowKeydown(app: AppState): (e: KeyboardEvent) => void {
  return (e) => {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const target = e.target instanceof Element ? e.target : null;
    if (mod && key === 'o') {
      e.preventDefault();
      if (app.electron) void app.pick(e.shiftKey ? 'file' : 'folder');
      else app.view.focusPath();
    } else if (mod && e.shiftKey && key === 'f' && app.install) {
      e.preventDefault();
      app.panel = 'search';
      app.view.focusSearch?.();
    } else if (mod && key === 'f' && app.install && !target?.closest('.monaco-editor')) {
      e.preventDefault();
      app.view.focusFilter();
    } else if (mod && key === 'e' && app.install) {
      e.preventDefault();
      app.openExport();
    } else if (mod && !e.shiftKey && key === 'w' && app.install) {
      // A browser keeps Ctrl+W for itself; Electron's menu sends it as the close-tab command.
      if (app.closeActiveTab()) e.preventDefault();
    } else if (e.ctrlKey && e.key === 'Tab' && app.install) {
      e.preventDefault();
      app.cycleTab(e.shiftKey ? -1 : 1);
    } else if (e.altKey && !mod && (e.key === 'ArrowLeft' || e.key === 'ArrowRight') && app.install && !target?.closest('input, textarea, .monaco-editor')) {
      e.preventDefault();
      void (e.key === 'ArrowLeft' ? app.back() : app.forward());
    } else if (e.key === 'Escape' && app.recentOpen) {
      app.recentOpen = false;
    } else if (e.key === 'Escape' && app.pkg && !app.keysOpen && !app.exporting && !target?.closest(OWN_ESCAPE)) {
      app.showFiles();
    }
  };
}

/** The mouse's back (button 3) and forward (button 4) buttons; the browser's own navigation is stopped. */
export function windowMouseup(app: AppState): (e: MouseEvent) => void {
  return (e) => {
    if (e.button !== 3 && e.button !== 4) return;
    e.preventDefault();
    if (!app.install) return;
    void (e.button === 3 ? app.back() : app.forward());
  };
}
