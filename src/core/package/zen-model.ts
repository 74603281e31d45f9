/**
 * A parsed Zen package (zen/types.ts) with its resolved names (zen/resolve.ts) in the shared
 * PackageModel. Zen import entries store no class: it is the class of the object they resolve to
 * where that is known (an export of a parsed imported package, a script CDO), "Package" for a
 * /Script package, "Class" for a script object this package uses as a class or super class, and
 * "" when nothing tells.
 */
import { ZenLayout } from '../engine-versions.js';
import type { PackageModel } from '../package-model.js';
import { decodeFlags, ObjectFlags, PackageFlags, propertyEncodingOf } from '../uasset/flags.js';
import type { ResolvedPackage } from '../zen/resolve.js';
import type { ScriptObjects } from '../zen/script-objects.js';
import type { ObjectRef, ZenPackage } from '../zen/types.js';

export interface ZenModelContext {
  /** The global script objects, when found. */
  scriptObjects?: ScriptObjects;
  /** The global container they came from. */
  scriptObjectsFrom?: string;
  /** Engine release label the layout was chosen for ("UE5.4"), or the releases that write these versions. */
  engine?: string | null;
  containerHeaderVersion?: number | null;
  tocVersion?: number | null;
}

/** "/Script/Engine.StaticMesh" → "StaticMesh". */
export function shortObjectName(path: string | undefined): string {
  if (!path) return '';
  return path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'), path.lastIndexOf('/')) + 1);
}

/** "/Game/A.A:Comp" → "/Game/A.A"; a package path → null. */
function outerOfPath(path: string): string | null {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'));
  return cut > 0 ? path.slice(0, cut) : null;
}

/** Raw indices of the script imports this package's exports use as a class or super class. */
function scriptClassRefs(pkg: ZenPackage): Set<string> {
  const out = new Set<string>();
  const take = (ref: ObjectRef): void => {
    if (ref.kind === 'script') out.add(ref.raw);
  };
  for (const e of pkg.exports) {
    take(e.class);
    take(e.super);
  }
  return out;
}

/**
 * The class of a script import, as far as the script objects and this package's use tell. The
 * script objects keep a CDO class for a CDO and for every object below one: it is the class of
 * the "Default__X" object itself only.
 */
function scriptImportClass(ref: ObjectRef, name: string, classPath: string | undefined, so: ScriptObjects | undefined, usedAsClass: Set<string>): string {
  const i = so?.byIndex.get(ref.raw);
  if (so && i !== undefined && so.objects[i]!.outer === undefined) return 'Package';
  if (name.startsWith('Default__') && classPath) return shortObjectName(classPath);
  if (usedAsClass.has(ref.raw)) return 'Class';
  return '';
}

export function zenToPackageModel(pkg: ZenPackage, r: ResolvedPackage, ctx: ZenModelContext = {}): PackageModel {
  const v = pkg.versioning;
  const usedAsClass = scriptClassRefs(pkg);
  return {
    format: 'zen',
    name: pkg.name,
    fileName: pkg.file,
    version: {
      zenLayout: ZenLayout[pkg.layout],
      engine: ctx.engine ?? null,
      containerHeaderVersion: ctx.containerHeaderVersion ?? null,
      tocVersion: ctx.tocVersion ?? null,
      unversionedPackage: v === undefined,
      propertyEncoding: propertyEncodingOf(pkg.packageFlags),
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
    imports: r.imports.map((i) => {
      const ref = pkg.imports[i.index]!;
      const script = ref.kind === 'script';
      const cls = script ? scriptImportClass(ref, i.name, i.classPath, ctx.scriptObjects, usedAsClass) : shortObjectName(i.classPath);
      const classPath = script && !i.name.startsWith('Default__') ? undefined : i.classPath;
      return {
        index: i.index,
        path: i.path,
        class: cls,
        ...(classPath ? { classPath } : {}),
        objectName: i.name,
        outer: i.resolved ? outerOfPath(i.path) : null,
      };
    }),
    exports: pkg.exports.map((e, k) => {
      const x = r.exports[k]!;
      return {
        index: e.index,
        name: e.name,
        class: x.className ?? shortObjectName(x.classPath),
        ...(x.classPath ? { classPath: x.classPath } : {}),
        outer: x.outerPath ?? null,
        path: x.path,
        serialOffset: e.cookedSerialOffset,
        serialSize: e.cookedSerialSize,
        super: x.superPath ?? null,
        template: x.templatePath ?? null,
        flags: decodeFlags(e.objectFlags, ObjectFlags),
        objectFlags: e.objectFlags,
        dataFile: 'chunk',
        dataFileOffset: e.dataOffset,
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
      publicExports: pkg.exports.map((e) => ({ index: e.index, publicExportHash: e.publicExportHash, isPublic: e.isPublic, filterFlags: e.filterFlags })),
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
      scriptObjects: ctx.scriptObjectsFrom ?? null,
    },
    issues: [],
    warnings: pkg.warnings,
  };
}
