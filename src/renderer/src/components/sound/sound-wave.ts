// The sound view's waveform: the 16-bit PCM of a WAV (as the backend's writeWav makes it) read
// into per-channel min/max peaks, one pair per pixel column, and times shown as m:ss.mmm.

export interface Peaks {
  channels: number;
  columns: number;
  /** Per channel: min and max (-1..1) of each column, interleaved [min0, max0, min1, max1, ...]. */
  data: Float32Array[];
}

/** The 16-bit samples of a PCM WAV (format 1) and its channel count; null when it is not one. */
export function wavSamples(wav: Uint8Array): { channels: number; samples: Int16Array } | null {
  if (wav.length < 12) return null;
  const dv = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at: number) => String.fromCharCode(wav[at]!, wav[at + 1]!, wav[at + 2]!, wav[at + 3]!);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let channels = 0, bits = 0;
  for (let at = 12; at + 8 <= wav.length;) {
    const id = tag(at), size = dv.getUint32(at + 4, true), body = at + 8;
    if (id === 'fmt ' && body + 16 <= wav.length) {
      if (dv.getUint16(body, true) !== 1) return null;
      channels = dv.getUint16(body + 2, true);
      bits = dv.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (bits !== 16 || channels < 1) return null;
      const n = Math.floor(Math.min(size, wav.length - body) / 2);
      const copy = wav.slice(body, body + n * 2);
      return { channels, samples: new Int16Array(copy.buffer, 0, n) };
    }
    at = body + size + (size & 1);
  }
  return null;
}

/** Min/max of each channel over `columns` equal spans of the frames. */
export function peaksOf(channels: number, samples: Int16Array, columns: number): Peaks {
  const frames = Math.floor(samples.length / channels);
  const cols = Math.max(1, Math.min(columns, frames || 1));
  const data = Array.from({ length: channels }, () => new Float32Array(cols * 2));
  for (let c = 0; c < channels; c++) {
    const out = data[c]!;
    for (let x = 0; x < cols; x++) {
      const from = Math.floor((x * frames) / cols), to = Math.max(from + 1, Math.floor(((x + 1) * frames) / cols));
      let lo = 0, hi = 0;
      for (let f = from; f < to && f < frames; f++) {
        const v = samples[f * channels + c]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      out[x * 2] = lo / 32768;
      out[x * 2 + 1] = hi / 32767;
    }
  }
  return { channels, columns: cols, data };
}

/** Seconds as m:ss.mmm ("0:01.250"). */
export function formatTime(s: number): string {
  if (!Number.isFinite(s) || s < 0) s = 0;
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(3).padStart(6, '0')}`;
}

/** The file name "Save as" suggests: the sound's name, safe, with the format's extension. */
export function soundFileName(name: string, format: string): string {
  return `${name.replace(/[^\w.-]+/g, '_') || 'sound'}.${format}`;
}
