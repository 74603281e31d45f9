/**
 * A Wwise media file (.wem) as stored: a RIFF (little-endian) or RIFX (big-endian, consoles)
 * WAVE container with Audiokinetic's own fmt variants. Its chunks:
 *
 *   fmt   codec id (u16), channels (u16), sample rate (u32), bytes a second (u32), block align
 *         (u16), bits a sample (u16), extension size (u16), then the extension: 2 bytes (valid
 *         bits or samples a block) and the channel layout (u32) in every Wwise version since
 *         2011; Vorbis (0x42 bytes) carries its own header data after those 0x18 bytes
 *   data  the coded audio
 *   smpl  loops, as the WAVE smpl chunk has them (the loop end is inclusive)
 *   cue   cue points (id, position in frames) and LIST/adtl labl their labels
 *   vorb  Vorbis header data in older Wwise versions (a fmt of 0x28 or less)
 *
 * Every size is checked against the file; the reader only names and slices, it decodes nothing.
 */
import { FormatError } from '../../../errors.js';

export interface WemLoop {
  /** In frames; the end is exclusive (the smpl chunk stores it inclusive). */
  start: number;
  end: number;
}

export interface WemCue {
  id: number;
  /** In frames from the start. */
  position: number;
  label?: string;
}

export interface WemFile {
  /** RIFX: the numbers (and PCM samples) are big-endian. */
  bigEndian: boolean;
  codecId: number;
  channels: number;
  sampleRate: number;
  avgBytesPerSecond: number;
  blockAlign: number;
  bitsPerSample: number;
  /** The channel layout (a speaker mask with its count), 0 where the fmt has none. */
  channelLayout: number;
  /** The fmt chunk's bytes and where they start in the file. */
  fmt: Uint8Array;
  fmtOffset: number;
  /** The data chunk's bytes and where they start in the file. */
  data: Uint8Array;
  dataOffset: number;
  /** The vorb chunk, where the file has one (older Vorbis). */
  vorb?: { bytes: Uint8Array; offset: number };
  loops: WemLoop[];
  cues: WemCue[];
  /** Every chunk in file order, for the facts and for codecs that look for their own. */
  chunks: { id: string; offset: number; size: number }[];
}

const MAX_CUES = 4096;

const tag = (b: Uint8Array, at: number): string => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** Whether the bytes start as a RIFF or RIFX WAVE file. */
export const isWem = (b: Uint8Array): boolean => b.length >= 12 && (tag(b, 0) === 'RIFF' || tag(b, 0) === 'RIFX') && tag(b, 8) === 'WAVE';

