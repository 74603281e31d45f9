/**
 * `--format json`: a package as the shared PackageModel (package-model.ts), pretty-printed, each
 * export with its property values (`properties`, exactly as `pakscope props --json` prints them;
 * null for an export whose properties were not read, `propertiesError` then says why).
 * - IoStore ExportBundleData chunks are Zen packages, opened through InstallPackages (the same
 *   path as `pakscope info` and the app): container layout, store entry, script objects and
 *   imported packages resolved where the install has them.
 * - Other files starting with the package tag are classic packages (.uasset/.umap, UE1/2).
 * - Anything else is not a package: the exporter writes it raw.
 * A package that does not parse fails with its FormatError (UE3 packages included).
 */
import { FormatError } from '../errors.js';
import type { Install } from '../install/install.js';
import { IoStoreContainer } from '../iostore/container.js';
import { InstallPackages, PackageLookupError } from '../package/open-package.js';
import { detectClassicPackage, parseClassicPackageModel, type PackageModel } from '../package-model.js';
import { installPackageProperties } from '../properties/open.js';
import type { ExportProperties } from '../properties/types.js';
import type { Usmap } from '../usmap/types.js';
import type { ExportItem } from './selection.js';

export class PackageJsonConverter {
  private readonly packages: InstallPackages;

  constructor(install: Install, private readonly opts: { mappings?: Usmap } = {}) {
    this.packages = new InstallPackages(install);
  }

  /** Closes what the packages opened beside the install (a global.utoc for /Script imports). */
  async close(): Promise<void> {
    await this.packages.close();
  }

  /** Whether the converter turns this item into JSON (else it is written raw). */
  isPackage(item: ExportItem, firstBytes: Uint8Array): boolean {
    if (item.archive instanceof IoStoreContainer) return item.chunkType === 'ExportBundleData';
    return detectClassicPackage(firstBytes).kind !== 'unknown';
  }

  /** The package as JSON text. */
  async convert(item: ExportItem, bytes: Uint8Array): Promise<string> {
    const model = item.archive instanceof IoStoreContainer && item.chunkType === 'ExportBundleData'
      ? (await this.packages.open(item.path)).model
      : parseClassicPackageModel(bytes, item.path);
    return `${JSON.stringify(await this.withProperties(model, item.path), jsonValue, 2)}\n`;
  }

  /** The model with each export's properties; a package whose properties do not read keeps its tables. */
  private async withProperties(model: PackageModel, path: string): Promise<PackageModel & { propertiesError?: string }> {
    let exports: ExportProperties[];
    try {
      exports = (await installPackageProperties(this.packages, path, this.opts)).properties.exports;
    } catch (e) {
      if (!(e instanceof FormatError || e instanceof PackageLookupError)) throw e;
      return { ...model, exports: model.exports.map((x) => ({ ...x, properties: null })), propertiesError: e.message };
    }
    const byIndex = new Map(exports.map((e) => [e.index, e]));
    return { ...model, exports: model.exports.map((x) => ({ ...x, properties: byIndex.get(x.index)?.properties ?? null })) };
  }
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return undefined;
  if (value instanceof Map) return Object.fromEntries(value);
  return value;
}
