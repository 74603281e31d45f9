/**
 * Opens the package a texture is in and gathers what the texture reader needs from it: each
 * export's bytes and properties (tagged, or unversioned with the caller's mappings), the name
 * map, the object versions, the bulk data map, and the files its bulk data can be in. Zen
 * packages of an install, classic packages of an install (pak or loose folder) and package
 * files on disk.
 */
import { readFile, stat } from 'node:fs/promises';
import { ZenLayout, engineRelease, parseEngineVersion } from '../../../engine-versions.js';
import { FormatError } from '../../../errors.js';
import { chunkTypeValue } from '../../../iostore/chunk-type.js';
import { IoStoreContainer } from '../../../iostore/container.js';
import { parseZenFile, type InstallPackages } from '../../../package/open-package.js';
import { extensionOf, withoutExtension } from '../../../package/package-files.js';
import { packageChunkIdHex } from '../../../package/package-index.js';
import { detectClassicPackage } from '../../../package-model.js';
import { uassetProperties, zenProperties, zenPropertyVersions } from '../../../properties/package.js';
import type { ExportProperties } from '../../../properties/types.js';
import { parseUAsset } from '../../../uasset/parse.js';
import type { UAssetPackage } from '../../../uasset/package.js';
import type { Usmap } from '../../../usmap/types.js';
import { resolvePackage, type ResolvedPackage } from '../../../zen/resolve.js';
import type { ZenPackage } from '../../../zen/types.js';
import type { BulkFiles, BulkHeaderContext, BulkMapEntry } from './bulk-data.js';
import { chunkPayload, diskPayload, installPayload, memoryPayload, type PayloadFile } from './payload.js';

export interface TextureReadOptions {
  /** Export to read (its index in the package); the first texture export otherwise. */
  exportIndex?: number;
  /** Mappings for unversioned properties. */
  mappings?: Usmap;
  /** Engine release ("5.3", "4.27") where the package's versions leave a choice. */
  engine?: string;
  signal?: AbortSignal;
}

export interface SourceExport {
  index: number;
  name: string;
  class: string;
  properties: ExportProperties;
  /** The export's bytes (serialSize of them, or fewer when cut short). */
  bytes: Uint8Array;
  /** Offset of bytes[0] in `file`, for messages. */
  base: number;
  /** The file the bytes are in (.uexp, .uasset, the package chunk). */
  file: string;
  /** Classic packages: offset of bytes[0] in the .uasset + .uexp stream (UE4 skip offsets are absolute in it). */
  streamOffset?: number;
  /** Its object path ("/Game/Maps/M.M:PersistentLevel.Landscape_0"), where the package resolves it: what references to it name. */
  path?: string;
}

export interface TextureSource {
  /** The package as `ls` prints it, or its file on disk. */
  path: string;
  packageName: string;
  names: readonly string[];
  ue4: number;
  ue5: number;
  /** The release the package names itself (classic versioned packages) or the caller gave. */
  engine?: string;
  /** Unversioned classic packages: every release whose header layout fits (ue4/ue5 are then the newest's). */
  engineCandidates?: string[];
  exports: SourceExport[];
  bulk: BulkHeaderContext;
  /** The payload files, for an export's inline payloads `inline` is filled in per export. */
  files: Omit<BulkFiles, 'inline'>;
  warnings: string[];
  /** Each import's object path as the engine prints it (FPackageIndex -1 is the first), where known. */
  importPaths?: string[];
}

type SeparateExt = '.ubulk' | '.m.ubulk' | '.uptnl';
const CHUNK_TYPE_OF: Record<SeparateExt, string> = { '.ubulk': 'BulkData', '.m.ubulk': 'MemoryMappedBulkData', '.uptnl': 'OptionalBulkData' };

const withCookedIndex = (stem: string, ext: SeparateExt, cookedIndex: number): string =>
  cookedIndex !== 0 ? `${stem}.${String(cookedIndex).padStart(3, '0')}${ext}` : `${stem}${ext}`;

const zenMap = (pkg: ZenPackage): BulkMapEntry[] => pkg.bulkData.map((e) => ({
  serialOffset: e.serialOffset, serialSize: e.serialSize, rawSize: e.serialSize, flags: e.flags, cookedIndex: e.cookedIndex,
}));

const classicMap = (pkg: UAssetPackage): BulkMapEntry[] => (pkg.dataResources?.resources ?? []).map((e) => ({
  serialOffset: e.serialOffset, serialSize: e.serialSize, rawSize: e.rawSize, flags: e.legacyBulkDataFlags, cookedIndex: e.cookedIndex ?? 0,
}));

