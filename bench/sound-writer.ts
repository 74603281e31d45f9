/**
 * Synthetic long streamed sounds for the sound-start bench (and its test): a tone sweep as the
 * engine streams it, the header alone in chunk 0 and the audio in chunks of about 256 KiB after
 * it (the cook's default chunk size), as a Sound the sound kind decodes: 16-bit PCM in a RIFF/WAVE,
 * and Opus in the engine's UEOPUS container (ffmpeg encodes the packets; the container is
 * written here).
 */
import { spawnSync } from 'node:child_process';
import type { Sound } from '../src/core/assets/sound/types.js';

const CHUNK = 256 * 1024;

function sweep(seconds: number, rate: number): Int16Array {
  const out = new Int16Array(seconds * rate);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const f = 220 + (440 * i) / out.length;
    phase += (2 * Math.PI * f) / rate;
    out[i] = Math.round(Math.sin(phase) * 12000);
  }
  return out;
}

function soundOf(format: string, rate: number, frames: number, chunks: Uint8Array[]): Sound {
  return {
    class: 'SoundWave', name: `Synthetic_${format}`, format, sampleRate: rate, channels: 1, samples: frames, durationS: frames / rate,
    looping: false, streaming: true, chunks: chunks.length, cuePoints: [], decodable: true, storedExtension: format === 'PCM' ? 'wav' : 'opus', notes: [],
    async readChunk(i) { return chunks[i]!; },
    async readPayload() {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) { out.set(c, at); at += c.length; }
      return out;
    },
  };
}

export function pcmStreamedSound(seconds: number, rate = 48_000): Sound {
  const pcm = sweep(seconds, rate);
  const header = new Uint8Array(44);
  const v = new DataView(header.buffer);
  const tag = (at: number, s: string): void => { for (let i = 0; i < 4; i++) header[at + i] = s.charCodeAt(i); };
  tag(0, 'RIFF'); v.setUint32(4, 36 + pcm.byteLength, true); tag(8, 'WAVE'); tag(12, 'fmt '); v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); v.setUint16(22, 1, true); v.setUint32(24, rate, true); v.setUint32(28, rate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
  tag(36, 'data'); v.setUint32(40, pcm.byteLength, true);
  const bytes = new Uint8Array(pcm.buffer as ArrayBuffer);
  const chunks = [header];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return soundOf('PCM', rate, pcm.length, chunks);
}

/** The packets of an Ogg stream (one logical stream). */
function oggPackets(b: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let open: number[] = [];
  for (let at = 0; at + 27 <= b.length;) {
    const segments = b[at + 26]!;
    let body = at + 27 + segments;
    for (const len of b.subarray(at + 27, at + 27 + segments)) {
      for (let i = 0; i < len; i++) open.push(b[body + i]!);
      body += len;
      if (len < 255) { packets.push(Uint8Array.from(open)); open = []; }
    }
    at = body;
  }
  return packets;
}

export function opusStreamedSound(seconds: number): Sound {
  const rate = 48_000;
  const pcm = sweep(seconds, rate);
  const r = spawnSync('ffmpeg', ['-v', 'error', '-f', 's16le', '-ar', String(rate), '-ac', '1', '-i', '-', '-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg', '-'], { input: new Uint8Array(pcm.buffer), maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  const [head, , ...packets] = oggPackets(new Uint8Array(r.stdout));
  const preSkip = new DataView(head!.buffer, head!.byteOffset).getUint16(10, true);
  const decoded = packets.length * 960;
  const header = new Uint8Array(42);
  const v = new DataView(header.buffer);
  header.set([...'UEOPUS'].map((c) => c.charCodeAt(0)));
  header[9] = 1;
  v.setUint32(10, rate, true); v.setUint32(14, rate, true); v.setBigUint64(18, BigInt(pcm.length), true);
  v.setUint32(26, packets.length, true); v.setInt32(30, preSkip, true); v.setInt32(34, 0, true); v.setInt32(38, Math.max(0, decoded - preSkip - pcm.length), true);
  const chunks: Uint8Array[] = [header];
  for (let i = 0; i < packets.length;) {
    const group: Uint8Array[] = [];
    let size = 15;
    while (i < packets.length && size + packets[i]!.length + 4 < CHUNK) { size += packets[i]!.length + 4; group.push(packets[i++]!); }
    const c = new Uint8Array(size);
    const cv = new DataView(c.buffer);
    c.set([...'SEEK'].map((x) => x.charCodeAt(0)));
    cv.setUint16(5, 960, true); cv.setInt32(11, group.length, true);
    let at = 15 + group.length * 2;
    for (const [k, p] of group.entries()) { cv.setUint16(15 + k * 2, p.length, true); cv.setUint16(at, p.length, true); c.set(p, at + 2); at += 2 + p.length; }
    chunks.push(c);
  }
  return soundOf('OPUS', rate, pcm.length, chunks);
}
