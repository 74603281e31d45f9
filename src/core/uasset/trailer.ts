import type { BinaryReader } from '../io/binary-reader.js';
import { hexBytes } from './summary.js';
import { PACKAGE_FILE_TAG, hex32 } from './versions.js';

/** FPackageTrailer header tag and footer tag. */
const TRAILER_HEADER_TAG = 0xd1c43b2e80a5f697n;
const TRAILER_FOOTER_TAG = 0x29bfca045138de76n;

/** EPackageTrailerVersion */
export const PackageTrailerVersion = { INITIAL: 0, ACCESS_PER_PAYLOAD: 1, PAYLOAD_FLAGS: 2 } as const;

/** EPayloadAccessMode */
const ACCESS_MODES = ['Local', 'Referenced', 'Virtualized'] as const;

/** One payload of the trailer's lookup table (editor bulk data, possibly virtualized). */
export interface TrailerPayload {
  /** FIoHash of the payload, hex. */
  identifier: string;
  /** Local: relative to the end of the trailer header; Referenced: absolute in another file; -1: virtualized. */
  offsetInFile: number;
  /** Absolute offset of a local payload in this file, or null. */
  absoluteOffset: number | null;
  compressedSize: number;
  rawSize: number;
  flags: number | null;
  filterFlags: number | null;
  accessMode: string;
}

/** FPackageTrailer (UE5 PAYLOAD_TOC): the payload table at the end of an uncooked package. */
export interface PackageTrailer {
  offset: number;
  version: number;
  headerLength: number;
  payloadsDataLength: number;
  payloads: TrailerPayload[];
  /** The footer's trailer length (header + payloads + footer). */
  trailerLength: number;
}

export function readPackageTrailer(r: BinaryReader): PackageTrailer {
  const offset = r.pos;
  const tag = r.u64();
  if (tag !== TRAILER_HEADER_TAG) throw r.error(`trailer header tag is 0x${tag.toString(16)}, not 0x${TRAILER_HEADER_TAG.toString(16)}`, offset);
  const version = r.i32();
  if (version < PackageTrailerVersion.INITIAL || version > PackageTrailerVersion.PAYLOAD_FLAGS) throw r.error(`trailer version ${version} is unknown`, offset + 8);
  const headerLength = r.u32();
  const payloadsDataLength = r.u64n('PayloadsDataLength');
  if (offset + headerLength + payloadsDataLength + 20 > r.length) {
    throw r.error(`trailer header (${headerLength}) and payloads (${payloadsDataLength}) run past the end of the file`, offset + 12);
  }
  let legacyAccess: string | null = null;
  if (version < PackageTrailerVersion.ACCESS_PER_PAYLOAD) legacyAccess = ACCESS_MODES[r.u8()] ?? 'Unknown';
  const entrySize = 44 + (version >= PackageTrailerVersion.PAYLOAD_FLAGS ? 4 : 0) + (version >= PackageTrailerVersion.ACCESS_PER_PAYLOAD ? 1 : 0);
  const n = r.count(entrySize, 'trailer payload count');
  const payloads: TrailerPayload[] = [];
  for (let i = 0; i < n; i++) {
    const identifier = hexBytes(r.bytesView(20));
    const offsetInFile = r.i64n('OffsetInFile');
    const compressedSize = r.u64n('CompressedSize');
    const rawSize = r.u64n('RawSize');
    let flags: number | null = null, filterFlags: number | null = null;
    if (version >= PackageTrailerVersion.PAYLOAD_FLAGS) { flags = r.u16(); filterFlags = r.u16(); }
    let accessMode: string;
    if (version >= PackageTrailerVersion.ACCESS_PER_PAYLOAD) accessMode = ACCESS_MODES[r.u8()] ?? 'Unknown';
    else accessMode = offsetInFile === -1 ? 'Virtualized' : legacyAccess!;
    const absoluteOffset = accessMode === 'Local' ? offset + headerLength + offsetInFile : null;
    payloads.push({ identifier, offsetInFile, absoluteOffset, compressedSize, rawSize, flags, filterFlags, accessMode });
  }
  if (r.pos !== offset + headerLength) throw r.error(`trailer header is ${r.pos - offset} bytes but says ${headerLength}`, offset + 12);
  r.seek(offset + headerLength + payloadsDataLength);
  const footerAt = r.pos;
  const footerTag = r.u64();
  if (footerTag !== TRAILER_FOOTER_TAG) throw r.error(`trailer footer tag is 0x${footerTag.toString(16)}, not 0x${TRAILER_FOOTER_TAG.toString(16)}`, footerAt);
  const trailerLength = r.u64n('TrailerLength');
  const packageTag = r.u32();
  if (packageTag !== PACKAGE_FILE_TAG) throw r.error(`trailer ends with ${hex32(packageTag)}, not the package tag`, footerAt + 16);
  return { offset, version, headerLength, payloadsDataLength, payloads, trailerLength };
}
