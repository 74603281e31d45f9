/**
 * The IoStore directory index (FIoDirectoryIndexResource): the mount point, a tree of directories
 * and file chains linked by index, and a string table of names. Kept as the format stores it, in
 * typed arrays in visit order (a directory before its children, each directory's files in chain
 * order), with names decoded and paths joined only when asked for: an install of 250,000 files
 * opens without a string per file. Links are checked and every directory and file may be visited
 * once, so a hostile index (cycles, self-links, indices out of range) fails fast instead of hanging.
 */
import { MAX_MOUNT_POINT_CHARS } from '../crypto/index-key.js';
import { BinaryReader } from '../io/binary-reader.js';

const NONE = 0xffffffff;
const DIR_ENTRY_SIZE = 16;
const FILE_ENTRY_SIZE = 12;
/** Longest path taken (as pak/paths.ts): a deep chain of long names would grow each path by the whole chain. */
const MAX_PATH_CHARS = 4096;
/**
 * Characters of all directory paths together, per byte of index (plus a floor): real indexes
 * need well under 1, while a hostile one could repeat a 4096-character path for every 16 bytes.
 */
const PATH_CHARS_PER_INDEX_BYTE = 4;
const PATH_CHARS_FLOOR = 16 << 20;
/** Names up to this many ANSI chars (with the NUL) or UTF-16 units are read on the fast path. */
const SHORT_ANSI_NAME = 256;
const SHORT_WIDE_NAME = 4096;

export interface DirectoryIndexFile {
  /** As `pakscope ls` prints it: mount point + relative path, leading "../" removed, no leading "/". */
  path: string;
  /** TOC entry index (the file entry's UserData). */
  entryIndex: number;
}

const latin1 = new TextDecoder('latin1');
const utf16 = new TextDecoder('utf-16le');

/**
 * The index's string table, read in place: names are decoded on first use and kept.
 * `starts[i]` is where string i's characters begin in `bytes`; `lengths[i]` is its stored length
 * field (> 0: ANSI chars with the NUL, < 0: UTF-16 units with the NUL, 0: empty).
 */
export class DirectoryStrings {
  /**
   * The table's bytes as one latin1 string, made once many names are asked for (listing every
   * file): then each name is a slice of it. The first few (directory names) are decoded alone.
   */
  private table: string | null = null;
  private readonly buffer: Buffer;
  /** Names decoded so far: a few in a map, then (with the table) in an array of them all. */
  private few: Map<number, string> | null = new Map();
  private decoded: (string | undefined)[] | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly starts: Int32Array,
    readonly lengths: Int32Array,
    private readonly tableStart: number,
    private readonly tableEnd: number,
  ) {
    this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get count(): number { return this.starts.length; }

  /** True when string i is ANSI and read as latin1 byte by byte (its bytes are its UTF-16 units). */
  isShortAnsi(i: number): boolean {
    const n = this.lengths[i]!;
    return n > 0 && n <= SHORT_ANSI_NAME;
  }

  name(i: number): string {
    let s = this.decoded ? this.decoded[i] : this.few!.get(i);
    if (s === undefined) {
      s = this.decode(i);
      if (this.decoded) this.decoded[i] = s;
      else this.few!.set(i, s);
    }
    return s;
  }

  /** Length of string i in UTF-16 units, without decoding it when it is ANSI. */
  nameLength(i: number): number {
    const n = this.lengths[i]!;
    return n >= 0 ? Math.max(n - 1, 0) : this.name(i).length;
  }

  /** From here on names are slices of the whole table, kept in an array. */
  private useTable(): void {
    this.table = this.buffer.toString('latin1', this.tableStart, this.tableEnd);
    const decoded = new Array<string | undefined>(this.starts.length);
    for (const [i, s] of this.few!) decoded[i] = s;
    this.decoded = decoded;
    this.few = null;
  }

  private decode(i: number): string {
    const n = this.lengths[i]!;
    const start = this.starts[i]!;
    if (n > 0 && n <= SHORT_ANSI_NAME) {
      // Past an eighth of the table, one latin1 decode of it all and a slice per name is cheaper.
      if (this.few && this.few.size < this.starts.length >> 3) return this.buffer.toString('latin1', start, start + n - 1);
      if (this.few) this.useTable();
      const at = start - this.tableStart;
      return this.table!.slice(at, at + n - 1);
    }
    if (n === 0) return '';
    // As BinaryReader.fstring reads longer names.
    if (n > 0) return latin1.decode(this.bytes.subarray(start, start + n - 1));
    return utf16.decode(this.bytes.subarray(start, start + (-n - 1) * 2));
  }
}

