/**
 * `--format convert`: packages whose exports the converter registry (core/assets) converts are
 * written as what they convert to (a texture T_X.uasset as T_X.png, one file per slice), their
 * .uexp/.ubulk/.uptnl/.m.ubulk left out; every other file is written as stored. Whether a
 * package converts is known once its header is read: each package is opened once, and its
 * companions wait for that answer.
 */
import { assetKindOfFile, convertExport, convertibleExports, type AssetKind, type ConvertibleExport } from '../assets/index.js';
import type { Install } from '../install/install.js';
import { InstallPackages } from '../package/open-package.js';
import { isUAssetFileName, isUe12FileName } from '../package/package-files.js';
import type { Usmap } from '../usmap/types.js';
import type { WorkerPool } from '../workers/pool.js';
import type { ExportItem } from './selection.js';

/**
 * What becomes of an item: converted (these exports), a plain file converted by the kind its
 * extension names (a .wem as .wav), left out (its package is converted), or written as stored.
 */
export type ConvertRole =
  | { kind: 'convert'; exports: ConvertibleExport[] }
  | { kind: 'plain'; asset: AssetKind }
  | { kind: 'companion'; of: string }
  | { kind: 'raw' };

/** One output file of a converted package: its path (as `ls` would print it) and bytes. */
export interface ConvertedOutput {
  path: string;
  data: Uint8Array;
}

/** Companion suffixes, longest first (".m.ubulk" before ".ubulk"); IoStore's unlisted bulk chunks end in them too. */
const COMPANION_SUFFIXES = ['.m.ubulk', '.ubulk', '.uexp', '.uptnl'];

export class AssetConverter {
  private readonly packages: InstallPackages;
  /** Packages of this export by lowercase path, the only ones whose companions are left out. */
  private readonly packageItems = new Map<string, ExportItem>();
  private readonly roles = new Map<string, Promise<ConvertRole>>();

  constructor(private readonly install: Install, items: readonly ExportItem[], private readonly pool?: WorkerPool, private readonly mappings?: Usmap) {
    this.packages = new InstallPackages(install);
    for (const item of items) if (isPackageItem(item)) this.packageItems.set(item.path.toLowerCase(), item);
  }

  /** Whether the item might be converted or left out (so it is not handed to a worker to write as is). */
  mayConvert(item: ExportItem): boolean {
    return isPackageItem(item) || this.packageOf(item) !== undefined || plainKind(item) !== undefined;
  }

  /** What becomes of the item (see ConvertRole). A package that does not open is written as stored. */
  role(item: ExportItem, signal?: AbortSignal): Promise<ConvertRole> {
    if (!isPackageItem(item)) {
      const plain = plainKind(item);
      if (plain) return Promise.resolve({ kind: 'plain', asset: plain });
      const pkg = this.packageOf(item);
      if (!pkg) return Promise.resolve({ kind: 'raw' });
      return this.role(pkg, signal).then((r) => (r.kind === 'convert' ? { kind: 'companion', of: pkg.path } : { kind: 'raw' }));
    }
    const key = item.path.toLowerCase();
    let role = this.roles.get(key);
    if (!role) {
      role = this.packages.open(item.path, signal ? { signal } : {}).then(
        (opened): ConvertRole => {
          const exports = convertibleExports(opened.model);
          return exports.length > 0 ? { kind: 'convert', exports } : { kind: 'raw' };
        },
        (e: unknown): ConvertRole => {
          // Not known to convert: it goes out as stored, like any file that is no asset.
          if (signal?.aborted) throw e;
          return { kind: 'raw' };
        },
      );
      this.roles.set(key, role);
    }
    return role;
  }

  /**
   * The files a package converts to, beside where it would be: "T_X.png", "T_Cube_0.png" ...;
   * a package with several convertible exports names each file after its export too.
   */
  async convert(item: ExportItem, exports: readonly ConvertibleExport[], signal?: AbortSignal): Promise<ConvertedOutput[]> {
    const stem = item.path.slice(0, item.path.lastIndexOf('.'));
    const out: ConvertedOutput[] = [];
    for (const exp of exports) {
      const files = await convertExport({ packages: this.packages, ref: item.path }, exp, undefined, {
        ...(this.pool ? { pool: this.pool } : {}), ...(signal ? { signal } : {}), ...(this.mappings ? { mappings: this.mappings } : {}),
      });
      const base = exports.length > 1 ? `${stem}.${exp.name}` : stem;
      for (const f of files) out.push({ path: f.name !== undefined ? `${stem}/${f.name}${f.suffix}.${f.extension}` : `${base}${f.suffix}.${f.extension}`, data: f.data });
    }
    return out;
  }

  /**
   * The files a plain file converts to, beside where it would be ("Audio/123.wem" as
   * "Audio/123.wav"); files that name themselves go in a folder named after it ("Audio/Weapons.bnk"
   * as "Audio/Weapons/Shot_01.wav", ...).
   */
  async convertPlain(item: ExportItem, asset: AssetKind, signal?: AbortSignal): Promise<ConvertedOutput[]> {
    const bytes = await item.archive.read(item.ref);
    signal?.throwIfAborted();
    const files = await asset.convertFile!({ path: item.path, bytes }, undefined, { install: this.install, ...(this.pool ? { pool: this.pool } : {}), ...(signal ? { signal } : {}) });
    const stem = item.path.slice(0, item.path.lastIndexOf('.'));
    return files.map((f) => ({ path: f.name !== undefined ? `${stem}/${f.name}${f.suffix}.${f.extension}` : `${stem}${f.suffix}.${f.extension}`, data: f.data }));
  }

  /** The package of this export that a companion file belongs to, if any. */
  private packageOf(item: ExportItem): ExportItem | undefined {
    if (item.companionOf !== undefined) return this.packageItems.get(item.companionOf.toLowerCase());
    const lower = item.path.toLowerCase();
    const suffix = COMPANION_SUFFIXES.find((s) => lower.endsWith(s));
    if (!suffix) return undefined;
    const stem = lower.slice(0, lower.length - suffix.length);
    return this.packageItems.get(`${stem}.uasset`) ?? this.packageItems.get(`${stem}.umap`);
  }

  async close(): Promise<void> {
    await this.packages.close();
  }
}

/** The kind that converts a plain file (not an IoStore chunk of a package) by its extension. */
function plainKind(item: ExportItem): AssetKind | undefined {
  if (item.chunkType !== undefined && item.chunkType !== 'ExportBundleData') return undefined;
  const kind = assetKindOfFile(item.path);
  return kind?.convertFile ? kind : undefined;
}

/** A package: an IoStore package chunk, a .uasset/.umap file, or a UE1/2 package (.utx, .u, .unr ...). */
function isPackageItem(item: ExportItem): boolean {
  return item.chunkType !== undefined ? item.chunkType === 'ExportBundleData' : isUAssetFileName(item.path) || isUe12FileName(item.path);
}
