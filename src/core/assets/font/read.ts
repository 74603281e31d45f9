/**
 * Fonts: a FontFace holds one font file as it was imported (TrueType/OpenType bytes) inline in
 * its export, or, cooked with a streaming or lazy loading policy, in a loose `<package>.ufont`
 * file beside the package; a Font names its faces through its composite font's typefaces
 * (default and sub-typefaces, each entry a FontData naming a FontFace asset), or, cached offline
 * (legacy), is glyph rectangles on texture pages.
 *
 * UFontFace::Serialize after UObject's: a "cooked" bool (FUE5MainStreamObjectVersion
 * AddedCookedBoolFontFaceAssets, every UE5), then bSaveInlineData and, when set, FFontFaceData:
 * the file's bytes (TArray<uint8>) and, from FFortniteMainBranchObjectVersion
 * AddedPreprocessedFontGeometry (5.6), preprocessed glyph outlines, which are not read.
 */
import { FormatError } from '../../errors.js';
import type { InstallPackages } from '../../package/open-package.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { NativeDataReader } from '../../properties/context.js';
import { customVersionAtLeast } from '../../properties/versions.js';
import type { AssetSource, ConvertOptions, PlainFile } from '../registry.js';
import { fontFileFormat, fontNames, type FontFileFormat, type FontNames } from './sfnt.js';
import { sourceProperties } from '../source-properties.js';

export const FONT_FACE_CLASSES: readonly string[] = ['FontFace'];
export const FONT_CLASSES: readonly string[] = ['Font'];

const UE5_MAIN_STREAM = '697DD581E64F41ABAA4A51ECBEB7B628';
const ADDED_COOKED_BOOL_FONT_FACE_ASSETS = 12;

/** A font file: its bytes, format and names. */
export interface FontFile {
  bytes: Uint8Array;
  format: FontFileFormat;
  names: FontNames;
  /** Where the bytes were: in the export, or the loose .ufont file beside the package. */
  from: 'inline' | 'ufont' | 'file';
}

export interface FontFaceAsset {
  kind: 'face';
  class: string;
  name: string;
  /** The file it was imported from, as the editor recorded it ("" when cooked away). */
  sourceFilename: string;
  hinting: string;
  loadingPolicy: string;
  /** Undefined when neither the export nor a .ufont beside it holds the bytes (see notes). */
  file?: FontFile;
  notes: string[];
}

export interface TypefaceEntry {
  /** The typeface the entry belongs to: "Default" or the sub-typeface's name and cultures. */
  typeface: string;
  /** The entry's name ("Regular", "Bold"). */
  name: string;
  /** The FontFace asset it names ("/Game/UI/Fonts/Roboto-Regular.Roboto-Regular"), null when none. */
  fontFace: string | null;
  /** A font file named by path instead (older fonts), "" when none. */
  fontFilename: string;
}

export interface FontAsset {
  kind: 'font';
  class: string;
  name: string;
  /** "Runtime" (a composite font of faces) or "Offline" (glyphs on texture pages). */
  cacheType: string;
  typefaces: TypefaceEntry[];
  /** Offline fonts: the texture pages ("/Game/Fonts/T_Page.T_Page"). */
  textures: string[];
  /** Offline fonts: how many characters have a glyph rectangle on a page. */
  glyphs: number;
  legacyFontName: string;
  legacyFontSize: number;
  notes: string[];
}

interface FontFaceNative { inline: boolean; data?: Uint8Array; dataAt?: number }

const entryValue = (list: readonly PropertyEntry[], name: string): PropertyValue | undefined => list.find((e) => e.name === name)?.value;
const struct = (v: PropertyValue | undefined): PropertyEntry[] => (Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && 'name' in (e as object)) ? (v as PropertyEntry[]) : []);
/** A field of a struct value, whether the reader gave it as entries (tagged) or as an object (a native struct). */
function fieldOf(v: PropertyValue | undefined, name: string): PropertyValue | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  return Array.isArray(v) ? entryValue(struct(v), name) : (v as Record<string, PropertyValue>)[name];
}
const text = (v: PropertyValue | undefined): string => (typeof v === 'string' ? v.replace(/^E[A-Za-z]+::/, '') : '');