/** A parsed directory index. Only the directories and files reachable from the root are kept. */
export class DirectoryIndex {
  /** Made by parseDirectoryIndex. */
  constructor(
    /** As stored ("../../../" for most games). */
    readonly mountPoint: string,
    /** Directory entries stored. */
    readonly directoryCount: number,
    readonly strings: DirectoryStrings,
    /** Per visited directory: the visit number of its parent (-1 for the root); parents come first. */
    readonly dirParents: Int32Array,
    /** Per visited directory: the string index of its name, -1 when it has none (the root). */
    readonly dirNames: Int32Array,
    /** Per visited directory: the normalized path prefix of its files ("Game/Content/"). */
    private readonly dirPrefixes: readonly string[],
    /** Per file, in listing order (the order of `files`): the string index of its name. */
    readonly fileNames: Uint32Array,
    /** Per file: its TOC entry index. */
    readonly fileEntries: Uint32Array,
    /** Per file: the visit number of its directory. */
    readonly fileDirs: Uint32Array,
    /** Per visited directory, and one more: its first file; its files are dirFirstFile[v] up to dirFirstFile[v + 1]. */
    readonly dirFirstFile: Uint32Array,
    /** The mount point as joinMountPath normalizes it. */
    readonly basePrefix: string,
    /**
     * True when basePrefix is '' or ends in "/" and every directory's prefix is its parent's plus
     * its name and "/" (the root's parent's is basePrefix), each name exactly one path level (no
     * "/" or "\" in it, not empty, no "." or ".." that normalizing would drop). A file's path is
     * then its directory's prefix + its name as stored (normalized only under an empty prefix),
     * so a tree can be built from the names alone, without a path per file, as long as the file
     * names hold no "/" (nor "\" under an empty prefix); that is for the caller to check.
     */
    readonly structured: boolean,
  ) {}

  get fileCount(): number { return this.fileNames.length; }

  /** The full path of file k (listing order), as `pakscope ls` prints it. */
  filePath(k: number): string {
    const prefix = this.dirPrefixes[this.fileDirs[k]!]!;
    const name = this.strings.name(this.fileNames[k]!);
    return prefix ? prefix + name : joinMountPath('', name);
  }

  /** Every file with its full path, in listing order; made on each call (containers keep their own list). */
  get files(): DirectoryIndexFile[] {
    const out: DirectoryIndexFile[] = [];
    for (let k = 0; k < this.fileNames.length; k++) out.push({ path: this.filePath(k), entryIndex: this.fileEntries[k]! });
    return out;
  }
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
  const basePrefix = joinMountPath(mountPoint, '');

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
  const tableStart = r.pos;
  const starts = new Int32Array(stringCount);
  const lengths = new Int32Array(stringCount);
  readStringTable(r, starts, lengths);
  const strings = new DirectoryStrings(bytes, starts, lengths, tableStart, r.pos);

  const dirParents = new Int32Array(dirCount);
  const dirNames = new Int32Array(dirCount);
  const dirPrefixes: string[] = [];
  const fileNames = new Uint32Array(fileCount);
  const fileEntries = new Uint32Array(fileCount);
  const fileDirs = new Uint32Array(fileCount);
  const dirFirstFile = new Uint32Array(dirCount + 1);
  let visited = 0;
  let filesVisited = 0;
  // Paths are basePrefix + plain names while every name is one level and the base ends in "/".
  let structured = basePrefix === '' || basePrefix.endsWith('/');
  const done = (): DirectoryIndex => new DirectoryIndex(
    mountPoint, dirCount, strings, dirParents.subarray(0, visited), dirNames.subarray(0, visited), dirPrefixes,
    fileNames.subarray(0, filesVisited), fileEntries.subarray(0, filesVisited), fileDirs.subarray(0, filesVisited),
    dirFirstFile.subarray(0, visited + 1), basePrefix, structured,
  );
  if (dirCount === 0) return done();

