/**
 * Wwise Vorbis to a standard Ogg Vorbis stream, the way ww2ogg (hcs64) documents it. Wwise
 * keeps Vorbis's audio packets but drops the Ogg layer and the three header packets:
 *
 *   - the identification header is rebuilt from the fmt chunk (channels, rate, bitrate) and the
 *     vorb data (its two block sizes);
 *   - the comment header is written new (with LoopStart/LoopEnd where the file loops);
 *   - the setup header is stored stripped: codebooks as 10-bit numbers into the aoTuV library,
 *     floors without their type (always 1), residue types in 2 bits, mappings without their
 *     type, modes without window and transform types (always 0). It is written back in full.
 *
 * Packets follow in the data chunk, each behind a 2-byte size (Wwise 2011+, "vorb" data in a
 * 0x42-byte fmt or a 0x2A-byte vorb chunk) or a 6-byte size and granule (0x32/0x34 vorb). In the
 * 2-byte form Wwise may also strip each audio packet's first bits (packet type, and a long
 * block's previous/next window flags): those are put back from the mode table and the next
 * packet. Granule positions are computed from the block sizes, the last page ending at the
 * file's sample count so a decoder trims the end as the game plays it.
 */
import { FormatError } from '../../../errors.js';
import { BitReader, BitWriter, ilog } from './bits.js';
import { aotuvCodebooks, rebuildCodebook, standardCodebooks, type CodebookLibrary } from './codebooks.js';
import { OggWriter } from './ogg.js';
import type { WemFile } from './riff.js';

export interface WemVorbisInfo {
  sampleCount: number;
  setupOffset: number;
  firstAudioOffset: number;
  blocksize0Pow: number;
  blocksize1Pow: number;
  /** 2-byte packet headers (no granule); else 6-byte ones. */
  shortHeaders: boolean;
  /** Audio packets stripped of their first bits (see the module comment). */
  modPackets: boolean;
}

const textEncoder = new TextEncoder();

/** The vorb data of a Vorbis .wem (sample count, packet layout, block sizes). */
export function wemVorbisInfo(wem: WemFile, file: string): WemVorbisInfo {
  let vorb: Uint8Array;
  let at: number;
  let layout: number;
  if (wem.vorb) {
    vorb = wem.vorb.bytes; at = wem.vorb.offset; layout = vorb.length;
  } else if (wem.fmt.length === 0x42) {
    vorb = wem.fmt.subarray(0x18); at = wem.fmtOffset + 0x18; layout = 0x2a;
  } else {
    throw new FormatError(file, 'Vorbis fmt chunk', wem.fmtOffset, `a ${wem.fmt.length}-byte fmt without a vorb chunk (0x42 bytes expected)`);
  }
  const v = new DataView(vorb.buffer, vorb.byteOffset, vorb.byteLength);
  const le = !wem.bigEndian;
  const need = layout === 0x2a ? 0x2a : layout === 0x32 || layout === 0x34 ? 0x32 : 0;
  if (need === 0) throw new FormatError(file, 'vorb chunk', at, `a ${layout}-byte vorb chunk: this Wwise Vorbis layout (before 2011, with its own header packets) is not supported`);
  if (vorb.length < need) throw new FormatError(file, 'vorb chunk', at, `${vorb.length} bytes, ${need} expected`);
  if (layout === 0x2a) {
    // Known values of the "mod signal" that mean standard packets; anything else is stripped.
    const signal = v.getUint32(4, le);
    return {
      sampleCount: v.getUint32(0, le), setupOffset: v.getUint32(0x10, le), firstAudioOffset: v.getUint32(0x14, le),
      blocksize0Pow: vorb[0x28]!, blocksize1Pow: vorb[0x29]!, shortHeaders: true,
      modPackets: ![0x4a, 0x4b, 0x69, 0x70].includes(signal),
    };
  }
  return {
    sampleCount: v.getUint32(0, le), setupOffset: v.getUint32(0x18, le), firstAudioOffset: v.getUint32(0x1c, le),
    blocksize0Pow: vorb[0x30]!, blocksize1Pow: vorb[0x31]!, shortHeaders: false, modPackets: false,
  };
}

interface Packet { offset: number; size: number; payload: number; next: number }

