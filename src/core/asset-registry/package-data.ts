/**
 * FAssetPackageData of an AssetRegistry.bin, after the package's FName: i64 disk size; a 16-byte
 * GUID (before PackageSavedHash) or a 20-byte saved hash; from AddedCookedMD5Hash an FMD5Hash
 * (u32 valid flag, then 16 bytes if set); from AddedChunkHashes an i32-counted map of IoStore
 * chunk id (12 bytes) to hash (20 bytes); from WorkspaceDomain the file
 * versions (UE4, and UE5 from PackageFileSummaryVersionChange), the licensee version, u32 flags
 * and the custom versions (i32 count of GUID + i32); from PackageImportedClasses an i32-counted
 * array of FNames; from AssetPackageDataHasExtension the extension as an FString.
 */
import type { RegistryArchive } from './archive.js';
import type { RegistryPackage } from './types.js';
import { AssetRegistryVersion as V } from './version.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function readPackageData(ar: RegistryArchive): RegistryPackage {
  const r = ar.r;
  const name = ar.name();
  const p: RegistryPackage = { name, diskSize: r.i64n('disk size') };
  if (ar.version < V.PackageSavedHash) p.guid = r.guid();
  else p.savedHash = hex(r.bytesView(20));
  if (ar.version >= V.AddedCookedMD5Hash && r.u32() !== 0) p.cookedHash = hex(r.bytesView(16));
  if (ar.version >= V.AddedChunkHashes) {
    const n = r.count(32, 'chunk hash count');
    r.skip(n * 32);
  }
  if (ar.version >= V.WorkspaceDomain) {
    p.fileVersionUE4 = r.i32();
    if (ar.version >= V.PackageFileSummaryVersionChange) p.fileVersionUE5 = r.i32();
    p.fileVersionLicensee = r.i32();
    p.flags = r.u32();
    p.customVersions = ar.array(20, 'custom version count', () => ({ guid: r.guid(), version: r.i32() }));
  }
  if (ar.version >= V.PackageImportedClasses) p.importedClasses = ar.array(4, 'imported class count', () => ar.name());
  if (ar.version >= V.AssetPackageDataHasExtension) p.extension = r.fstring().replace(/\0+$/, '');
  return p;
}
