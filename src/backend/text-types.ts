/**
 * Which files open in the text view. Judged by extension: game files carry no MIME type, and
 * sniffing bytes would mean reading every selected file first.
 */
const TEXT_EXTENSIONS = new Set([
  'ini', 'cfg', 'conf', 'json', 'jsonc', 'txt', 'csv', 'tsv', 'xml', 'html', 'htm', 'uproject', 'uplugin',
  'upluginmanifest', 'log', 'md', 'yaml', 'yml', 'lua', 'py', 'js', 'ts', 'usf', 'ush', 'hlsl', 'glsl',
  'po', 'pot', 'toml', 'bat', 'sh', 'cs', 'h', 'hpp', 'c', 'cpp', 'vdf', 'manifest', 'properties',
]);

export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isTextPath(path: string): boolean {
  return TEXT_EXTENSIONS.has(extensionOf(path));
}
