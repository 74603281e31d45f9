/**
 * Probe: texture_preview_ms. A 4096x4096 BC7 texture with all 13 mips in a .ubulk (written here,
 * its blocks tiled from the cue58 T_BC7 fixture's, so they are real encoder output), then, as
 * the app does for a preview: the backend's decodeForView (what TextureService caches and pages
 * out): the mip's bytes read from the .ubulk by the cooked texture reader's payload path
 * (readBulkPayload over the file), cut to its slice, decoded in the worker pool (every thread
 * claiming bands of block rows, into one shared image) and put through the PNG rules. Timed from
 * the request to the decoded pixels, the pool warm (the app's is). Not timed: parsing the package
 * header (package_view_ms measures that part of the app's path), which is no part of the pixels'
 * cost. Each run also reports the CPU time it cost (this thread's and the whole process's) and
 * how long its threads waited for a core, from /proc (schedstat), so a reader can tell the code's
 * cost from the shared machine's load.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePixels, sliceBytes } from '../../src/core/assets/texture/decode/index.js';
import { readFileSync, readdirSync } from 'node:fs';
import { decodeForView } from '../../src/backend/texture-core.js';
import { BulkDataFlags, readBulkPayload, type BulkDataRef, type BulkFiles } from '../../src/core/assets/texture/read/bulk-data.js';
import { readInstallTexture } from '../../src/core/assets/texture/read/index.js';
import { diskPayload, memoryPayload } from '../../src/core/assets/texture/read/payload.js';
import type { Texture, TextureMip } from '../../src/core/assets/texture/types.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openInstall } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { emitResult, median, probeArgs, progress } from './probe-io.js';

export interface TexturePreviewArgs { workerFile: string; fixtures: string; reps: number }
export interface TexturePreviewResult {
  /** Median, request to decoded pixels, ms. */
  medianMs: number;
  runsMs: number[];
  /** Of which reading mip 0 from the .ubulk (median, ms). */
  readMs: number;
  /** The same mip decoded on one thread, no pool (median of 2, ms). */
  oneThreadMs: number;
  /** Per run: CPU time of the whole process (every thread) and of this (main) thread, and the time its threads waited for a core (ms; null without /proc). */
  cpuMs: number[];
  mainCpuMs: (number | null)[];
  waitMs: (number | null)[];
  threads: number;
  ubulkBytes: number;
}

const SIZE = 4096;

/**
 * This process's threads from /proc/self/task/<tid>/schedstat (ns on a core, ns waiting in the
 * run queue): this thread's CPU time and every thread's waiting, summed. Undefined without /proc.
 */
function threadTimes(): { main: number; wait: number } | undefined {
  try {
    let main = 0, wait = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      const [run, queued] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      if (Number(tid) === process.pid) main = run!;
      wait += queued!;
    }
    return { main, wait };
  } catch {
    return undefined;
  }
}
const FORMAT = 'PF_BC7';

