/**
 * Editor textures: the source art an uncooked package keeps (FTextureSource), as the editor
 * imported it. The Source struct property gives its size, slices, mips, format (TSF_BGRA8, TSF_G8,
 * TSF_RGBA16, TSF_RGBA16F, TSF_G16) and whether it is PNG-compressed; the bytes follow the
 * UTexture's property stream (UObject's bHasGuid and FGuid, FStripDataFlags):
 * - UE4: an FByteBulkData (inline or at the end of the package, maybe zlib-compressed);
 * - UE5: an FEditorBulkData header (flags, id, payload hash, payload size, and in 5.0 the file
 *   offset) whose payload is an FCompressedBuffer (stored, Oodle or LZ4 blocks) in the package,
 *   at that offset, or, from 5.1, in the package trailer: found there as the compressed buffer
 *   whose raw size is the payload size.
 * PNG sources are decoded here (png-decode.ts); every layer and slice of raw sources is read.
 */
import { getCodec, whenCodecsReady } from '../../codecs/registry.js';
import { FormatError } from '../../errors.js';
import { BinaryReader } from '../../io/binary-reader.js';
import { uassetProperties } from '../../properties/package.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { parseUAsset } from '../../uasset/parse.js';
import { readBulkData, readBulkPayload } from './read/bulk-data.js';
import { memoryPayload } from './read/payload.js';
import { decodePng, isPng } from './png-decode.js';
import type { Texture, TextureMip } from './types.js';

/** Source formats -> the pixel format of the bytes readMip gives and their bytes per pixel. */
const SOURCE_FORMATS: Record<string, { pixelFormat: string; bpp: number }> = {
  TSF_G8: { pixelFormat: 'PF_G8', bpp: 1 },
  TSF_BGRA8: { pixelFormat: 'PF_B8G8R8A8', bpp: 4 },
  TSF_RGBA16: { pixelFormat: 'PF_R16G16B16A16_UNORM', bpp: 8 },
  TSF_RGBA16F: { pixelFormat: 'PF_FloatRGBA', bpp: 8 },
  TSF_G16: { pixelFormat: 'PF_G16', bpp: 2 },
};
const COMPRESSED_BUFFER_MAGIC = 0xb7756362;
const COMPRESSED_METHODS: Record<number, string> = { 3: 'Oodle', 4: 'LZ4' };

/** Whether an export's properties hold an FTextureSource with pixels (an uncooked texture). */
export function hasTextureSource(properties: readonly PropertyEntry[]): boolean {
  const source = properties.find((p) => p.name === 'Source')?.value;
  return Array.isArray(source) && field(source as PropertyEntry[], 'SizeX') !== undefined;
}

