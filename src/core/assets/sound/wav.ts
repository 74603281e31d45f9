/**
 * RIFF/WAVE: reading the fmt and data chunks of a stored payload, and writing 16-bit PCM
 * (format tag 1) files.
 */
import { FormatError } from '../../errors.js';
import type { Pcm } from './types.js';

export interface WavFile {
  formatTag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** The fmt chunk's extension (cbSize bytes after the 16 fixed ones). */
  extra: Uint8Array;
  /** The data chunk's bytes (cut at the end of the file when it claims more). */
  data: Uint8Array;
  /** Set when the data chunk claims more bytes than the file holds. */
  truncated: boolean;
}

const tag = (b: Uint8Array, at: number): string => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

export const isRiffWave = (b: Uint8Array): boolean => b.length >= 12 && tag(b, 0) === 'RIFF' && tag(b, 8) === 'WAVE';

/** Parses a RIFF/WAVE file; `file` and `what` name it in errors. */
export function parseWav(b: Uint8Array, file: string, what: string): WavFile {
  if (!isRiffWave(b)) throw new FormatError(file, what, 0, 'not a RIFF/WAVE file');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let fmt: Omit<WavFile, 'data' | 'truncated'> | undefined;
  for (let at = 12; at + 8 <= b.length;) {
    const id = tag(b, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > b.length) throw new FormatError(file, `${what} fmt chunk`, at, `fmt chunk of ${size} bytes (16 or more, within the file's ${b.length})`);
      const cb = size >= 18 ? view.getUint16(body + 16, true) : 0;
      fmt = {
        formatTag: view.getUint16(body, true), channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true), bitsPerSample: view.getUint16(body + 14, true),
        extra: b.subarray(body + 18, Math.min(body + 18 + cb, body + size)),
      };
    } else if (id === 'data') {
      if (!fmt) throw new FormatError(file, `${what} data chunk`, at, 'the data chunk comes before any fmt chunk');
      const end = body + size;
      return { ...fmt, data: b.subarray(body, Math.min(end, b.length)), truncated: end > b.length };
    }
    at = body + size + (size & 1);
  }
  throw new FormatError(file, what, 12, fmt ? 'no data chunk' : 'no fmt chunk');
}

/** A 16-bit PCM WAV file (format tag 1). */
export function writeWav(pcm: Pcm): Uint8Array {
  const dataBytes = pcm.samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string): void => { for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i); };
  ascii(0, 'RIFF'); v.setUint32(4, 36 + dataBytes, true); ascii(8, 'WAVE');
  ascii(12, 'fmt '); v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); v.setUint16(22, pcm.channels, true); v.setUint32(24, pcm.sampleRate, true);
  v.setUint32(28, pcm.sampleRate * pcm.channels * 2, true); v.setUint16(32, pcm.channels * 2, true); v.setUint16(34, 16, true);
  ascii(36, 'data'); v.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.samples.length; i++) v.setInt16(44 + i * 2, pcm.samples[i]!, true);
  return out;
}
