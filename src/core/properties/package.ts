/**
 * The properties of every export of a parsed package: classic .uasset/.umap (export data in the
 * file or in its .uexp) and Zen packages (IoStore ExportBundleData chunks). Whether properties are
 * tagged or unversioned follows the package's PKG_UnversionedProperties flag, not its container.
 */
import { ENGINE_RELEASES, type EngineVersion, engineRelease } from '../engine-versions.js';
import { PackageFlags } from '../uasset/flags.js';
import type { UAssetPackage } from '../uasset/package.js';
import type { Usmap } from '../usmap/types.js';
import type { ResolvedPackage } from '../zen/resolve.js';
import type { ZenPackage } from '../zen/types.js';
import type { NativeDataReader, PropertyContext } from './context.js';
import { readObjectProperties } from './object.js';
import type { PackageProperties, TextKey } from './types.js';
import type { PropertyVersions } from './versions.js';

export interface ReadPropertiesOptions {
  /** The mappings unversioned properties are read with. */
  mappings?: Usmap;
  /** Engine release of an unversioned Zen package without versioning info (its layout's newest otherwise). */
  engine?: EngineVersion;
  /** Record the byte range of every entry (PropertyEntry.range, .elements). */
  offsets?: boolean;
  /** Reads each export's native data after its properties (ExportProperties.native). */
  nativeData?: NativeDataReader;
  /** Collects the localization key of every literal text (PropertyContext.textKeys). */
  textKeys?: TextKey[];
}

const isUnversioned = (packageFlags: number): boolean => (packageFlags & PackageFlags.PKG_UnversionedProperties) !== 0;

/**
 * A classic package's exports. `bytes` is the .uasset (with its export data when uncooked);
 * `uexp` the .uexp of a cooked split package. SerialOffsets count across both as one stream.
 */
export function uassetProperties(pkg: UAssetPackage, bytes: Uint8Array, uexp?: Uint8Array, opts: ReadPropertiesOptions = {}): PackageProperties {
  const headerSize = pkg.summary.totalHeaderSize;
  const unversioned = isUnversioned(pkg.summary.packageFlags);
  const versions: PropertyVersions = {
    ue4: pkg.version.ue4, ue5: pkg.version.ue5, cooked: pkg.cooked,
    custom: pkg.version.unversioned ? null : pkg.summary.customVersions,
  };
  const ctx: PropertyContext = {
    file: pkg.fileName,
    names: pkg.names.map((n) => n.name),
    objectPath: (i) => (i === 0 ? null : i > 0 ? pkg.exports[i - 1]?.path : pkg.imports[-i - 1]?.path),
    versions, unversioned,
    softObjectPaths: pkg.softObjectPaths.map((p) => p.path),
    mappings: opts.mappings,
    offsets: opts.offsets,
    ...(opts.nativeData ? { nativeData: opts.nativeData } : {}),
    ...(opts.textKeys ? { textKeys: opts.textKeys } : {}),
  };
  const uexpName = pkg.fileName.replace(/\.(uasset|umap)$/i, '') + '.uexp';
  const objects = pkg.exports.map((e) => {
    const inUexp = e.serialOffset >= headerSize && bytes.length <= headerSize;
    const data = inUexp ? uexp : bytes;
    const start = inUexp ? e.serialOffset - headerSize : e.serialOffset;
    const available = data ? Math.max(0, Math.min(e.serialSize, data.length - start)) : 0;
    return {
      index: e.index, name: e.objectName, class: e.className,
      bytes: data && start >= 0 && start <= data.length ? data.subarray(start, start + available) : new Uint8Array(0),
      base: start, file: inUexp ? uexpName : pkg.fileName, serialSize: e.serialSize,
    };
  });
  return {
    package: pkg.packageName,
    exports: objects.map((o) => readObjectProperties(ctx, o)),
  };
}

/** The object versions a Zen package was cooked with: its versioning info, or its layout's engine. */
export function zenPropertyVersions(pkg: ZenPackage, engine?: EngineVersion): PropertyVersions {
  // Zen packages are cooked, whatever their flags say.
  const cooked = true;
  if (pkg.versioning) {
    return { ue4: pkg.versioning.fileVersionUE4, ue5: pkg.versioning.fileVersionUE5, custom: pkg.versioning.customVersions, cooked };
  }
  const release = engine !== undefined ? engineRelease(engine)
    : [...ENGINE_RELEASES].reverse().find((r) => r.zenLayout === pkg.layout) ?? ENGINE_RELEASES[ENGINE_RELEASES.length - 1]!;
  return { ue4: release.fileVersionUE4, ue5: release.fileVersionUE5, custom: null, cooked };
}

/** A Zen package's exports; `chunk` is the whole ExportBundleData chunk, `resolved` its names and paths. */
export function zenProperties(pkg: ZenPackage, chunk: Uint8Array, resolved: ResolvedPackage, opts: ReadPropertiesOptions = {}): PackageProperties {
  const unversioned = isUnversioned(pkg.packageFlags);
  const ctx: PropertyContext = {
    file: pkg.file,
    names: pkg.names,
    objectPath: (i) => (i === 0 ? null : i > 0 ? resolved.exports[i - 1]?.path : resolved.imports[-i - 1]?.path),
    versions: zenPropertyVersions(pkg, opts.engine),
    unversioned,
    mappings: opts.mappings,
    offsets: opts.offsets,
    ...(opts.nativeData ? { nativeData: opts.nativeData } : {}),
    ...(opts.textKeys ? { textKeys: opts.textKeys } : {}),
  };
  const objects = pkg.exports.map((e) => {
    const r = resolved.exports[e.index];
    const cls = r?.className ?? r?.classPath?.slice(r.classPath.lastIndexOf('.') + 1) ?? '?';
    const start = e.dataOffset;
    const ok = start >= 0 && start <= chunk.length;
    const available = ok ? Math.max(0, Math.min(e.cookedSerialSize, chunk.length - start)) : 0;
    return {
      index: e.index, name: e.name, class: cls,
      bytes: ok ? chunk.subarray(start, start + available) : new Uint8Array(0),
      base: Math.max(0, start), file: pkg.file, serialSize: start >= 0 ? e.cookedSerialSize : 0,
    };
  });
  return { package: pkg.name, exports: objects.map((o) => readObjectProperties(ctx, o)) };
}
