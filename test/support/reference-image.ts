/**
 * Images read by an independent decoder: Pillow through Debian's /usr/bin/python3 (python3-pil).
 * Tests compare PakScope's output with these pixels; nothing here shares code with PakScope's
 * writers or decoders.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PYTHON = '/usr/bin/python3';

export interface ReferenceImage {
  /** Pillow's mode of the file as stored: "L", "RGB", "RGBA", ... */
  mode: string;
  /** Pillow's format name: "PNG", "DDS". */
  format: string;
  width: number;
  height: number;
  /** The pixels converted to RGBA by Pillow. */
  rgba: Uint8Array;
}

/** Per file: a JSON line (mode, format, size, byte count), then the RGBA bytes. */
const SCRIPT = `
import sys, json
from PIL import Image
for path in sys.argv[1:]:
    im = Image.open(path)
    im.load()
    data = im.convert("RGBA").tobytes()
    head = json.dumps({"mode": im.mode, "format": im.format, "width": im.width, "height": im.height, "bytes": len(data)}).encode()
    sys.stdout.buffer.write(head + b"\\n" + data)
`;

/** The image file at `path`, as Pillow reads it. */
export function readReferenceImage(path: string): ReferenceImage {
  return readReferenceImages([path])[0]!;
}

/** Several image files read by one Pillow process (each start costs about 0.1 s). */
export function readReferenceImages(paths: readonly string[]): ReferenceImage[] {
  if (paths.length === 0) return [];
  const out = execFileSync(PYTHON, ['-c', SCRIPT, ...paths], { maxBuffer: 1 << 30 });
  const images: ReferenceImage[] = [];
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    const head = JSON.parse(out.subarray(at, nl).toString('utf8')) as Omit<ReferenceImage, 'rgba'> & { bytes: number };
    const rgba = new Uint8Array(out.subarray(nl + 1, nl + 1 + head.bytes));
    if (rgba.length !== head.width * head.height * 4) throw new Error(`Pillow gave ${rgba.length} bytes for ${head.width}x${head.height}`);
    images.push({ mode: head.mode, format: head.format, width: head.width, height: head.height, rgba });
    at = nl + 1 + head.bytes;
  }
  return images;
}

/** An image file's bytes (written to a temporary file first), as Pillow reads it. */
export function readReferenceImageBytes(bytes: Uint8Array, extension: string): ReferenceImage {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-ref-'));
  try {
    const file = join(dir, `image.${extension}`);
    writeFileSync(file, bytes);
    return readReferenceImage(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per channel (R, G, B, A): the mean and the largest absolute difference of two RGBA images. */
export function channelErrors(actual: Uint8Array, expected: Uint8Array): { mean: number[]; max: number[] } {
  if (actual.length !== expected.length) throw new Error(`${actual.length} bytes against ${expected.length}`);
  const sum = [0, 0, 0, 0], max = [0, 0, 0, 0];
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i]! - expected[i]!);
    sum[i & 3] = sum[i & 3]! + d;
    if (d > max[i & 3]!) max[i & 3] = d;
  }
  const pixels = actual.length / 4;
  return { mean: sum.map((s) => s / pixels), max };
}
