import type { BinaryReader } from '../io/binary-reader.js';
import type { PackageLayout } from './layout.js';
import { type NameEntry, readFName } from './names.js';
import { UE4Version, UE5Version } from './versions.js';

/** FObjectImport: an object in another package. */
export interface ObjectImport {
  classPackage: string;
  className: string;
  /** FPackageIndex of the outer: 0 none, < 0 import, > 0 export. */
  outerIndex: number;
  objectName: string;
  /** The package an import without an outer chain lives in (editor-only from NON_OUTER_PACKAGE_IMPORT; always in UE5.8). */
  packageName: string | null;
  /** UE5 OPTIONAL_RESOURCES on. */
  importOptional: boolean | null;
  /** Where the entry starts. */
  offset: number;
}

/** FObjectExport: an object this package defines. Fields a version lacks are null. */
export interface ObjectExport {
  classIndex: number;
  superIndex: number;
  templateIndex: number | null;
  outerIndex: number;
  objectName: string;
  objectFlags: number;
  serialSize: number;
  /** As stored: for cooked split packages counted across .uasset + .uexp as one stream. */
  serialOffset: number;
  forcedExport: boolean;
  notForClient: boolean;
  notForServer: boolean;
  packageGuid: string | null;
  isInheritedInstance: boolean | null;
  packageFlags: number;
  notAlwaysLoadedForEditorGame: boolean | null;
  isAsset: boolean | null;
  generatePublicHash: boolean | null;
  firstExportDependency: number | null;
  serializationBeforeSerializationDependencies: number | null;
  createBeforeSerializationDependencies: number | null;
  serializationBeforeCreateDependencies: number | null;
  createBeforeCreateDependencies: number | null;
  scriptSerializationStartOffset: number | null;
  scriptSerializationEndOffset: number | null;
  /** Where the entry starts. */
  offset: number;
}

export function importHasPackageName(layout: PackageLayout, filterEditorOnly: boolean): boolean {
  return layout.importPackageNameAlways || (layout.ue4 >= UE4Version.NON_OUTER_PACKAGE_IMPORT && !filterEditorOnly);
}

/** Bytes one import entry takes in this layout. */
export function importEntrySize(layout: PackageLayout, filterEditorOnly: boolean): number {
  return 8 + 8 + 4 + 8 + (importHasPackageName(layout, filterEditorOnly) ? 8 : 0) +
    (layout.ue5 >= UE5Version.OPTIONAL_RESOURCES ? 4 : 0);
}

/** Reads one import entry; the caller has checked the table against the bytes. */
export function readImport(r: BinaryReader, names: readonly NameEntry[], layout: PackageLayout, filterEditorOnly: boolean): ObjectImport {
  const offset = r.pos;
  const classPackage = readFName(r, names);
  const className = readFName(r, names);
  const outerIndex = r.i32();
  const objectName = readFName(r, names);
  const packageName = importHasPackageName(layout, filterEditorOnly) ? readFName(r, names) : null;
  const importOptional = layout.ue5 >= UE5Version.OPTIONAL_RESOURCES ? r.bool32() : null;
  return { classPackage, className, outerIndex, objectName, packageName, importOptional, offset };
}

function exportHasScriptSerializationOffsets(layout: PackageLayout, unversionedProperties: boolean): boolean {
  return !unversionedProperties && layout.ue5 >= UE5Version.SCRIPT_SERIALIZATION_OFFSET;
}

/** Bytes one export entry takes in this layout. */
export function exportEntrySize(layout: PackageLayout, unversionedProperties: boolean): number {
  const { ue4, ue5 } = layout;
  let n = 4 + 4 + (ue4 >= UE4Version.TEMPLATE_INDEX_IN_COOKED_EXPORTS ? 4 : 0) + 4 + 8 + 4;
  n += ue4 >= UE4Version.EXPORTMAP_64BIT_SERIALSIZES ? 16 : 8;
  n += 12; // forced export, not for client, not for server
  if (ue5 < UE5Version.REMOVE_OBJECT_EXPORT_PACKAGE_GUID) n += 16;
  if (ue5 >= UE5Version.TRACK_OBJECT_EXPORT_IS_INHERITED) n += 4;
  n += 4; // package flags
  if (ue4 >= UE4Version.LOAD_FOR_EDITOR_GAME) n += 4;
  if (ue4 >= UE4Version.COOKED_ASSETS_IN_EDITOR_SUPPORT) n += 4;
  if (ue5 >= UE5Version.OPTIONAL_RESOURCES) n += 4;
  if (ue4 >= UE4Version.PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS) n += 20;
  if (exportHasScriptSerializationOffsets(layout, unversionedProperties)) n += 16;
  return n;
}

