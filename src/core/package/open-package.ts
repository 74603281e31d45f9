/**
 * Opens one package of an install, whatever its format, into the shared PackageModel:
 *
 * - an IoStore package (Zen): its ExportBundleData chunk, read with the layout its container's
 *   TOC and container header versions give (or the caller's engine release); /Script imports
 *   named through the global script objects, package imports through the imported packages'
 *   headers where the install holds them;
 * - a classic package (.uasset/.umap in a pak or a loose folder) read with its .uexp as one
 *   package; a UE1/2 package.
 *
 *   const packages = new InstallPackages(install);
 *   const { model } = await packages.open('/Game/Maps/Entry');   // or 'Game/Content/Maps/Entry.umap'
 *   await packages.close();
 *
 * openPackageFile() does the same for one package file on disk.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Archive } from '../archive.js';
import {
  ContainerHeaderVersion, ENGINE_RELEASES, EngineVersion, ZenLayout, engineRelease, enginesFor, parseEngineVersion, zenLayoutFor,
} from '../engine-versions.js';
import { FormatError } from '../errors.js';
import { mountPathToPackageName } from '../install/game-path.js';
import type { Install, VfsFile } from '../install/install.js';
import { contentFolderMountPath } from '../install/loose-folder.js';
import { compareByPriority } from '../install/priority.js';
import { chunkTypeValue } from '../iostore/chunk-type.js';
import { findStoreEntry, parseContainerHeader, type ContainerHeader } from '../iostore/container-header.js';
import { IoStoreContainer } from '../iostore/container.js';
import { PakArchive } from '../pak/pak-archive.js';
import { detectClassicPackage, parseClassicPackageModel, type PackageModel } from '../package-model.js';
import { resolvePackage } from '../zen/resolve.js';
import type { ZenPackage } from '../zen/types.js';
import { parseZenPackage, peekZenHeaderSize, type ZenPackageContext } from '../zen/zen-package.js';
import { COMPANION_EXTENSIONS, extensionOf, isPackageFileName, isUAssetFileName, isUe12FileName, withoutExtension } from './package-files.js';
import { PACKAGE_ID_PATTERN, PackageIndex, packageChunkIdHex, packageIdOfChunkId, type PackageKind } from './package-index.js';
import { findScriptObjects, type ScriptObjectsFound } from './script-objects.js';
import { zenToPackageModel } from './zen-model.js';

export interface OpenPackageOptions {
  /**
   * Engine release ("5.4", "4.27"): a Zen package is read with its layout instead of the one the
   * container's versions give; an unversioned .uasset tries its layout first.
   */
  engine?: string;
  signal?: AbortSignal;
}

export interface OpenedPackage {
  model: PackageModel;
  /** The file as `ls` prints it; "#<package id>" for an IoStore package the directory index does not name. */
  path: string;
  /** The archive it was read from (container, pak, loose folder or file) on disk. */
  container: string;
  /** What could not be named or read (no global container, imported packages missing), for the user. */
  warnings: string[];
}

/** Where a package of the install is. */
export interface PackageLocation {
  /** As `ls` prints it; "#<package id>" when the directory index does not name it. */
  path: string;
  archive: Archive;
  ref: number;
  kind: PackageKind;
  /** 16 hex digits, where known before parsing. */
  packageId?: string;
  /** From the path (game path mapping), where it maps. */
  packageName?: string;
  file?: VfsFile;
}

/** No such package in the install, or the file named is not a package. Bad input: exit 2. */
export class PackageLookupError extends Error {
  readonly code = 'ENOENT';
  constructor(message: string) {
    super(message);
    this.name = 'PackageLookupError';
  }
}

/** Bytes of a Zen package read whole to print it; a bigger chunk is read up to its header only. */
const FULL_READ_LIMIT = 16 * 1024 * 1024;
/** Bytes read first from a package whose header alone is wanted: enough for most headers. */
const HEADER_PROBE_BYTES = 64 * 1024;
/** Packages an ambiguous short name's error lists; the rest are counted. */
const MAX_CANDIDATES_SHOWN = 20;
/** Imported packages kept parsed; past this the cache starts over. */
const MAX_CACHED_IMPORTS = 4096;

interface ContainerContext {
  layout: ZenLayout;
  header?: ContainerHeader;
  headerProblem?: string;
  tocVersion: number;
}

/** The EngineVersion of an --engine text that names a Zen release (ZEN_RELEASES), else undefined. */
function zenEngine(text: string | undefined): EngineVersion | undefined {
  return text === undefined ? undefined : parseEngineVersion(text);
}

