/**
 * The header of a cooked Zen package (an ExportBundleData chunk): UE4.26/27 FPackageSummary and
 * UE5.0+ FZenPackageSummary with every table after it, each count and offset checked against the
 * bytes, and where each export's data lies in the chunk.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { FormatError } from '../errors.js';
import { ZenLayout, engineRelease, type EngineVersion } from '../engine-versions.js';
import { packageIdFromName } from '../hash/cityhash64.js';
import type { StoreEntry } from '../iostore/container-header.js';
import { emptyPackage, placeExportData } from './package-tables.js';
import { readUE4Package } from './ue4-package.js';
import { readUE5Package } from './ue5-package.js';
import type { ZenPackage } from './types.js';

export interface ZenPackageContext {
  /** From zenLayoutFor(container header version, .utoc version). */
  layout: ZenLayout;
  /** An explicit engine version overrides `layout`. */
  engine?: EngineVersion;
  /**
   * The package's store entry from its container header: the imported package ids UE5.0-5.2
   * package imports index into (and the bundle count those versions' graph data needs).
   */
  storeEntry?: StoreEntry;
  /** Size of the whole chunk when `bytes` holds only its first part (at least the header). */
  chunkSize?: number;
  /** Check name hashes (default true). */
  verifyNameHashes?: boolean;
}

/** The package tag (PACKAGE_FILE_TAG) UE5.3+ chunks end with: C1 83 2A 9E. */
export const PACKAGE_FILE_TAG = 0x9e2a83c1;

/** Reads the header size from the first bytes of a chunk, to read only the header of a large package. */
export function peekZenHeaderSize(prefix: Uint8Array, fileName: string, layout: ZenLayout): number {
  const r = new BinaryReader(prefix, fileName).struct(layout === ZenLayout.PackageSummary ? 'package summary' : 'zen package summary');
  if (layout === ZenLayout.PackageSummary) {
    r.seek(52);
    return r.u32() + r.u32();
  }
  r.seek(4);
  return r.u32();
}

/**
 * Parses the header of a Zen package chunk. `bytes` is the chunk, or its first `headerSize` or
 * more bytes with `ctx.chunkSize` giving the whole size.
 */
export function parseZenPackage(bytes: Uint8Array, fileName: string, ctx: ZenPackageContext): ZenPackage {
  const layout = ctx.engine !== undefined ? engineRelease(ctx.engine).zenLayout : ctx.layout;
  const chunkSize = ctx.chunkSize ?? bytes.length;
  if (chunkSize < bytes.length) throw new FormatError(fileName, 'zen package', 0, `chunk size ${chunkSize} is smaller than the ${bytes.length} bytes given`);
  const pkg = emptyPackage(fileName, layout, chunkSize);
  const r = new BinaryReader(bytes, fileName);
  if (layout === ZenLayout.PackageSummary) readUE4Package(r, pkg, ctx);
  else readUE5Package(r, pkg, ctx);
  pkg.packageId = packageIdFromName(pkg.name);
  const store = ctx.storeEntry;
  if (store?.exportCount !== undefined && store.exportCount !== pkg.exports.length) {
    pkg.warnings.push(`the store entry says ${store.exportCount} exports, the header has ${pkg.exports.length}`);
  }
  if (store?.exportBundlesSize !== undefined && store.exportBundlesSize !== chunkSize) {
    pkg.warnings.push(`the store entry says the chunk has ${store.exportBundlesSize} bytes, it has ${chunkSize}`);
  }

  // UE5.3+ chunks end with the package tag after the export data.
  let dataEnd = chunkSize;
  if (pkg.layout >= ZenLayout.DependencyBundles && bytes.length === chunkSize) {
    const tagAt = chunkSize - 4;
    pkg.hasPackageTag = tagAt >= pkg.headerSize && new DataView(bytes.buffer, bytes.byteOffset).getUint32(tagAt, true) === PACKAGE_FILE_TAG;
    if (pkg.hasPackageTag) {
      dataEnd = tagAt;
      pkg.regions.push({ name: 'package tag', offset: tagAt, size: 4 });
    } else {
      pkg.warnings.push('the chunk does not end with the package tag C1 83 2A 9E');
    }
  }
  placeExportData(r, pkg, dataEnd);
  pkg.regions.sort((a, b) => a.offset - b.offset);
  return pkg;
}
