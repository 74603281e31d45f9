/**
 * FByteBulkData as cooked packages store it, in every form the engine has written:
 *
 * - a header of flags, element count, size on disk and offset (offsets 64-bit since
 *   VER_UE4_BULKDATA_AT_LARGE_OFFSETS, sizes 64-bit with BULKDATA_Size64Bit, a duplicate header
 *   after BULKDATA_DuplicateNonOptionalPayload), the payload following inline unless
 *   BULKDATA_PayloadAtEndOfFile says it is elsewhere;
 * - UE5.2+: a 32-bit index into the package's bulk data map (Zen packages: FBulkDataMapEntry) or
 *   data resource map (classic packages: FObjectDataResource), which holds the same facts;
 * - where the payload is: inline in the export, at the end of the package (classic), in the
 *   .ubulk (BULKDATA_PayloadInSeperateFile), the .m.ubulk (also BULKDATA_MemoryMappedPayload) or
 *   the optional .uptnl (BULKDATA_OptionalPayload); in IoStore those are the package's BulkData,
 *   MemoryMappedBulkData and OptionalBulkData chunks;
 * - zlib-compressed (BULKDATA_SerializeCompressedZLIB): FArchive::SerializeCompressed blocks.
 */
import { getCodec } from '../../../codecs/registry.js';
import { DecodeError, FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { PayloadFile } from './payload.js';

/** EBulkDataFlags members a reader acts on. */
export const BulkDataFlags = {
  PayloadAtEndOfFile: 1 << 0,
  SerializeCompressedZLIB: 1 << 1,
  CompressedLZO: 1 << 4,
  Unused: 1 << 5,
  ForceInlinePayload: 1 << 6,
  PayloadInSeperateFile: 1 << 8,
  SerializeCompressedBitWindow: 1 << 9,
  OptionalPayload: 1 << 11,
  MemoryMappedPayload: 1 << 12,
  Size64Bit: 1 << 13,
  DuplicateNonOptionalPayload: 1 << 14,
  BadDataVersion: 1 << 15,
  NoOffsetFixUp: 1 << 16,
} as const;

/** Where a payload is. "none": the bulk data holds nothing (Unused, or size 0). */
export type BulkLocation = 'inline' | 'end of file' | '.ubulk' | '.m.ubulk' | '.uptnl' | 'none';

export interface BulkDataRef {
  flags: number;
  /** Bytes once decompressed. */
  elementCount: number;
  /** Bytes stored. */
  sizeOnDisk: number;
  /** Inline: where the payload starts in the export's reader; elsewhere: the offset as stored (fixed up). */
  offset: number;
  /** The offset as stored, before the package's BulkDataStartOffset was added. */
  storedOffset: number;
  location: BulkLocation;
  /** FBulkDataCookedIndex (UE5.5+): 0 is the default; others name "<stem>.<NNN>.ubulk". */
  cookedIndex: number;
  /** Where the header was, for messages (absolute offset in the export's file). */
  headerAt: number;
}

/** One entry of a UE5.2+ bulk data map or data resource map, in the shape both reduce to. */
export interface BulkMapEntry {
  serialOffset: number;
  serialSize: number;
  /** Bytes once decompressed (the data resource map's RawSize; the Zen map stores only SerialSize). */
  rawSize: number;
  flags: number;
  cookedIndex: number;
}

export interface BulkHeaderContext {
  /** UE5.2+: the map FByteBulkData indexes; empty or absent before. */
  map?: readonly BulkMapEntry[];
  /** VER_UE4_BULKDATA_AT_LARGE_OFFSETS (UE4.0+ packages all have it). */
  largeOffsets: boolean;
  /** The package summary's BulkDataStartOffset (0 for Zen packages). */
  bulkDataStartOffset: number;
}

/** Bulk data bigger than this is corrupt data, not a texture (4 GiB of one mip). */
const MAX_BULK_BYTES = 2 ** 32;

export function bulkLocation(flags: number, sizeOnDisk: number): BulkLocation {
  if (sizeOnDisk === 0 || (flags & BulkDataFlags.Unused) !== 0) return 'none';
  if ((flags & BulkDataFlags.OptionalPayload) !== 0) return '.uptnl';
  if ((flags & BulkDataFlags.PayloadInSeperateFile) !== 0) {
    return (flags & BulkDataFlags.MemoryMappedPayload) !== 0 ? '.m.ubulk' : '.ubulk';
  }
  if ((flags & BulkDataFlags.ForceInlinePayload) !== 0) return 'inline';
  return (flags & BulkDataFlags.PayloadAtEndOfFile) !== 0 ? 'end of file' : 'inline';
}

/** Reads one FByteBulkData header and steps over an inline payload. */
export function readBulkData(r: BinaryReader, ctx: BulkHeaderContext): BulkDataRef {
  const headerAt = r.absolutePos;
  const map = ctx.map;
  if (map && map.length > 0) {
    const at = r.pos;
    const index = r.i32();
    const e = map[index];
    if (e === undefined) throw r.error(`bulk data index ${index} is outside the bulk data map (${map.length} entries)`, at);
    return finish(r, {
      flags: e.flags, elementCount: e.rawSize, sizeOnDisk: e.serialSize, offset: e.serialOffset, storedOffset: e.serialOffset,
      location: bulkLocation(e.flags, e.serialSize), cookedIndex: e.cookedIndex, headerAt,
    });
  }
  let flags = r.u32();
  const wide = (flags & BulkDataFlags.Size64Bit) !== 0;
  const elementCount = wide ? r.i64n('bulk data element count') : r.i32();
  const sizeOnDisk = wide ? r.i64n('bulk data size on disk') : r.u32();
  const storedOffset = ctx.largeOffsets ? r.i64n('bulk data offset') : r.i32();
  if (elementCount < 0 || elementCount > MAX_BULK_BYTES) throw r.error(`bulk data element count ${elementCount} is not a size`, headerAt);
  if (sizeOnDisk > MAX_BULK_BYTES) throw r.error(`bulk data size on disk ${sizeOnDisk} is not a size`, headerAt);
  const offset = (flags & BulkDataFlags.NoOffsetFixUp) !== 0 ? storedOffset : storedOffset + ctx.bulkDataStartOffset;
  if ((flags & BulkDataFlags.BadDataVersion) !== 0) {
    r.skip(2);
    flags &= ~BulkDataFlags.BadDataVersion;
  }
  if ((flags & BulkDataFlags.DuplicateNonOptionalPayload) !== 0) {
    // The duplicate's flags, size and offset: where the engine keeps a non-optional copy.
    r.skip(4 + (wide ? 8 : 4) + (ctx.largeOffsets ? 8 : 4));
  }
  return finish(r, {
    flags, elementCount, sizeOnDisk, offset, storedOffset, location: bulkLocation(flags, sizeOnDisk), cookedIndex: 0, headerAt,
  });
}

function finish(r: BinaryReader, ref: BulkDataRef): BulkDataRef {
  if (ref.location === 'inline') {
    if (ref.sizeOnDisk > r.remaining) {
      throw r.error(`the inline bulk data is ${ref.sizeOnDisk} bytes but only ${r.remaining} are left`, r.pos);
    }
    ref.offset = r.pos;
    r.skip(ref.sizeOnDisk);
  }
  return ref;
}

/** The payload files of a package, by location; undefined when the install lacks it. */
export interface BulkFiles {
  /** The export's own data (inline payloads; offsets are the export reader's). */
  inline: PayloadFile;
  /** Where end-of-file payloads are: the .uexp of a cooked split package, or the .uasset. */
  endOfFile?: { file: PayloadFile; base: number };
  separate(location: '.ubulk' | '.m.ubulk' | '.uptnl', cookedIndex: number): PayloadFile | undefined;
}

/** A payload that cannot be had: the file is not in the install. Only readMip meets it. */
export class MissingPayloadError extends FormatError {}

/**
 * Reads a payload's stored bytes and decompresses them when needed. `what` names the structure
 * for messages ("mip 3").
 */
export async function readBulkPayload(ref: BulkDataRef, files: BulkFiles, what: string, signal?: AbortSignal): Promise<Uint8Array> {
  if (ref.location === 'none') return new Uint8Array(0);
  let file: PayloadFile;
  let offset = ref.offset;
  if (ref.location === 'inline') {
    file = files.inline;
  } else if (ref.location === 'end of file') {
    if (!files.endOfFile) throw new MissingPayloadError(files.inline.name, what, ref.headerAt, 'the payload is at the end of the package, whose file is not there');
    file = files.endOfFile.file;
    offset -= files.endOfFile.base;
  } else {
    const found = files.separate(ref.location, ref.cookedIndex);
    if (!found) {
      const ext = ref.cookedIndex !== 0 ? `.${String(ref.cookedIndex).padStart(3, '0')}${ref.location}` : ref.location;
      throw new MissingPayloadError(files.inline.name, what, ref.headerAt, `the package's ${ext} that holds the ${ref.sizeOnDisk} bytes is not in the install`);
    }
    file = found;
    // Offsets before UE4.26 carry the package's BulkDataStartOffset; a file holding only this payload starts it at 0.
    if (file.size === ref.sizeOnDisk) offset = 0;
    else if (offset + ref.sizeOnDisk > file.size && ref.storedOffset + ref.sizeOnDisk <= file.size) offset = ref.storedOffset;
  }
  if (offset < 0 || offset + ref.sizeOnDisk > file.size) {
    throw new FormatError(file.name, what, Math.max(0, offset), `the payload's ${ref.sizeOnDisk} bytes at ${offset} run past the file's ${file.size} bytes`);
  }
  const stored = await file.read(offset, ref.sizeOnDisk, signal);
  if (stored.length !== ref.sizeOnDisk) {
    throw new FormatError(file.name, what, offset, `only ${stored.length} of the payload's ${ref.sizeOnDisk} bytes could be read`);
  }
  if ((ref.flags & BulkDataFlags.SerializeCompressedZLIB) !== 0) return decompressArchive(stored, ref.elementCount, file.name, what, offset);
  if ((ref.flags & BulkDataFlags.CompressedLZO) !== 0) throw new FormatError(file.name, what, offset, 'LZO-compressed bulk data is not supported');
  return stored;
}

const PACKAGE_FILE_TAG = 0x9e2a83c1n;
/** Blocks per compressed payload beyond which the table is corrupt. */
const MAX_BLOCKS = 1 << 20;

/**
 * FArchive::SerializeCompressed: a tag and block size, a summary (compressed, uncompressed
 * totals), one (compressed, uncompressed) pair per block, then the zlib blocks.
 */
export function decompressArchive(data: Uint8Array, expected: number, file: string, what: string, base: number): Uint8Array {
  const r = new BinaryReader(data, file, base).struct(`${what} compressed bulk data`);
  const tag = r.i64();
  if (BigInt.asUintN(32, tag) !== PACKAGE_FILE_TAG) throw r.error(`compressed data tag is 0x${BigInt.asUintN(64, tag).toString(16)}, not 0x9e2a83c1`, 0);
  if (tag >> 32n !== 0n) throw r.error('this compressed-archive variant (v2 header) is not supported', 0);
  const blockSize = r.i64n('block size');
  r.i64n('compressed size');
  const total = r.i64n('uncompressed size');
  if (total !== expected) throw r.error(`compressed data holds ${total} bytes, the bulk data says ${expected}`, 24);
  if (blockSize <= 0) throw r.error(`block size ${blockSize}`, 8);
  const blocks = Math.ceil(total / blockSize);
  if (blocks > MAX_BLOCKS) throw r.error(`${blocks} blocks`, 8);
  r.checkCount(blocks, 16, 'compressed blocks');
  const sizes: [number, number][] = [];
  for (let i = 0; i < blocks; i++) sizes.push([r.i64n('block compressed size'), r.i64n('block uncompressed size')]);
  const out = new Uint8Array(total);
  let at = 0;
  const zlib = getCodec('Zlib');
  for (const [c, u] of sizes) {
    if (at + u > total) throw r.error(`blocks hold more than the ${total} bytes declared`);
    const start = r.pos;
    const input = r.bytesView(c);
    try {
      out.set(zlib.decode(input, u), at);
    } catch (e) {
      if (e instanceof DecodeError) throw r.error(e.message, start);
      throw e;
    }
    at += u;
  }
  if (at !== total) throw r.error(`blocks hold ${at} of the ${total} bytes declared`);
  return out;
}
