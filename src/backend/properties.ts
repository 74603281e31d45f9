/**
 * The Properties tab's backend: every export's properties with the byte range of each entry (for
 * the hex view), the object paths the values name resolved to imports, exports and packages of
 * the install (for links), and the mappings (.usmap) unversioned properties need, chosen per
 * install and remembered like the AES keys: by the install's root, in mappings.json in the config
 * folder (the browser host's ~/.config/pakscope, Electron's user-data folder). A path is not a
 * secret, so the file is plain JSON.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { whenCodecsReady } from '../core/codecs/registry.js';
import type { Install } from '../core/install/install.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { PackageModel } from '../core/package-model.js';
import { installPackageProperties } from '../core/properties/open.js';
import type { ExportProperties, PropertyValue, TextKey } from '../core/properties/types.js';
import { localizeTexts, type CultureTexts } from '../core/assets/locres/localize.js';
import { installCultures, readCultureTexts } from './game-data.js';
import { parseUsmap } from '../core/usmap/parse.js';
import type { Usmap } from '../core/usmap/types.js';
import type { ExportPropertiesView, MappingsStatus, PackagePropertiesView, PropertyLink } from '../shared/package-api.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

export const MAPPINGS_FILE = 'mappings.json';
/** A .usmap larger than this is not read (real ones are a few MiB). */
export const MAX_USMAP_BYTES = 512 * 1024 * 1024;
/** Installs remembered at most: a damaged file cannot grow without bound. */
const MAX_INSTALLS = 1000;
/** Property views kept per install (the Properties and JSON tabs of the last packages). */
const CACHED_VIEWS = 4;

// ---- which .usmap each install uses ----

/** root -> .usmap path, in one JSON file replaced whole on each save. */
export class MappingsStore {
  readonly file: string;
  /** Saves are chained, so two quick saves cannot interleave their read-modify-write. */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(private readonly configDir: string) {
    this.file = join(configDir, MAPPINGS_FILE);
  }

  async load(root: string): Promise<string | null> {
    await this.pending.catch(() => undefined);
    return (await this.read())[resolve(root)] ?? null;
  }

  /** Remembers `path` for the install at `root`; null forgets. */
  save(root: string, path: string | null): Promise<void> {
    const next = this.pending.catch(() => undefined).then(async () => {
      const map = await this.read();
      if (path === null) delete map[resolve(root)];
      else map[resolve(root)] = path;
      await mkdir(this.configDir, { recursive: true });
      // Write then rename, so a crash never leaves half a file behind.
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, JSON.stringify({ version: 1, installs: map }, null, 1));
      await rename(tmp, this.file);
    });
    this.pending = next;
    return next;
  }

  private async read(): Promise<Record<string, string>> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as { installs?: unknown };
      const out: Record<string, string> = {};
      if (data.installs && typeof data.installs === 'object' && !Array.isArray(data.installs)) {
        for (const [root, path] of Object.entries(data.installs).slice(0, MAX_INSTALLS)) {
          if (typeof path === 'string' && path.length > 0 && path.length <= 4096) out[root] = path;
        }
      }
      return out;
    } catch {
      return {}; // nothing stored yet, or damaged: the next save writes a good file
    }
  }
}

/** The mappings an install reads its unversioned properties with, parsed once per file version. */
export interface LoadedMappings {
  path: string;
  usmap: Usmap;
}

export class MappingsService {
  /** Parsed files by path, with the size and time they were read at (a changed file is read again). */
  private readonly parsed = new Map<string, { stamp: string; usmap: Promise<Usmap> }>();

  constructor(readonly store: MappingsStore, private readonly canPick: boolean) {}

  /** The mappings chosen for the install at `root`: parsed, or why the file does not read; null when none is chosen. */
  async forInstall(root: string): Promise<{ path: string; usmap?: Usmap; error?: string } | null> {
    const path = await this.store.load(root);
    if (path === null) return null;
    try {
      return { path, usmap: await this.read(path) };
    } catch (e) {
      return { path, error: e instanceof Error ? e.message : String(e) };
    }
  }

  async status(root: string): Promise<MappingsStatus> {
    const m = await this.forInstall(root);
    return describe(m, this.canPick);
  }

