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

const SCRIPT = `
import sys, json
from PIL import Image
im = Image.open(sys.argv[1])
im.load()
head = json.dumps({"mode": im.mode, "format": im.format, "width": im.width, "height": im.height}).encode()
sys.stdout.buffer.write(head + b"\\n" + im.convert("RGBA").tobytes())
`;

/** The image file at `path`, as Pillow reads it. */
export function readReferenceImage(path: string): ReferenceImage {
  const out = execFileSync(PYTHON, ['-c', SCRIPT, path], { maxBuffer: 1 << 30 });
  const nl = out.indexOf(10);
  const head = JSON.parse(out.subarray(0, nl).toString('utf8')) as Omit<ReferenceImage, 'rgba'>;
  const rgba = new Uint8Array(out.subarray(nl + 1));
  if (rgba.length !== head.width * head.height * 4) throw new Error(`Pillow gave ${rgba.length} bytes for ${head.width}x${head.height}`);
  return { ...head, rgba };
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
