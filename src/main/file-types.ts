/**
 * The file types PakScope opens with a double click: electron-builder.yml registers each of them
 * with the OS (test/app/packaging.test.ts keeps the two lists equal) and the Open File dialog
 * offers them. UE1/2's rarer or clashing extensions (.run is also a Linux installer, .dx, .uvx)
 * open from a folder or the dialog's "All files", but are not claimed.
 */
export const FILE_TYPES: readonly { ext: string; name: string }[] = [
  { ext: 'utoc', name: 'Unreal IoStore table of contents' },
  { ext: 'ucas', name: 'Unreal IoStore container data' },
  { ext: 'pak', name: 'Unreal pak archive' },
  { ext: 'uasset', name: 'Unreal asset' },
  { ext: 'umap', name: 'Unreal map' },
  { ext: 'u', name: 'Unreal code package' },
  { ext: 'utx', name: 'Unreal texture package' },
  { ext: 'unr', name: 'Unreal map' },
  { ext: 'ut2', name: 'Unreal Tournament 2004 map' },
  { ext: 'uax', name: 'Unreal sound package' },
  { ext: 'umx', name: 'Unreal music package' },
  { ext: 'usx', name: 'Unreal static mesh package' },
  { ext: 'ukx', name: 'Unreal animation package' },
  { ext: 'upx', name: 'Unreal prefab package' },
];

export const OPENABLE_EXTENSIONS: readonly string[] = FILE_TYPES.map((t) => t.ext);
