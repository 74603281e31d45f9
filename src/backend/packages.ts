/**
 * The package view's backend: opens a package of an install (any format, through core's
 * InstallPackages), adds what the view needs beyond the shared PackageModel (field-level byte
 * regions for the hex view, the format's extra tables, thumbnails as base64), caps the lists
 * that can be huge, and serves the package's bytes as one stream (the Zen chunk, or a cooked
 * .uasset followed by its .uexp, whose offsets count through both).
 */
import { RequestError } from './request-error.js';
import type { Archive } from '../core/archive.js';
import { packageIdFromName } from '../core/hash/cityhash64.js';
import type { Install, VfsFile } from '../core/install/install.js';
import { IoStoreContainer } from '../core/iostore/container.js';
import { InstallPackages, type PackageLocation } from '../core/package/open-package.js';
import { COMPANION_EXTENSIONS, extensionOf, withoutExtension } from '../core/package/package-files.js';
import type { PackageModel } from '../core/package-model.js';
import { parseUAsset } from '../core/uasset/parse.js';
import { parseUe12Package } from '../core/ue12/package.js';
import type { PackageModelView, PackageStreamPart, PackageThumbnailView, PackageView } from '../shared/package-api.js';
import { packageAssets } from './assets.js';
import { uassetRegions, ue12Regions, zenRegions } from './package-regions.js';
import { packageTables } from './package-tables.js';

/** Entries kept of the names, imports and exports lists (the tabs virtualize; the wire should not carry a million rows). */
export const MAX_LIST_ENTRIES = 100_000;
/** readPackageBytes answers at most this much a call. */
export const MAX_PACKAGE_READ = 16 * 1024 * 1024;

