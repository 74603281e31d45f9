/**
 * Mount paths (as `ls` prints them) to the engine's package names, the names imports and the
 * asset registry use:
 *   Proj/Content/Maps/Level.umap                     -> /Game/Maps/Level
 *   Engine/Content/Fonts/Roboto.uasset               -> /Engine/Fonts/Roboto
 *   Proj/Plugins/GameFeatures/Foo/Content/A.uasset   -> /Foo/A
 *   Engine/Plugins/Runtime/Bar/Content/B.uasset      -> /Bar/B
 * A plugin mounts its Content folder under the plugin's name (formats.md). That name is the
 * .uplugin file's, which is usually but not always its folder's: Engine/Plugins/Interchange/Runtime
 * holds Interchange.uplugin. When the install has the .uplugin files, pluginMounts() reads the
 * names from them (as CUE4Parse's virtual paths do); otherwise the folder name stands in.
 */

/** Plugin folder (lowercased, the folder holding Content) -> mount name. */
export type PluginMounts = ReadonlyMap<string, string>;

/**
 * The package name of a file below a Content folder, without the file extension; undefined for
 * files outside any Content folder (Config, AssetRegistry.bin, ...).
 */
export function mountPathToPackageName(path: string, plugins?: PluginMounts): string | undefined {
  const parts = path.replace(/^\/+/, '').split('/');
  const content = parts.findIndex((p) => p.toLowerCase() === 'content');
  if (content < 1 || content === parts.length - 1) return undefined;
  const root = mountRootName(parts, content, plugins);
  const rest = parts.slice(content + 1);
  rest[rest.length - 1] = stripExtension(rest[rest.length - 1]!);
  return `/${root}/${rest.join('/')}`;
}

/** The mount names of the plugins whose .uplugin files are among `paths`. */
export function pluginMounts(paths: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of paths) {
    if (!p.toLowerCase().endsWith('.uplugin')) continue;
    const slash = p.lastIndexOf('/');
    if (slash < 0) continue;
    out.set(p.slice(0, slash).replace(/^\/+/, '').toLowerCase(), stripExtension(p.slice(slash + 1)));
  }
  return out;
}

/** Game, Engine or the plugin's name, for the Content folder at parts[content]. */
function mountRootName(parts: readonly string[], content: number, plugins?: PluginMounts): string {
  if (parts.slice(0, content - 1).some((p) => p.toLowerCase() === 'plugins')) {
    return plugins?.get(parts.slice(0, content).join('/').toLowerCase()) ?? parts[content - 1]!;
  }
  if (content === 1 && parts[0]!.toLowerCase() === 'engine') return 'Engine';
  return 'Game';
}

/** Drops the last extension: "Level.umap" -> "Level"; names without one stay as they are. */
function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
