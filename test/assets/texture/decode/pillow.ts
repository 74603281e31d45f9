/**
 * Pillow (Debian's python3-pil, /usr/bin/python3) as the independent reference decoder for BC1-BC7:
 * the test writes a DDS of its blocks, Pillow's DDS plugin decodes it in a child process, and the
 * test compares Pillow's pixels with PakScope's. `npm test` installs python3-pil when it is missing
 * (scripts/ensure-test-tools.mjs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PYTHON = '/usr/bin/python3';

export function pillowVersion(): string {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: install python3-pil (apt-get install python3-pil)`);
  return execFileSync(PYTHON, ['-c', 'import PIL; print(PIL.__version__)'], { encoding: 'utf8' }).trim();
}

/** A DDS of one 2D image: a legacy header with `fourCC`, or a DX10 header with `dxgiFormat`. */
export function dds(width: number, height: number, data: Uint8Array, format: { fourCC?: string; dxgiFormat?: number }): Uint8Array {
  const dx10 = format.dxgiFormat !== undefined;
  const out = new Uint8Array(128 + (dx10 ? 20 : 0) + data.length);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000, true); // caps, height, width, pixel format, linear size
  v.setUint32(12, height, true);
  v.setUint32(16, width, true);
  v.setUint32(20, data.length, true);
  v.setUint32(28, 1, true); // mips
  v.setUint32(76, 32, true); // pixel format size
  v.setUint32(80, 0x4, true); // DDPF_FOURCC
  const fourCC = dx10 ? 'DX10' : format.fourCC!;
  for (let i = 0; i < 4; i++) out[84 + i] = fourCC.charCodeAt(i);
  v.setUint32(108, 0x1000, true); // DDSCAPS_TEXTURE
  if (dx10) {
    v.setUint32(128, format.dxgiFormat!, true);
    v.setUint32(132, 3, true); // TEXTURE2D
    v.setUint32(140, 1, true); // array size
  }
  out.set(data, 128 + (dx10 ? 20 : 0));
  return out;
}

const SCRIPT = `
import sys
from PIL import Image
for path in sys.argv[1:]:
    with Image.open(path) as im:
        im.load()
        rgba = im.convert('RGBA')
        with open(path + '.rgba', 'wb') as f:
            f.write(rgba.tobytes())
`;

/** Pillow's RGBA bytes of each DDS file (its L and RGB images widened to RGBA: L into R, G and B; A = 255). */
export function decodeWithPillow(files: Uint8Array[]): Uint8Array[] {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-pillow-'));
  try {
    const paths = files.map((f, i) => { const p = join(dir, `${i}.dds`); writeFileSync(p, f); return p; });
    execFileSync(PYTHON, ['-c', SCRIPT, ...paths], { stdio: ['ignore', 'ignore', 'pipe'] });
    return paths.map((p) => new Uint8Array(readFileSync(`${p}.rgba`)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Deterministic pseudo-random bytes (xorshift32). */
export function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = x & 255;
  }
  return out;
}

/** The first pixel (x, y, channel) where two RGBA images differ by more than `tolerance`, or undefined. */
export function firstDifference(a: Uint8Array, b: Uint8Array, width: number, tolerance = 0, channels = 4): string | undefined {
  if (a.length !== b.length) return `sizes differ: ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 >= channels) continue;
    if (Math.abs(a[i]! - b[i]!) > tolerance) {
      const p = i >> 2;
      return `pixel (${p % width}, ${Math.floor(p / width)}) channel ${'RGBA'[i % 4]}: ${a[i]} vs ${b[i]}`;
    }
  }
  return undefined;
}

/** An image file's pixels as RGBA, read by Pillow (the source art of the fixtures). */
export function imageWithPillow(path: string): { width: number; height: number; rgba: Uint8Array } {
  const script = `
import sys
from PIL import Image
with Image.open(sys.argv[1]) as im:
    rgba = im.convert('RGBA')
    sys.stdout.write('%d %d\\n' % rgba.size)
    sys.stdout.flush()
    sys.stdout.buffer.write(rgba.tobytes())
`;
  const out = execFileSync(PYTHON, ['-c', script, path], { maxBuffer: 1 << 28 });
  const nl = out.indexOf(10);
  const [width, height] = out.subarray(0, nl).toString().split(' ').map(Number) as [number, number];
  return { width, height, rgba: new Uint8Array(out.subarray(nl + 1)) };
}

/** Per channel (R, G, B, A): mean and largest absolute difference of `actual` channel c against `expected` channel map[c]. */
export function channelErrors(actual: Uint8Array, expected: Uint8Array, map = [0, 1, 2, 3]): Array<{ mean: number; max: number }> {
  const sums = [0, 0, 0, 0], maxima = [0, 0, 0, 0];
  const pixels = actual.length / 4;
  for (let p = 0; p < pixels; p++) {
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(actual[p * 4 + c]! - expected[p * 4 + map[c]!]!);
      sums[c]! += d;
      if (d > maxima[c]!) maxima[c] = d;
    }
  }
  return sums.map((s, c) => ({ mean: s / pixels, max: maxima[c]! }));
}
