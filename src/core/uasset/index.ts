/** Classic UE4/UE5 packages (.uasset/.umap, uncooked and cooked). */
export { parseUAsset, candidateLayouts } from './parse.js';
export type {
  UAssetPackage, UAssetParseOptions, UAssetImport, UAssetExport, UAssetVersionInfo, ExportDataFile, HeaderSection, SectionIssue,
} from './package.js';
export type { PackageFileSummary, EngineVersionStamp, GenerationInfo } from './summary.js';
export type { CustomVersion } from './custom-versions.js';
export { customVersionName } from './custom-versions.js';
export type { Thumbnail, ThumbnailFormat } from './thumbnails.js';
export { imageFormat } from './thumbnails.js';
export type { PackageTrailer, TrailerPayload } from './trailer.js';
export { PackageFlags, ObjectFlags, decodeFlags } from './flags.js';
export {
  UE4Version, UE5Version, LegacyFileVersion, UE4_LATEST, UE5_LATEST, CLASSIC_ENGINE_RELEASES,
  findClassicEngineRelease, ue4VersionName, ue5VersionName,
} from './versions.js';
export type { ClassicEngineRelease } from './versions.js';
export { uassetToPackageModel } from './model.js';
