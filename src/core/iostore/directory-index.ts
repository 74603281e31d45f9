/**
 * The IoStore directory index (FIoDirectoryIndexResource): the mount point, a tree of directories
 * and file chains linked by index, and a string table of names. Turned into a flat list of
 * {path, entryIndex}. Links are checked and every directory and file may be visited once, so a
 * hostile index (cycles, self-links, indices out of range) fails fast instead of hanging.
 */
import { BinaryReader } from '../io/binary-reader.js';

const NONE = 0xffffffff;
const DIR_ENTRY_SIZE = 16;
const FILE_ENTRY_SIZE = 12;
/** Mount points are short paths; anything longer means a wrong key or garbage. */
const MAX_MOUNT_POINT_CHARS = 1024;
/** Longest path taken (as pak/paths.ts): a deep chain of long names would grow each path by the whole chain. */
const MAX_PATH_CHARS = 4096;
/**
 * Characters of all directory paths together, per byte of index (plus a floor): real indexes
 * need well under 1, while a hostile one could repeat a 4096-character path for every 16 bytes.
 */
const PATH_CHARS_PER_INDEX_BYTE = 4;
const PATH_CHARS_FLOOR = 16 << 20;

export interface DirectoryIndexFile {
  /** As `pakscope ls` prints it: mount point + relative path, leading "../" removed, no leading "/". */
  path: string;
  /** TOC entry index (the file entry's UserData). */
  entryIndex: number;
}

export interface DirectoryIndex {
  /** As stored ("../../../" for most games). */
  mountPoint: string;
  files: DirectoryIndexFile[];
  directoryCount: number;
}

/**
 * True when `bytes` start with a plausible mount-point FString: a sane length, a NUL terminator and
 * printable characters. This is how a decryption key is judged right.
 */
export function looksLikeMountPoint(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0, true);
  if (n === 0) return true;
  const units = Math.abs(n);
  if (units > MAX_MOUNT_POINT_CHARS || n === -2147483648) return false;
  const wide = n < 0;
  const size = wide ? units * 2 : units;
  if (4 + size > bytes.length) return false;
  const last = wide ? bytes[4 + size - 2]! | (bytes[4 + size - 1]! << 8) : bytes[4 + size - 1]!;
  if (last !== 0) return false;
  for (let i = 0; i < units - 1; i++) {
    const c = wide ? bytes[4 + i * 2]! | (bytes[5 + i * 2]! << 8) : bytes[4 + i]!;
    if (c < 0x20 || c === 0x7f || (!wide && c > 0x7e)) return false;
  }
  return true;
}

/** "../../../Game/" + "Content/A.uasset" -> "Game/Content/A.uasset". */
export function joinMountPath(mountPoint: string, relative: string): string {
  let p = (mountPoint + relative).replace(/\\/g, '/');
  for (;;) {
    if (p.startsWith('../')) p = p.slice(3);
    else if (p.startsWith('./')) p = p.slice(2);
    else if (p.startsWith('/')) p = p.slice(1);
    else break;
  }
  return p.replace(/\/{2,}/g, '/');
}

/**
 * @param bytes the decrypted index
 * @param base its offset in the .utoc, for error messages
 * @param entryCount TOC entries; file UserData must index one
 */
