/**
 * `--format json`: a package as the shared PackageModel (package-model.ts), pretty-printed.
 * - IoStore ExportBundleData chunks are Zen packages, opened through InstallPackages (the same
 *   path as `pakscope info` and the app): container layout, store entry, script objects and
 *   imported packages resolved where the install has them.
 * - Other files starting with the package tag are classic packages (.uasset/.umap, UE1/2).
 * - Anything else is not a package: the exporter writes it raw.
 * A package that does not parse fails with its FormatError (UE3 packages included).
 */
import type { Install } from '../install/install.js';
import { IoStoreContainer } from '../iostore/container.js';
import { InstallPackages } from '../package/open-package.js';
import { detectClassicPackage, parseClassicPackageModel } from '../package-model.js';
import type { ExportItem } from './selection.js';

export class PackageJsonConverter {
  private readonly packages: InstallPackages;

  constructor(install: Install) {
    this.packages = new InstallPackages(install);
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
    return `${JSON.stringify(model, jsonValue, 2)}\n`;
  }
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return undefined;
  if (value instanceof Map) return Object.fromEntries(value);
  return value;
}
