/**
 * Game data views of plain files (the converter registry's "localization" and "registry" views): every culture of a localization target side by side (from a
 * .locres or .locmeta of it), and an AssetRegistry.bin's assets with a link to each package the
 * install holds.
 */
import { parseAssetRegistry } from '../core/asset-registry/read.js';
import { gatherCultures, locresPaths, readLocresFile } from '../core/assets/locres/install.js';
import type { CultureTexts } from '../core/assets/locres/localize.js';
import { cultureOf, LocresVersion, parseLocmeta } from '../core/assets/locres/read.js';
import type { Install } from '../core/install/install.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { LocalizationView, RegistryView } from '../shared/data-api.js';
import { RequestError } from './request-error.js';

/**
 * The localization target a file belongs to: ".../Localization/<target>" for
 * ".../Localization/<target>/<culture>/X.locres" and ".../Localization/<target>/X.locmeta".
 */
export function localizationTarget(path: string): string {
  const parts = path.split('/');
  const at = parts.map((p) => p.toLowerCase()).lastIndexOf('localization');
  if (at >= 0 && at + 1 < parts.length - 1) return parts.slice(0, at + 2).join('/');
  // Not under a Localization folder: the .locres files beside it and below its parent.
  return parts.slice(0, Math.max(0, parts.length - 2)).join('/');
}

async function nativeCultureOf(install: Install, target: string): Promise<string | null> {
  const prefix = `${target.toLowerCase()}/`;
  const meta = [...install.files()].find((f) => f.path.toLowerCase().endsWith('.locmeta') && f.path.toLowerCase().startsWith(prefix));
  if (!meta) return null;
  try {
    const p = meta.providers[0]!;
    return parseLocmeta(await p.archive.read(p.file.ref), meta.path).nativeCulture || null;
  } catch {
    return null;
  }
}

/** The cultures the install's .locres files are of, sorted. */
export function installCultures(install: Install): string[] {
  return [...new Set(locresPaths(install).map(cultureOf))].sort();
}

/** Every translation of `culture` the install's .locres files hold (files that do not read are left out). */
export async function readCultureTexts(install: Install, culture: string): Promise<CultureTexts> {
  const files = await Promise.all(locresPaths(install).filter((p) => cultureOf(p).toLowerCase() === culture.toLowerCase()).map((p) => readLocresFile(install, p)));
  return Object.values(gatherCultures(files))[0] ?? {};
}

/** Every culture of the target `path` belongs to (or of the whole install for ""), side by side. */
export async function readLocalization(install: Install, path: string): Promise<LocalizationView> {
  const target = path === '' ? '' : localizationTarget(path);
  const files = await Promise.all(locresPaths(install, target || undefined).map((p) => readLocresFile(install, p)));
  const nativeCulture = target ? await nativeCultureOf(install, target) : null;
  const names = [...new Set(files.map((f) => f.culture))].sort();
  const first = nativeCulture !== null && names.includes(nativeCulture) ? nativeCulture : names.includes('en') ? 'en' : undefined;
  const cultures = first === undefined ? names : [first, ...names.filter((c) => c !== first)];
  const column = new Map(cultures.map((c, i) => [c, i]));
  const rows = new Map<string, { namespace: string; key: string; texts: (string | null)[] }>();
  for (const f of files) {
    const i = column.get(f.culture)!;
    for (const e of f.locres?.entries ?? []) {
      const id = `${e.namespace}\u0000${e.key}`;
      let row = rows.get(id);
      if (!row) rows.set(id, row = { namespace: e.namespace, key: e.key, texts: cultures.map(() => null) });
      row.texts[i] = e.text;
    }
  }
  const sorted = [...rows.values()].sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    target, cultures, nativeCulture,
    files: files.map((f) => ({
      path: f.path, culture: f.culture,
      ...(f.locres ? { version: LocresVersion[f.locres.version], entries: f.locres.entries.length } : {}),
      ...(f.error !== undefined ? { error: f.error } : {}),
    })),
    rows: sorted,
    untranslated: cultures.map((_, i) => sorted.reduce((n, r) => n + (r.texts[i] === null ? 1 : 0), 0)),
  };
}

/** An AssetRegistry.bin of the install: its assets, each linked to its package where the install holds it. */
export async function readRegistryView(install: Install, packages: InstallPackages, path: string): Promise<RegistryView> {
  const file = install.file(path);
  if (!file) throw new RequestError(`no file "${path}" in this install`, 404);
  const p = file.providers[0]!;
  // Bad input throws its FormatError, shown as the view's message.
  const reg = parseAssetRegistry(await p.archive.read(p.file.ref), file.path);
  const counts = new Map<string, number>();
  for (const a of reg.assets) counts.set(a.class, (counts.get(a.class) ?? 0) + 1);
  const index = packages.index;
  return {
    path: file.path, version: reg.version, versionName: reg.versionName,
    assets: reg.assets.map((a) => ({
      object: a.object, class: a.class, package: a.package, tags: Object.entries(a.tags),
      packagePath: index.byPackageName(a.package)?.file.path ?? null,
    })),
    classes: [...counts].map(([c, count]) => ({ class: c, count })).sort((a, b) => b.count - a.count || (a.class < b.class ? -1 : 1)),
    packages: reg.packages.length,
    dependencyNodes: reg.dependencies.length,
    warnings: reg.warnings,
  };
}
