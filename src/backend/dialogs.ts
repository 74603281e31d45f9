/**
 * Native file pickers. Electron implements them with its dialog module; the browser host has
 * none and answers null, and the page asks for a typed path instead.
 */
export interface Dialogs {
  pickFolder(): Promise<string | null>;
  pickFile(): Promise<string | null>;
  /**
   * The folder to export to. Present only where there is a native dialog (Electron); then
   * exports may only go to folders picked with it.
   */
  pickExportFolder?(): Promise<string | null>;
  /** A mappings file (.usmap). Present only where there is a native dialog (Electron). */
  pickMappingsFile?(): Promise<string | null>;
  /**
   * Asks the user whether the page may open a path they did not pick (typed in the path field).
   * Present only where there is a native dialog (Electron): the page cannot answer it. Without
   * it, the page's own confirmation counts (path-grants.ts).
   */
  confirmOpen?(path: string, use: 'install' | 'mappings'): Promise<boolean>;
  /**
   * The file to save a conversion to (`name` suggested, `format` its extension). Present only
   * where there is a native dialog (Electron); then conversions may only go to files picked with it.
   */
  pickSaveFile?(req: { name: string; format: string }): Promise<string | null>;
}

export const noDialogs: Dialogs = {
  pickFolder: async () => null,
  pickFile: async () => null,
};