/**
 * The Ogg Vorbis stream of a Vorbis .wem, its setup's books taken from `codebooks`. Most Wwise
 * versions name books of the aoTuV library (the default), older ones of the standard library:
 * nothing in the file says which, so a caller whose decoder rejects the aoTuV rebuild (or whose
 * rebuild throws CodebookMismatch) tries the standard one.
 */
export function wemVorbisToOgg(wem: WemFile, file: string, codebooks: CodebookLibrary = aotuvCodebooks()): Uint8Array {
  return rebuildOgg(wem, file, codebooks);
}

/** The libraries to try, in order. */
export const VORBIS_CODEBOOK_LIBRARIES = (): CodebookLibrary[] => [aotuvCodebooks(), standardCodebooks()];

function rebuildOgg(wem: WemFile, file: string, codebooks: CodebookLibrary): Uint8Array {
  const info = wemVorbisInfo(wem, file);
  const { data } = wem;
  const base = wem.dataOffset;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const le = !wem.bigEndian;
  if (info.blocksize0Pow < 6 || info.blocksize0Pow > 13 || info.blocksize1Pow < info.blocksize0Pow || info.blocksize1Pow > 13) {
    throw new FormatError(file, 'vorb block sizes', wem.fmtOffset, `2^${info.blocksize0Pow} and 2^${info.blocksize1Pow} are not Vorbis block sizes (2^6 to 2^13, short <= long)`);
  }
  if (wem.channels < 1 || wem.channels > 255) throw new FormatError(file, 'Vorbis fmt chunk', wem.fmtOffset, `${wem.channels} channels`);
  const headerSize = info.shortHeaders ? 2 : 6;
  const packetAt = (offset: number, what: string): Packet => {
    if (offset + headerSize > data.length) throw new FormatError(file, what, base + offset, `a packet header needs ${headerSize} bytes, ${Math.max(0, data.length - offset)} remain in the data chunk`);
    const size = dv.getUint16(offset, le);
    const payload = offset + headerSize;
    if (payload + size > data.length) throw new FormatError(file, what, base + offset, `a ${size}-byte packet runs past the data chunk's end (truncated)`);
    return { offset, size, payload, next: payload + size };
  };

  const ogg = new OggWriter();
  ogg.packet(identification(wem, info), 0);
  ogg.packet(comment(wem), 0);

  const setup = packetAt(info.setupOffset, 'Vorbis setup packet');
  const modes = rebuildSetup(data.subarray(setup.payload, setup.next), wem.channels, codebooks, file, base + setup.payload, ogg);
  if (setup.next !== info.firstAudioOffset) {
    throw new FormatError(file, 'Vorbis setup packet', base + setup.offset, `ends at ${setup.next}, but the first audio packet is at ${info.firstAudioOffset}`);
  }

  const modeBits = ilog(modes.length - 1);
  const blockSize = (flag: boolean): number => 2 ** (flag ? info.blocksize1Pow : info.blocksize0Pow);
  const modeOf = (p: Packet): number => {
    if (p.size === 0) return -1;
    const first = data[p.payload]!;
    const mode = info.modPackets ? first & ((1 << modeBits) - 1) : (first >> 1) & ((1 << modeBits) - 1);
    if (mode >= modes.length) throw new FormatError(file, 'Vorbis audio packet', base + p.payload, `mode ${mode}, the setup has ${modes.length}`);
    return mode;
  };

  let granule = 0;
  let prevLong = false;
  let prevSize = 0;
  let offset = info.firstAudioOffset;
  let p = offset < data.length ? packetAt(offset, 'Vorbis audio packet') : undefined;
  while (p) {
    const next = p.next < data.length ? packetAt(p.next, 'Vorbis audio packet') : undefined;
    const mode = modeOf(p);
    let packet: Uint8Array;
    if (mode < 0) {
      packet = new Uint8Array(0);
    } else if (info.modPackets) {
      const long = modes[mode]!;
      const w = new BitWriter();
      w.write(0, 1);
      w.write(mode, modeBits);
      if (long) {
        const nextMode = next ? modeOf(next) : -1;
        w.write(prevLong ? 1 : 0, 1);
        w.write(nextMode >= 0 && modes[nextMode] ? 1 : 0, 1);
      }
      w.write(data[p.payload]! >> modeBits, 8 - modeBits);
      w.writeBytes(data.subarray(p.payload + 1, p.next));
      packet = w.bytes();
    } else {
      packet = data.subarray(p.payload, p.next);
    }
    if (mode >= 0) {
      const size = blockSize(modes[mode]!);
      if (prevSize > 0) granule += prevSize / 4 + size / 4;
      prevSize = size;
      prevLong = modes[mode]!;
    }
    ogg.packet(packet, next ? Math.min(granule, info.sampleCount) : info.sampleCount, !next);
    p = next;
    offset = p?.offset ?? offset;
  }
  return ogg.bytes();
}

