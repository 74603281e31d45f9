/**
 * The AssetRegistry.bin files of an install (the game's, and any a plugin or DLC ships), each
 * read or with the reason it does not read.
 */
import type { Install } from '../install/install.js';
import { parseAssetRegistry } from './read.js';
import type { AssetRegistry } from './types.js';

export interface RegistryFile {
  path: string;
  registry?: AssetRegistry;
  /** Why the file does not read (the other files are still read). */
  error?: string;
}

/** The names of asset registry files, lowercase: the cooked one and the editor's development one. */
export const ASSET_REGISTRY_FILE_NAMES: readonly string[] = ['assetregistry.bin', 'developmentassetregistry.bin'];

/** Whether a path names an asset registry. */
export function isAssetRegistryPath(path: string): boolean {
  return ASSET_REGISTRY_FILE_NAMES.includes(path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase());
}

export async function readInstallRegistries(install: Install, signal?: AbortSignal): Promise<RegistryFile[]> {
  const out: RegistryFile[] = [];
  const paths = [...install.files()].map((f) => f.path).filter(isAssetRegistryPath).sort();
  for (const path of paths) {
    const p = install.file(path)!.providers[0]!;
    try {
      out.push({ path, registry: parseAssetRegistry(await p.archive.read(p.file.ref, signal), path) });
    } catch (e) {
      if (!(e instanceof Error) || e.name === 'AbortError') throw e;
      out.push({ path, error: e.message });
    }
  }
  return out;
}
