/**
 * texture_decode_ratio_bc1 / _bc7: PakScope's BC1 and BC7 decoders against Pillow's C decoder
 * (Debian's python3-pil, its DDS plugin) on the same 4096x4096 payload, one thread each.
 *
 * The payload is real blocks: mip 0 of the cue58 fixtures T_Streaming (BC1, 512x512) and T_BC7
 * (64x64), read with the cooked texture reader and tiled to 4096x4096. Each round runs the
 * PakScope probe (a child process: one warm-up decode, then `reps` timed ones) and then Pillow
 * (a child python3: the same) and takes each side's median; the figure is the median over rounds
 * of Pillow's time over PakScope's (PakScope's rate as a share of Pillow's). Times are CPU time
 * of the decoding process (user + system), not wall time: this machine's cores are shared and
 * wall times move with its load, twice as much as the decoders differ. Both are in the note.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePixels, sliceBytes } from '../src/core/assets/texture/decode/index.js';
import { readInstallTexture } from '../src/core/assets/texture/read/index.js';
import { openInstall } from '../src/core/install/install.js';
import { InstallPackages } from '../src/core/package/open-package.js';
import { PROJECT_ROOT } from './build-probes.js';
import { runProbe } from './probe-runner.js';
import type { TextureDecodeResult } from './probes/texture-decode.js';
import { median } from './probes/probe-io.js';
import { targetResult, type TargetResult } from './results.js';

const PYTHON = '/usr/bin/python3';
const SIZE = 4096;
const FIXTURES = join(PROJECT_ROOT, '..', 'shared', 'corpus', 'cue58', 'IoStore', 'Tagged', 'Uncompressed',
  'CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');

const CASES = [
  { target: 'texture_decode_ratio_bc1', texture: 'T_Streaming', pixelFormat: 'PF_DXT1', dds: { fourCC: 'DXT1' } },
  { target: 'texture_decode_ratio_bc7', texture: 'T_BC7', pixelFormat: 'PF_BC7', dds: { dxgiFormat: 98 } },
] as const;

/** Pillow decoding a DDS `reps` times after a warm-up; prints CPU and wall ms per decode and a checksum. */
const PILLOW = `
import io, json, sys, time
from PIL import Image
data = open(sys.argv[1], 'rb').read()
reps = int(sys.argv[2])
cpu, wall = [], []
for i in range(reps + 1):
    im = Image.open(io.BytesIO(data))
    c, w = time.process_time(), time.perf_counter()
    im.load()
    c, w = time.process_time() - c, time.perf_counter() - w
    if i > 0:
        cpu.append(c * 1000); wall.append(w * 1000)
print(json.dumps({'cpuMs': cpu, 'wallMs': wall}))
`;

