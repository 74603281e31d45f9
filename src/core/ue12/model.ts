import type { PackageModel } from '../package-model.js';
import type { Ue12Package } from './package.js';

/** The shared package model of a parsed UE1/2 package. */
export function ue12ToPackageModel(pkg: Ue12Package): PackageModel {
  const h = pkg.header;
  return {
    format: 'ue12',
    name: pkg.packageName,
    fileName: pkg.fileName,
    version: {
      fileVersion: h.fileVersion,
      licenseeVersion: h.licenseeVersion,
      generation: pkg.generation,
      knownGame: pkg.knownGame,
    },
    summary: {
      packageFlags: h.packageFlags, nameCount: h.nameCount, nameOffset: h.nameOffset, exportCount: h.exportCount,
      exportOffset: h.exportOffset, importCount: h.importCount, importOffset: h.importOffset,
      heritageCount: h.heritageCount, heritageOffset: h.heritageOffset, guid: h.guid, generations: h.generations,
    },
    packageFlags: { value: h.packageFlags, names: pkg.packageFlagNames },
    names: pkg.names.map((n) => n.name),
    imports: pkg.imports.map((i) => ({
      index: i.index, path: i.path, class: i.className, classPath: i.classPath, objectName: i.objectName, outer: i.outer,
    })),
    exports: pkg.exports.map((e) => ({
      index: e.index, name: e.objectName, class: e.className, classPath: e.classPath, outer: e.outer, path: e.path,
      serialOffset: e.serialOffset, serialSize: e.serialSize, super: e.superPath, flags: e.objectFlagNames,
      objectFlags: e.objectFlags, dataFile: pkg.fileName.replace(/\\/g, '/').split('/').pop()!, dataFileOffset: e.serialOffset,
    })),
    dependencies: [],
    softReferences: [],
    thumbnails: [],
    sections: pkg.sections,
    details: { heritage: pkg.heritage, nameFlags: pkg.names.map((n) => n.flags) },
    issues: pkg.issues,
    warnings: [],
  };
}