  /** Reads `path` and remembers it for the install when it reads (a bad file throws and changes nothing); "" forgets. */
  async set(root: string, path: string): Promise<MappingsStatus> {
    const trimmed = path.trim();
    if (trimmed === '') {
      await this.store.save(root, null);
      return describe(null, this.canPick);
    }
    const abs = resolve(trimmed);
    const usmap = await this.read(abs);
    await this.store.save(root, abs);
    return describe({ path: abs, usmap }, this.canPick);
  }

  private async read(path: string): Promise<Usmap> {
    const s = await stat(path).catch(() => null);
    if (!s) throw new RequestError(`${path}: no such file`, 404);
    if (!s.isFile()) throw new RequestError(`${path}: not a file (choose the game's .usmap mappings file)`);
    if (s.size > MAX_USMAP_BYTES) throw new RequestError(`${path}: ${s.size} bytes is too large for a mappings file`);
    const stamp = `${s.size}:${s.mtimeMs}`;
    const known = this.parsed.get(path);
    if (known?.stamp === stamp) return known.usmap;
    const usmap = (async () => {
      await whenCodecsReady(); // Oodle-compressed mappings need the Oodle decoder loaded
      return parseUsmap(new Uint8Array(await readFile(path)), path);
    })();
    this.parsed.set(path, { stamp, usmap });
    usmap.catch(() => { if (this.parsed.get(path)?.usmap === usmap) this.parsed.delete(path); });
    return usmap;
  }
}

function describe(m: { path: string; usmap?: Usmap; error?: string } | null, canPick: boolean): MappingsStatus {
  if (!m) return { path: null, canPick };
  const out: MappingsStatus = { path: m.path, canPick };
  if (m.usmap) out.summary = { version: m.usmap.version, compression: m.usmap.compression, structs: m.usmap.structs.size, enums: m.usmap.enums.size };
  if (m.error) out.error = m.error;
  return out;
}

// ---- the properties of a package ----

export class PropertiesService {
  /** Recent views per InstallPackages (a new one, after keys unlock containers, starts empty). */
  private readonly views = new WeakMap<InstallPackages, Map<string, Promise<PackagePropertiesView>>>();

  /** One culture's translations per install, gathered from its .locres files once. */
  private readonly cultures = new WeakMap<Install, Map<string, Promise<CultureTexts>>>();

  constructor(private readonly packages: PackageService) {}

  private cultureTexts(install: Install, culture: string): Promise<CultureTexts> {
    let byCulture = this.cultures.get(install);
    if (!byCulture) this.cultures.set(install, (byCulture = new Map()));
    let texts = byCulture.get(culture.toLowerCase());
    if (!texts) {
      texts = readCultureTexts(install, culture);
      byCulture.set(culture.toLowerCase(), texts);
    }
    return texts;
  }

  async view(
    installId: string, install: Install, req: { path: string; engine?: string; culture?: string }, mappings: { path: string; usmap?: Usmap; error?: string } | null,
  ): Promise<PackagePropertiesView> {
    const packages = this.packages.packagesOf(installId, install);
    const engine = req.engine?.trim() || undefined;
    const loc = this.packages.locate(packages, req.path);
    const usmap = mappings?.usmap;
    const culture = req.culture?.trim() || undefined;
    const key = `${loc.path}|${engine ?? ''}|${usmap ? mappings!.path : ''}|${culture ?? ''}`;
    let cache = this.views.get(packages);
    if (!cache) this.views.set(packages, (cache = new Map()));
    const known = cache.get(key);
    if (known) return known;
    const made = (async (): Promise<PackagePropertiesView> => {
      const ref = loc.path.startsWith('#') ? loc.path.slice(1) : loc.path;
      const textKeys: TextKey[] = [];
      const [opened, props] = await Promise.all([
        packages.open(loc, engine !== undefined ? { engine } : {}),
        installPackageProperties(packages, ref, { ...(usmap ? { mappings: usmap } : {}), ...(engine !== undefined ? { engine } : {}), offsets: true, textKeys }),
      ]);
      const model = opened.model;
      const cultures = installCultures(install);
      const localizedTexts = culture !== undefined ? localizeTexts(props.properties.exports, textKeys, await this.cultureTexts(install, culture), culture) : 0;
      const exports = props.properties.exports.map((e) => exportView(model, e));
      return {
        installId,
        path: opened.path,
        package: props.properties.package,
        format: model.format,
        exports,
        links: linksOf(packages, model, exports),
        mappings: usmap ? mappings!.path : null,
        cultures,
        culture: culture ?? null,
        localizedTexts,
        mappingsNeeded: exports.some((e) => e.encoding === 'unversioned' && (e.notes ?? []).some((n) => n.includes('mappings file'))),
        warnings: [...new Set([...opened.warnings, ...props.warnings, ...(mappings?.error ? [`the mappings ${mappings.path} do not read: ${mappings.error}`] : [])])],
      };
    })();
    cache.set(key, made);
    made.catch(() => { if (cache.get(key) === made) cache.delete(key); });
    while (cache.size > CACHED_VIEWS) cache.delete(cache.keys().next().value!);
    return made;
  }
}

