/**
 * An Ogg bitstream reader (RFC 3533): the packets of the first logical stream, rejoined across
 * pages from their lacing values, with the last page's granule position. Wwise's "OPUS" codec
 * (0x3040) stores a whole Ogg Opus file in the data chunk. Every page header and segment table is
 * checked against the bytes; a page cut short throws.
 */
import { FormatError } from '../../../errors.js';

export interface OggPackets {
  packets: Uint8Array[];
  /** The granule position of the stream's last page that has one (-1: none). */
  lastGranule: number;
}

/** `base` is where `b` starts in the file, for the offsets in errors. */
export function readOggPackets(b: Uint8Array, file: string, base = 0): OggPackets {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const packets: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let serial: number | undefined;
  let lastGranule = -1;
  for (let at = 0; at < b.length;) {
    if (at + 27 > b.length) throw new FormatError(file, 'Ogg page', base + at, `${b.length - at} bytes left where a page header has 27 (truncated)`);
    if (b[at] !== 0x4f || b[at + 1] !== 0x67 || b[at + 2] !== 0x67 || b[at + 3] !== 0x53) throw new FormatError(file, 'Ogg page', base + at, 'no "OggS" capture pattern');
    if (b[at + 4] !== 0) throw new FormatError(file, 'Ogg page', base + at + 4, `stream structure version ${b[at + 4]} (0 expected)`);
    const segments = b[at + 26]!;
    const table = at + 27;
    if (table + segments > b.length) throw new FormatError(file, 'Ogg page', base + at + 26, `${segments} lacing values where ${b.length - table} bytes are left (truncated)`);
    let body = table + segments;
    let size = 0;
    for (let i = 0; i < segments; i++) size += b[table + i]!;
    if (body + size > b.length) throw new FormatError(file, 'Ogg page', base + at, `its ${size} bytes of packet data run past the stream's end (${b.length - body} left)`);
    const pageSerial = v.getUint32(at + 14, true);
    serial ??= pageSerial;
    // Pages of other logical streams (none in Wwise's files) are skipped whole.
    if (pageSerial === serial) {
      const granuleLow = v.getUint32(at + 6, true);
      const granuleHigh = v.getInt32(at + 10, true);
      if (granuleHigh >= 0) lastGranule = granuleHigh * 2 ** 32 + granuleLow;
      let start = body;
      for (let i = 0; i < segments; i++) {
        const lace = b[table + i]!;
        body += lace;
        if (lace < 255) {
          pending.push(b.subarray(start, body));
          packets.push(join(pending));
          pending = [];
          start = body;
        }
      }
      if (start < body) pending.push(b.subarray(start, body));
    }
    at = table + segments + size;
  }
  return { packets, lastGranule };
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
