/**
 * Unreal Engine 1/2 textures (.utx, and textures inside .u/.unr/.usx/... packages), as UE Explorer
 * and UModel show them: a Texture export's properties (Format, USize, VSize, Palette), then its
 * native data, the mips: a compact count, and per mip a lazy array (in packages of version 63 and
 * later an int32 file offset just past its bytes first), compact byte count and the bytes, then
 * USize, VSize (int32) and UBits, VBits (bytes). A P8 texture's colors are in its Palette export:
 * a compact count of RGBA colors. P8 mips are expanded through the palette to B8G8R8A8 here, so
 * the decoders, PNG and DDS writers take them as any other texture.
 */
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';
import { ue12Properties } from '../../properties/ue12.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { parseUe12Package, type Ue12Export, type Ue12Package } from '../../ue12/index.js';
import type { Texture, TextureMip } from './types.js';

/** UE1/2 texture classes read here (the procedural ones, FireTexture and the like, draw at run time). */
export const UE12_TEXTURE_CLASSES: readonly string[] = ['Texture'];

/** ETextureFormat of UE1/2 -> the engine's pixel format of the bytes readMip gives. */
const FORMATS: Record<number, { name: string; pixelFormat: string; bytesPerPixel?: number }> = {
  0: { name: 'TEXF_P8', pixelFormat: 'PF_B8G8R8A8' },
  3: { name: 'TEXF_DXT1', pixelFormat: 'PF_DXT1' },
  5: { name: 'TEXF_RGBA8', pixelFormat: 'PF_B8G8R8A8', bytesPerPixel: 4 },
  7: { name: 'TEXF_DXT3', pixelFormat: 'PF_DXT3' },
  8: { name: 'TEXF_DXT5', pixelFormat: 'PF_DXT5' },
  9: { name: 'TEXF_L8', pixelFormat: 'PF_G8', bytesPerPixel: 1 },
  10: { name: 'TEXF_G16', pixelFormat: 'PF_G16', bytesPerPixel: 2 },
};
const FORMAT_NAMES = ['TEXF_P8', 'TEXF_RGBA7', 'TEXF_RGB16', 'TEXF_DXT1', 'TEXF_RGB8', 'TEXF_RGBA8', 'TEXF_NODATA', 'TEXF_DXT3', 'TEXF_DXT5', 'TEXF_L8', 'TEXF_G16', 'TEXF_RRRGGGBBB'];
/** Package version from which lazy arrays start with the file offset past them. */
const LAZY_SKIP_VERSION = 63;
const MAX_MIPS = 16;
const MAX_SIDE = 1 << 15;

interface StoredMip { width: number; height: number; start: number; length: number }

/** Reads Texture export `exportIndex` (default: the first) of a UE1/2 package's bytes. */
export function readUe12Texture(bytes: Uint8Array, path: string, exportIndex?: number): Texture {
  const pkg = parseUe12Package(bytes, path);
  const props = ue12Properties(pkg, bytes);
  const index = exportIndex ?? pkg.exports.findIndex((e) => UE12_TEXTURE_CLASSES.includes(e.className));
  const exp = pkg.exports[index];
  if (!exp || !UE12_TEXTURE_CLASSES.includes(exp.className)) {
    throw new FormatError(path, 'export table', 0, exportIndex === undefined ? 'the package holds no Texture export' : `export ${exportIndex} is no Texture`);
  }
  const p = props.exports[index]!;
  if (p.errorData) throw FormatError.within(null, p.errorData, 'the property stream stops there, so the texture cannot be read');
  const formatValue = property(p.properties, 'Format') ?? 0;
  const format = typeof formatValue === 'number' ? formatValue : FORMAT_NAMES.indexOf(String(formatValue).replace(/^.*::/, ''));
  const f = FORMATS[format];
  const formatName = FORMAT_NAMES[format] ?? `format ${String(formatValue)}`;
  if (!f) throw new FormatError(path, `Texture "${exp.objectName}"`, exp.serialOffset, `${formatName} textures are not read (P8, DXT1/3/5, RGBA8, L8 and G16 are)`);

  const r = new BinaryReader(bytes, path).struct(`Texture "${exp.objectName}" mips`);
  r.seek(exp.serialOffset + p.propertyStart + p.propertyBytes);
  const end = exp.serialOffset + exp.serialSize;
  const count = r.compactIndex();
  if (count < 0 || count > MAX_MIPS) throw r.error(`mip count ${count} is not 0 to ${MAX_MIPS}`);
  const stored: StoredMip[] = [];
  for (let i = 0; i < count; i++) stored.push(readMip(r, pkg, end, i));

  const palette = format === 0 ? readPalette(pkg, bytes, props.exports, String(property(p.properties, 'Palette') ?? ''), path, exp) : undefined;
  const mips: TextureMip[] = stored.map((m) => ({ width: m.width, height: m.height, depth: 1, bytes: palette ? m.width * m.height * 4 : m.length, location: 'inline' }));
  const notes = palette ? [`${formatName}: 8-bit indices into ${palette.name}'s ${palette.colors.length / 4} colors, shown as B8G8R8A8`] : [];
  return {
    class: exp.className, name: exp.objectName, pixelFormat: f.pixelFormat,
    width: stored[0]?.width ?? 0, height: stored[0]?.height ?? 0, depth: 1, slices: 1, cube: false, virtual: false, srgb: true,
    mips, notes,
    async readMip(i) {
      const m = stored[i];
      if (!m) throw new FormatError(path, `Texture "${exp.objectName}"`, exp.serialOffset, `no mip ${i} (the texture has ${stored.length})`);
      const data = bytes.subarray(m.start, m.start + m.length);
      if (!palette) return data.slice();
      if (data.length < m.width * m.height) throw new FormatError(path, `Texture "${exp.objectName}" mip ${i}`, m.start, `${data.length} bytes for ${m.width}x${m.height} palette indices`);
      return expandPalette(data, m.width * m.height, palette.colors);
    },
  };
}

