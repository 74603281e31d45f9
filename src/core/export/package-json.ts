/**
 * `--format json`: a package as the shared PackageModel (package-model.ts), pretty-printed.
 * - IoStore ExportBundleData chunks are Zen packages: parsed with their container's layout and
 *   store entry, imports and exports named through the global script objects and the imported
 *   packages (read from the install, header only) where the install has them.
 * - Other files starting with the package tag are classic packages (.uasset/.umap, UE1/2).
 * - Anything else is not a package: the exporter writes it raw.
 * A package that does not parse fails with its FormatError (UE3 packages included).
 */
import { ZenLayout, zenLayoutFor } from '../engine-versions.js';
import type { Install } from '../install/install.js';
import { compareByPriority } from '../install/priority.js';
import { chunkTypeValue } from '../iostore/chunk-type.js';
import { findStoreEntry, parseContainerHeader, type ContainerHeader } from '../iostore/container-header.js';
import { IoStoreContainer } from '../iostore/container.js';
import { detectClassicPackage, parseClassicPackageModel, type PackageModel } from '../package-model.js';
import { decodeFlags, ObjectFlags, PackageFlags } from '../uasset/flags.js';
import { resolvePackage, type ResolvedPackage } from '../zen/resolve.js';
import { parseLegacyScriptObjects, parseScriptObjects, type ScriptObjects } from '../zen/script-objects.js';
import type { ZenPackage } from '../zen/types.js';
import { parseZenPackage, peekZenHeaderSize } from '../zen/zen-package.js';
import type { ExportItem } from './selection.js';

/** Bytes read first from an imported package: enough for most headers. */
const HEADER_PROBE_BYTES = 64 * 1024;
/** Imported packages kept parsed; past this the cache starts over. */
const MAX_CACHED_PACKAGES = 4096;

interface ContainerContext { layout: ZenLayout; header?: ContainerHeader }

export class PackageJsonConverter {
  private readonly contexts = new Map<IoStoreContainer, Promise<ContainerContext>>();
  private readonly imported = new Map<string, Promise<ZenPackage | undefined>>();
  private scriptObjects: Promise<ScriptObjects | undefined> | undefined;
  private readonly containers: IoStoreContainer[];

  constructor(install: Install) {
    this.containers = install.archives
      .filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.status.state !== 'locked')
      .sort(compareByPriority);
  }

  /** Whether the converter turns this item into JSON (else it is written raw). */
  isPackage(item: ExportItem, firstBytes: Uint8Array): boolean {
    if (item.archive instanceof IoStoreContainer) return item.chunkType === 'ExportBundleData';
    return detectClassicPackage(firstBytes).kind !== 'unknown';
  }

  /** The package as JSON text. */
  async convert(item: ExportItem, bytes: Uint8Array): Promise<string> {
    const model = item.archive instanceof IoStoreContainer && item.chunkType === 'ExportBundleData'
      ? await this.zenModel(item.archive, item.ref, item.path, bytes)
      : parseClassicPackageModel(bytes, item.path);
    return `${JSON.stringify(model, jsonValue, 2)}\n`;
  }

  private async zenModel(c: IoStoreContainer, entry: number, path: string, bytes: Uint8Array): Promise<PackageModel> {
    const ctx = await this.context(c);
    const id = packageIdOfChunk(c.chunkIdHex(entry));
    const pkg = parseZenPackage(bytes, path, { layout: ctx.layout, storeEntry: ctx.header && findStoreEntry(ctx.header, id) });
    const [scriptObjects, imported] = await Promise.all([this.loadScriptObjects(), this.importsOf(pkg)]);
    const resolved = resolvePackage(pkg, { scriptObjects, importedPackages: imported });
    return zenPackageModel(pkg, resolved, scriptObjects !== undefined);
  }

  /** The container's Zen layout and header (for store entries); the .utoc version alone without one. */
  private context(c: IoStoreContainer): Promise<ContainerContext> {
    let p = this.contexts.get(c);
    if (!p) {
      p = (async () => {
        const tocVersion = c.toc.header.version;
        const entry = c.entriesOfType('ContainerHeader')[0];
        if (entry === undefined) return { layout: zenLayoutFor({ tocVersion }) };
        const header = parseContainerHeader(await c.readChunk(entry), `${c.path} (container header)`);
        return { layout: zenLayoutFor({ containerHeaderVersion: header.version, tocVersion }), header };
      })();
      this.contexts.set(c, p);
    }
    return p;
  }

  /** The global script objects (UE5 ScriptObjects, UE4 LoaderInitialLoadMeta), if the install has a global container. */
  private loadScriptObjects(): Promise<ScriptObjects | undefined> {
    this.scriptObjects ??= (async () => {
      for (const c of this.containers) {
        try {
          const ue5 = c.entriesOfType('ScriptObjects')[0];
          if (ue5 !== undefined) return parseScriptObjects(await c.readChunk(ue5), `${c.path} (script objects)`);
          const meta = c.entriesOfType('LoaderInitialLoadMeta')[0];
          const names = c.entriesOfType('LoaderGlobalNames')[0];
          if (meta !== undefined && names !== undefined) {
            return parseLegacyScriptObjects(await c.readChunk(meta), await c.readChunk(names), `${c.path} (initial load meta)`);
          }
        } catch {
          // A global container that cannot be read leaves /Script imports unnamed, nothing worse.
        }
      }
      return undefined;
    })();
    return this.scriptObjects;
  }

  /** The packages `pkg` imports that the install holds, parsed from their headers. */
  private async importsOf(pkg: ZenPackage): Promise<Map<string, ZenPackage>> {
    if (this.imported.size > MAX_CACHED_PACKAGES) this.imported.clear();
    const out = new Map<string, ZenPackage>();
    await Promise.all(pkg.importedPackageIds.map(async (id) => {
      let p = this.imported.get(id);
      if (!p) {
        p = this.readImported(id).catch(() => undefined);
        this.imported.set(id, p);
      }
      const found = await p;
      if (found) out.set(id, found);
    }));
    return out;
  }

  private async readImported(id: string): Promise<ZenPackage | undefined> {
    for (const c of this.containers) {
      const type = chunkTypeValue(c.toc.header.version, 'ExportBundleData')!;
      const entry = c.findChunk(`${chunkIdPrefixOf(id)}000000${type.toString(16).padStart(2, '0')}`);
      if (entry === undefined) continue;
      const size = c.chunkSize(entry);
      const ctx = await this.context(c);
      let head = await c.readChunkRange(entry, 0, Math.min(size, HEADER_PROBE_BYTES));
      const headerSize = peekZenHeaderSize(head, c.path, ctx.layout);
      if (headerSize > head.length && headerSize <= size) head = await c.readChunkRange(entry, 0, headerSize);
      return parseZenPackage(head, `${c.path} (package ${id})`, {
        layout: ctx.layout, storeEntry: ctx.header && findStoreEntry(ctx.header, id), chunkSize: size,
      });
    }
    return undefined;
  }
}

