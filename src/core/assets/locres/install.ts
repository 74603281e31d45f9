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

/** The .locres files of `install` (only `culture`'s when given), each read or with its error. */
export async function readInstallLocres(install: Install, culture?: string, signal?: AbortSignal): Promise<LocresFile[]> {
  const out: LocresFile[] = [];
  const paths = [...install.files()].filter((f) => f.path.toLowerCase().endsWith('.locres')).map((f) => f.path).sort();
  for (const path of paths) {
    const c = cultureOf(path);
    if (culture !== undefined && c.toLowerCase() !== culture.toLowerCase()) continue;
    const f = install.file(path)!;
    const p = f.providers[0]!;
    try {
      out.push({ path, culture: c, locres: parseLocres(await p.archive.read(p.file.ref, signal), path) });
    } catch (e) {
      if (!(e instanceof Error) || e.name === 'AbortError') throw e;
      out.push({ path, culture: c, error: e.message });
    }
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