/** An export's properties with where its bytes are in the package stream and its place in the package. */
function exportView(model: PackageModel, e: ExportProperties): ExportPropertiesView {
  const m = model.exports[e.index]?.index === e.index ? model.exports[e.index] : model.exports.find((x) => x.index === e.index);
  // A Zen export's bytes follow the header in the chunk; a classic or UE1/2 export's are at its serial offset.
  const streamOffset = model.format === 'zen' ? m?.dataFileOffset ?? 0 : m?.serialOffset ?? 0;
  const out: ExportPropertiesView = { ...e, streamOffset, path: m?.path ?? e.name, outer: m?.outer ?? null };
  if (m?.flags) out.flags = m.flags;
  return out;
}

/** Every string of the values that names an import or export of the package, or a package of the install. */
function linksOf(packages: InstallPackages, model: PackageModel, exports: readonly ExportPropertiesView[]): Record<string, PropertyLink> {
  const imports = new Map<string, PackageModel['imports'][number]>();
  for (const i of model.imports) if (!imports.has(i.path)) imports.set(i.path, i);
  const own = new Map<string, PackageModel['exports'][number]>();
  for (const x of model.exports) if (!own.has(x.path)) own.set(x.path, x);
  const links: Record<string, PropertyLink> = Object.create(null) as Record<string, PropertyLink>;
  const tried = new Set<string>();
  const pathOf = (pkg: string): string | null => {
    if (pkg.toLowerCase() === model.name.toLowerCase()) return null;
    return packages.index.byPackageName(pkg)?.file.path ?? null;
  };
  const packageOf = (path: string): string => {
    const dot = path.indexOf('.');
    return dot < 0 ? path : path.slice(0, dot);
  };
  const consider = (s: string): void => {
    if (tried.has(s)) return;
    tried.add(s);
    const x = own.get(s);
    if (x) {
      links[s] = { kind: 'export', index: x.index, class: x.class, package: model.name, packagePath: null };
      return;
    }
    const i = imports.get(s);
    if (i) {
      const pkg = packageOf(s);
      links[s] = { kind: 'import', index: i.index, class: i.class, package: pkg, packagePath: pathOf(pkg) };
      return;
    }
    // A soft reference ("/Game/A/B.B", "/Game/A/B.B:Sub") to a package the install holds.
    if (s.startsWith('/') && !s.startsWith('/Script/')) {
      const pkg = packageOf(s);
      const packagePath = pathOf(pkg);
      if (packagePath !== null) links[s] = { kind: 'package', class: '', package: pkg, packagePath };
    }
  };
  const visit = (v: PropertyValue | undefined, depth: number): void => {
    if (depth > 200 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      if (v.length > 0 && v.length < 1024) consider(v);
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x as PropertyValue, depth + 1);
    } else if (typeof v === 'object') {
      // A property entry: only its value names objects (its name and type do not).
      if ('name' in v && 'type' in v && 'value' in v && typeof v.type === 'string') visit(v.value, depth + 1);
      else for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  for (const e of exports) for (const p of e.properties) if (!p.raw) visit(p.value, 0);
  return links;
}