/** "5.6-5.8" for the releases writing these versions; null when none does. */
function engineLabel(tocVersion: number, containerHeaderVersion: ContainerHeaderVersion | undefined, engine?: EngineVersion): string | null {
  if (engine !== undefined) return engineRelease(engine).label.slice(2);
  const rs = enginesFor({ tocVersion, containerHeaderVersion });
  if (rs.length === 0) return null;
  const first = rs[0]!.label.slice(2), last = rs[rs.length - 1]!.label.slice(2);
  return first === last ? first : `${first}-${last}`;
}

/** "4.25 to 6.0": the releases with IoStore packages, for messages. */
export const ZEN_RELEASES = `${ENGINE_RELEASES[0]!.label.slice(2)} to ${ENGINE_RELEASES[ENGINE_RELEASES.length - 1]!.label.slice(2)}`;

export class InstallPackages {
  private indexCache: PackageIndex | undefined;
  private readonly containers: IoStoreContainer[];
  private readonly contexts = new Map<string, Promise<ContainerContext>>();
  private readonly imported = new Map<string, Promise<ZenPackage | undefined>>();
  private scripts: Promise<{ found?: ScriptObjectsFound; problems: string[] }> | undefined;

  constructor(readonly install: Install) {
    this.containers = install.archives
      .filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.status.state !== 'locked')
      .sort(compareByPriority);
  }

  /** The install's packages by name and id (built on first use). */
  get index(): PackageIndex {
    this.indexCache ??= PackageIndex.build(this.install);
    return this.indexCache;
  }

  /**
   * Finds a package: `ref` is a package name ("/Game/Maps/Entry", "Botpack" for UE1/2), a file
   * path as `ls` prints it, or a package id (16 hex digits). Throws PackageLookupError.
   */
  locate(ref: string): PackageLocation {
    const trimmed = ref.trim();
    if (PACKAGE_ID_PATTERN.test(trimmed)) {
      const loc = this.locateId(trimmed.toLowerCase());
      if (loc) return loc;
    }
    const file = this.install.file(trimmed);
    if (file) return this.locateFile(file, trimmed);
    const byName = this.index.byPackageName(trimmed) ??
      // "/Game/A.A" (an object path) names the package /Game/A.
      (trimmed.startsWith('/') && trimmed.includes('.') ? this.index.byPackageName(trimmed.slice(0, trimmed.indexOf('.'))) : undefined);
    if (byName) return this.locateFile(byName.file, trimmed);
    for (const ext of ['.uasset', '.umap']) {
      const f = this.install.file(trimmed + ext);
      if (f) return this.locateFile(f, trimmed);
    }
    const short = this.locateShortName(trimmed);
    if (short) return short;
    throw new PackageLookupError(`${ref}: no such package in ${this.install.roots.join(', ')} (a package name like /Game/Maps/Entry, a path as ls prints it, or a package id)`);
  }

  /**
   * A package by its short name ("T_BC7", "T_BC7.uasset"): the one package whose name ends so;
   * when several do, the error lists them.
   */
  private locateShortName(ref: string): PackageLocation | undefined {
    if (ref.includes('/') || ref === '') return undefined;
    const short = /\.(uasset|umap)$/i.test(ref) ? ref.slice(0, ref.lastIndexOf('.')) : ref;
    const found = this.index.byShortName(short);
    if (found.length === 1) return this.locateFile(found[0]!.file, ref);
    if (found.length === 0) return undefined;
    const shown = found.slice(0, MAX_CANDIDATES_SHOWN).map((p) => p.name);
    if (found.length > MAX_CANDIDATES_SHOWN) shown.push(`and ${found.length - MAX_CANDIDATES_SHOWN} more`);
    throw new PackageLookupError(`${ref}: ${found.length} packages have this name (${shown.join(', ')}); name one of them in full`);
  }

  /** An IoStore package by id, also one the directory index does not list. */
  private locateId(id: string): PackageLocation | undefined {
    const indexed = this.index.byPackageId(id);
    if (indexed) return this.locateFile(indexed.file, id);
    for (const c of this.containers) {
      const type = chunkTypeValue(c.toc.header.version, 'ExportBundleData');
      if (type === undefined) continue;
      const entry = c.findChunk(packageChunkIdHex(id, type));
      if (entry !== undefined) return { path: `#${id}`, archive: c, ref: entry, kind: 'zen', packageId: id };
    }
    return undefined;
  }

  private locateFile(file: VfsFile, ref: string): PackageLocation {
    const { archive, file: entry } = file.providers[0]!;
    const indexed = this.index.ofFile(file);
    const base = { path: file.path, archive, ref: entry.ref, file, ...(indexed ? { packageId: indexed.id, packageName: indexed.name } : {}) };
    if (entry.chunkType !== undefined) {
      if (entry.chunkType !== 'ExportBundleData') {
        throw new PackageLookupError(`${ref}: ${file.path} is a ${entry.chunkType} chunk, not a package`);
      }
      return { ...base, kind: 'zen', packageId: packageIdOfChunkId(entry.chunkId!) };
    }
    const ext = extensionOf(file.path);
    if (COMPANION_EXTENSIONS.includes(ext)) {
      throw new PackageLookupError(`${ref}: ${file.path} is data of the package ${withoutExtension(file.path)}.uasset (or .umap), not a package header; name that file`);
    }
    return { ...base, kind: isUAssetFileName(file.path) || !isPackageFileName(file.path) ? 'uasset' : 'ue12' };
  }

  /** Reads and parses a package (see the module comment). */
  async open(target: string | PackageLocation, opts: OpenPackageOptions = {}): Promise<OpenedPackage> {
    const loc = typeof target === 'string' ? this.locate(target) : target;
    if (loc.kind === 'zen' && loc.archive instanceof IoStoreContainer) return this.openZen(loc, loc.archive, opts);
    return this.openClassic(loc, opts);
  }

  private async openClassic(loc: PackageLocation, opts: OpenPackageOptions): Promise<OpenedPackage> {
    const bytes = await loc.archive.read(loc.ref, opts.signal);
    // A Zen package exported raw (PakScope's own raw export, retoc, `cat`) is a .uasset without
    // the package tag: read it as Zen when it parses as one.
    const zen = loc.kind === 'uasset' ? openZenFile(bytes, loc.path, opts) : undefined;
    if (zen) return { ...zen, container: loc.archive.path };
    const warnings: string[] = [];
    const companions = COMPANION_EXTENSIONS.map((ext) => this.install.file(withoutExtension(loc.path) + ext)).filter((f) => f !== undefined);
    const uexp = companions.find((f) => extensionOf(f.path) === '.uexp');
    const model = parseClassicPackageModel(bytes, loc.path, {
      ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
      ...(uexp ? { uexpSize: uexp.size } : {}),
      ...(loc.packageName !== undefined && loc.kind === 'uasset' ? { packageName: loc.packageName } : {}),
      ...(loc.archive instanceof PakArchive ? { pakVersion: loc.archive.version } : {}),
    });
    model.details.companionFiles = companions.map((f) => f.path);
    return { model, path: loc.path, container: loc.archive.path, warnings };
  }

  private async openZen(loc: PackageLocation, c: IoStoreContainer, opts: OpenPackageOptions): Promise<OpenedPackage> {
    const engine = zenEngine(opts.engine);
    const warnings: string[] = [];
    if (opts.engine !== undefined && engine === undefined) warnings.push(`--engine ${opts.engine} is not a release with IoStore packages (${ZEN_RELEASES}); the container's versions decide`);
    const ctx = await this.context(c, engine);
    if (ctx.headerProblem) warnings.push(`container header not read (${ctx.headerProblem}); the layout follows the .utoc version`);
    const id = loc.packageId ?? packageIdOfChunkId(c.chunkIdHex(loc.ref));
    const size = c.chunkSize(loc.ref);
    const fileName = loc.path.startsWith('#') ? `${c.path}${loc.path}` : loc.path;
    const zenCtx: ZenPackageContext = {
      layout: ctx.layout,
      ...(engine !== undefined ? { engine } : {}),
      ...(ctx.header ? { storeEntry: findStoreEntry(ctx.header, id) } : {}),
      chunkSize: size,
    };
    let bytes: Uint8Array;
    if (size <= FULL_READ_LIMIT) {
      bytes = await c.readChunk(loc.ref, opts.signal);
    } else {
      bytes = await this.readZenHeader(c, loc.ref, fileName, zenCtx.engine !== undefined ? engineRelease(zenCtx.engine).zenLayout : ctx.layout);
      warnings.push(`the package is ${size} bytes: only its header was read`);
    }
    const pkg = parseZenPackage(bytes, fileName, zenCtx);
    if (pkg.packageId !== id) warnings.push(`the package's name ${pkg.name} hashes to ${pkg.packageId}, not to its chunk's id ${id}`);

    const scripts = await this.scriptObjects();
    const imported = await this.importsOf(pkg, engine);
    const resolved = resolvePackage(pkg, { scriptObjects: scripts.found?.objects, importedPackages: imported });
    const model = zenToPackageModel(pkg, resolved, {
      scriptObjects: scripts.found?.objects,
      ...(scripts.found ? { scriptObjectsFrom: scripts.found.container } : {}),
      engine: engineLabel(ctx.tocVersion, ctx.header?.version, engine),
      containerHeaderVersion: ctx.header?.version ?? null,
      tocVersion: ctx.tocVersion,
    });

    const scriptImports = pkg.imports.filter((r) => r.kind === 'script').length;
    if (scriptImports > 0 && !scripts.found) {
      const why = scripts.problems.length > 0 ? ` (${scripts.problems[0]})` : '';
      warnings.push(`no global container (global.utoc) with script objects found${why}: ${scriptImports} /Script imports are shown as /Script/?0x<hash>`);
    }
    const missing = new Set(resolved.imports.filter((i) => !i.resolved && i.kind !== 'script' && i.kind !== 'null').map((i) => i.packageName ?? i.packageId ?? '?'));
    if (missing.size > 0) warnings.push(`${missing.size} imported package(s) not in the install, their objects shown by export hash: ${[...missing].sort().join(', ')}`);
    return { model, path: loc.path, container: c.path, warnings };
  }

  /** The container's Zen layout and header (for store entries); the .utoc version alone without one. */
  private context(c: IoStoreContainer, engine: EngineVersion | undefined): Promise<ContainerContext> {
    const key = `${c.path}|${engine ?? ''}`;
    let p = this.contexts.get(key);
    if (!p) {
      p = (async (): Promise<ContainerContext> => {
        const tocVersion = c.toc.header.version;
        const entry = c.entriesOfType('ContainerHeader')[0];
        const layoutOf = (h?: ContainerHeaderVersion): ZenLayout => zenLayoutFor({ containerHeaderVersion: h, tocVersion, engine });
        if (entry === undefined) return { layout: layoutOf(), tocVersion };
        try {
          // UE4 headers carry no version: the engine release tells Initial from PreInitial.
          const forced = engine !== undefined && engine < EngineVersion.UE5_0 ? engineRelease(engine).containerHeaderVersion : undefined;
          const header = parseContainerHeader(await c.readChunk(entry), `${c.path} (container header)`, forced !== undefined ? { version: forced } : {});
          return { layout: layoutOf(header.version), header, tocVersion };
        } catch (e) {
          return { layout: layoutOf(), tocVersion, headerProblem: e instanceof Error ? e.message : String(e) };
        }
      })();
      this.contexts.set(key, p);
    }
    return p;
  }

  /** The global script objects, found once. */
  scriptObjects(): Promise<{ found?: ScriptObjectsFound; problems: string[] }> {
    this.scripts ??= findScriptObjects(this.containers);
    return this.scripts;
  }

  /** Reads the first bytes of a chunk, then the rest of its header if the header is longer. */
  private async readZenHeader(c: IoStoreContainer, entry: number, fileName: string, layout: ZenLayout): Promise<Uint8Array> {
    const size = c.chunkSize(entry);
    let head = await c.readChunkRange(entry, 0, Math.min(size, HEADER_PROBE_BYTES));
    const headerSize = peekZenHeaderSize(head, fileName, layout);
    if (headerSize > head.length && headerSize <= size) head = await c.readChunkRange(entry, 0, headerSize);
    return head;
  }

  /** The header of the IoStore package with this id, parsed (cached); undefined when the install lacks it or it does not read. */
  zenHeader(id: string, opts: OpenPackageOptions = {}): Promise<ZenPackage | undefined> {
    const engine = zenEngine(opts.engine);
    const key = `${id}|${engine ?? ''}`;
    let p = this.imported.get(key);
    if (!p) {
      p = this.readImported(id, engine).catch(() => undefined);
      this.imported.set(key, p);
    }
    return p;
  }

  /** The packages `pkg` imports that the install holds, parsed from their headers. */
  private async importsOf(pkg: ZenPackage, engine: EngineVersion | undefined): Promise<Map<string, ZenPackage>> {
    if (this.imported.size > MAX_CACHED_IMPORTS) this.imported.clear();
    const out = new Map<string, ZenPackage>();
    await Promise.all(pkg.importedPackageIds.map(async (id) => {
      // An imported package that does not read leaves its objects unnamed, nothing worse.
      const found = await this.zenHeader(id, engine !== undefined ? { engine: engineRelease(engine).label.slice(2) } : {});
      if (found) out.set(id, found);
    }));
    return out;
  }

  private async readImported(id: string, engine: EngineVersion | undefined): Promise<ZenPackage | undefined> {
    for (const c of this.containers) {
      const type = chunkTypeValue(c.toc.header.version, 'ExportBundleData');
      if (type === undefined) continue;
      const entry = c.findChunk(packageChunkIdHex(id, type));
      if (entry === undefined) continue;
      const ctx = await this.context(c, engine);
      const layout = engine !== undefined ? engineRelease(engine).zenLayout : ctx.layout;
      const fileName = `${c.path}#${id}`;
      const head = await this.readZenHeader(c, entry, fileName, layout);
      return parseZenPackage(head, fileName, {
        layout, ...(engine !== undefined ? { engine } : {}),
        ...(ctx.header ? { storeEntry: findStoreEntry(ctx.header, id) } : {}),
        chunkSize: c.chunkSize(entry),
      });
    }
    return undefined;
  }

  /** Closes what was opened here (a global container found beside the install); the install stays open. */
  async close(): Promise<void> {
    const scripts = await this.scripts?.catch(() => undefined);
    await scripts?.found?.opened?.close();
  }
}

