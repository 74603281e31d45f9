/**
 * Which file names are packages and which files travel with them. UE4/5 packages are .uasset and
 * .umap; a cooked one keeps its export data in a .uexp beside it and bulk data in .ubulk,
 * .uptnl (optional) and .m.ubulk (memory-mapped). UE1/2 packages carry their kind in the
 * extension: .u code, .utx textures, .unr/.ut2/.un2 maps, .uax sounds, .umx music, .usx static
 * meshes, .ukx animations, .upx prefabs, .uvx video, and a few games' own.
 */

export const UASSET_EXTENSIONS: readonly string[] = ['.uasset', '.umap'];

/** Files a cooked package keeps beside it (.m.ubulk ends in .ubulk too). */
export const COMPANION_EXTENSIONS: readonly string[] = ['.uexp', '.ubulk', '.uptnl'];

export const UE12_EXTENSIONS: readonly string[] = [
  '.u', '.utx', '.unr', '.ut2', '.un2', '.uax', '.umx', '.usx', '.ukx', '.upx', '.uvx',
  '.dx', // Deus Ex maps
  '.run', // Rune maps
];

/** Plugin descriptors: the install names plugin mount points after them (game-path.ts). */
const DESCRIPTOR_EXTENSIONS: readonly string[] = ['.uplugin', '.uproject'];

const PACKAGE_SET = new Set([...UASSET_EXTENSIONS, ...UE12_EXTENSIONS]);
/** Wwise media and banks: games ship them loose beside the paks too (Content/WwiseAudio). */
const WWISE_EXTENSIONS: readonly string[] = ['.wem', '.bnk'];
/** A cooked FontFace that does not keep its font inline keeps it in <package>.ufont beside it. */
const FONT_EXTENSIONS: readonly string[] = ['.ufont'];
const LOOSE_SET = new Set([...PACKAGE_SET, ...COMPANION_EXTENSIONS, ...DESCRIPTOR_EXTENSIONS, ...WWISE_EXTENSIONS, ...FONT_EXTENSIONS]);

/** ".uasset" for "A/B.uasset"; "" without an extension. Lowercased. */
export function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : '';
}

/** The path without its last extension. */
export function withoutExtension(path: string): string {
  const ext = extensionOf(path);
  return ext ? path.slice(0, path.length - ext.length) : path;
}

/** A package file by its name: .uasset, .umap, or a UE1/2 package extension. */
export function isPackageFileName(path: string): boolean {
  return PACKAGE_SET.has(extensionOf(path));
}

export function isUAssetFileName(path: string): boolean {
  return UASSET_EXTENSIONS.includes(extensionOf(path));
}

export function isUe12FileName(path: string): boolean {
  return UE12_EXTENSIONS.includes(extensionOf(path));
}

/** Files a folder scan takes as loose install files: packages, their companions, plugin descriptors, Wwise media and their SoundbanksInfo. */
export function isLooseInstallFile(path: string): boolean {
  return LOOSE_SET.has(extensionOf(path)) || /(^|[\\/])soundbanksinfo\.(json|xml)$/i.test(path);
}
