/**
 * AssetRegistry.bin (FAssetRegistryState), UE4.17 to UE6.0: every version from
 * HardSoftDependencies to MemoryMappedTagDataStore.
 *
 * Header: the version GUID 717F9EE7-E9B0493A-88B39132-1B388107 and an i32 version (a file
 * without it predates versioning); from AddedHeader a bool32 bFilterEditorOnlyData. Then the
 * names (archive.ts) and, from FixedTags on, the tag store (tag-store.ts); then an i32-counted
 * array of FAssetData, the dependency nodes (dependencies.ts) and an i32-counted array of
 * package data (package-data.ts). Before RemovedMD5Hash only the assets are read, as the engine
 * itself reads no further.
 *
 * FAssetData: before RemoveAssetPathFNames the object path FName; the package path FName; the
 * class (FTopLevelAssetPath from ClassPaths on, else an FName); before RemovedMD5Hash the group
 * names FName; package name and asset name FNames; from RemoveAssetPathFNames in an editor
 * registry the optional outer path FName; the tags (from FixedTags a u64 map handle into the tag
 * store and the asset bundles, before it an i32-counted array of FName key and FString value);
 * an i32-counted array of i32 chunk ids; u32 package flags.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { RegistryArchive } from './archive.js';
import { readDependencies } from './dependencies.js';
import { readPackageData } from './package-data.js';
import { TagStore } from './tag-store.js';
import type { AssetRegistry, RegistryAsset } from './types.js';
import { AssetRegistryVersion as V, assetRegistryVersionName, LATEST_ASSET_REGISTRY_VERSION } from './version.js';

const VERSION_GUID = [0x717f9ee7, 0xe9b0493a, 0x88b39132, 0x1b388107];

function readBundles(ar: RegistryArchive): RegistryAsset['bundles'] {
  return ar.array(8, 'asset bundle count', () => {
    const name = ar.name();
    const assets = ar.array(8, 'bundle asset count', () => {
      const path = ar.version >= V.ClassPaths ? ar.topLevelPath() : ar.name();
      const sub = ar.r.fstring();
      return sub ? `${path}:${sub}` : path;
    });
    return { name, assets };
  });
}

function readAsset(ar: RegistryArchive, store: TagStore | undefined, filterEditorOnly: boolean): RegistryAsset {
  const r = ar.r;
  if (ar.version < V.RemoveAssetPathFNames) ar.name(); // the object path: package name "." asset name
  const packagePath = ar.name();
  const cls = ar.className();
  if (ar.version < V.RemovedMD5Hash) ar.name(); // group names
  const pkg = ar.name();
  const name = ar.name();
  if (ar.version >= V.RemoveAssetPathFNames && !filterEditorOnly) ar.name(); // optional outer path
  let tags: Record<string, string> = {};
  let bundles: RegistryAsset['bundles'] = [];
  if (store) {
    const at = r.pos;
    tags = store.tags(r.u64(), at);
    bundles = readBundles(ar);
  } else {
    const n = r.count(8, 'tag count');
    for (let i = 0; i < n; i++) {
      const key = ar.name();
      tags[key] = r.fstring();
    }
  }
  const chunkIds = ar.i32s('chunk id count');
  const packageFlags = r.u32();
  return { object: `${pkg}.${name}`, package: pkg, packagePath, name, class: cls, tags, bundles, chunkIds, packageFlags };
}

/** Reads an AssetRegistry.bin. Bad input throws FormatError naming the structure and byte offset. */
export function parseAssetRegistry(bytes: Uint8Array, file: string): AssetRegistry {
  const r = new BinaryReader(bytes, file).struct('asset registry header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20 || VERSION_GUID.some((w, i) => view.getUint32(4 * i, true) !== w)) {
    throw new FormatError(file, 'asset registry header', 0,
      'no asset registry version GUID: an AssetRegistry.bin from before UE4.17 (unversioned, not read) or not an asset registry');
  }
  r.skip(16);
  const versionAt = r.pos;
  const version = r.i32() as V;
  if (version < V.HardSoftDependencies || version > LATEST_ASSET_REGISTRY_VERSION) {
    throw r.error(`asset registry version ${version} is not one PakScope reads (${V.HardSoftDependencies} to ${LATEST_ASSET_REGISTRY_VERSION}, `
      + `${assetRegistryVersionName(V.HardSoftDependencies)} to ${assetRegistryVersionName(LATEST_ASSET_REGISTRY_VERSION)}): a newer engine's registry`, versionAt);
  }
  const filterEditorOnly = version >= V.AddedHeader ? r.u32() !== 0 : false;
  const ar = new RegistryArchive(r, version);
  ar.readNames();
  const store = version >= V.FixedTags ? new TagStore(ar) : undefined;
  r.struct('asset registry assets');
  // An asset takes at least 3 names, a tag count or handle, a chunk id count and flags.
  const assets = ar.array(24, 'asset count', () => readAsset(ar, store, filterEditorOnly));
  const reg: AssetRegistry = {
    version, versionName: assetRegistryVersionName(version), filterEditorOnly, assets, dependencies: [], packages: [], warnings: [],
  };
  if (version < V.RemovedMD5Hash) return reg;
  reg.dependencies = readDependencies(ar, reg.warnings);
  r.struct('asset registry package data');
  reg.packages = ar.array(28, 'package data count', () => readPackageData(ar));
  if (r.pos < ar.dataEnd) reg.warnings.push(`${ar.dataEnd - r.pos} bytes after the package data were not read`);
  return reg;
}
