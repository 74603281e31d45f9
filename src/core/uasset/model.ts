import type { PackageModel, PackageModelDependency } from '../package-model.js';
import type { UAssetPackage } from './package.js';
import { propertyEncodingOf } from './flags.js';
import { ue4VersionName, ue5VersionName } from './versions.js';

/** Path of an FPackageIndex in a parsed package, "#index" when it points nowhere. */
function pathOf(pkg: UAssetPackage, index: number): string {
  const o = index < 0 ? pkg.imports[-index - 1] : pkg.exports[index - 1];
  return o ? o.path : `#${index}`;
}

/** Each export's depends-map entries and (cooked) preload dependencies, as paths. */
function dependencies(pkg: UAssetPackage): PackageModelDependency[] {
  return pkg.exports.map((e, i) => {
    const dep: PackageModelDependency = { export: i, dependsOn: (pkg.dependsMap[i] ?? []).map((x) => pathOf(pkg, x)) };
    const first = e.firstExportDependency;
    if (first !== null && first >= 0 && pkg.preloadDependencies.length > 0) {
      const counts = [e.serializationBeforeSerializationDependencies ?? 0, e.createBeforeSerializationDependencies ?? 0,
        e.serializationBeforeCreateDependencies ?? 0, e.createBeforeCreateDependencies ?? 0];
      let at = first;
      const take = (n: number): string[] => {
        const out = pkg.preloadDependencies.slice(at, at + n).map((x) => pathOf(pkg, x));
        at += n;
        return out;
      };
      dep.preload = {
        serializeBeforeSerialize: take(counts[0]!), createBeforeSerialize: take(counts[1]!),
        serializeBeforeCreate: take(counts[2]!), createBeforeCreate: take(counts[3]!),
      };
    }
    return dep;
  });
}

/** The shared package model of a parsed .uasset/.umap. */
export function uassetToPackageModel(pkg: UAssetPackage, bytes?: Uint8Array): PackageModel {
  const s = pkg.summary;
  const v = pkg.version;
  // `unversioned` is version.unversionedPackage (named apart from how the properties are stored).
  const { layout: _layout, fieldOffsets: _offsets, customVersions: _cv, unversioned: _unversioned, savedByEngineVersion, compatibleWithEngineVersion, ...rest } = s;
  return {
    format: 'uasset',
    name: pkg.packageName,
    fileName: pkg.fileName,
    version: {
      legacyFileVersion: v.legacyFileVersion,
      fileVersionUE3: v.legacyUE3Version,
      fileVersionUE4: v.fileVersionUE4,
      fileVersionUE5: v.fileVersionUE5,
      licensee: v.licensee,
      unversionedPackage: v.unversioned,
      propertyEncoding: propertyEncodingOf(s.packageFlags),
      objectVersionUE4: v.ue4,
      objectVersionUE4Name: ue4VersionName(v.ue4) ?? null,
      objectVersionUE5: v.ue5 || null,
      objectVersionUE5Name: v.ue5 ? ue5VersionName(v.ue5) ?? null : null,
      engine: v.engine,
      engineCandidates: v.engineCandidates,
      versionSource: v.source,
      savedByEngineVersion: savedByEngineVersion?.text ?? null,
      compatibleWithEngineVersion: compatibleWithEngineVersion?.text ?? null,
      customVersions: s.customVersions.map((c) => ({ guid: c.guid, name: c.name, version: c.version })),
    },
    summary: { ...rest },
    packageFlags: { value: s.packageFlags, names: pkg.packageFlagNames },
    names: pkg.names.map((n) => n.name),
    imports: pkg.imports.map((i) => ({
      index: i.index, path: i.path, class: i.className, classPath: i.classPath, objectName: i.objectName, outer: i.outer,
      ...(i.importOptional !== null ? { optional: i.importOptional } : {}),
    })),
    exports: pkg.exports.map((e) => ({
      index: e.index, name: e.objectName, class: e.className, classPath: e.classPath, outer: e.outer, path: e.path,
      serialOffset: e.serialOffset, serialSize: e.serialSize, super: e.superPath, template: e.templatePath,
      flags: e.objectFlagNames, objectFlags: e.objectFlags, ...(e.isAsset !== null ? { isAsset: e.isAsset } : {}),
      dataFile: e.dataFile, dataFileOffset: e.dataFileOffset,
    })),
    dependencies: dependencies(pkg),
    softReferences: pkg.softPackageReferences,
    thumbnails: pkg.thumbnails.map((t) => ({
      object: t.objectPath, class: t.objectClass, format: t.format, width: t.width, height: t.height,
      dataOffset: t.dataOffset, dataSize: t.dataSize,
      ...(bytes && t.dataSize > 0 && t.dataOffset + t.dataSize <= bytes.length ? { data: bytes.subarray(t.dataOffset, t.dataOffset + t.dataSize) } : {}),
    })),
    sections: pkg.sections,
    details: {
      packageNameSource: pkg.packageNameSource,
      cooked: pkg.cooked,
      exportData: pkg.exportData,
      bulkDataStartOffset: pkg.bulkDataStartOffset,
      nameHashes: pkg.nameHashes,
      softObjectPaths: pkg.softObjectPaths.map((p) => p.path),
      gatherableText: pkg.gatherableText,
      searchableNames: pkg.searchableNames.map((n) => ({ object: n.index === 0 ? null : pathOf(pkg, n.index), names: n.names })),
      assetRegistry: pkg.assetRegistry,
      worldTileInfo: pkg.worldTileInfo,
      dataResources: pkg.dataResources,
      trailer: pkg.trailer,
    },
    issues: pkg.issues,
    warnings: pkg.warnings,
  };
}
