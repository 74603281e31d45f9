/**
 * The properties of one package, found the way `pakscope info` finds it: a package file on disk
 * (.uasset/.umap with the .uexp beside it, a UE1/2 package, a Zen package saved as a file), or a
 * package of an install (by name, path or id, through core/package's InstallPackages).
 */
import { readFile, stat } from 'node:fs/promises';
import { ZenLayout, engineRelease, parseEngineVersion } from '../engine-versions.js';
import { FormatError } from '../errors.js';
import { parseZenFile, type InstallPackages } from '../package/open-package.js';
import { COMPANION_EXTENSIONS, extensionOf, isUe12FileName, withoutExtension } from '../package/package-files.js';
import { detectClassicPackage } from '../package-model.js';
import { parseUAsset } from '../uasset/parse.js';
import { olderEngineDescription } from '../uasset/versions.js';
import { parseUe12Package } from '../ue12/package.js';
import type { Usmap } from '../usmap/types.js';
import { resolvePackage } from '../zen/resolve.js';
import type { ZenPackage } from '../zen/types.js';
import { uassetProperties, zenProperties } from './package.js';
import type { PackageProperties, TextKey } from './types.js';
import type { NativeDataReader } from './context.js';
import { ue12Properties } from './ue12.js';

export interface OpenPropertiesOptions {
  mappings?: Usmap;
  /** "5.4", "4.27": the layout of an unversioned or Zen package. */
  engine?: string;
  /** Record the byte range of every entry (PropertyEntry.range, .elements). */
  offsets?: boolean;
  /** Reads each export's native data after its properties (ExportProperties.native). */
  nativeData?: NativeDataReader;
  /** Collects the localization key of every literal text (PropertyContext.textKeys). */
  textKeys?: TextKey[];
}

export interface OpenedProperties {
  properties: PackageProperties;
  /** The file as given or as `ls` prints it. */
  path: string;
  /** What the reader could not name or read (for stderr). */
  warnings: string[];
}

/** Reads the properties of every export of the package `ref` of an install. */
export async function installPackageProperties(packages: InstallPackages, ref: string, opts: OpenPropertiesOptions = {}): Promise<OpenedProperties> {
  const loc = packages.locate(ref);
  const bytes = await loc.archive.read(loc.ref);
  const warnings: string[] = [];
  if (loc.kind === 'zen') {
    const engine = opts.engine !== undefined ? parseEngineVersion(opts.engine) : undefined;
    const engineOpt = engine !== undefined ? { engine: engineRelease(engine).label.slice(2) } : {};
    const id = loc.packageId!;
    const header = await packages.zenHeader(id, engineOpt);
    if (!header) throw new FormatError(loc.path, 'zen package', 0, 'the package header does not read');
    const scripts = await packages.scriptObjects();
    const imported = new Map<string, ZenPackage>();
    await Promise.all(header.importedPackageIds.map(async (i) => {
      const p = await packages.zenHeader(i, engineOpt);
      if (p) imported.set(i, p);
    }));
    const pkg = { ...header, file: loc.path };
    const resolved = resolvePackage(pkg, { scriptObjects: scripts.found?.objects, importedPackages: imported });
    if (!scripts.found && pkg.imports.some((i) => i.kind === 'script')) warnings.push('no global container (global.utoc) found: /Script references are shown by hash');
    return { properties: zenProperties(pkg, bytes, resolved, { mappings: opts.mappings, engine, offsets: opts.offsets, nativeData: opts.nativeData, textKeys: opts.textKeys }), path: loc.path, warnings };
  }
  if (loc.kind === 'ue12') return { properties: ue12Properties(parseUe12Package(bytes, loc.path), bytes, { offsets: opts.offsets }), path: loc.path, warnings };
  if (detectClassicPackage(bytes).kind === 'unknown') {
    // A Zen package exported raw as .uasset (no package tag), as InstallPackages.open reads it.
    const zen = zenFileProperties(bytes, loc.path, opts);
    if (zen) return zen;
  }
  const uexpFile = packages.install.file(`${withoutExtension(loc.path)}.uexp`);
  const uexp = uexpFile ? await uexpFile.providers[0]!.archive.read(uexpFile.providers[0]!.file.ref) : undefined;
  const pkg = parseUAsset(bytes, loc.path, {
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(uexp ? { uexpSize: uexp.length } : {}),
    ...(loc.packageName !== undefined ? { packageName: loc.packageName } : {}),
  });
  warnings.push(...pkg.warnings);
  return { properties: uassetProperties(pkg, bytes, uexp, { mappings: opts.mappings, offsets: opts.offsets, nativeData: opts.nativeData, textKeys: opts.textKeys }), path: loc.path, warnings };
}

/** Reads the properties of every export of one package file on disk. */
export async function packageFileProperties(path: string, opts: OpenPropertiesOptions = {}): Promise<OpenedProperties> {
  const bytes = new Uint8Array(await readFile(path));
  const warnings: string[] = [];
  const kind = detectClassicPackage(bytes);
  if (kind.kind === 'ue12' || (kind.kind === 'unknown' && isUe12FileName(path))) {
    return { properties: ue12Properties(parseUe12Package(bytes, path), bytes, { offsets: opts.offsets }), path, warnings };
  }
  if (kind.kind === 'ue3') throw new FormatError(path, 'package header', 4, olderEngineDescription(kind.fileVersion!, kind.licensee!));
  if (kind.kind === 'unknown') return zenFileProperties(bytes, path, opts, true)!;
  let uexp: Uint8Array | undefined;
  if (!COMPANION_EXTENSIONS.includes(extensionOf(path))) {
    const uexpPath = `${withoutExtension(path)}.uexp`;
    if ((await stat(uexpPath).catch(() => undefined))?.isFile()) uexp = new Uint8Array(await readFile(uexpPath));
  }
  const pkg = parseUAsset(bytes, path, { ...(opts.engine !== undefined ? { engine: opts.engine } : {}), ...(uexp ? { uexpSize: uexp.length } : {}) });
  warnings.push(...pkg.warnings);
  return { properties: uassetProperties(pkg, bytes, uexp, { mappings: opts.mappings, offsets: opts.offsets, nativeData: opts.nativeData, textKeys: opts.textKeys }), path, warnings };
}

/**
 * The properties of a Zen package saved as a file. Undefined when it does not read as one, unless
 * `final` (or an engine is given): then the Zen reader's error is thrown.
 */
function zenFileProperties(bytes: Uint8Array, path: string, opts: OpenPropertiesOptions, final = false): OpenedProperties | undefined {
  const engine = opts.engine !== undefined ? parseEngineVersion(opts.engine) : undefined;
  let pkg: ZenPackage;
  try {
    pkg = parseZenFile(bytes, path, engine);
  } catch (e) {
    if (final || engine !== undefined || !(e instanceof FormatError)) throw e;
    return undefined;
  }
  const warnings = [`read as a Zen package with the ${ZenLayout[pkg.layout]} layout; /Script references are shown by hash (no global container)`];
  return { properties: zenProperties(pkg, bytes, resolvePackage(pkg), { mappings: opts.mappings, engine, offsets: opts.offsets, nativeData: opts.nativeData, textKeys: opts.textKeys }), path, warnings };
}
