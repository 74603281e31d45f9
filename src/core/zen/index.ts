// Cooked Zen packages (IoStore ExportBundleData chunks), script objects and name resolution.
export { parseZenPackage, peekZenHeaderSize, PACKAGE_FILE_TAG, type ZenPackageContext } from './zen-package.js';
export type * from './types.js';
export {
  readObjectRef, readMappedName, scriptImportIndex, legacyPackageImportIndex, type ObjectRef, type MappedName,
} from './object-index.js';
export { readNameBatch, readNamePairs, nameHash, displayName, NAME_HASH_ALGORITHM_ID } from './name-batch.js';
export {
  parseScriptObjects, parseLegacyScriptObjects, scriptObjectPath, findScriptObject, isScriptPackage,
  type ScriptObject, type ScriptObjects, type ScriptObjectsOptions,
} from './script-objects.js';
export {
  resolvePackage, resolveObjectRef, type ResolveOptions, type ResolvedPackage, type ResolvedExport, type ResolvedImport,
  type ResolvedRef,
} from './resolve.js';
