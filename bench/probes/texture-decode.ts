/**
 * Probe: PakScope's pixel decoder (decodePixels, one thread: this process's main thread) on one
 * payload file, `reps` timed decodes after one untimed warm-up. Reports each decode's CPU time
 * (user + system of this process: the output image's page faults count, as they do for Pillow)
 * and wall time. A checksum of the pixels makes sure the work is done and comparable.
 */
import { readFileSync } from 'node:fs';
import { decodePixels } from '../../src/core/assets/texture/decode/index.js';
import { emitResult, probeArgs } from './probe-io.js';

export interface TextureDecodeArgs { file: string; pixelFormat: string; width: number; height: number; reps: number }
export interface TextureDecodeResult { cpuMs: number[]; wallMs: number[]; checksum: number }

const a = probeArgs<TextureDecodeArgs>();
const data = new Uint8Array(readFileSync(a.file));
let checksum = 0;
const cpuMs: number[] = [];
const wallMs: number[] = [];
for (let i = 0; i <= a.reps; i++) {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const image = decodePixels(a.pixelFormat, data, a.width, a.height);
  const w = performance.now() - wall;
  const c = process.cpuUsage(cpu);
  if (i > 0) { cpuMs.push((c.user + c.system) / 1000); wallMs.push(w); }
  checksum = 0;
  for (let p = 0; p < image.rgba.length; p += 4099) checksum = (checksum * 31 + image.rgba[p]!) >>> 0;
}
emitResult({ cpuMs, wallMs, checksum } satisfies TextureDecodeResult);
