// Packages of an install or on disk, whatever their format, as the shared PackageModel.
export {
  InstallPackages, openPackageFile, PackageLookupError,
  type OpenPackageOptions, type OpenedPackage, type PackageLocation,
} from './open-package.js';
export { PackageIndex, packageIdOfChunkId, packageChunkIdHex, type IndexedPackage, type PackageKind } from './package-index.js';
export { zenToPackageModel, type ZenModelContext } from './zen-model.js';
export { findScriptObjects, readScriptObjects, globalContainersNear, type ScriptObjectsFound } from './script-objects.js';
export {
  isPackageFileName, isUAssetFileName, isUe12FileName, isLooseInstallFile, extensionOf, withoutExtension,
  UASSET_EXTENSIONS, UE12_EXTENSIONS, COMPANION_EXTENSIONS,
} from './package-files.js';
export { findThumbnail, type ThumbnailImage } from './thumbnail.js';
