/**
 * An Ogg bitstream writer (RFC 3533): packets laid out in pages with lacing values, the page
 * checksum (CRC-32, polynomial 0x04c11db7, no reflection) and granule positions. Each packet
 * ends its page, as the Vorbis rebuild wants (its header packets and each audio packet with its
 * own granule); a packet longer than a page continues on the next.
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc;
}

const MAX_PAGE_PAYLOAD = 255 * 255;

export class OggWriter {
  private pages: Uint8Array[] = [];
  private seq = 0;
  private size = 0;

  constructor(private readonly serial = 1) {}

  /** Adds a packet on pages of its own; `granule` is the page's granule position (-1: none). */
  packet(data: Uint8Array, granule: number, last = false): void {
    let at = 0;
    let continued = false;
    do {
      const n = Math.min(MAX_PAGE_PAYLOAD, data.length - at);
      const ends = at + n === data.length;
      // A packet that is an exact multiple of 255 bytes ends with a 0 lacing value; one that fills
      // a page exactly continues with an empty segment on the next page.
      const full = Math.floor(n / 255);
      const segments = ends ? full + 1 : full;
      if (segments > 255) {
        // Exactly 255 * 255 bytes left: the closing 0 goes on a page of its own.
        this.page(data.subarray(at, at + n), new Array<number>(255).fill(255), -1, continued, false);
        at += n;
        continued = true;
        this.page(new Uint8Array(0), [0], granule, true, last);
        return;
      }
      const lacing = new Array<number>(full).fill(255);
      if (ends) lacing.push(n % 255);
      this.page(data.subarray(at, at + n), lacing, ends ? granule : -1, continued, ends && last);
      at += n;
      continued = true;
    } while (at < data.length);
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.pages) { out.set(p, at); at += p.length; }
    return out;
  }

  private page(payload: Uint8Array, lacing: number[], granule: number, continued: boolean, last: boolean): void {
    const page = new Uint8Array(27 + lacing.length + payload.length);
    const v = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53], 0);
    page[5] = (continued ? 1 : 0) | (this.seq === 0 ? 2 : 0) | (last ? 4 : 0);
    if (granule < 0) { v.setUint32(6, 0xffffffff, true); v.setUint32(10, 0xffffffff, true); }
    else { v.setUint32(6, granule % 2 ** 32, true); v.setUint32(10, Math.floor(granule / 2 ** 32), true); }
    v.setUint32(14, this.serial, true);
    v.setUint32(18, this.seq++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    page.set(payload, 27 + lacing.length);
    v.setUint32(22, oggCrc(page), true);
    this.pages.push(page);
    this.size += page.length;
  }
}