function zenSource(pkg: ZenPackage, chunk: Uint8Array, properties: ExportProperties[], path: string, separate: BulkFiles['separate'], engine?: string, resolved?: ResolvedPackage): TextureSource {
  const versions = zenPropertyVersions(pkg, engine !== undefined ? parseEngineVersion(engine) : undefined);
  const exports = pkg.exports.map((e, i) => {
    const start = Math.max(0, Math.min(e.dataOffset, chunk.length));
    const props = properties[i]!;
    return {
      index: e.index, name: e.name, class: props.class, properties: props,
      bytes: chunk.subarray(start, Math.min(chunk.length, start + e.cookedSerialSize)), base: start, file: path,
      // The export's offset in the package as the cooker wrote it (.uasset + .uexp): UE4 skip offsets count from there.
      streamOffset: e.cookedSerialOffset,
      ...(resolved?.exports[i]?.path ? { path: resolved.exports[i]!.path } : {}),
    };
  });
  return {
    path, packageName: pkg.name, names: pkg.names, ue4: versions.ue4, ue5: versions.ue5 ?? 0,
    ...(engine !== undefined ? { engine } : {}),
    exports, bulk: { map: zenMap(pkg), largeOffsets: true, bulkDataStartOffset: 0 },
    files: { separate }, warnings: [],
    ...(resolved ? { importPaths: resolved.imports.map((i) => i.path) } : {}),
  };
}

function classicSource(pkg: UAssetPackage, bytes: Uint8Array, uexp: Uint8Array | undefined, mappings: Usmap | undefined, path: string,
  files: { endOfFile?: BulkFiles['endOfFile']; separate: BulkFiles['separate'] }, engine?: string): TextureSource {
  const props = uassetProperties(pkg, bytes, uexp, { mappings }).exports;
  const headerSize = pkg.summary.totalHeaderSize;
  const uexpName = `${withoutExtension(path)}.uexp`;
  const exports = pkg.exports.map((e, i) => {
    const inUexp = e.serialOffset >= headerSize && bytes.length <= headerSize;
    const data = inUexp ? uexp : bytes;
    const start = inUexp ? e.serialOffset - headerSize : e.serialOffset;
    const ok = data !== undefined && start >= 0 && start <= data.length;
    return {
      index: e.index, name: e.objectName, class: e.className, properties: props[i]!,
      bytes: ok ? data.subarray(start, Math.min(data.length, start + e.serialSize)) : new Uint8Array(0),
      base: Math.max(0, start), file: inUexp ? uexpName : path, streamOffset: e.serialOffset, path: e.path,
    };
  });
  const saved = pkg.version.engine;
  const release = engine ?? (saved && /^\d+\.\d+$/.test(saved) ? saved : undefined);
  return {
    path, packageName: pkg.packageName, names: pkg.names.map((n) => n.name), ue4: pkg.version.ue4, ue5: pkg.version.ue5,
    ...(release !== undefined ? { engine: release } : {}),
    ...(release === undefined && pkg.version.source === 'layout' ? { engineCandidates: pkg.version.engineCandidates } : {}),
    exports, bulk: { map: classicMap(pkg), largeOffsets: true, bulkDataStartOffset: pkg.bulkDataStartOffset },
    files, warnings: [...pkg.warnings], importPaths: pkg.imports.map((i) => i.path),
  };
}