/** Reads the source art of texture export `exportIndex` (default: the first with one) of an uncooked package's bytes. */
export async function readEditorTexture(bytes: Uint8Array, path: string, exportIndex?: number): Promise<Texture> {
  const pkg = parseUAsset(bytes, path);
  const props = uassetProperties(pkg, bytes);
  const index = exportIndex ?? props.exports.findIndex((e) => hasTextureSource(e.properties));
  const p = props.exports[index];
  const exp = pkg.exports[index];
  if (!p || !exp || !hasTextureSource(p.properties)) throw new FormatError(path, 'export table', 0, 'no texture with source art (FTextureSource) in this package');
  const what = `${p.class} "${p.name}" source art`;
  const source = p.properties.find((e) => e.name === 'Source')!.value as PropertyEntry[];
  const width = Number(field(source, 'SizeX') ?? 0), height = Number(field(source, 'SizeY') ?? 0);
  const slices = Math.max(1, Number(field(source, 'NumSlices') ?? 1)) * Math.max(1, Number(field(source, 'NumLayers') ?? 1));
  const mipCount = Math.max(1, Number(field(source, 'NumMips') ?? 1));
  const formatName = String(field(source, 'Format') ?? '').replace(/^.*::/, '');
  const png = field(source, 'CompressionFormat') !== undefined ? String(field(source, 'CompressionFormat')).endsWith('TSCF_PNG') : field(source, 'bPNGCompressed') === true;
  const jpeg = String(field(source, 'CompressionFormat') ?? '').endsWith('TSCF_JPEG');
  const format = SOURCE_FORMATS[formatName];
  if (!format) throw new FormatError(path, what, exp.serialOffset, `source format ${formatName || '(none)'} is not read (TSF_BGRA8, TSF_G8, TSF_RGBA16, TSF_RGBA16F and TSF_G16 are)`);
  if (jpeg) throw new FormatError(path, what, exp.serialOffset, 'JPEG-compressed source art is not read');
  if (width < 1 || height < 1 || width > 65536 || height > 65536) throw new FormatError(path, what, exp.serialOffset, `source size ${width}x${height}`);

  // The native data: UObject's guid, the strip flags, then the bulk data.
  const r = new BinaryReader(bytes, path).struct(what);
  r.seek(exp.serialOffset + p.propertyStart + p.propertyBytes);
  if (r.i32() !== 0) r.skip(16);
  r.skip(2);
  const payload = pkg.summary.fileVersionUE5 !== null && pkg.summary.fileVersionUE5 > 0
    ? await editorBulkData(r, bytes, path, what)
    : await readBulkPayload(readBulkData(r, { largeOffsets: true, bulkDataStartOffset: pkg.bulkDataStartOffset }), {
      inline: memoryPayload(path, bytes), endOfFile: { file: memoryPayload(path, bytes), base: 0 }, separate: () => undefined,
    }, what);

  const mips: TextureMip[] = Array.from({ length: png ? 1 : mipCount }, (_, m) => {
    const w = Math.max(1, width >> m), h = Math.max(1, height >> m);
    return { width: w, height: h, depth: 1, bytes: w * h * format.bpp * slices, location: 'source' };
  });
  let pixels: Uint8Array | undefined;
  const notes = [`the editor's source art (${formatName}${png ? ', PNG-compressed' : ''}), not cooked mips`];
  return {
    class: p.class, name: p.name, pixelFormat: format.pixelFormat, width, height, depth: 1, slices, cube: false, virtual: false,
    srgb: field(p.properties, 'SRGB') !== false, mips, notes,
    ...(typeof field(p.properties, 'CompressionSettings') === 'string' ? { compressionSettings: String(field(p.properties, 'CompressionSettings')).replace(/^.*::/, '') } : {}),
    ...(typeof field(p.properties, 'LODGroup') === 'string' ? { lodGroup: String(field(p.properties, 'LODGroup')).replace(/^.*::/, '') } : {}),
    async readMip(m) {
      const mip = mips[m];
      if (!mip) throw new FormatError(path, what, exp.serialOffset, `no mip ${m} (the source has ${mips.length})`);
      if (png) {
        pixels ??= fromPng(payload, path, what, width, height, formatName);
        return pixels.slice();
      }
      let start = 0;
      for (let k = 0; k < m; k++) start += mips[k]!.bytes;
      if (start + mip.bytes > payload.length) throw new FormatError(path, what, start, `mip ${m} needs ${mip.bytes} bytes at ${start}, the source holds ${payload.length}`);
      return payload.slice(start, start + mip.bytes);
    },
  };
}

function field(list: readonly PropertyEntry[], name: string): PropertyValue | undefined {
  return list.find((e) => e.name === name)?.value;
}

