/**
 * The v10+ directory indexes, which give each entry its name: the full directory index (and the
 * pruned one inside the path-hash index) as directory -> (file name -> entry location), and from
 * v13 optionally the flat sorted form ("PFDQ") with front-coded directory names.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { MAX_PATH_CHARS } from './paths.js';
import { PakVersion } from './version.js';

/** Entry location of a name whose entry is gone (FPakEntryLocation::Invalid). */
export const INVALID_LOCATION = -0x80000000;
const FLAT_DIRECTORY_INDEX_MAGIC = 0x50464451; // 'PFDQ' as a u32
const utf8Decoder = new TextDecoder('utf-8');

/**
 * Called per file: directory as stored ("/" for the root, else "Dir/Sub/"), file name, entry
 * location (>= 0 offset into the encoded entries, < 0 non-encoded entry -location-1) and the byte
 * offset of the name in the reader given, for error messages.
 */
export type DirectoryVisitor = (dir: string, name: string, location: number, at: number) => void;

/**
 * An FString of the directory index: UTF-8 from v12 (Utf8PakDirectory), else Latin-1 or UTF-16
 * by the sign of its length. The terminating NUL is dropped.
 */
export function readIndexString(r: BinaryReader, utf8: boolean): string {
  if (!utf8) return r.fstring(MAX_PATH_CHARS);
  const at = r.pos;
  const n = r.i32();
  if (n < 0) {
    r.pos = at;
    return r.fstring(MAX_PATH_CHARS);
  }
  if (n > MAX_PATH_CHARS * 4) throw r.error(`string length ${n} is implausible`, at);
  const bytes = r.bytesView(n);
  return utf8Decoder.decode(n > 0 && bytes[n - 1] === 0 ? bytes.subarray(0, n - 1) : bytes);
}

/** The classic form: i32 directory count, then per directory its name and a map of file names. */
export function readDirectoryIndex(r: BinaryReader, utf8: boolean, visit: DirectoryVisitor): void {
  const dirCount = r.count(8, 'directory count'); // name length + file count
  for (let d = 0; d < dirCount; d++) {
    const dir = readIndexString(r, utf8);
    const fileCount = r.count(8, 'file count'); // name length + location
    for (let f = 0; f < fileCount; f++) {
      const at = r.pos;
      const name = readIndexString(r, utf8);
      visit(dir, name, r.i32(), at);
    }
  }
}

/** Either form, by the version and the flat form's magic. Returns true for the flat form. */
export function readAnyDirectoryIndex(r: BinaryReader, version: PakVersion, visit: DirectoryVisitor): boolean {
  const utf8 = version >= PakVersion.Utf8PakDirectory;
  if (version >= PakVersion.SortedDirectoryIndex && r.remaining >= 4 && r.u32() === FLAT_DIRECTORY_INDEX_MAGIC) {
    readFlatDirectoryIndex(r, visit);
    return true;
  }
  r.seek(0);
  readDirectoryIndex(r, utf8, visit);
  return false;
}

/**
 * FPakFlatDirectoryIndex (after its magic): counts, the sorted path-hash table (skipped: names are
 * all we need), directory anchors, then per directory its first file, per file its name offset
 * and location, and the two name blobs (UTF-8; directory names share prefixes with the previous one).
 */
function readFlatDirectoryIndex(r: BinaryReader, visit: DirectoryVisitor): void {
  r.struct('flat directory index');
  const headerAt = r.pos;
  const dirCount = r.i32(), fileCount = r.i32(), restartInterval = r.i32();
  const dirBlobBytes = r.i32(), fileBlobBytes = r.i32(), pathHashCount = r.i32();
  r.skip(4); // pads the hash table to 8 bytes
  if (dirCount < 0 || fileCount < 0 || restartInterval <= 0 || dirBlobBytes < 0 || fileBlobBytes < 0 || pathHashCount < 0) {
    throw r.error(`bad header (directories ${dirCount}, files ${fileCount}, restart interval ${restartInterval}, blobs ${dirBlobBytes}/${fileBlobBytes}, hashes ${pathHashCount})`, headerAt);
  }
  const anchorCount = Math.ceil(dirCount / restartInterval);
  const tableBytes = pathHashCount * 12 + (anchorCount + 1) * 4 + (dirCount + 1) * 4 + (fileCount + 1) * 4 + fileCount * 4;
  if (tableBytes + dirBlobBytes + fileBlobBytes > r.remaining) {
    throw r.error(`tables need ${tableBytes + dirBlobBytes + fileBlobBytes} bytes but only ${r.remaining} remain`, headerAt);
  }
  r.skip(pathHashCount * 12 + (anchorCount + 1) * 4);
  const dirFileStart = readInts(r, dirCount + 1);
  const nameOffsets = readInts(r, fileCount + 1);
  const locationsAt = r.pos;
  const locations = readInts(r, fileCount);
  const dirBlob = r.sub(dirBlobBytes, 'flat directory index names');
  const fileBlobAt = r.pos;
  const fileBlob = r.bytesView(fileBlobBytes);
  const utf8 = utf8Decoder;

  let dirName = new Uint8Array(0);
  for (let d = 0; d < dirCount; d++) {
    const at = dirBlob.pos;
    const shared = dirBlob.i32(), suffix = dirBlob.i32();
    if (shared < 0 || shared > dirName.length || suffix < 0 || shared + suffix > MAX_PATH_CHARS * 4) {
      throw dirBlob.error(`directory ${d} shares ${shared} bytes with a ${dirName.length}-byte name and adds ${suffix}`, at);
    }
    const next = new Uint8Array(shared + suffix);
    next.set(dirName.subarray(0, shared));
    next.set(dirBlob.bytesView(suffix), shared);
    dirName = next;
    const dir = utf8.decode(dirName);
    const first = dirFileStart[d]!, end = dirFileStart[d + 1]!;
    if (first < 0 || end < first || end > fileCount) {
      throw r.error(`directory ${d} lists files ${first}..${end} of ${fileCount}`, locationsAt);
    }
    for (let f = first; f < end; f++) {
      const s = nameOffsets[f]!, e = nameOffsets[f + 1]!;
      if (s < 0 || e < s || e > fileBlobBytes) throw r.error(`file name ${f} spans ${s}..${e} of ${fileBlobBytes} bytes`, fileBlobAt);
      visit(dir, utf8.decode(fileBlob.subarray(s, e)), locations[f]!, fileBlobAt + s);
    }
  }
}

function readInts(r: BinaryReader, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = r.i32();
  return out;
}