/** A package of an install (by name, path or id). */
export async function installTextureSource(packages: InstallPackages, ref: string, opts: TextureReadOptions): Promise<TextureSource> {
  const loc = packages.locate(ref);
  const bytes = await loc.archive.read(loc.ref, opts.signal);
  const install = packages.install;
  const stem = withoutExtension(loc.path);
  const fromInstall = (p: string): PayloadFile | undefined => {
    const f = install.file(p);
    return f ? installPayload(f) : undefined;
  };
  if (loc.kind === 'zen') {
    const engine = opts.engine !== undefined ? parseEngineVersion(opts.engine) : undefined;
    const engineOpt = engine !== undefined ? { engine: engineRelease(engine).label.slice(2) } : {};
    const header = await packages.zenHeader(loc.packageId!, engineOpt);
    if (!header) throw new FormatError(loc.path, 'zen package', 0, 'the package header does not read');
    const pkg = { ...header, file: loc.path };
    const scripts = await packages.scriptObjects();
    const imported = new Map<string, ZenPackage>();
    await Promise.all(header.importedPackageIds.map(async (i) => {
      const p = await packages.zenHeader(i, engineOpt);
      if (p) imported.set(i, p);
    }));
    const resolved = resolvePackage(pkg, { scriptObjects: scripts.found?.objects, importedPackages: imported });
    const props = zenProperties(pkg, bytes, resolved, { mappings: opts.mappings, engine }).exports;
    const container = loc.archive instanceof IoStoreContainer ? loc.archive : undefined;
    const separate = (ext: SeparateExt, cookedIndex: number): PayloadFile | undefined => {
      if (!loc.path.startsWith('#')) {
        const named = fromInstall(withCookedIndex(stem, ext, cookedIndex));
        if (named) return named;
      }
      // A chunk the directory index does not name: by its id (the package id and the chunk type),
      // in the package's container first, then in the others (optional bulk data has its own .o.utoc).
      if (cookedIndex !== 0) return undefined;
      const others = install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a !== container && a.status.state !== 'locked');
      for (const c of container ? [container, ...others] : others) {
        const type = chunkTypeValue(c.toc.header.version, CHUNK_TYPE_OF[ext]);
        const entry = type === undefined ? undefined : c.findChunk(packageChunkIdHex(loc.packageId!, type));
        if (entry !== undefined) return chunkPayload(c, entry, `${loc.path}${ext}`);
      }
      return undefined;
    };
    return zenSource(pkg, bytes, props, loc.path, separate, opts.engine, resolved);
  }
  if (loc.kind === 'ue12') throw new FormatError(loc.path, 'package', 0, 'an Unreal Engine 1/2 package: its textures are read by the UE1/2 reader');
  if (detectClassicPackage(bytes).kind === 'unknown') return zenFileSource(bytes, loc.path, opts, fromInstall);
  const uexpFile = install.file(`${stem}.uexp`);
  const uexp = uexpFile ? await uexpFile.providers[0]!.archive.read(uexpFile.providers[0]!.file.ref, opts.signal) : undefined;
  const pkg = parseUAsset(bytes, loc.path, {
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(uexp ? { uexpSize: uexp.length } : {}),
    ...(loc.packageName !== undefined ? { packageName: loc.packageName } : {}),
  });
  return classicSource(pkg, bytes, uexp, opts.mappings, loc.path, {
    endOfFile: uexp ? { file: memoryPayload(`${stem}.uexp`, uexp), base: pkg.summary.totalHeaderSize } : { file: memoryPayload(loc.path, bytes), base: 0 },
    separate: (ext, cookedIndex) => fromInstall(withCookedIndex(stem, ext, cookedIndex)),
  }, opts.engine);
}

/** A Zen package saved as a file (no package tag): bulk data only from files beside it. */
function zenFileSource(bytes: Uint8Array, path: string, opts: TextureReadOptions, beside: (p: string) => PayloadFile | undefined): TextureSource {
  const engine = opts.engine !== undefined ? parseEngineVersion(opts.engine) : undefined;
  const pkg = parseZenFile(bytes, path, engine);
  const resolved = resolvePackage(pkg);
  const props = zenProperties(pkg, bytes, resolved, { mappings: opts.mappings, engine }).exports;
  const stem = withoutExtension(path);
  const source = zenSource(pkg, bytes, props, path, (ext, i) => beside(withCookedIndex(stem, ext, i)), opts.engine, resolved);
  source.warnings.push(`read as a Zen package with the ${ZenLayout[pkg.layout]} layout`);
  return source;
}

/** A package file on disk, with the .uexp/.ubulk/.uptnl/.m.ubulk beside it. */
export async function fileTextureSource(path: string, opts: TextureReadOptions): Promise<TextureSource> {
  const bytes = new Uint8Array(await readFile(path, { signal: opts.signal }));
  const stem = withoutExtension(path);
  const sizes = new Map<string, number>();
  for (const ext of ['.uexp', '.ubulk', '.m.ubulk', '.uptnl']) {
    const s = await stat(stem + ext).catch(() => undefined);
    if (s?.isFile()) sizes.set(stem + ext, s.size);
  }
  const beside = (p: string): PayloadFile | undefined => {
    const size = sizes.get(p);
    return size !== undefined ? diskPayload(p, size) : undefined;
  };
  if (detectClassicPackage(bytes).kind === 'unknown' && extensionOf(path) !== '.uexp') return zenFileSource(bytes, path, opts, beside);
  const uexp = sizes.has(`${stem}.uexp`) ? new Uint8Array(await readFile(`${stem}.uexp`, { signal: opts.signal })) : undefined;
  const pkg = parseUAsset(bytes, path, { ...(opts.engine !== undefined ? { engine: opts.engine } : {}), ...(uexp ? { uexpSize: uexp.length } : {}) });
  return classicSource(pkg, bytes, uexp, opts.mappings, path, {
    endOfFile: uexp ? { file: memoryPayload(`${stem}.uexp`, uexp), base: pkg.summary.totalHeaderSize } : { file: memoryPayload(path, bytes), base: 0 },
    // Payloads with a cooked index (<stem>.001.ubulk) are not looked for beside a file.
    separate: (ext, cookedIndex) => beside(withCookedIndex(stem, ext, cookedIndex)),
  }, opts.engine);
}