const args = probeArgs<TexturePreviewArgs>();
const dir = await mkdtemp(join(tmpdir(), 'pakscope-bench-texture-'));
const pool = createWorkerPool({ workerFile: args.workerFile });
try {
  // The fixture's 256 blocks (64x64 BC7), tiled over every mip.
  const install = await openInstall([args.fixtures], { keys: new KeyRing() });
  const packages = new InstallPackages(install);
  const fixture = await readInstallTexture(packages, '/Game/Fixtures/Textures/T_BC7');
  const blocks = await fixture.readMip(0);
  await packages.close();
  await install.close();
  if (fixture.pixelFormat !== FORMAT || blocks.length !== 4096) throw new Error(`T_BC7 is ${fixture.pixelFormat}, ${blocks.length} bytes; expected PF_BC7, 4096`);

  const mips: TextureMip[] = [];
  const refs: BulkDataRef[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (let m = 0, w = SIZE; w >= 1; m++, w >>= 1) {
    const bytes = sliceBytes(FORMAT, w, w);
    const data = new Uint8Array(bytes);
    for (let at = 0; at < bytes; at += 16) data.set(blocks.subarray(at % 4096, (at % 4096) + 16), at);
    parts.push(data);
    mips.push({ width: w, height: w, depth: 1, bytes, location: '.ubulk' });
    const flags = BulkDataFlags.PayloadInSeperateFile | BulkDataFlags.Size64Bit | BulkDataFlags.NoOffsetFixUp;
    refs.push({ flags, elementCount: bytes, sizeOnDisk: bytes, offset, storedOffset: offset, location: '.ubulk', cookedIndex: 0, headerAt: 0 });
    offset += bytes;
  }
  const ubulk = join(dir, 'T_Bench4096.ubulk');
  await writeFile(ubulk, Buffer.concat(parts));
  const files: BulkFiles = {
    inline: memoryPayload('T_Bench4096.uexp', new Uint8Array(0)),
    separate: (location) => (location === '.ubulk' ? diskPayload(ubulk, offset, 'T_Bench4096.ubulk') : undefined),
  };
  const readTimes: number[] = [];
  const texture: Texture = {
    class: 'Texture2D', name: 'T_Bench4096', pixelFormat: FORMAT, width: SIZE, height: SIZE, depth: 1, slices: 1,
    cube: false, virtual: false, srgb: true, mips, notes: [],
    readMip: async (index, signal) => {
      const t0 = performance.now();
      const bytes = await readBulkPayload(refs[index]!, files, `mip ${index}`, signal);
      readTimes.push(performance.now() - t0);
      return bytes;
    },
  };

  await pool.warm();
  // Once untimed: the decoder's code warmed up in every worker, as after the app's first texture.
  const check = await decodeForView(texture, { pool, mip: 0, slice: 0 });
  const expected = decodePixels(FORMAT, blocks, 64, 64);
  for (const [x, y] of [[0, 0], [63, 63], [4095, 4095], [1000, 3001]] as const) {
    // The blocks were laid in storage order: block column c of any row is the fixture's block c mod 256.
    const k = (x >> 2) % 256;
    const fx = (k & 15) * 4 + (x & 3), fy = (k >> 4) * 4 + (y & 3);
    const a = ((y * SIZE) + x) * 4, b = (fy * 64 + fx) * 4;
    if (check.rgba.subarray(a, a + 4).join() !== expected.rgba.subarray(b, b + 4).join()) throw new Error(`pixel ${x},${y} decoded wrong`);
  }
  readTimes.length = 0;
  const runsMs: number[] = [], cpuMs: number[] = [], mainCpuMs: (number | null)[] = [], waitMs: (number | null)[] = [];
  for (let i = 0; i < args.reps; i++) {
    const before = threadTimes(), cpu = process.cpuUsage();
    const t0 = performance.now();
    await decodeForView(texture, { pool, mip: 0, slice: 0 });
    runsMs.push(performance.now() - t0);
    const c = process.cpuUsage(cpu), after = threadTimes();
    cpuMs.push((c.user + c.system) / 1000);
    mainCpuMs.push(before && after ? (after.main - before.main) / 1e6 : null);
    waitMs.push(before && after ? (after.wait - before.wait) / 1e6 : null);
    progress(`texture preview ${i + 1}: ${runsMs[i]!.toFixed(0)} ms, CPU ${cpuMs[i]!.toFixed(0)} ms (main thread ${mainCpuMs[i]?.toFixed(0)}), waiting for a core ${waitMs[i]?.toFixed(0)} ms`);
  }
  const single: number[] = [];
  const mip0 = parts[0]!;
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    decodePixels(FORMAT, mip0, SIZE, SIZE);
    single.push(performance.now() - t0);
  }
  const result: TexturePreviewResult = {
    medianMs: median(runsMs), runsMs, readMs: median(readTimes), oneThreadMs: median(single), threads: pool.threads, ubulkBytes: offset,
    cpuMs, mainCpuMs, waitMs,
  };
  emitResult(result);
} finally {
  await pool.destroy();
  await rm(dir, { recursive: true, force: true });
}