export function parseDirectoryIndex(bytes: Uint8Array, fileName: string, entryCount: number, base = 0): DirectoryIndex {
  const r = new BinaryReader(bytes, fileName, base).struct('directory index');
  const mountPoint = r.fstring(MAX_MOUNT_POINT_CHARS);

  r.struct('directory index: directory entries');
  const dirCount = r.count(DIR_ENTRY_SIZE, 'directory count');
  const dirsAt = r.pos;
  const dirs = readU32s(r, dirCount * 4);

  r.struct('directory index: file entries');
  const fileCount = r.count(FILE_ENTRY_SIZE, 'file count');
  const filesAt = r.pos;
  const files = readU32s(r, fileCount * 3);

  r.struct('directory index: string table');
  const stringCount = r.count(4, 'string count');
  const strings: string[] = new Array(stringCount);
  for (let i = 0; i < stringCount; i++) strings[i] = readName(r);

  const name = (index: number, what: string, at: number): string => {
    const s = strings[index];
    if (s === undefined) throw r.error(`${what} name index ${index} is outside the ${stringCount} strings`, at);
    return s;
  };

  const out: DirectoryIndexFile[] = [];
  if (dirCount === 0) return { mountPoint, files: out, directoryCount: 0 };

  const dirSeen = new Uint8Array(dirCount);
  const fileSeen = new Uint8Array(fileCount);
  const pathCharsBudget = PATH_CHARS_FLOOR + bytes.length * PATH_CHARS_PER_INDEX_BYTE;
  let pathChars = 0;
  // Depth-first: [directory, its parent's path]; the root's name is NONE.
  const stack: [number, string][] = [[0, '']];
  dirSeen[0] = 1;
  r.struct('directory index: directory entries');
  while (stack.length > 0) {
    const [d, parentPath] = stack.pop()!;
    const at = dirsAt + d * DIR_ENTRY_SIZE;
    const nameIndex = dirs[d * 4]!;
    const firstChild = dirs[d * 4 + 1]!;
    const nextSibling = dirs[d * 4 + 2]!;
    const firstFile = dirs[d * 4 + 3]!;
    const dirName = nameIndex === NONE ? '' : name(nameIndex, `directory ${d}`, at);
    const path = dirName ? `${parentPath}${dirName}/` : parentPath;
    // Normalized once per directory; a file's path is this prefix plus its name.
    const prefix = joinMountPath(mountPoint, path);
    pathChars += prefix.length;
    if (prefix.length > MAX_PATH_CHARS) {
      throw r.error(`directory ${d}'s path is ${prefix.length} characters long (limit ${MAX_PATH_CHARS})`, at);
    }
    if (pathChars > pathCharsBudget) {
      throw r.error(`directory paths add up to over ${pathCharsBudget} characters for a ${bytes.length}-byte index`, at);
    }

    for (const [link, what, off, childPath] of [
      [nextSibling, 'next sibling', 8, parentPath],
      [firstChild, 'first child', 4, path],
    ] as const) {
      if (link === NONE) continue;
      if (link >= dirCount) throw r.error(`directory ${d}'s ${what} ${link} is outside the ${dirCount} directories`, at + off);
      if (dirSeen[link]) throw r.error(`directory ${d}'s ${what} ${link} was already visited (cyclic index)`, at + off);
      dirSeen[link] = 1;
      stack.push([link, childPath]);
    }

    let f = firstFile;
    let linkAt = at + 12;
    while (f !== NONE) {
      if (f >= fileCount) throw r.error(`file link ${f} is outside the ${fileCount} files`, linkAt);
      if (fileSeen[f]) throw r.error(`file ${f} was already visited (cyclic index)`, linkAt);
      fileSeen[f] = 1;
      const fat = filesAt + f * FILE_ENTRY_SIZE;
      const fileName = name(files[f * 3]!, `file ${f}`, fat);
      const entryIndex = files[f * 3 + 2]!;
      if (entryIndex >= entryCount) {
        throw r.error(`file ${f} (${fileName}) points at TOC entry ${entryIndex} but the TOC has ${entryCount}`, fat + 8);
      }
      if (prefix.length + fileName.length > MAX_PATH_CHARS) {
        throw r.error(`file ${f}'s path is ${prefix.length + fileName.length} characters long (limit ${MAX_PATH_CHARS})`, fat);
      }
      out.push({ path: prefix ? prefix + fileName : joinMountPath('', fileName), entryIndex });
      f = files[f * 3 + 1]!;
      linkAt = fat + 4;
    }
  }
  return { mountPoint, files: out, directoryCount: dirCount };
}

const utf16 = new TextDecoder('utf-16le');

/** FString, with a fast path for the short ASCII names that fill string tables. */
function readName(r: BinaryReader): string {
  const at = r.pos;
  const n = r.i32();
  if (n > 0 && n <= 256) {
    const b = r.bytesView(n);
    return String.fromCharCode.apply(null, b.subarray(0, n - 1) as unknown as number[]);
  }
  if (n < 0 && n > -4096) {
    const b = r.bytesView(-n * 2);
    return utf16.decode(b.subarray(0, b.length - 2));
  }
  r.seek(at);
  return r.fstring();
}

function readU32s(r: BinaryReader, count: number): Uint32Array {
  const view = r.bytesView(count * 4);
  const out = new Uint32Array(count);
  const dv = new DataView(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < count; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}