/** A PNG source as the bytes of its format (B, G, R, A; gray; 16-bit little-endian). */
function fromPng(data: Uint8Array, path: string, what: string, width: number, height: number, format: string): Uint8Array {
  if (!isPng(data)) throw new FormatError(path, what, 0, 'the source art is said to be PNG but is not');
  const img = decodePng(data, `${path} (${what})`);
  if (img.width !== width || img.height !== height) throw new FormatError(path, what, 0, `the PNG is ${img.width}x${img.height}, the source says ${width}x${height}`);
  const n = width * height;
  if (format === 'TSF_BGRA8') {
    const out = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) out.set([img.rgba[i * 4 + 2]!, img.rgba[i * 4 + 1]!, img.rgba[i * 4]!, img.rgba[i * 4 + 3]!], i * 4);
    return out;
  }
  if (format === 'TSF_G8') return Uint8Array.from({ length: n }, (_, i) => img.rgba[i * 4]!);
  const wide = img.rgba16 ?? Uint16Array.from(img.rgba, (v) => v * 257);
  if (format === 'TSF_G16') {
    const out = new Uint8Array(n * 2);
    for (let i = 0; i < n; i++) new DataView(out.buffer).setUint16(i * 2, wide[i * 4]!, true);
    return out;
  }
  if (format === 'TSF_RGBA16') {
    const out = new Uint8Array(n * 8);
    const v = new DataView(out.buffer);
    for (let i = 0; i < n * 4; i++) v.setUint16(i * 2, wide[i]!, true);
    return out;
  }
  throw new FormatError(path, what, 0, `a PNG source of format ${format} is not read`);
}

/** UE5's FEditorBulkData: the payload, out of its FCompressedBuffer. */
async function editorBulkData(r: BinaryReader, bytes: Uint8Array, path: string, what: string): Promise<Uint8Array> {
  const at = r.pos;
  r.u32(); // flags
  r.skip(16 + 20); // BulkDataId, PayloadContentId
  const size = r.i64n('payload size');
  // 5.0 stores the file offset next; from 5.1 the payload is in the package trailer.
  const stored = r.remaining >= 8 ? r.i64() : -1n;
  const offset = stored >= 0n && stored < BigInt(bytes.length) ? Number(stored) : -1;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isBuffer = (o: number): boolean => o >= 0 && o + 64 <= bytes.length && v.getUint32(o) === COMPRESSED_BUFFER_MAGIC && Number(v.getBigUint64(o + 16)) === size;
  let where = isBuffer(offset) ? offset : -1;
  for (let o = bytes.length - 64; where < 0 && o >= 0; o--) if (bytes[o] === 0xb7 && isBuffer(o)) where = o;
  if (where < 0) throw new FormatError(path, what, at, `its payload of ${size} bytes is not in the package (virtualized, or in a trailer PakScope does not find)`);
  return decompressBuffer(bytes, where, path, what);
}

/** FCompressedBuffer: a 64-byte big-endian header (magic, CRC, method, compressor, level, block size exponent, block count, raw and compressed sizes, hash), the block sizes unless stored, the blocks. */
async function decompressBuffer(bytes: Uint8Array, at: number, path: string, what: string): Promise<Uint8Array> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const method = bytes[at + 8]!;
  const exponent = bytes[at + 11]!;
  const blocks = v.getUint32(at + 12);
  const rawSize = Number(v.getBigUint64(at + 16));
  const fail = (detail: string): FormatError => new FormatError(path, `${what} compressed buffer`, at, detail);
  if (method === 0) {
    if (at + 64 + rawSize > bytes.length) throw fail(`${rawSize} stored bytes run past the file`);
    return bytes.slice(at + 64, at + 64 + rawSize);
  }
  const codecName = COMPRESSED_METHODS[method];
  if (!codecName) throw fail(`compression method ${method} is not read`);
  if (blocks < 1 || blocks > 1 << 16 || exponent > 31) throw fail(`${blocks} blocks of 2^${exponent} bytes`);
  await whenCodecsReady();
  const codec = getCodec(codecName);
  const out = new Uint8Array(rawSize);
  let src = at + 64 + 4 * blocks;
  for (let b = 0; b < blocks; b++) {
    const stored = v.getUint32(at + 64 + 4 * b);
    const raw = Math.min(2 ** exponent, rawSize - b * 2 ** exponent);
    if (raw <= 0 || src + stored > bytes.length) throw fail(`block ${b} runs past the file`);
    const block = bytes.subarray(src, src + stored);
    out.set(stored === raw ? block : codec.decode(block, raw), b * 2 ** exponent);
    src += stored;
  }
  return out;
}
