/**
 * Arm's astcenc (Debian's astcenc package, /usr/bin/astcenc) as the independent reference for
 * ASTC: it compresses a test image into real blocks of every kind its encoder picks (partitions,
 * dual planes, every endpoint mode and weight grid) and decompresses them; PakScope's decoder
 * must give the same pixels. `npm test` installs it when missing (scripts/ensure-test-tools.mjs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageWithPillow, PYTHON, randomBytes } from './pillow.js';

export const ASTCENC = '/usr/bin/astcenc';

export function requireAstcenc(): void {
  if (!existsSync(ASTCENC)) throw new Error(`${ASTCENC} is missing: install astcenc (apt-get install astcenc)`);
}

/** A .astc file: its 16-byte header and blocks. */
export function astcFile(bw: number, bh: number, width: number, height: number, blocks: Uint8Array): Uint8Array {
  const out = new Uint8Array(16 + blocks.length);
  out.set([0x13, 0xab, 0xa1, 0x5c, bw, bh, 1, width & 255, (width >> 8) & 255, width >> 16, height & 255, (height >> 8) & 255, height >> 16, 1, 0, 0]);
  out.set(blocks, 16);
  return out;
}

export interface AstcReference { blocks: Uint8Array; decoded: Uint8Array }

/**
 * Compresses an RGBA image with astcenc at each block size (LDR, -medium) and decompresses the
 * result; also decompresses each extra block payload given. Returns the blocks and astcenc's pixels.
 */
export function astcencRoundTrip(
  image: { width: number; height: number; rgba: Uint8Array }, sizes: Array<[number, number]>,
  extra: Array<{ bw: number; bh: number; width: number; height: number; blocks: Uint8Array }> = [],
): { compressed: AstcReference[]; extra: Uint8Array[] } {
  requireAstcenc();
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-astc-'));
  try {
    const raw = join(dir, 'source.rgba');
    const png = join(dir, 'source.png');
    writeFileSync(raw, image.rgba);
    execFileSync(PYTHON, ['-c', `import sys\nfrom PIL import Image\nImage.frombytes('RGBA', (${image.width}, ${image.height}), open(sys.argv[1], 'rb').read()).save(sys.argv[2])`, raw, png]);
    const compressed = sizes.map(([bw, bh]) => {
      const astc = join(dir, `${bw}x${bh}.astc`);
      const out = join(dir, `${bw}x${bh}.png`);
      execFileSync(ASTCENC, ['-cl', png, astc, `${bw}x${bh}`, '-medium', '-silent'], { stdio: 'ignore' });
      execFileSync(ASTCENC, ['-dl', astc, out, '-silent'], { stdio: 'ignore' });
      return { blocks: new Uint8Array(readFileSync(astc)).subarray(16), decoded: imageWithPillow(out).rgba };
    });
    const extras = extra.map((e, i) => {
      const astc = join(dir, `extra${i}.astc`);
      const out = join(dir, `extra${i}.png`);
      writeFileSync(astc, astcFile(e.bw, e.bh, e.width, e.height, e.blocks));
      execFileSync(ASTCENC, ['-dl', astc, out, '-silent'], { stdio: 'ignore' });
      return imageWithPillow(out).rgba;
    });
    return { compressed, extra: extras };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A test image with flat areas, gradients, noise, hard edges and varying alpha; not a multiple of any block size. */
export function testImage(width: number, height: number): { width: number; height: number; rgba: Uint8Array } {
  const rgba = new Uint8Array(width * height * 4);
  const noise = randomBytes(width * height * 4, 1234);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const region = (x >> 4) + (y >> 4) * 8;
      if (region % 4 === 0) rgba.set([x * 4, y * 4, 255 - x * 2, 255], i);
      else if (region % 4 === 1) rgba.set([noise[i]!, noise[i + 1]!, noise[i + 2]!, noise[i + 3]!], i);
      else if (region % 4 === 2) rgba.set([(x + y) & 8 ? 250 : 10, 128, (x * y) & 255, (x * 8) & 255], i);
      else rgba.set([y * 3, y * 3, y * 3, 255 - y], i);
    }
  }
  return { width, height, rgba };
}

