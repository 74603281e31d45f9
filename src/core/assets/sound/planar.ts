/**
 * Decoded audio as the wasm decoders give it (one Float32Array per channel, -1 to 1), and its
 * conversion to the 16-bit interleaved PCM the WAV writer and the app take.
 */
import type { Pcm } from './types.js';

export interface PlanarPcm {
  sampleRate: number;
  /** One array per channel, each `frames` long. */
  channelData: Float32Array[];
  frames: number;
  /** Packets that did not decode, each named with its index; silence stands in their place. */
  errors: string[];
}

/** Frames [start, start + count) of `p` as 16-bit interleaved PCM (rounded, clipped). */
export function planarToPcm(p: PlanarPcm, start = 0, count = p.frames - start): Pcm {
  const from = Math.max(0, Math.min(start, p.frames));
  const n = Math.max(0, Math.min(count, p.frames - from));
  const ch = p.channelData.length;
  const out = new Int16Array(n * ch);
  for (let c = 0; c < ch; c++) {
    const src = p.channelData[c]!;
    for (let i = 0; i < n; i++) {
      const v = Math.round(src[from + i]! * 32768);
      out[i * ch + c] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    }
  }
  return { sampleRate: p.sampleRate, channels: ch, samples: out, ...(p.errors.length > 0 ? { errors: [...p.errors] } : {}) };
}

/** Joins decoded pieces of one stream (same rate and channels) end to end. */
export function concatPlanar(parts: PlanarPcm[]): PlanarPcm {
  const first = parts[0];
  if (!first) return { sampleRate: 0, channelData: [], frames: 0, errors: [] };
  if (parts.length === 1) return first;
  const frames = parts.reduce((n, p) => n + p.frames, 0);
  const channelData = first.channelData.map((_, c) => {
    const out = new Float32Array(frames);
    let at = 0;
    for (const p of parts) { out.set(p.channelData[c]!.subarray(0, p.frames), at); at += p.frames; }
    return out;
  });
  return { sampleRate: first.sampleRate, channelData, frames, errors: parts.flatMap((p) => p.errors) };
}
