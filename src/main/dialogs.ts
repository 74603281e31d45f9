/**
 * The native file dialogs behind the backend's Dialogs (pickPath, pickExportFolder) and the File
 * menu. One dialog at a time: a second request while one is open (a shortcut the page and the
 * menu both saw) answers null instead of stacking a second dialog.
 */
import type { Dialogs } from '../backend/dialogs.js';
import type { ElectronShell, MessageBoxOptions, OpenDialogOptions, SaveDialogOptions, ShellWindow } from './electron-shell.js';
import { OPENABLE_EXTENSIONS } from './file-types.js';

export const OPEN_FOLDER_DIALOG: OpenDialogOptions = { title: 'Open game folder', properties: ['openDirectory'] };

export const OPEN_FILE_DIALOG: OpenDialogOptions = {
  title: 'Open container or package',
  properties: ['openFile'],
  filters: [
    { name: 'Unreal containers and packages', extensions: [...OPENABLE_EXTENSIONS] },
    { name: 'All files', extensions: ['*'] },
  ],
};

export const EXPORT_FOLDER_DIALOG: OpenDialogOptions = { title: 'Export to folder', buttonLabel: 'Export here', properties: ['openDirectory', 'createDirectory'] };

export const MAPPINGS_FILE_DIALOG: OpenDialogOptions = {
  title: 'Choose the mappings (.usmap) of this game',
  properties: ['openFile'],
  filters: [{ name: 'Mappings', extensions: ['usmap'] }, { name: 'All files', extensions: ['*'] }],
};

/** The native question before the page opens a path the user typed instead of picking (path-grants.ts). */
export function confirmOpenBox(path: string, use: 'install' | 'mappings'): MessageBoxOptions {
  return {
    type: 'question',
    title: use === 'install' ? 'Open this path?' : 'Use this mappings file?',
    message: use === 'install' ? `Open ${path}?` : `Read the mappings file ${path}?`,
    detail: 'The page asked for a path you did not pick in a dialog. Allow it only if you typed it yourself.',
    buttons: ['Cancel', use === 'install' ? 'Open' : 'Use'],
    defaultId: 0,
    cancelId: 0,
  };
}

const SAVE_FILTERS: Record<string, { name: string; extensions: string[] }> = {
  png: { name: 'PNG image', extensions: ['png'] },
  dds: { name: 'DirectDraw Surface', extensions: ['dds'] },
  hdr: { name: 'Radiance HDR image', extensions: ['hdr'] },
  glb: { name: 'glTF binary', extensions: ['glb'] },
  ttf: { name: 'TrueType font', extensions: ['ttf'] },
  otf: { name: 'OpenType font', extensions: ['otf'] },
  mid: { name: 'Standard MIDI file', extensions: ['mid'] },
};

/** The save dialog for a conversion of format `format` (png, dds, hdr), suggesting `name`. */
export function saveDialogOptions(name: string, format: string): SaveDialogOptions {
  const filter = SAVE_FILTERS[format] ?? { name: format.toUpperCase(), extensions: [format] };
  return { title: `Save as ${format.toUpperCase()}`, defaultPath: name, filters: [filter] };
}

export function nativeDialogs(shell: ElectronShell, window: () => ShellWindow | null): Required<Dialogs> {
  let busy = false;
  const ask = async (options: OpenDialogOptions): Promise<string | null> => {
    if (busy) return null;
    busy = true;
    try {
      const result = await shell.showOpenDialog(window(), options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    } finally {
      busy = false;
    }
  };
  return {
    pickFolder: () => ask(OPEN_FOLDER_DIALOG),
    pickFile: () => ask(OPEN_FILE_DIALOG),
    pickExportFolder: () => ask(EXPORT_FOLDER_DIALOG),
    pickMappingsFile: () => ask(MAPPINGS_FILE_DIALOG),
    confirmOpen: async (path, use) => {
      if (busy) return false;
      busy = true;
      try {
        return (await shell.showMessageBox(window(), confirmOpenBox(path, use))).response === 1;
      } finally {
        busy = false;
      }
    },
    pickSaveFile: async ({ name, format }) => {
      if (busy) return null;
      busy = true;
      try {
        const result = await shell.showSaveDialog(window(), saveDialogOptions(name, format));
        return result.canceled || !result.filePath ? null : result.filePath;
      } finally {
        busy = false;
      }
    },
  };
}
