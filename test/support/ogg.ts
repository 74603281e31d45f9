/** The packets of an Ogg stream (one logical stream), for tests feeding a decoder bare packets. */
export function oggPackets(b: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let open: number[] = [];
  for (let at = 0; at + 27 <= b.length;) {
    if (String.fromCharCode(...b.subarray(at, at + 4)) !== 'OggS') throw new Error(`no Ogg page at ${at}`);
    const segments = b[at + 26]!;
    const lacing = b.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const len of lacing) {
      for (let i = 0; i < len; i++) open.push(b[body + i]!);
      body += len;
      if (len < 255) { packets.push(Uint8Array.from(open)); open = []; }
    }
    at = body;
  }
  return packets;
}
