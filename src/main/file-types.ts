/**
 * The file types PakScope opens with a double click: electron-builder.yml registers each of them
 * with the OS (test/app/packaging.test.ts keeps the two lists equal) and the Open File dialog
 * offers them. UE1/2's rarer or clashing extensions (.run is also a Linux installer, .dx, .uvx)
 * open from a folder or the dialog's "All files", but are not claimed.
 *
 * name: unique, because Windows files each association under it (and macOS shows it as the kind);
 * mime: the Linux type the .deb registers (.pak joins freedesktop's existing application/x-pak).
 */
export interface FileType {
  ext: string;
  name: string;
  mime: string;
}

export const FILE_TYPES: readonly FileType[] = [
  { ext: 'utoc', name: 'Unreal IoStore Table of Contents', mime: 'application/x-unreal-utoc' },
  { ext: 'ucas', name: 'Unreal IoStore Container', mime: 'application/x-unreal-ucas' },
  { ext: 'pak', name: 'Unreal Pak Archive', mime: 'application/x-pak' },
  { ext: 'uasset', name: 'Unreal Asset', mime: 'application/x-unreal-uasset' },
  { ext: 'umap', name: 'Unreal Map', mime: 'application/x-unreal-umap' },
  { ext: 'u', name: 'Unreal Code Package', mime: 'application/x-unreal-u' },
  { ext: 'utx', name: 'Unreal Texture Package', mime: 'application/x-unreal-utx' },
  { ext: 'unr', name: 'Unreal Level', mime: 'application/x-unreal-unr' },
  { ext: 'ut2', name: 'Unreal Tournament 2004 Level', mime: 'application/x-unreal-ut2' },
  { ext: 'uax', name: 'Unreal Sound Package', mime: 'application/x-unreal-uax' },
  { ext: 'umx', name: 'Unreal Music Package', mime: 'application/x-unreal-umx' },
  { ext: 'usx', name: 'Unreal Static Mesh Package', mime: 'application/x-unreal-usx' },
  { ext: 'ukx', name: 'Unreal Animation Package', mime: 'application/x-unreal-ukx' },
  { ext: 'upx', name: 'Unreal Prefab Package', mime: 'application/x-unreal-upx' },
];

export const OPENABLE_EXTENSIONS: readonly string[] = FILE_TYPES.map((t) => t.ext);
