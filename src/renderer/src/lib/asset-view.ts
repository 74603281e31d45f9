/** What the package view gives an asset view (the Texture, Mesh, Level, ... tabs). */
import type { PakScopeApi } from '../../../shared/api.js';

export interface AssetViewProps {
  api: PakScopeApi;
  installId: string;
  /** The package's path in the install's tree. */
  path: string;
  /** The export shown. */
  exportIndex: number;
  /** The engine version picked for the package ('' for the one PakScope finds). */
  engine?: string;
  /** Opens a package by its tree path; in a new tab when asked. */
  onnavigate?: (path: string, newTab: boolean) => void;
}

/** An asset view that also shows a plain file (a .wem, a .ufont): no export then. */
export type FileOrAssetViewProps = Omit<AssetViewProps, 'exportIndex'> & { exportIndex?: number | undefined };
