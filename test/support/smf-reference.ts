/**
 * A Standard MIDI File read by the spec alone (the MIDI Manufacturers Association's SMF 1.0), for
 * tests: the MThd chunk, each MTrk chunk's length against the bytes, delta times as
 * variable-length quantities, running status, meta and sysex events. Written apart from
 * src/core/assets/midi so that a test of the writer does not share its bugs.
 */
export interface SmfEvent { tick: number; bytes: number[]; meta?: number; text?: string }
export interface Smf { format: number; division: number; tracks: SmfEvent[][] }

export function parseSmf(b: Uint8Array): Smf {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const tag = (at: number): string => String.fromCharCode(...b.subarray(at, at + 4));
  if (tag(0) !== 'MThd' || dv.getUint32(4) !== 6) throw new Error('no MThd chunk of 6 bytes');
  const format = dv.getUint16(8), ntrks = dv.getUint16(10), division = dv.getUint16(12);
  const tracks: SmfEvent[][] = [];
  let at = 14;
  for (let t = 0; t < ntrks; t++) {
    if (tag(at) !== 'MTrk') throw new Error(`track ${t}: no MTrk at ${at}`);
    const end = at + 8 + dv.getUint32(at + 4);
    if (end > b.length) throw new Error(`track ${t}: its length runs past the file`);
    let p = at + 8, tick = 0, status = 0;
    const events: SmfEvent[] = [];
    const vlq = (): number => { let v = 0; for (;;) { const c = b[p++]!; v = v * 128 + (c & 0x7f); if (!(c & 0x80)) return v; } };
    let ended = false;
    while (p < end) {
      if (ended) throw new Error(`track ${t}: events after its end of track`);
      tick += vlq();
      if (b[p]! & 0x80) status = b[p++]!;
      if (status === 0xff) {
        const type = b[p++]!, len = vlq();
        const data = [...b.subarray(p, p + len)];
        p += len;
        const e: SmfEvent = { tick, bytes: data, meta: type };
        if (type >= 1 && type <= 15) e.text = new TextDecoder().decode(Uint8Array.from(data));
        if (type === 0x2f) ended = true;
        events.push(e);
        status = 0;
      } else if (status === 0xf0 || status === 0xf7) {
        p += vlq();
      } else {
        const n = (status & 0xf0) === 0xc0 || (status & 0xf0) === 0xd0 ? 1 : 2;
        events.push({ tick, bytes: [status, ...b.subarray(p, p + n)] });
        p += n;
      }
    }
    if (p !== end || !ended) throw new Error(`track ${t}: ends at ${p}, not at its chunk's end ${end} with FF 2F 00`);
    tracks.push(events);
    at = end;
  }
  if (at !== b.length) throw new Error(`${b.length - at} bytes after the last track`);
  return { format, division, tracks };
}