  // The messages are made only when thrown: these run once per directory and file.
  const checkName = (index: number, kind: string, number: number, at: number): void => {
    if (index >= stringCount) throw r.error(`${kind} ${number} name index ${index} is outside the ${stringCount} strings`, at);
  };
  const dirSeen = new Uint8Array(dirCount);
  const fileSeen = new Uint8Array(fileCount);
  const pathCharsBudget = PATH_CHARS_FLOOR + bytes.length * PATH_CHARS_PER_INDEX_BYTE;
  let pathChars = 0;
  // Per visited directory: its path below the mount point, and whether its prefix is basePrefix plus plain names.
  const relPaths: string[] = [];
  const plain: boolean[] = [];
  // Depth-first: pairs of (directory, its parent's visit number); the root's name is NONE.
  const stack: number[] = [0, -1];
  const visitLink = (d: number, link: number, what: string, at: number, parent: number): void => {
    if (link === NONE) return;
    if (link >= dirCount) throw r.error(`directory ${d}'s ${what} ${link} is outside the ${dirCount} directories`, at);
    if (dirSeen[link]) throw r.error(`directory ${d}'s ${what} ${link} was already visited (cyclic index)`, at);
    dirSeen[link] = 1;
    stack.push(link, parent);
  };
  dirSeen[0] = 1;
  r.struct('directory index: directory entries');
  while (stack.length > 0) {
    const parent = stack.pop()!;
    const d = stack.pop()!;
    const v = visited++;
    const at = dirsAt + d * DIR_ENTRY_SIZE;
    const nameIndex = dirs[d * 4]!;
    const firstChild = dirs[d * 4 + 1]!;
    const nextSibling = dirs[d * 4 + 2]!;
    const firstFile = dirs[d * 4 + 3]!;
    let dirName = '';
    if (nameIndex !== NONE) {
      checkName(nameIndex, 'directory', d, at);
      dirName = strings.name(nameIndex);
    }
    const parentPath = parent < 0 ? '' : relPaths[parent]!;
    const parentPrefix = parent < 0 ? basePrefix : dirPrefixes[parent]!;
    let isPlain = parent < 0 ? structured : plain[parent]!;
    const path = dirName ? `${parentPath}${dirName}/` : parentPath;
    // Normalized once per directory; a file's path is this prefix plus its name. A plain name
    // appended to a plain prefix needs no normalizing.
    let prefix = parentPrefix;
    if (dirName) {
      if (isPlain && appendsPlainly(parentPrefix, dirName)) prefix = `${parentPrefix}${dirName}/`;
      else {
        prefix = joinMountPath(mountPoint, path);
        isPlain = false;
      }
    }
    pathChars += prefix.length;
    if (prefix.length > MAX_PATH_CHARS) {
      throw r.error(`directory ${d}'s path is ${prefix.length} characters long (limit ${MAX_PATH_CHARS})`, at);
    }
    if (pathChars > pathCharsBudget) {
      throw r.error(`directory paths add up to over ${pathCharsBudget} characters for a ${bytes.length}-byte index`, at);
    }
    dirParents[v] = parent;
    dirNames[v] = dirName ? nameIndex : -1;
    dirFirstFile[v] = filesVisited;
    dirPrefixes.push(prefix);
    relPaths.push(path);
    plain.push(isPlain);
    if (!isPlain) structured = false;

    // The sibling shares this directory's parent; the child's parent is this directory.
    visitLink(d, nextSibling, 'next sibling', at + 8, parent);
    visitLink(d, firstChild, 'first child', at + 4, v);

    // The file chain. Offsets for messages are worked out only when one is thrown.
    const prefixLength = prefix.length;
    let f = firstFile;
    let previous = -1;
    while (f !== NONE) {
      const linkAt = previous < 0 ? at + 12 : filesAt + previous * FILE_ENTRY_SIZE + 4;
      if (f >= fileCount) throw r.error(`file link ${f} is outside the ${fileCount} files`, linkAt);
      if (fileSeen[f]) throw r.error(`file ${f} was already visited (cyclic index)`, linkAt);
      fileSeen[f] = 1;
      const fileNameIndex = files[f * 3]!;
      if (fileNameIndex >= stringCount) checkName(fileNameIndex, 'file', f, filesAt + f * FILE_ENTRY_SIZE);
      const entryIndex = files[f * 3 + 2]!;
      if (entryIndex >= entryCount) {
        throw r.error(`file ${f} (${strings.name(fileNameIndex)}) points at TOC entry ${entryIndex} but the TOC has ${entryCount}`,
          filesAt + f * FILE_ENTRY_SIZE + 8);
      }
      const stored = lengths[fileNameIndex]!;
      const length = prefixLength + (stored > 0 ? stored - 1 : stored === 0 ? 0 : strings.nameLength(fileNameIndex));
      if (length > MAX_PATH_CHARS) {
        throw r.error(`file ${f}'s path is ${length} characters long (limit ${MAX_PATH_CHARS})`, filesAt + f * FILE_ENTRY_SIZE);
      }
      fileNames[filesVisited] = fileNameIndex;
      fileEntries[filesVisited] = entryIndex;
      fileDirs[filesVisited] = v;
      filesVisited++;
      previous = f;
      f = files[f * 3 + 1]!;
    }
    dirFirstFile[v + 1] = filesVisited;
  }
  return done();
}

