/**
 * Monaco for the read-only text view, trimmed to what a viewer needs: the core editor API, find,
 * folding, bracket matching and a few Monarch tokenizers (no language workers). Loaded lazily on
 * the first text file. The editor worker is bundled inline and started from a blob: URL, which the
 * CSP allows (worker-src blob:), so it works offline from file:// and from the browser host.
 */
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
// Codicons: the find widget's and the folding gutter's icons (the font ships as a file).
import 'monaco-editor/esm/vs/base/browser/ui/codicons/codiconStyles.js';
import 'monaco-editor/esm/vs/editor/contrib/find/browser/findController';
import 'monaco-editor/esm/vs/editor/contrib/folding/browser/folding';
import 'monaco-editor/esm/vs/editor/contrib/bracketMatching/browser/bracketMatching';
import 'monaco-editor/esm/vs/editor/contrib/wordHighlighter/browser/wordHighlighter';
import 'monaco-editor/esm/vs/basic-languages/ini/ini.contribution';
import 'monaco-editor/esm/vs/basic-languages/xml/xml.contribution';
import 'monaco-editor/esm/vs/basic-languages/html/html.contribution';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution';
import 'monaco-editor/esm/vs/basic-languages/lua/lua.contribution';
import 'monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution';
import 'monaco-editor/esm/vs/basic-languages/javascript/javascript.contribution';
import 'monaco-editor/esm/vs/basic-languages/typescript/typescript.contribution';
import 'monaco-editor/esm/vs/basic-languages/python/python.contribution';
import 'monaco-editor/esm/vs/basic-languages/cpp/cpp.contribution';
import 'monaco-editor/esm/vs/basic-languages/csharp/csharp.contribution';
import 'monaco-editor/esm/vs/basic-languages/bat/bat.contribution';
import 'monaco-editor/esm/vs/basic-languages/shell/shell.contribution';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker&inline';

import { registerUnrealScript } from './unrealscript.js';

// Monaco declares window.MonacoEnvironment itself.
window.MonacoEnvironment = { getWorker: () => new EditorWorker() };
// Not among Monaco's languages: UE1/2 source (.uc files, a .u package's ScriptText).
registerUnrealScript(monaco);

export { monaco };

/** The app's two editor themes (the editor background from the page's CSS), defined once. */
let themesDefined = false;
export function viewerTheme(dark: boolean): string {
  if (!themesDefined) {
    const css = getComputedStyle(document.documentElement);
    monaco.editor.defineTheme('pakscope-dark', { base: 'vs-dark', inherit: true, rules: [], colors: { 'editor.background': css.getPropertyValue('--editor-dark').trim() || '#1e2026' } });
    monaco.editor.defineTheme('pakscope-light', { base: 'vs', inherit: true, rules: [], colors: { 'editor.background': css.getPropertyValue('--editor-light').trim() || '#ffffff' } });
    themesDefined = true;
  }
  return dark ? 'pakscope-dark' : 'pakscope-light';
}

/** What every read-only viewer shares: no minimap, the app's monospace font and size. */
export const VIEWER_OPTIONS = {
  readOnly: true,
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
  lineHeight: 18,
  fontFamily: 'ui-monospace, "SF Mono", "Cascadia Mono", Consolas, "DejaVu Sans Mono", monospace',
  contextmenu: false,
} as const;