function pillowAvailable(): string | undefined {
  try {
    return execFileSync(PYTHON, ['-c', 'import PIL; print(PIL.__version__)'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** A DDS file of one 2D image: legacy header with a FourCC, or a DX10 header with a DXGI format. */
function ddsFile(width: number, height: number, data: Uint8Array, format: { fourCC?: string; dxgiFormat?: number }): Uint8Array {
  const dx10 = format.dxgiFormat !== undefined;
  const out = new Uint8Array(128 + (dx10 ? 20 : 0) + data.length);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000, true);
  v.setUint32(12, height, true);
  v.setUint32(16, width, true);
  v.setUint32(20, data.length, true);
  v.setUint32(28, 1, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, 0x4, true);
  const fourCC = dx10 ? 'DX10' : format.fourCC!;
  for (let i = 0; i < 4; i++) out[84 + i] = fourCC.charCodeAt(i);
  v.setUint32(108, 0x1000, true);
  if (dx10) {
    v.setUint32(128, format.dxgiFormat!, true);
    v.setUint32(132, 3, true);
    v.setUint32(140, 1, true);
  }
  out.set(data, 128 + (dx10 ? 20 : 0));
  return out;
}

/** The fixture's mip 0 blocks repeated to fill a SIZE x SIZE payload (its rows of blocks tiled as a whole). */
async function tiledPayloads(): Promise<Map<string, Uint8Array>> {
  const install = await openInstall([FIXTURES]);
  const packages = new InstallPackages(install);
  try {
    const out = new Map<string, Uint8Array>();
    for (const c of CASES) {
      const t = await readInstallTexture(packages, `/Game/Fixtures/Textures/${c.texture}`);
      if (t.pixelFormat !== c.pixelFormat) throw new Error(`${c.texture} is ${t.pixelFormat}, not ${c.pixelFormat}`);
      const mip = await t.readMip(0);
      const info = { bw: 4, bytes: sliceBytes(c.pixelFormat, 4, 4) };
      const srcBlocksX = t.width / info.bw, srcBlocksY = t.height / info.bw, blocksX = SIZE / info.bw;
      const payload = new Uint8Array(sliceBytes(c.pixelFormat, SIZE, SIZE));
      for (let by = 0; by < blocksX; by++) {
        for (let bx = 0; bx < blocksX; bx++) {
          const from = ((by % srcBlocksY) * srcBlocksX + (bx % srcBlocksX)) * info.bytes;
          payload.set(mip.subarray(from, from + info.bytes), (by * blocksX + bx) * info.bytes);
        }
      }
      out.set(c.pixelFormat, payload);
    }
    return out;
  } finally {
    await packages.close();
    await install.close();
  }
}

export async function measureTextureDecode(plan: { rounds: number; reps: number }, log: (line: string) => void,
  details: Record<string, unknown>): Promise<TargetResult[]> {
  const version = pillowAvailable();
  if (!version) {
    const why = `skipped: ${PYTHON} with Pillow (Debian: apt-get install python3-pil) is not installed`;
    return CASES.map((c) => targetResult(c.target, null, why));
  }
  if (!existsSync(FIXTURES)) {
    const why = `skipped: the cue58 fixtures (${FIXTURES}) are missing`;
    return CASES.map((c) => targetResult(c.target, null, why));
  }
  const payloads = await tiledPayloads();
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-texture-bench-'));
  try {
    const results: TargetResult[] = [];
    for (const c of CASES) {
      const payload = payloads.get(c.pixelFormat)!;
      const raw = join(dir, `${c.pixelFormat}.bin`);
      const dds = join(dir, `${c.pixelFormat}.dds`);
      writeFileSync(raw, payload);
      writeFileSync(dds, ddsFile(SIZE, SIZE, payload, c.dds));
      // Same pixels on both sides (Pillow's BC1/BC7 match PakScope's bit for bit: test/assets/texture/decode).
      const ours = decodePixels(c.pixelFormat, payload, SIZE, SIZE).rgba;
      const ratios: number[] = [];
      const oursCpu: number[] = [], pillowCpu: number[] = [], oursWall: number[] = [], pillowWall: number[] = [];
      for (let round = 0; round < plan.rounds; round++) {
        const p = await runProbe<TextureDecodeResult>('texture-decode', { file: raw, pixelFormat: c.pixelFormat, width: SIZE, height: SIZE, reps: plan.reps });
        const q = JSON.parse(execFileSync(PYTHON, ['-c', PILLOW, dds, String(plan.reps)], { encoding: 'utf8', maxBuffer: 1 << 20 })) as { cpuMs: number[]; wallMs: number[] };
        oursCpu.push(median(p.cpuMs)); pillowCpu.push(median(q.cpuMs));
        oursWall.push(median(p.wallMs)); pillowWall.push(median(q.wallMs));
        ratios.push(median(q.cpuMs) / median(p.cpuMs));
        log(`  ${c.pixelFormat} round ${round + 1}: PakScope ${median(p.cpuMs).toFixed(0)} ms, Pillow ${median(q.cpuMs).toFixed(0)} ms CPU (${ratios.at(-1)!.toFixed(2)})`);
      }
      details[c.target] = { pillow: version, ratios, oursCpuMs: oursCpu, pillowCpuMs: pillowCpu, oursWallMs: oursWall, pillowWallMs: pillowWall, checksumBytes: ours.length };
      const f = (v: number): string => v.toFixed(0);
      results.push(targetResult(c.target, median(ratios),
        `${c.texture} mip 0 tiled to ${SIZE}x${SIZE}, one thread each, CPU time: median of ${plan.rounds} alternating rounds ` +
        `(ratios ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}; each side the median of ${plan.reps} decodes): ` +
        `PakScope ${f(median(oursCpu))} ms, Pillow ${version} ${f(median(pillowCpu))} ms; wall ${f(median(oursWall))} vs ${f(median(pillowWall))} ms. ` +
        `Both times include allocating the 64 MiB image (its page faults, 20 to 60 ms of system time here)`));
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
