import { spawnSync } from 'node:child_process';

/** 16-bit samples as ffmpeg decodes a file (or `input` with path "-"): an independent reference decoder. */
export function ffmpegSamples(path: string, input?: Uint8Array): Int16Array {
  const r = spawnSync('ffmpeg', [...(input ? [] : ['-nostdin']), '-v', 'error', '-i', path, '-f', 's16le', '-acodec', 'pcm_s16le', '-'], { maxBuffer: 1 << 26, ...(input ? { input } : {}) });
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  const b = r.stdout;
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