/** Reads one export entry; the caller has checked the table against the bytes. */
export function readExport(r: BinaryReader, names: readonly NameEntry[], layout: PackageLayout, unversionedProperties: boolean): ObjectExport {
  const { ue4, ue5 } = layout;
  const offset = r.pos;
  const classIndex = r.i32();
  const superIndex = r.i32();
  const templateIndex = ue4 >= UE4Version.TEMPLATE_INDEX_IN_COOKED_EXPORTS ? r.i32() : null;
  const outerIndex = r.i32();
  const objectName = readFName(r, names);
  const objectFlags = r.u32();
  let serialSize: number, serialOffset: number;
  if (ue4 >= UE4Version.EXPORTMAP_64BIT_SERIALSIZES) {
    serialSize = r.i64n('SerialSize');
    serialOffset = r.i64n('SerialOffset');
  } else {
    serialSize = r.i32();
    serialOffset = r.i32();
  }
  if (serialSize < 0) throw r.error(`export "${objectName}" has negative SerialSize ${serialSize}`, offset);
  if (serialOffset < 0) throw r.error(`export "${objectName}" has negative SerialOffset ${serialOffset}`, offset);
  const forcedExport = r.bool32();
  const notForClient = r.bool32();
  const notForServer = r.bool32();
  const packageGuid = ue5 < UE5Version.REMOVE_OBJECT_EXPORT_PACKAGE_GUID ? r.guid() : null;
  const isInheritedInstance = ue5 >= UE5Version.TRACK_OBJECT_EXPORT_IS_INHERITED ? r.bool32() : null;
  const packageFlags = r.u32();
  const notAlwaysLoadedForEditorGame = ue4 >= UE4Version.LOAD_FOR_EDITOR_GAME ? r.bool32() : null;
  const isAsset = ue4 >= UE4Version.COOKED_ASSETS_IN_EDITOR_SUPPORT ? r.bool32() : null;
  const generatePublicHash = ue5 >= UE5Version.OPTIONAL_RESOURCES ? r.bool32() : null;
  let firstExportDependency: number | null = null;
  let serializationBeforeSerializationDependencies: number | null = null;
  let createBeforeSerializationDependencies: number | null = null;
  let serializationBeforeCreateDependencies: number | null = null;
  let createBeforeCreateDependencies: number | null = null;
  if (ue4 >= UE4Version.PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS) {
    firstExportDependency = r.i32();
    serializationBeforeSerializationDependencies = r.i32();
    createBeforeSerializationDependencies = r.i32();
    serializationBeforeCreateDependencies = r.i32();
    createBeforeCreateDependencies = r.i32();
  }
  let scriptSerializationStartOffset: number | null = null, scriptSerializationEndOffset: number | null = null;
  if (exportHasScriptSerializationOffsets(layout, unversionedProperties)) {
    scriptSerializationStartOffset = r.i64n('ScriptSerializationStartOffset');
    scriptSerializationEndOffset = r.i64n('ScriptSerializationEndOffset');
  }
  return {
    classIndex, superIndex, templateIndex, outerIndex, objectName, objectFlags, serialSize, serialOffset,
    forcedExport, notForClient, notForServer, packageGuid, isInheritedInstance, packageFlags,
    notAlwaysLoadedForEditorGame, isAsset, generatePublicHash, firstExportDependency,
    serializationBeforeSerializationDependencies, createBeforeSerializationDependencies,
    serializationBeforeCreateDependencies, createBeforeCreateDependencies,
    scriptSerializationStartOffset, scriptSerializationEndOffset, offset,
  };
}
