/**
 * A Standard MIDI File (SMF, format 1) of a MidiFile's song: an MThd chunk (format 1, the track
 * count, ticks per quarter note as the division), then one MTrk chunk per track: events as
 * variable-length delta times and messages (channel messages with their status each time, no
 * running status; tempo FF 51, time signature FF 58, texts FF 01..0F), ending with FF 2F 00.
 */
import type { MidiMessage, MidiSong } from './read.js';

const utf8 = new TextEncoder();

/** A number as SMF's variable-length quantity: 7 bits a byte, the high bit set on all but the last. */
function vlq(n: number, out: number[]): void {
  const bytes = [n & 0x7f];
  for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) bytes.unshift((v & 0x7f) | 0x80);
  out.push(...bytes);
}

/** Channel messages with one data byte: program change (Cx) and channel pressure (Dx). */
const oneDataByte = (status: number): boolean => (status & 0xf0) === 0xc0 || (status & 0xf0) === 0xd0;

function messageBytes(m: MidiMessage, out: number[]): boolean {
  switch (m.type) {
    case 'std':
      out.push(m.status, m.data1);
      if (!oneDataByte(m.status)) out.push(m.data2);
      return true;
    case 'tempo':
      out.push(0xff, 0x51, 3, (m.microsPerQuarterNote >> 16) & 0xff, (m.microsPerQuarterNote >> 8) & 0xff, m.microsPerQuarterNote & 0xff);
      return true;
    case 'timeSig':
      // Numerator, denominator as a power of two, MIDI clocks per metronome click, 32nd notes per quarter.
      out.push(0xff, 0x58, 4, m.numerator & 0xff, Math.log2(m.denominator), 24, 8);
      return true;
    case 'text': {
      const text = utf8.encode(m.text);
      out.push(0xff, m.textType);
      vlq(text.length, out);
      for (const b of text) out.push(b);
      return true;
    }
    case 'runtime':
      return false; // the player's own messages: nothing in a file
  }
}

const u32be = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

export function writeSmf(song: MidiSong): Uint8Array {
  const out: number[] = [0x4d, 0x54, 0x68, 0x64, ...u32be(6), 0, 1, (song.tracks.length >> 8) & 0xff, song.tracks.length & 0xff, (song.ticksPerQuarterNote >> 8) & 0x7f, song.ticksPerQuarterNote & 0xff];
  for (const track of song.tracks) {
    const body: number[] = [];
    let last = 0;
    for (const e of track.events) {
      const event: number[] = [];
      if (!messageBytes(e.message, event)) continue;
      vlq(e.tick - last, body);
      last = e.tick;
      body.push(...event);
    }
    body.push(0, 0xff, 0x2f, 0);
    out.push(0x4d, 0x54, 0x72, 0x6b, ...u32be(body.length));
    for (const b of body) out.push(b);
  }
  return Uint8Array.from(out);
}
