/**
 * What a font file is, from its first bytes, and its names: the file a FontFace holds (or a
 * cooked .ufont) is the font as it was imported, a TrueType or OpenType (sfnt) file, a collection
 * or a WOFF. The name table gives the family and style the font view shows (OpenType spec,
 * "name" table: records of platform, encoding, language and name ID pointing into a string pool).
 */
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';

export type FontFileFormat = 'ttf' | 'otf' | 'ttc' | 'woff' | 'woff2';

/** The file's format by its tag: 0x00010000 or 'true' (TrueType outlines), 'OTTO' (CFF), 'ttcf', 'wOFF', 'wOF2'; undefined for anything else. */
export function fontFileFormat(bytes: Uint8Array): FontFileFormat | undefined {
  if (bytes.length < 4) return undefined;
  const tag = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (tag === '\0\u0001\0\0' || tag === 'true') return 'ttf';
  if (tag === 'OTTO') return 'otf';
  if (tag === 'ttcf') return 'ttc';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'wOF2') return 'woff2';
  return undefined;
}

export interface FontNames {
  /** Typographic family (name ID 16) else family (1); "" when the font names none. */
  family: string;
  /** Typographic subfamily (17) else subfamily (2): "Regular", "Bold Italic". */
  style: string;
  /** Full name (4). */
  full: string;
  /** The tables the directory lists, by tag. */
  tables: string[];
}

const utf16be = new TextDecoder('utf-16be');
const latin1 = new TextDecoder('latin1');

/**
 * The names of a TrueType/OpenType file (of a collection: its first font). WOFF files are
 * compressed: their names are not read (empty). `base`: where the bytes start in `file` (a
 * font inside a package), for the offsets errors give. Throws FormatError for a table directory or name
 * table that does not fit the bytes.
 */
export function fontNames(bytes: Uint8Array, file: string, base = 0): FontNames {
  const format = fontFileFormat(bytes);
  if (format === undefined) throw new FormatError(file, 'font file', base, 'not a TrueType, OpenType, collection or WOFF file (its first 4 bytes are no font tag)');
  if (format === 'woff' || format === 'woff2') return { family: '', style: '', full: '', tables: [] };
  const r = new BinaryReader(bytes, file, base).struct('sfnt table directory');
  let dir = 0;
  if (format === 'ttc') {
    r.struct('collection header').seek(8);
    const fonts = r.u32be();
    if (fonts === 0) throw r.error('the collection holds no font', 8);
    dir = r.u32be();
    r.struct('sfnt table directory').seek(dir);
  }
  r.skip(4);
  const numTables = r.u16be();
  r.skip(6);
  if (numTables * 16 > r.remaining) throw r.error(`${numTables} tables need ${numTables * 16} bytes but only ${r.remaining} remain`, dir + 4);
  const tables: string[] = [];
  let name: { offset: number; length: number; at: number } | undefined;
  for (let i = 0; i < numTables; i++) {
    const at = r.pos;
    const tag = latin1.decode(r.bytesView(4));
    r.skip(4); // checksum
    const offset = r.u32be();
    const length = r.u32be();
    if (offset + length > bytes.length) throw r.error(`table '${tag}' (${offset}+${length}) ends past the file's ${bytes.length} bytes`, at);
    tables.push(tag);
    if (tag === 'name') name = { offset, length, at };
  }
  if (!name) return { family: '', style: '', full: '', tables };
  const n = new BinaryReader(bytes.subarray(name.offset, name.offset + name.length), file, base + name.offset).struct("'name' table");
  n.skip(2);
  const count = n.u16be();
  const stringOffset = n.u16be();
  if (count * 12 > n.remaining) throw n.error(`${count} name records need ${count * 12} bytes but only ${n.remaining} remain`, 2);
  // Per name ID, the best record: Windows Unicode English first, then any Windows, then Mac Roman.
  const best = new Map<number, { rank: number; text: string }>();
  for (let i = 0; i < count; i++) {
    const at = n.pos;
    const platform = n.u16be();
    const encoding = n.u16be();
    const language = n.u16be();
    const id = n.u16be();
    const length = n.u16be();
    const offset = n.u16be();
    if (![1, 2, 4, 16, 17].includes(id)) continue;
    const start = stringOffset + offset;
    if (start + length > n.length) throw n.error(`name record ${i} (${start}+${length}) ends past the table's ${n.length} bytes`, at);
    const raw = n.bytes.subarray(start, start + length);
    let rank: number;
    let text: string;
    if (platform === 3 || platform === 0) {
      rank = platform === 3 && language === 0x409 ? 0 : 1;
      text = utf16be.decode(raw);
    } else if (platform === 1 && encoding === 0) {
      rank = 2;
      text = latin1.decode(raw);
    } else continue;
    const had = best.get(id);
    if (!had || rank < had.rank) best.set(id, { rank, text });
  }
  const text = (id: number): string => best.get(id)?.text ?? '';
  return { family: text(16) || text(1), style: text(17) || text(2), full: text(4), tables };
}