/** Containers that can decode part of a chunk (IoStore). */
type RangeReadable = Archive & { readChunkRange?(ref: number, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> };

interface Opened {
  install: Install;
  packages: InstallPackages;
  /** The last whole file read for readPackageBytes (pak and loose files read whole): the hex view pages through it. */
  lastRead?: { key: string; bytes: Promise<Uint8Array> };
}

/** The files making up a package's byte stream, in order. */
interface StreamPiece {
  archive: Archive;
  ref: number;
  path: string;
  offset: number;
  size: number;
  zen: boolean;
}

export class PackageService {
  private readonly byInstall = new Map<string, Opened>();

  /** The install's InstallPackages (its package index, script objects, parsed imports), made once. */
  packagesOf(installId: string, install: Install): InstallPackages {
    let o = this.byInstall.get(installId);
    if (!o || o.install !== install) {
      if (o) void o.packages.close().catch(() => undefined);
      o = { install, packages: new InstallPackages(install) };
      this.byInstall.set(installId, o);
    }
    return o.packages;
  }

  /** Forgets what was cached for an install (closed, or changed in place by new keys). */
  async forget(installId: string): Promise<void> {
    const o = this.byInstall.get(installId);
    this.byInstall.delete(installId);
    await o?.packages.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all([...this.byInstall.keys()].map((id) => this.forget(id)));
  }

  /**
   * Finds the package a tree path, a package name ("/Game/Maps/Entry", the app's table rows and
   * references) or a package id names; a .uexp/.ubulk names the .uasset or .umap beside it.
   */
  locate(packages: InstallPackages, path: string): PackageLocation {
    const slashed = path.replace(/\\/g, '/');
    const asFile = slashed.replace(/^\/+/, '');
    // A leading slash is a package name's, unless the rest is a file of the tree.
    const clean = slashed.startsWith('/') && !packages.install.file(asFile) ? slashed : asFile;
    if (COMPANION_EXTENSIONS.includes(extensionOf(clean))) {
      for (const ext of ['.uasset', '.umap']) {
        if (packages.install.file(withoutExtension(clean) + ext)) return packages.locate(withoutExtension(clean) + ext);
      }
    }
    return packages.locate(clean);
  }

  async open(installId: string, install: Install, req: { path: string; engine?: string }): Promise<PackageView> {
    const packages = this.packagesOf(installId, install);
    const engine = req.engine?.trim() || undefined;
    const loc = this.locate(packages, req.path);
    const opened = await packages.open(loc, engine !== undefined ? { engine } : {});
    const model = opened.model;
    const pieces = this.pieces(install, loc);
    const size = pieces.reduce((n, p) => n + p.size, 0);

    let regions: { regions: PackageView['regions']; total: number };
    if (model.format === 'zen') {
      const headerSize = Number((model.summary as { headerSize?: number }).headerSize ?? 0);
      regions = zenRegions(model, await this.readStream(installId, pieces, 0, Math.min(Math.max(headerSize, 0), MAX_PACKAGE_READ)));
    } else {
      // The parsers' raw results carry the entry offsets the shared model leaves out.
      const bytes = await loc.archive.read(loc.ref);
      if (model.format === 'uasset') {
        const uexp = pieces[1];
        const raw = parseUAsset(bytes, loc.path, {
          ...(engine !== undefined ? { engine } : {}),
          ...(uexp ? { uexpSize: uexp.size } : {}),
          ...(loc.packageName !== undefined ? { packageName: loc.packageName } : {}),
        });
        regions = uassetRegions(raw, model);
      } else {
        regions = ue12Regions(parseUe12Package(bytes, loc.path), model);
      }
    }

    const index = packages.index;
    const packageId = loc.packageId ?? (model.format === 'zen' ? String((model.summary as { packageId?: string }).packageId ?? '') || null : packageIdFromName(model.name));
    return {
      installId,
      path: opened.path,
      container: opened.container,
      format: model.format,
      name: model.name,
      packageId,
      engine: engine ?? null,
      model: modelView(model),
      totals: { names: model.names.length, imports: model.imports.length, exports: model.exports.length, regions: regions.total },
      regions: regions.regions,
      size,
      parts: pieces.map((p): PackageStreamPart => ({ path: p.path, offset: p.offset, size: p.size })),
      tables: jsonSafe(packageTables(model, (id) => index.nameOf(id))),
      assets: packageAssets(model),
      warnings: [...opened.warnings, ...model.warnings],
    };
  }

  /** Bytes of the package's stream (see the module comment). */
  async readBytes(installId: string, install: Install, req: { path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }> {
    const packages = this.packagesOf(installId, install);
    const loc = this.locate(packages, req.path);
    const pieces = this.pieces(install, loc);
    const total = pieces.reduce((n, p) => n + p.size, 0);
    const offset = req.offset ?? 0;
    if (offset > total) throw new RequestError(`${loc.path}: offset ${offset} is past the end of the package (${total} bytes)`);
    const length = Math.min(req.length ?? MAX_PACKAGE_READ, MAX_PACKAGE_READ, total - offset);
    return { bytes: await this.readStream(installId, pieces, offset, length), total };
  }

  /** The package file, then (classic cooked packages) its .uexp. */
  private pieces(install: Install, loc: PackageLocation): StreamPiece[] {
    const zen = loc.kind === 'zen' && loc.archive instanceof IoStoreContainer;
    const size = zen ? (loc.archive as IoStoreContainer).chunkSize(loc.ref) : loc.file?.size ?? loc.archive.files()[loc.ref]?.size ?? 0;
    const out: StreamPiece[] = [{ archive: loc.archive, ref: loc.ref, path: loc.path, offset: 0, size, zen }];
    if (!zen && loc.kind === 'uasset') {
      const uexp: VfsFile | undefined = install.file(`${withoutExtension(loc.path)}.uexp`);
      const winner = uexp?.providers[0];
      if (uexp && winner) out.push({ archive: winner.archive, ref: winner.file.ref, path: uexp.path, offset: size, size: uexp.size, zen: false });
    }
    return out;
  }

  private async readStream(installId: string, pieces: readonly StreamPiece[], offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, length));
    const end = offset + out.length;
    for (const p of pieces) {
      const from = Math.max(offset, p.offset), to = Math.min(end, p.offset + p.size);
      if (from >= to) continue;
      const archive = p.archive as RangeReadable;
      let part: Uint8Array;
      if (p.zen && typeof archive.readChunkRange === 'function') {
        part = await archive.readChunkRange(p.ref, from - p.offset, to - from);
      } else {
        const whole = await this.wholeFile(installId, p);
        part = whole.subarray(from - p.offset, to - p.offset);
      }
      out.set(part.subarray(0, to - from), from - offset);
    }
    return out;
  }

  /** A pak or loose file read whole, kept while the hex view pages through it. */
  private wholeFile(installId: string, p: StreamPiece): Promise<Uint8Array> {
    const o = this.byInstall.get(installId);
    const key = `${p.archive.path}|${p.ref}`;
    if (o?.lastRead?.key === key) return o.lastRead.bytes;
    const bytes = p.archive.read(p.ref);
    if (o) o.lastRead = { key, bytes };
    bytes.catch(() => { if (o?.lastRead?.key === key) delete o.lastRead; });
    return bytes;
  }
}

function cap<T>(list: readonly T[]): T[] {
  return list.length > MAX_LIST_ENTRIES ? list.slice(0, MAX_LIST_ENTRIES) : list.slice();
}

/** The model as the wire carries it: lists capped, thumbnails as base64, no bigint or byte arrays. */
function modelView(model: PackageModel): PackageModelView {
  const thumbnails = model.thumbnails.map((t): PackageThumbnailView => {
    const { data, ...rest } = t;
    return data && data.length > 0 && (t.format === 'png' || t.format === 'jpeg')
      ? { ...rest, base64: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') }
      : rest;
  });
  const view = { ...model, names: cap(model.names), imports: cap(model.imports), exports: cap(model.exports), thumbnails: [] as PackageThumbnailView[] };
  return { ...jsonSafe(view), thumbnails };
}

/** A deep copy that JSON and structured clone both carry: bigint as text, Map as object, byte arrays left out. */
export function jsonSafe<T>(value: T): T {
  const seen = new WeakSet<object>();
  const copy = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v.toString();
    if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return undefined;
    if (seen.has(v)) return undefined; // a cycle: parsers build none, but never loop on one
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map(copy);
    else if (v instanceof Map) out = Object.fromEntries([...v].map(([k, x]) => [String(k), copy(x)]));
    else {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const c = copy(x);
        if (c !== undefined) o[k] = c;
      }
      out = o;
    }
    seen.delete(v);
    return out;
  };
  return copy(value) as T;
}