/**
 * True when `prefix + name + "/"` is what joinMountPath makes of the path one level longer, given
 * that `prefix` is what it made of the shorter one and is '' or ends in "/".
 */
function appendsPlainly(prefix: string, name: string): boolean {
  if (name.includes('/') || name.includes('\\')) return false;
  // Under an empty prefix, a leading "./" or "../" is dropped.
  return prefix !== '' || (name !== '.' && name !== '..');
}

/**
 * Fills starts/lengths for every FString of the table and leaves the reader after it. The usual
 * short names are checked here in a tight loop; anything else goes through the reader, which
 * checks it as it always does (and fails with its errors).
 */
function readStringTable(r: BinaryReader, starts: Int32Array, lengths: Int32Array): void {
  const bytes = r.bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length;
  let p = r.pos;
  for (let i = 0; i < starts.length; i++) {
    if (p + 4 <= end) {
      const n = dv.getInt32(p, true);
      if (n > 0 && n <= SHORT_ANSI_NAME && p + 4 + n <= end) {
        starts[i] = p + 4;
        lengths[i] = n;
        p += 4 + n;
        continue;
      }
      if (n < 0 && n > -SHORT_WIDE_NAME && p + 4 - n * 2 <= end) {
        starts[i] = p + 4;
        lengths[i] = n;
        p += 4 - n * 2;
        continue;
      }
    }
    r.seek(p);
    const n = r.i32();
    if (n > 0 && n <= SHORT_ANSI_NAME) r.skip(n);
    else if (n < 0 && n > -SHORT_WIDE_NAME) r.skip(-n * 2);
    else {
      r.seek(p);
      r.fstring();
    }
    starts[i] = p + 4;
    lengths[i] = n;
    p = r.pos;
  }
  r.seek(p);
}

/** True on little-endian hosts, where the index's u32 arrays can be copied as they are. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function readU32s(r: BinaryReader, count: number): Uint32Array {
  const view = r.bytesView(count * 4);
  // Uint8Array's slice copies; a Buffer's would be a view of the whole file.
  if (LITTLE_ENDIAN) return new Uint32Array(Uint8Array.prototype.slice.call(view).buffer);
  const out = new Uint32Array(count);
  const dv = new DataView(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < count; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}