function identification(wem: WemFile, info: WemVorbisInfo): Uint8Array {
  const w = new BitWriter();
  vorbisHeader(w, 1);
  w.write(0, 32);
  w.write(wem.channels, 8);
  w.write(wem.sampleRate, 32);
  w.write(0, 32);
  w.write(wem.avgBytesPerSecond * 8, 32);
  w.write(0, 32);
  w.write(info.blocksize0Pow, 4);
  w.write(info.blocksize1Pow, 4);
  w.write(1, 1);
  return w.bytes();
}

function comment(wem: WemFile): Uint8Array {
  const w = new BitWriter();
  vorbisHeader(w, 3);
  const vendor = textEncoder.encode('PakScope (Wwise Vorbis rebuilt)');
  w.write(vendor.length, 32);
  w.writeBytes(vendor);
  const loop = wem.loops[0];
  const comments = loop ? [`LoopStart=${loop.start}`, `LoopEnd=${loop.end}`] : [];
  w.write(comments.length, 32);
  for (const c of comments) {
    const b = textEncoder.encode(c);
    w.write(b.length, 32);
    w.writeBytes(b);
  }
  w.write(1, 1);
  return w.bytes();
}

function vorbisHeader(w: BitWriter, type: number): void {
  w.write(type, 8);
  w.writeBytes(textEncoder.encode('vorbis'));
}