/** The package id (16 hex digits of the u64, as ZenPackage.packageId) from a chunk id's first 8 bytes (little-endian). */
export function packageIdOfChunk(chunkIdHex: string): string {
  let s = '';
  for (let i = 14; i >= 0; i -= 2) s += chunkIdHex.slice(i, i + 2);
  return s;
}

/** The chunk id's first 8 bytes (16 hex digits) for a package id: the same byte swap back. */
const chunkIdPrefixOf = packageIdOfChunk;

/** "/Script/Engine.StaticMesh" → "StaticMesh". */
function shortName(path: string | undefined): string {
  if (!path) return '';
  return path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'), path.lastIndexOf('/')) + 1);
}

/** "/Game/A.A:Comp" → "/Game/A.A"; a package path → null. */
function outerOf(path: string): string | null {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'));
  return cut > 0 ? path.slice(0, cut) : null;
}

/** A Zen package in the shared model, with what only Zen has under `details`. */
export function zenPackageModel(pkg: ZenPackage, r: ResolvedPackage, hasScriptObjects: boolean): PackageModel {
  const v = pkg.versioning;
  return {
    format: 'zen',
    name: pkg.name,
    fileName: pkg.file,
    version: {
      zenLayout: ZenLayout[pkg.layout],
      unversioned: v === undefined,
      zenVersion: v?.zenVersion ?? null,
      fileVersionUE4: v?.fileVersionUE4 ?? null,
      fileVersionUE5: v?.fileVersionUE5 ?? null,
      licensee: v?.licenseeVersion ?? null,
      customVersions: v?.customVersions ?? [],
    },
    summary: {
      packageId: pkg.packageId,
      headerSize: pkg.headerSize,
      cookedHeaderSize: pkg.cookedHeaderSize,
      chunkSize: pkg.chunkSize,
      exportDataEnd: pkg.exportDataEnd,
      ...(pkg.sourceName !== undefined ? { sourceName: pkg.sourceName } : {}),
      ...(pkg.hasPackageTag !== undefined ? { hasPackageTag: pkg.hasPackageTag } : {}),
    },
    packageFlags: { value: pkg.packageFlags, names: decodeFlags(pkg.packageFlags, PackageFlags) },
    names: pkg.names,
    imports: r.imports.map((i) => ({
      index: i.index, path: i.path, class: shortName(i.classPath), ...(i.classPath ? { classPath: i.classPath } : {}),
      objectName: i.name, outer: i.resolved ? outerOf(i.path) : null,
    })),
    exports: pkg.exports.map((e, k) => {
      const x = r.exports[k]!;
      return {
        index: e.index, name: e.name, class: x.className ?? shortName(x.classPath), ...(x.classPath ? { classPath: x.classPath } : {}),
        outer: x.outerPath ?? null, path: x.path, serialOffset: e.cookedSerialOffset, serialSize: e.cookedSerialSize,
        super: x.superPath ?? null, template: x.templatePath ?? null,
        flags: decodeFlags(e.objectFlags, ObjectFlags), objectFlags: e.objectFlags,
        dataFile: 'chunk', dataFileOffset: e.dataOffset,
      };
    }),
    dependencies: [],
    softReferences: [],
    thumbnails: [],
    sections: pkg.regions,
    details: {
      importedPackageIds: pkg.importedPackageIds,
      importedPackageNames: pkg.importedPackageNames,
      importedPublicExportHashes: pkg.importedPublicExportHashes,
      exportsPublic: pkg.exports.map((e) => ({ index: e.index, publicExportHash: e.publicExportHash, isPublic: e.isPublic, filterFlags: e.filterFlags })),
      rawImports: pkg.imports,
      exportBundleHeaders: pkg.exportBundleHeaders,
      exportBundleEntries: pkg.exportBundleEntries,
      dependencyBundleHeaders: pkg.dependencyBundleHeaders,
      dependencyBundleEntries: pkg.dependencyBundleEntries,
      ...(pkg.graphData ? { graphData: pkg.graphData } : {}),
      legacyPackageArcs: pkg.legacyPackageArcs,
      bulkData: pkg.bulkData,
      cellImports: pkg.cellImports,
      cellExports: pkg.cellExports,
      scriptObjectsFound: hasScriptObjects,
    },
    issues: [],
    warnings: pkg.warnings,
  };
}

/** JSON.stringify replacer: bigints as decimal text; byte arrays (thumbnail images) left out (their offsets stay). */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return undefined;
  if (value instanceof Map) return Object.fromEntries(value);
  return value;
}