function property(list: PropertyEntry[], name: string): PropertyValue | undefined {
  return list.find((e) => e.name === name)?.value;
}

function readMip(r: BinaryReader, pkg: Ue12Package, end: number, index: number): StoredMip {
  const at = r.pos;
  let skipTo: number | undefined;
  if (pkg.header.fileVersion >= LAZY_SKIP_VERSION) skipTo = r.i32();
  const length = r.compactIndex();
  const start = r.pos;
  if (length < 0 || start + length > end) throw r.error(`mip ${index} holds ${length} bytes, past the export's end at ${end}`, at);
  if (skipTo !== undefined && skipTo !== start + length) throw r.error(`mip ${index}'s data ends at ${start + length}, its lazy array says ${skipTo}`, at);
  r.skip(length);
  const width = r.i32();
  const height = r.i32();
  r.skip(2); // UBits, VBits: log2 of the sizes
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) throw r.error(`mip ${index} is ${width}x${height}`, at);
  return { width, height, start, length };
}

/** The RGBA colors of the texture's Palette export (4 bytes each, as stored: R, G, B, A). */
function readPalette(pkg: Ue12Package, bytes: Uint8Array, props: { propertyStart: number; propertyBytes: number }[], ref: string, path: string, tex: Ue12Export): { name: string; colors: Uint8Array } {
  const i = pkg.exports.findIndex((e) => e.className === 'Palette' && (e.path === ref || ref.endsWith(`.${e.path}`) || e.path.endsWith(`.${ref}`)));
  if (i < 0) throw new FormatError(path, `Texture "${tex.objectName}"`, tex.serialOffset, `its palette ${ref || '(none)'} is not an export of this package`);
  const e = pkg.exports[i]!;
  const r = new BinaryReader(bytes, path).struct(`Palette "${e.objectName}"`);
  r.seek(e.serialOffset + props[i]!.propertyStart + props[i]!.propertyBytes);
  const n = r.compactIndex();
  if (n < 1 || n > 256) throw r.error(`a palette of ${n} colors`);
  if (r.pos + n * 4 > e.serialOffset + e.serialSize) throw r.error(`${n} colors run past the palette's end`);
  return { name: e.path, colors: bytes.slice(r.pos, r.pos + n * 4) };
}

/** Indices to B8G8R8A8 through an RGBA palette (an index past the palette is black). */
function expandPalette(indices: Uint8Array, pixels: number, colors: Uint8Array): Uint8Array {
  const out = new Uint8Array(pixels * 4);
  const count = colors.length / 4;
  for (let i = 0; i < pixels; i++) {
    const c = indices[i]!;
    if (c >= count) {
      out[i * 4 + 3] = 255;
      continue;
    }
    out[i * 4] = colors[c * 4 + 2]!;
    out[i * 4 + 1] = colors[c * 4 + 1]!;
    out[i * 4 + 2] = colors[c * 4]!;
    out[i * 4 + 3] = colors[c * 4 + 3]!;
  }
  return out;
}