/** Writes the full setup packet to `ogg`; returns each mode's block flag (true: long). */
function rebuildSetup(stripped: Uint8Array, channels: number, codebooks: CodebookLibrary, file: string, at: number, ogg: OggWriter): boolean[] {
  const what = 'Vorbis setup packet';
  const r = new BitReader(stripped, file, what, at);
  const w = new BitWriter();
  const bad = (detail: string): FormatError => new FormatError(file, what, at + (r.position >> 3), detail);
  vorbisHeader(w, 5);

  const codebookCount = r.read(8) + 1;
  w.write(codebookCount - 1, 8);
  for (let i = 0; i < codebookCount; i++) {
    const id = r.read(10);
    const packed = codebooks.book(id);
    if (!packed) throw bad(`codebook ${i} names book ${id}, which ${codebooks.name} (books 0 to ${codebooks.count - 1}) does not have`);
    rebuildCodebook(packed, w, file, `book ${id} of ${codebooks.name}`);
  }
  // Time domain transforms: one placeholder, as Vorbis I requires.
  w.write(0, 6);
  w.write(0, 16);

  const floorCount = r.read(6) + 1;
  w.write(floorCount - 1, 6);
  for (let i = 0; i < floorCount; i++) {
    w.write(1, 16);
    const partitions = r.read(5);
    w.write(partitions, 5);
    const classes: number[] = [];
    let maxClass = -1;
    for (let j = 0; j < partitions; j++) {
      const c = r.read(4);
      w.write(c, 4);
      classes.push(c);
      maxClass = Math.max(maxClass, c);
    }
    const dimensions: number[] = [];
    for (let j = 0; j <= maxClass; j++) {
      const dim = r.read(3);
      w.write(dim, 3);
      dimensions.push(dim + 1);
      const subclasses = r.read(2);
      w.write(subclasses, 2);
      if (subclasses) {
        const master = r.read(8);
        w.write(master, 8);
        if (master >= codebookCount) throw bad(`floor ${i} names master book ${master} of ${codebookCount}`);
      }
      for (let k = 0; k < 1 << subclasses; k++) {
        const book = r.read(8);
        w.write(book, 8);
        if (book - 1 >= codebookCount) throw bad(`floor ${i} names subclass book ${book - 1} of ${codebookCount}`);
      }
    }
    w.write(r.read(2), 2);
    const rangeBits = r.read(4);
    w.write(rangeBits, 4);
    for (const c of classes) for (let k = 0; k < dimensions[c]!; k++) w.write(r.read(rangeBits), rangeBits);
  }

  const residueCount = r.read(6) + 1;
  w.write(residueCount - 1, 6);
  for (let i = 0; i < residueCount; i++) {
    const type = r.read(2);
    if (type > 2) throw bad(`residue ${i} has type ${type} (0 to 2)`);
    w.write(type, 16);
    w.write(r.read(24), 24);
    w.write(r.read(24), 24);
    w.write(r.read(24), 24);
    const classifications = r.read(6) + 1;
    w.write(classifications - 1, 6);
    const classbook = r.read(8);
    w.write(classbook, 8);
    if (classbook >= codebookCount) throw bad(`residue ${i} names class book ${classbook} of ${codebookCount}`);
    const cascade: number[] = [];
    for (let j = 0; j < classifications; j++) {
      const low = r.read(3);
      w.write(low, 3);
      const flag = r.read(1);
      w.write(flag, 1);
      let high = 0;
      if (flag) { high = r.read(5); w.write(high, 5); }
      cascade.push(high * 8 + low);
    }
    for (const c of cascade) {
      for (let k = 0; k < 8; k++) {
        if (!(c & (1 << k))) continue;
        const book = r.read(8);
        w.write(book, 8);
        if (book >= codebookCount) throw bad(`residue ${i} names book ${book} of ${codebookCount}`);
      }
    }
  }

  const mappingCount = r.read(6) + 1;
  w.write(mappingCount - 1, 6);
  const couplingBits = ilog(channels - 1);
  for (let i = 0; i < mappingCount; i++) {
    w.write(0, 16);
    const submapFlag = r.read(1);
    w.write(submapFlag, 1);
    let submaps = 1;
    if (submapFlag) { submaps = r.read(4) + 1; w.write(submaps - 1, 4); }
    const coupled = r.read(1);
    w.write(coupled, 1);
    if (coupled) {
      const steps = r.read(8) + 1;
      w.write(steps - 1, 8);
      for (let j = 0; j < steps; j++) {
        const magnitude = r.read(couplingBits);
        const angle = r.read(couplingBits);
        w.write(magnitude, couplingBits);
        w.write(angle, couplingBits);
        if (magnitude === angle || magnitude >= channels || angle >= channels) throw bad(`mapping ${i} couples channels ${magnitude} and ${angle} of ${channels}`);
      }
    }
    const reserved = r.read(2);
    w.write(reserved, 2);
    if (reserved !== 0) throw bad(`mapping ${i}'s reserved field is ${reserved}`);
    if (submaps > 1) {
      for (let j = 0; j < channels; j++) {
        const mux = r.read(4);
        w.write(mux, 4);
        if (mux >= submaps) throw bad(`mapping ${i} muxes channel ${j} to submap ${mux} of ${submaps}`);
      }
    }
    for (let j = 0; j < submaps; j++) {
      w.write(r.read(8), 8);
      const floor = r.read(8);
      w.write(floor, 8);
      if (floor >= floorCount) throw bad(`mapping ${i} names floor ${floor} of ${floorCount}`);
      const residue = r.read(8);
      w.write(residue, 8);
      if (residue >= residueCount) throw bad(`mapping ${i} names residue ${residue} of ${residueCount}`);
    }
  }

  const modeCount = r.read(6) + 1;
  w.write(modeCount - 1, 6);
  const modes: boolean[] = [];
  for (let i = 0; i < modeCount; i++) {
    const flag = r.read(1);
    w.write(flag, 1);
    modes.push(flag === 1);
    w.write(0, 16);
    w.write(0, 16);
    const mapping = r.read(8);
    w.write(mapping, 8);
    if (mapping >= mappingCount) throw bad(`mode ${i} names mapping ${mapping} of ${mappingCount}`);
  }
  w.write(1, 1);
  if (((r.position + 7) >> 3) !== stripped.length) throw bad(`the setup ends after ${(r.position + 7) >> 3} of its ${stripped.length} bytes`);
  ogg.packet(w.bytes(), 0);
  return modes;
}
