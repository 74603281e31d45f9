/** The Monaco language for a text file, by extension (only the languages the bundle includes). */

const LANGUAGES: Record<string, string> = {
  ini: 'ini', cfg: 'ini', conf: 'ini', properties: 'ini', vdf: 'ini', toml: 'ini',
  // JSON reads well with the JavaScript tokenizer, which avoids shipping the JSON language worker.
  json: 'javascript', jsonc: 'javascript', uproject: 'javascript', uplugin: 'javascript', upluginmanifest: 'javascript', js: 'javascript',
  ts: 'typescript',
  xml: 'xml', manifest: 'xml', html: 'html', htm: 'html',
  yaml: 'yaml', yml: 'yaml',
  lua: 'lua',
  md: 'markdown',
  py: 'python',
  bat: 'bat', sh: 'shell',
  uc: 'unrealscript', uci: 'unrealscript', // lib/unrealscript.ts
  usf: 'cpp', ush: 'cpp', hlsl: 'cpp', glsl: 'cpp', h: 'cpp', hpp: 'cpp', c: 'cpp', cpp: 'cpp', cs: 'csharp',
};

export function languageForPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return LANGUAGES[ext] ?? 'plaintext';
}

/** Text as the file stores it: UTF-16 with a byte-order mark (common for UE .ini/.txt), else UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes);
}