/** Parses a .wem; `file` names it in errors. */
export function parseWem(b: Uint8Array, file: string): WemFile {
  if (b.length < 12) throw new FormatError(file, 'RIFF header', 0, `a .wem needs at least 12 bytes, the file has ${b.length}`);
  const head = tag(b, 0);
  if (head !== 'RIFF' && head !== 'RIFX') throw new FormatError(file, 'RIFF header', 0, `starts with "${printable(head)}", not RIFF or RIFX`);
  if (tag(b, 8) !== 'WAVE') throw new FormatError(file, 'RIFF header', 8, `form type "${printable(tag(b, 8))}", not WAVE`);
  const bigEndian = head === 'RIFX';
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (at: number): number => view.getUint16(at, !bigEndian);
  const u32 = (at: number): number => view.getUint32(at, !bigEndian);
  const riffEnd = u32(4) + 8;
  if (riffEnd > b.length) throw new FormatError(file, 'RIFF header', 4, `the RIFF claims ${riffEnd} bytes but the file has ${b.length} (truncated)`);

  const chunks: WemFile['chunks'] = [];
  for (let at = 12; at < riffEnd;) {
    if (at + 8 > riffEnd) throw new FormatError(file, 'chunk header', at, `a chunk header needs 8 bytes, ${riffEnd - at} remain in the RIFF`);
    const size = u32(at + 4);
    if (at + 8 + size > riffEnd) throw new FormatError(file, `${printable(tag(b, at)).trim()} chunk`, at, `claims ${size} bytes but only ${riffEnd - at - 8} remain in the RIFF (truncated)`);
    chunks.push({ id: tag(b, at), offset: at + 8, size });
    // Wwise writes no pad byte after odd-sized chunks (its Vorbis data chunks are often odd).
    at += 8 + size;
  }
  const chunk = (id: string) => chunks.find((c) => c.id === id);
  const fmtChunk = chunk('fmt ');
  const dataChunk = chunk('data');
  if (!fmtChunk) throw new FormatError(file, 'RIFF chunks', 12, 'no fmt chunk');
  if (!dataChunk) throw new FormatError(file, 'RIFF chunks', 12, 'no data chunk');
  if (fmtChunk.size < 16) throw new FormatError(file, 'fmt chunk', fmtChunk.offset, `${fmtChunk.size} bytes, at least 16 expected`);
  const f = fmtChunk.offset;
  const wem: WemFile = {
    bigEndian,
    codecId: u16(f), channels: u16(f + 2), sampleRate: u32(f + 4), avgBytesPerSecond: u32(f + 8),
    blockAlign: u16(f + 12), bitsPerSample: u16(f + 14),
    channelLayout: fmtChunk.size >= 0x18 ? u32(f + 0x14) : 0,
    fmt: b.subarray(f, f + fmtChunk.size), fmtOffset: f,
    data: b.subarray(dataChunk.offset, dataChunk.offset + dataChunk.size), dataOffset: dataChunk.offset,
    loops: [], cues: [], chunks,
  };
  const vorb = chunk('vorb');
  if (vorb) wem.vorb = { bytes: b.subarray(vorb.offset, vorb.offset + vorb.size), offset: vorb.offset };

  const smpl = chunk('smpl');
  if (smpl) {
    // 36 bytes of sampler data, then the loop count at 0x1C and 24 bytes a loop from 0x24.
    if (smpl.size < 0x24) throw new FormatError(file, 'smpl chunk', smpl.offset, `${smpl.size} bytes, at least 36 expected`);
    const count = u32(smpl.offset + 0x1c);
    if (count * 24 > smpl.size - 0x24) throw new FormatError(file, 'smpl chunk', smpl.offset + 0x1c, `${count} loops need ${count * 24} bytes, ${smpl.size - 0x24} remain`);
    for (let i = 0; i < count; i++) {
      const at = smpl.offset + 0x24 + i * 24;
      const start = u32(at + 8);
      const end = u32(at + 12);
      wem.loops.push({ start, end: end === 0 ? 0 : end + 1 });
    }
  }

  const cue = chunk('cue ');
  if (cue) {
    if (cue.size < 4) throw new FormatError(file, 'cue chunk', cue.offset, `${cue.size} bytes, at least 4 expected`);
    const count = u32(cue.offset);
    if (count > MAX_CUES || count * 24 > cue.size - 4) throw new FormatError(file, 'cue chunk', cue.offset, `${count} cue points need ${count * 24} bytes, ${cue.size - 4} remain`);
    for (let i = 0; i < count; i++) {
      const at = cue.offset + 4 + i * 24;
      wem.cues.push({ id: u32(at), position: u32(at + 20) });
    }
    const labels = readLabels(b, chunks.filter((c) => c.id === 'LIST'), u32, file);
    for (const c of wem.cues) {
      const label = labels.get(c.id);
      if (label !== undefined) c.label = label;
    }
  }
  return wem;
}

/** The labl texts of LIST/adtl chunks by cue id. */
function readLabels(b: Uint8Array, lists: WemFile['chunks'], u32: (at: number) => number, file: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const list of lists) {
    if (list.size < 4 || tag(b, list.offset) !== 'adtl') continue;
    const end = list.offset + list.size;
    for (let at = list.offset + 4; at + 8 <= end;) {
      const size = u32(at + 4);
      if (at + 8 + size > end) throw new FormatError(file, 'LIST/adtl sub-chunk', at, `claims ${size} bytes, ${end - at - 8} remain`);
      if (tag(b, at) === 'labl' && size >= 4) {
        const text = b.subarray(at + 12, at + 8 + size);
        const nul = text.indexOf(0);
        out.set(u32(at + 8), new TextDecoder('utf-8').decode(nul >= 0 ? text.subarray(0, nul) : text));
      }
      at += 8 + size + (size & 1);
    }
  }
  return out;
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?');
}