/** Reads a FontFace's inline font data after its properties (see the file comment). */
export const fontFaceNativeReader: NativeDataReader = (pr, r, exp) => {
  if (!FONT_FACE_CLASSES.includes(exp.class)) return undefined;
  r.struct(`FontFace "${exp.name}"`);
  if (r.bool32()) r.skip(16); // UObject's GUID
  const v = pr.ctx.versions;
  const cookedBool = v.custom === null ? v.ue5 > 0 : customVersionAtLeast(v, UE5_MAIN_STREAM, ADDED_COOKED_BOOL_FONT_FACE_ASSETS);
  if (cookedBool) r.bool32();
  const inline = r.bool32();
  if (!inline) return { inline } satisfies FontFaceNative;
  r.struct(`FontFace "${exp.name}" FontFaceData`);
  const size = r.count(1, 'font data size');
  const dataAt = r.absolutePos;
  return { inline, data: r.bytesView(size).slice(), dataAt } satisfies FontFaceNative;
};

/** The font file of `bytes`, checked: a font tag and a table directory (and name table) that fit. */
export function fontFile(bytes: Uint8Array, file: string, from: FontFile['from'], at = 0): FontFile {
  const format = fontFileFormat(bytes);
  if (format === undefined) {
    const head = [...bytes.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new FormatError(file, from === 'inline' ? 'FontFaceData' : 'font file', at, `${bytes.length} bytes that are no TrueType, OpenType or WOFF font (they start ${head || 'empty'})`);
  }
  return { bytes, format, names: fontNames(bytes, file, at), from };
}

/** A loose font file (.ufont, .ttf, .otf) as the font kind reads it. */
export const plainFontFile = (file: PlainFile): FontFile => fontFile(file.bytes, file.path, 'file');

interface OpenedFontExport { exp: ExportProperties; path: string; packagePath: string; notes: string[] }

async function openFontExport(source: AssetSource, exportIndex: number, opts: ConvertOptions): Promise<OpenedFontExport> {
  const opened = await sourceProperties(source, opts, { nativeData: fontFaceNativeReader });
  const exports = opened.properties.exports;
  const exp = exports[exportIndex];
  if (!exp) throw new FormatError(opened.path, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
  if (exp.encoding === 'unversioned' && exp.properties.length === 0 && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(opened.path, `export ${exp.index} "${exp.name}"`, 0, "the package is unversioned: the game's mappings (.usmap) are needed to read its font");
  }
  if (exp.errorData && exp.properties.length === 0) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the font cannot be read');
  const notes = [...opened.warnings];
  if (exp.error) notes.push(`${exp.name}: its properties stop early: ${exp.error}`);
  return { exp, path: opened.path, packagePath: opened.properties.package, notes };
}

/** The loose .ufont beside an install's package, if the install has one. */
async function ufontBeside(packages: InstallPackages, ref: string): Promise<{ path: string; bytes: Uint8Array } | undefined> {
  const loc = packages.locate(ref);
  const path = `${loc.path.replace(/\.[^./]*$/, '')}.ufont`;
  const f = packages.install.file(path);
  if (!f) return undefined;
  const p = f.providers[0]!;
  return { path, bytes: await p.archive.read(p.file.ref) };
}

/** Export `exportIndex` of `source` read as a FontFace (with its font file) or a Font. */
export async function readFontAsset(source: AssetSource, exportIndex: number, opts: ConvertOptions = {}): Promise<FontFaceAsset | FontAsset> {
  const opened = await openFontExport(source, exportIndex, opts);
  if (FONT_FACE_CLASSES.includes(opened.exp.class)) return fontFaceOf(opened, source);
  if (FONT_CLASSES.includes(opened.exp.class)) return fontOf(opened);
  throw new FormatError(opened.path, `export ${opened.exp.index} "${opened.exp.name}"`, 0, `a ${opened.exp.class}, not a Font or FontFace`);
}

async function fontFaceOf({ exp, path, notes }: OpenedFontExport, source: AssetSource): Promise<FontFaceAsset> {
  if (exp.nativeErrorData) throw FormatError.within(`FontFace "${exp.name}"`, exp.nativeErrorData);
  const native = exp.native as FontFaceNative | undefined;
  const props = exp.properties;
  const face: FontFaceAsset = {
    kind: 'face', class: exp.class, name: exp.name, sourceFilename: text(entryValue(props, 'SourceFilename')),
    hinting: text(entryValue(props, 'Hinting')) || 'Default', loadingPolicy: text(entryValue(props, 'LoadingPolicy')) || 'LazyLoad', notes,
  };
  if (native?.data) {
    face.file = fontFile(native.data, path, 'inline', native.dataAt);
  } else if (!('file' in source)) {
    const loose = await ufontBeside(source.packages, source.ref);
    if (loose) face.file = fontFile(loose.bytes, loose.path, 'ufont');
    else notes.push(`${exp.name} keeps its font in a .ufont file beside the package, which the install does not have`);
  } else {
    notes.push(`${exp.name} keeps its font in a .ufont file beside the package`);
  }
  return face;
}

/** The FontData of a typeface entry: its FontFace reference or file name, as the property reader gives it. */
function fontDataOf(v: PropertyValue | undefined): { fontFace: string | null; fontFilename: string } {
  if (v === null || typeof v !== 'object') return { fontFace: null, fontFilename: '' };
  if (Array.isArray(v)) {
    const list = struct(v);
    const face = entryValue(list, 'FontFaceAsset') ?? entryValue(list, 'LocalFontFaceAsset');
    return { fontFace: typeof face === 'string' && face !== '' ? face : null, fontFilename: text(entryValue(list, 'FontFilename')) };
  }
  const o = v as Record<string, PropertyValue>;
  const face = o['LocalFontFaceAsset'] ?? o['FontFaceAsset'];
  return { fontFace: typeof face === 'string' && face !== '' ? face : null, fontFilename: typeof o['FontFilename'] === 'string' ? o['FontFilename'] : '' };
}

function typefaceEntries(typeface: PropertyEntry[], label: string): TypefaceEntry[] {
  const fonts = entryValue(typeface, 'Fonts');
  if (!Array.isArray(fonts)) return [];
  return fonts.map((f) => {
    const e = struct(f as PropertyValue);
    return { typeface: label, name: text(entryValue(e, 'Name')), ...fontDataOf(entryValue(e, 'Font')) };
  });
}

/** A Font: its typefaces' entries, or its texture pages. */
function fontOf({ exp, notes }: OpenedFontExport): FontAsset {
  const props = exp.properties;
  const composite = struct(entryValue(props, 'CompositeFont'));
  const typefaces = typefaceEntries(struct(entryValue(composite, 'DefaultTypeface')), 'Default');
  const subs = entryValue(composite, 'SubTypefaces');
  if (Array.isArray(subs)) {
    subs.forEach((s, i) => {
      const sub = struct(s as PropertyValue);
      const cultures = text(entryValue(sub, 'Cultures'));
      const label = text(entryValue(sub, 'EditorName')) || `Sub-typeface ${i + 1}`;
      typefaces.push(...typefaceEntries(struct(entryValue(sub, 'Typeface')), cultures ? `${label} (${cultures})` : label));
    });
  }
  const textures = entryValue(props, 'Textures');
  const characters = entryValue(props, 'Characters');
  const glyphs = Array.isArray(characters)
    ? characters.filter((c) => { const u = fieldOf(c as PropertyValue, 'USize'); return typeof u === 'number' && u > 0; }).length
    : 0;
  const size = entryValue(props, 'LegacyFontSize');
  return {
    kind: 'font', class: exp.class, name: exp.name,
    cacheType: text(entryValue(props, 'FontCacheType')) || (Array.isArray(textures) && textures.length > 0 ? 'Offline' : 'Runtime'),
    typefaces,
    textures: Array.isArray(textures) ? textures.filter((t): t is string => typeof t === 'string' && t !== '') : [],
    glyphs,
    legacyFontName: text(entryValue(props, 'LegacyFontName')),
    legacyFontSize: typeof size === 'number' ? size : 0,
    notes,
  };
}
