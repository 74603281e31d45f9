/**
 * UE1/2 text buffers (UTextBuffer): the UnrealScript source a compiled .u keeps in each class's
 * ScriptText, and any other TextBuffer export. The object's properties come first (usually only
 * "None"), then Pos and Top (int32: the editor's caret and scroll line) and the text as an
 * FString (compact-index length with the NUL; negative for UTF-16).
 */
import { readFile } from 'node:fs/promises';
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';
import { ue12ExportProperties } from '../../properties/ue12.js';
import { parseUe12Package, type Ue12Package } from '../../ue12/package.js';
import type { AssetSource } from '../registry.js';

/** Export classes holding text. */
export const TEXT_BUFFER_CLASSES = ['TextBuffer'] as const;

/** The longest text read: ScriptText of the biggest stock classes is well under 1 MiB. */
const MAX_TEXT_CHARS = 64 * 1024 * 1024;

export interface TextBuffer {
  /** The export's name: "ScriptText" for a class's source. */
  name: string;
  /** The object it belongs to (the class for ScriptText), or null at the top of the package. */
  outer: string | null;
  /** A file name for it: "EnergySword.uc" for a class's ScriptText, else "<outer>.<name>.txt". */
  fileName: string;
  /** "unrealscript" for a class's source, "plaintext" otherwise. */
  language: 'unrealscript' | 'plaintext';
  pos: number;
  top: number;
  text: string;
}

/** The text of export `index` (0-based) of a UE1/2 package; `bytes` is the whole file. Throws FormatError. */
export function readTextBuffer(pkg: Ue12Package, bytes: Uint8Array, index: number): TextBuffer {
  const e = pkg.exports[index];
  if (!e) throw new RangeError(`${pkg.fileName}: no export ${index} (the package has ${pkg.exports.length})`);
  const props = ue12ExportProperties(pkg, bytes, index);
  const end = Math.min(bytes.length, e.serialOffset + e.serialSize);
  const r = new BinaryReader(bytes.subarray(e.serialOffset, end), pkg.fileName, e.serialOffset).struct(`text buffer "${e.objectName}"`);
  if (props.errorData) throw FormatError.within(null, props.errorData, 'the property stream stops there, so the text buffer cannot be read');
  r.seek(props.propertyStart + props.propertyBytes);
  const pos = r.i32();
  const top = r.i32();
  const at = r.pos;
  const n = r.compactIndex();
  let text = '';
  if (n > 0) {
    if (n > MAX_TEXT_CHARS) throw r.error(`text of ${n} characters is implausible`, at);
    r.need(n);
    text = r.latin1(n - 1);
    r.skip(1);
  } else if (n < 0) {
    if (-n > MAX_TEXT_CHARS) throw r.error(`text of ${-n} UTF-16 units is implausible`, at);
    r.need(-n * 2);
    text = r.utf16(-n - 1);
    r.skip(2);
  }
  const outer = e.outerIndex > 0 ? pkg.exports[e.outerIndex - 1]?.objectName ?? null : null;
  const script = e.objectName === 'ScriptText' && outer !== null;
  return {
    name: e.objectName, outer, pos, top, text,
    fileName: script ? `${outer}.uc` : `${outer !== null ? `${outer}.` : ''}${e.objectName}.txt`,
    language: script ? 'unrealscript' : 'plaintext',
  };
}

/** Export `index` of a package of an install or a package file, read as text. */
export async function readSourceTextBuffer(source: AssetSource, index: number): Promise<TextBuffer> {
  let bytes: Uint8Array, path: string;
  if ('file' in source) {
    bytes = new Uint8Array(await readFile(source.file));
    path = source.file;
  } else {
    const loc = source.packages.locate(source.ref);
    bytes = await loc.archive.read(loc.ref);
    path = loc.path;
  }
  return readTextBuffer(parseUe12Package(bytes, path), bytes, index);
}
