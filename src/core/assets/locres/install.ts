/**
 * Every .locres of an install (Localization/<target>/<culture>/*.locres), read and gathered by
 * culture: culture -> namespace -> key -> text, a later file's entry replacing an earlier one's.
 */
import type { Install } from '../../install/install.js';
import { cultureOf, parseLocres, type Locres } from './read.js';

export interface LocresFile {
  path: string;
  culture: string;
  locres?: Locres;
  /** Why the file does not read (the other files are still gathered). */
  error?: string;
}

export type CultureTexts = Record<string, Record<string, Record<string, string>>>;

/** The .locres paths of `install`, sorted; with `folder`, only those below it. */
export function locresPaths(install: Install, folder?: string): string[] {
  const prefix = folder ? `${folder.replace(/\/+$/, '').toLowerCase()}/` : '';
  return [...install.files()].map((f) => f.path).filter((p) => p.toLowerCase().endsWith('.locres') && p.toLowerCase().startsWith(prefix)).sort();
}

/** One .locres of `install`, read, or with the reason it does not read. */
export async function readLocresFile(install: Install, path: string, signal?: AbortSignal): Promise<LocresFile> {
  const p = install.file(path)!.providers[0]!;
  const culture = cultureOf(path);
  try {
    return { path, culture, locres: parseLocres(await p.archive.read(p.file.ref, signal), path) };
  } catch (e) {
    if (!(e instanceof Error) || e.name === 'AbortError') throw e;
    return { path, culture, error: e.message };
  }
}

/** The .locres files of `install` (only `culture`'s when given), each read or with its error. */
export async function readInstallLocres(install: Install, culture?: string, signal?: AbortSignal): Promise<LocresFile[]> {
  const out: LocresFile[] = [];
  for (const path of locresPaths(install)) {
    if (culture !== undefined && cultureOf(path).toLowerCase() !== culture.toLowerCase()) continue;
    out.push(await readLocresFile(install, path, signal));
  }
  return out;
}

/** The files' entries as culture -> namespace -> key -> text. */
export function gatherCultures(files: readonly LocresFile[]): CultureTexts {
  const cultures: CultureTexts = {};
  for (const f of files) {
    if (!f.locres) continue;
    const byNs = (cultures[f.culture] ??= {});
    for (const e of f.locres.entries) (byNs[e.namespace] ??= {})[e.key] = e.text;
  }
  return cultures;
}