/** Zen layouts tried on a Zen package file with nothing to tell its engine, newest first. */
const ZEN_LAYOUTS_NEWEST_FIRST: readonly ZenLayout[] = [
  ZenLayout.VerseCells, ZenLayout.BulkDataMapPadding, ZenLayout.DependencyBundles, ZenLayout.BulkDataMap,
  ZenLayout.ZenSummary, ZenLayout.PackageSummary,
];

/**
 * A Zen package saved as a file (retoc's .uzenasset, a chunk written by `cat`): read with the
 * engine's layout when given, else with the newest layout that reads it without a complaint.
 */
export function parseZenFile(bytes: Uint8Array, fileName: string, engine: EngineVersion | undefined): ZenPackage {
  if (engine !== undefined) return parseZenPackage(bytes, fileName, { layout: engineRelease(engine).zenLayout, engine });
  let first: unknown;
  for (const layout of ZEN_LAYOUTS_NEWEST_FIRST) {
    try {
      const pkg = parseZenPackage(bytes, fileName, { layout });
      if (pkg.warnings.length === 0) return pkg;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  throw first instanceof FormatError ? first : new FormatError(fileName, 'package header', 0, 'not an Unreal package');
}

/**
 * A file without the package tag read as a Zen package saved as a file, or undefined when it is
 * not one (the classic reader then says what is wrong). With --engine a Zen parse error is final.
 */
function openZenFile(bytes: Uint8Array, path: string, opts: OpenPackageOptions): Omit<OpenedPackage, 'container'> | undefined {
  if (detectClassicPackage(bytes).kind !== 'unknown' || isUe12FileName(path)) return undefined;
  const engine = zenEngine(opts.engine);
  let pkg: ZenPackage;
  try {
    pkg = parseZenFile(bytes, path, engine);
  } catch (e) {
    if (!(e instanceof FormatError) || engine !== undefined) throw e;
    return undefined;
  }
  const model = zenToPackageModel(pkg, resolvePackage(pkg), { engine: engine !== undefined ? engineRelease(engine).label.slice(2) : null });
  const warnings = [`read as a Zen package with the ${ZenLayout[pkg.layout]} layout; /Script imports are shown by hash (no global container)`];
  return { model, path, warnings };
}

/**
 * One package file on disk (.uasset/.umap with its .uexp beside it, a UE1/2 package, or a Zen
 * package saved as a file). A .uasset below a Content folder is named by its path
 * ("/p/MyProject/Content/Maps/A.umap" → /Game/Maps/A); elsewhere the package's name map tells.
 */
export async function openPackageFile(path: string, opts: OpenPackageOptions = {}): Promise<OpenedPackage> {
  const bytes = new Uint8Array(await readFile(path, { signal: opts.signal }));
  const warnings: string[] = [];
  const zen = openZenFile(bytes, path, opts);
  if (zen) return { ...zen, container: path };
  const stem = withoutExtension(path);
  const companions: { path: string; size: number }[] = [];
  if (isUAssetFileName(path)) {
    for (const ext of [...COMPANION_EXTENSIONS, '.m.ubulk']) {
      const s = await stat(stem + ext).catch(() => undefined);
      if (s?.isFile()) companions.push({ path: stem + ext, size: s.size });
    }
  }
  const uexp = companions.find((c) => c.path.endsWith('.uexp'));
  const folder = contentFolderMountPath(dirname(path));
  const packageName = folder && isUAssetFileName(path) ? mountPathToPackageName(`${folder}/${basename(path)}`) : undefined;
  const model = parseClassicPackageModel(bytes, path, {
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(uexp ? { uexpSize: uexp.size } : {}),
    ...(packageName !== undefined ? { packageName } : {}),
  });
  model.details.companionFiles = companions.map((c) => c.path);
  return { model, path, container: path, warnings };
}
