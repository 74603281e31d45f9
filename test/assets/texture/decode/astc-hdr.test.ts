/**
 * ASTC in the HDR profile (PF_ASTC_*_HDR) against Arm's astcenc: an RGBA half-float image with
 * values far above 1 is compressed with -ch (HDR colour, LDR alpha: endpoint mode 14 and the
 * luminance and scale modes) and -cH (HDR alpha too: mode 15), decompressed with -dh to a KTX of
 * half floats, and PakScope's floats, rounded to half precision, must be astcenc's, bit for bit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePixels } from '../../../../src/core/assets/texture/decode/index.js';
import { ASTCENC, requireAstcenc } from './astcenc.js';

/** float -> IEEE half bits, round to nearest even (written here, apart from the decoder's half table). */
function toHalf(f: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, f);
  const x = b.getUint32(0);
  const sign = (x >>> 16) & 0x8000;
  const e = (x >>> 23) & 0xff, m = x & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  const exp = e - 127 + 15;
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    // Subnormal half: a multiple of 2^-24, ties to even.
    const q = Math.abs(f) * 2 ** 24, fl = Math.floor(q);
    return sign | (q - fl > 0.5 || (q - fl === 0.5 && fl & 1) ? fl + 1 : fl);
  }
  let h = (exp << 10) | (m >>> 13);
  const r = m & 0x1fff;
  if (r > 0x1000 || (r === 0x1000 && (h & 1))) h++;
  return sign | h;
}

/** A KTX 1 file of RGBA half floats (GL_HALF_FLOAT, GL_RGBA, GL_RGBA16F). */
function ktxRgba16f(width: number, height: number, halves: Uint16Array): Uint8Array {
  const head = new DataView(new ArrayBuffer(64 + 4));
  [0xab, 0x4b, 0x54, 0x58, 0x20, 0x31, 0x31, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a].forEach((v, i) => head.setUint8(i, v));
  const fields = [0x04030201, 0x140b, 2, 0x1908, 0x881a, 0x1908, width, height, 0, 0, 1, 1, 0];
  fields.forEach((v, i) => head.setUint32(12 + i * 4, v, true));
  head.setUint32(64, halves.byteLength, true);
  const out = new Uint8Array(68 + halves.byteLength);
  out.set(new Uint8Array(head.buffer));
  out.set(new Uint8Array(halves.buffer, halves.byteOffset, halves.byteLength), 68);
  return out;
}

/** The half floats of a KTX 1 astcenc wrote (one mip, one face): channels per pixel and the values. */
function readKtxHalves(bytes: Uint8Array): { channels: number; halves: Uint16Array } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(v.getUint32(16, true)).toBe(0x140b); // GL_HALF_FLOAT
  const format = v.getUint32(24, true);
  const channels = format === 0x1908 ? 4 : format === 0x1907 ? 3 : 0;
  const at = 64 + v.getUint32(60, true);
  const size = v.getUint32(at, true);
  return { channels, halves: new Uint16Array(bytes.slice(at + 4, at + 4 + size).buffer) };
}

const WIDTH = 45, HEIGHT = 38;

/** Bright gradients up to ~200, a dark corner near 1e-3, flat patches, and alpha from 0 to 4. */
function hdrImage(): Uint16Array {
  const h = new Uint16Array(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 4;
      const region = ((x >> 3) + (y >> 3)) % 3;
      const r = region === 0 ? 0.001 * (1 + x) : region === 1 ? 2 ** (x / 6) : 12.5;
      const g = region === 2 ? 0.25 + y / 10 : 200 * (y / HEIGHT) ** 2;
      const b = ((x * 7 + y * 3) % 11) / 2;
      const a = region === 1 ? (x / WIDTH) * 4 : y / HEIGHT;
      h[i] = toHalf(r); h[i + 1] = toHalf(g); h[i + 2] = toHalf(b); h[i + 3] = toHalf(a);
    }
  }
  return h;
}

describe('ASTC HDR against astcenc', () => {
  requireAstcenc();
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-astc-hdr-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'source.ktx');
  writeFileSync(source, ktxRgba16f(WIDTH, HEIGHT, hdrImage()));

  for (const [bw, bh] of [[4, 4], [6, 6], [8, 5], [12, 12]] as const) {
    for (const flag of ['-ch', '-cH'] as const) {
      it(`${bw}x${bh} ${flag}: every texel as astcenc -dh decodes it`, () => {
        const astc = join(dir, `${bw}x${bh}${flag}.astc`), out = join(dir, `${bw}x${bh}${flag}.ktx`);
        execFileSync(ASTCENC, [flag, source, astc, `${bw}x${bh}`, '-medium', '-silent'], { stdio: 'ignore' });
        execFileSync(ASTCENC, ['-dh', astc, out, '-silent'], { stdio: 'ignore' });
        const blocks = new Uint8Array(readFileSync(astc)).subarray(16);
        const ours = decodePixels(`PF_ASTC_${bw}x${bh}_HDR`, blocks, WIDTH, HEIGHT);
        expect(ours.float).toBeDefined();
        const theirs = readKtxHalves(new Uint8Array(readFileSync(out)));
        expect(theirs.channels).toBe(4);
        let bright = 0;
        for (let p = 0; p < WIDTH * HEIGHT; p++) {
          for (let c = 0; c < 4; c++) {
            const want = theirs.halves[p * 4 + c]!;
            expect(toHalf(ours.float![p * 4 + c]!), `texel ${p % WIDTH},${Math.floor(p / WIDTH)} channel ${c}`).toBe(want);
          }
          if (ours.float![p * 4 + 1]! > 50) bright++;
        }
        // The image really is HDR: many texels far above 1, and the 8-bit image clamps them.
        expect(bright).toBeGreaterThan(100);
        expect(ours.rgba[1]).toBeLessThan(255);
      });
    }
  }
});
