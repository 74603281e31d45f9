/**
 * The font kind in the converter registry: FontFace (its font file as .ttf/.otf/.ttc/.woff, in
 * the format its bytes are), Font (its typefaces' FontFace files, followed through the install;
 * an offline-cached font's texture pages as .png), loose .ufont files, and either described as
 * JSON. The app's font view shows them.
 */
import { FormatError } from '../../errors.js';
import { registerAssetKind, type AssetKind, type AssetSource, type ConvertedFile, type ConvertOptions } from '../registry.js';
import { readTexture } from '../texture/kind.js';
import { convertTexture } from '../texture/convert.js';
import { FONT_CLASSES, FONT_FACE_CLASSES, plainFontFile, readFontAsset, type FontAsset, type FontFaceAsset, type FontFile } from './read.js';

export const FONT_FILE_FORMATS = ['ttf', 'otf', 'ttc', 'woff', 'woff2'] as const;
export const FONT_CONVERSIONS = [...FONT_FILE_FORMATS, 'png', 'json'] as const;

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);
/** What the JSON says of a font file (not its bytes). */
const fileFacts = (f: FontFile): object => ({ format: f.format, bytes: f.bytes.length, from: f.from, family: f.names.family, style: f.names.style, fullName: f.names.full, tables: f.names.tables });
const describe = (a: FontFaceAsset | FontAsset): object => (a.kind === 'face' ? { ...a, file: a.file ? fileFacts(a.file) : null } : a);
/** A file name part from an entry name ("Bold Italic" -> "Bold_Italic"). */
const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_') || 'Face';

/** The file of one font: in its own format; another font format asked for is a RangeError (fonts are not transcoded). */
function fontFileOut(file: FontFile, name: string, extension: string | undefined, suffix = ''): ConvertedFile {
  if (extension !== undefined && extension !== file.format) throw new RangeError(`${name} is a .${file.format} font (PakScope does not transcode fonts): it converts to .${file.format} or .json, not .${extension}`);
  return { suffix, extension: file.format, data: file.bytes };
}

/** The object and package of a reference: "/Game/F/Roboto.Roboto" -> ["/Game/F/Roboto", "Roboto"]. */
function splitObject(ref: string): [string, string] {
  const dot = ref.lastIndexOf('.');
  return dot > ref.lastIndexOf('/') ? [ref.slice(0, dot), ref.slice(dot + 1).replace(/^.*:/, '')] : [ref, ref.slice(ref.lastIndexOf('/') + 1)];
}

/** The FontFace files a Font's typefaces name, each read from its package in the install. */
async function typefaceFiles(source: AssetSource, font: FontAsset, extension: string | undefined, opts: ConvertOptions): Promise<ConvertedFile[]> {
  const out: ConvertedFile[] = [];
  const seen = new Set<string>();
  for (const entry of font.typefaces) {
    if (entry.fontFace === null || seen.has(entry.fontFace)) continue;
    seen.add(entry.fontFace);
    opts.signal?.throwIfAborted();
    const [pkg, object] = splitObject(entry.fontFace);
    if ('file' in source) {
      out.push({ suffix: `_${safe(entry.name)}`, extension: 'json', data: json(entry), note: `${entry.name}'s face ${entry.fontFace} is in another package: open the install to follow it` });
      continue;
    }
    const packages = source.packages;
    if (!packages.index.byPackageName(pkg)) {
      out.push({ suffix: `_${safe(entry.name)}`, extension: 'json', data: json(entry), note: `${entry.name}'s face ${entry.fontFace} is not in the install` });
      continue;
    }
    const { model } = await packages.open(pkg, opts.engine !== undefined ? { engine: opts.engine } : {});
    const index = model.exports.findIndex((e) => e.name === object && FONT_FACE_CLASSES.includes(e.class));
    if (index < 0) throw new FormatError(pkg, 'export map', 0, `no FontFace "${object}" (named by ${font.name}'s typeface entry ${entry.name})`);
    const face = await readFontAsset({ packages, ref: pkg }, index, opts);
    if (face.kind !== 'face' || !face.file) {
      out.push({ suffix: `_${safe(entry.name)}`, extension: 'json', data: json(describe(face)), note: face.notes.join('; ') || `${entry.fontFace} holds no font file` });
      continue;
    }
    // Another format than asked is written as it is, not refused: a font may mix faces.
    const f = fontFileOut(face.file, face.name, undefined, `_${safe(entry.name)}`);
    if (extension !== undefined && extension !== f.extension) f.note = `${face.name} is a .${f.extension} font: written as it is`;
    out.push(f);
  }
  return out;
}

/** An offline-cached font's texture pages as PNG, through the texture kind. */
async function texturePages(source: AssetSource, font: FontAsset, opts: ConvertOptions): Promise<ConvertedFile[]> {
  if ('file' in source) throw new RangeError(`${font.name}'s texture pages are other packages: open the install to convert them`);
  const out: ConvertedFile[] = [];
  for (const [i, ref] of font.textures.entries()) {
    const [pkg, object] = splitObject(ref);
    if (!source.packages.index.byPackageName(pkg)) throw new FormatError(pkg, 'package', 0, `${font.name}'s texture page ${ref} is not in the install`);
    const { model } = await source.packages.open(pkg, opts.engine !== undefined ? { engine: opts.engine } : {});
    const index = model.exports.findIndex((e) => e.name === object);
    const pages = await convertTexture(await readTexture({ packages: source.packages, ref: pkg }, index < 0 ? undefined : index, opts), 'png', opts);
    for (const p of pages) out.push({ ...p, suffix: font.textures.length > 1 ? `_page${i}${p.suffix}` : p.suffix });
  }
  return out;
}

export const fontKind: AssetKind = {
  kind: 'font',
  view: 'font',
  classes: [...FONT_FACE_CLASSES, ...FONT_CLASSES],
  converts: FONT_CONVERSIONS,
  fileExtensions: ['ufont'],
  async convert(source, exportIndex, extension, opts) {
    const asset = await readFontAsset(source, exportIndex, opts);
    if (extension === 'json') return [{ suffix: '', extension: 'json', data: json(describe(asset)) }];
    if (asset.kind === 'face') {
      if (!asset.file) throw new FormatError('file' in source ? source.file : source.ref, `FontFace "${asset.name}"`, 0, asset.notes.at(-1) ?? 'no font data');
      if (extension === 'png') throw new RangeError(`${asset.name} is a font file: it converts to .${asset.file.format} or .json, not .png`);
      return [fontFileOut(asset.file, asset.name, extension)];
    }
    const wantsPages = extension === 'png' || (extension === undefined && !asset.typefaces.some((t) => t.fontFace !== null) && asset.textures.length > 0);
    if (wantsPages) return texturePages(source, asset, opts);
    const faces = await typefaceFiles(source, asset, extension, opts);
    // A font whose typefaces name no face (an offline font, faces by file name) is described.
    return faces.length > 0 ? faces : [{ suffix: '', extension: 'json', data: json(describe(asset)), note: `${asset.name} names no FontFace asset: written as its description` }];
  },
  async convertFile(file, extension) {
    const f = plainFontFile(file);
    if (extension === 'json') return [{ suffix: '', extension: 'json', data: json(fileFacts(f)) }];
    return [fontFileOut(f, file.path, extension)];
  },
};

registerAssetKind(fontKind);
