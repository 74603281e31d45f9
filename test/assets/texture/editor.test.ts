/**
 * Editor textures (corpus/uncooked): the source art of uncooked packages, UE4 (FByteBulkData,
 * zlib-compressed at the end of the file, or inline) and UE5 (FEditorBulkData: a stored
 * FCompressedBuffer at its offset in 5.0, an Oodle one in the 5.3 package trailer). Where the
 * source PNG sits in the file as stored, Pillow decodes it straight from there (cut out by a
 * script that knows nothing of PakScope) and the PNG PakScope writes must hold the same pixels.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { openPackageFile } from '../../../src/core/package/open-package.js';
import { corpus } from '../../support/corpus.js';
import { PYTHON, readReferenceImage } from '../../support/reference-image.js';

/** Cuts the PNG of the given size out of a file, as stored (signature through IEND). */
const CUT_PNG = `
import sys, struct
data = open(sys.argv[1], 'rb').read()
w, h = int(sys.argv[2]), int(sys.argv[3])
at = data.find(b'\\x89PNG\\r\\n\\x1a\\n')
while at >= 0:
    if struct.unpack('>II', data[at + 16:at + 24]) == (w, h):
        end = data.find(b'IEND', at) + 8
        open(sys.argv[4], 'wb').write(data[at:end])
        break
    at = data.find(b'\\x89PNG\\r\\n\\x1a\\n', at + 1)
`;

let temp: string;
beforeAll(async () => { temp = await mkdtemp(join(tmpdir(), 'pakscope-editor-')); });
afterAll(() => rm(temp, { recursive: true, force: true }));

async function convert(file: string): Promise<{ png: string; notes: string[] }> {
  const path = corpus('uncooked', file);
  const { model } = await openPackageFile(path);
  const [exp] = convertibleExports(model);
  expect(exp?.kind.kind).toBe('texture');
  const [out] = await convertExport({ file: path }, exp!, 'png');
  const png = join(temp, `${file}.png`);
  await writeFile(png, out!.data);
  return { png, notes: [] };
}

describe('editor textures: the source art of uncooked packages', () => {
  for (const [file, w, h] of [['ue4old_T_FPGun_M.uasset', 2048, 2048], ['ue50_T_ML_Aluminum01.uasset', 512, 512]] as const) {
    it(`${file}: the same pixels as the PNG stored in the package (Pillow)`, async () => {
      const { png } = await convert(file);
      const stored = join(temp, `${file}.stored.png`);
      execFileSync(PYTHON, ['-c', CUT_PNG, corpus('uncooked', file), String(w), String(h), stored]);
      const mine = readReferenceImage(png), theirs = readReferenceImage(stored);
      expect([mine.width, mine.height]).toEqual([w, h]);
      expect(Buffer.from(mine.rgba).equals(Buffer.from(theirs.rgba))).toBe(true);
    });
  }

  it('ue4old_T_Gradinet_01.uasset (zlib-compressed at the end of the file): 64x256, a vertical gradient', async () => {
    const img = readReferenceImage((await convert('ue4old_T_Gradinet_01.uasset')).png);
    expect([img.width, img.height]).toEqual([64, 256]);
    // about one value across each row (a gradient running down, white to black)
    const rowMean = (y: number): number => {
      let sum = 0;
      for (let x = 0; x < 64; x++) sum += img.rgba[(y * 64 + x) * 4]!;
      return sum / 64;
    };
    for (let y = 0; y < 256; y += 15) {
      for (let x = 0; x < 64; x++) expect(Math.abs(img.rgba[(y * 64 + x) * 4]! - rowMean(y))).toBeLessThanOrEqual(4);
    }
    expect(rowMean(0) - rowMean(255)).toBeGreaterThan(150);
  });

  it('ue53_T_GridChecker_A.uasset (Oodle-compressed in the package trailer): 512x512, the checker\'s green and black squares', async () => {
    const img = readReferenceImage((await convert('ue53_T_GridChecker_A.uasset')).png);
    expect([img.width, img.height]).toEqual([512, 512]);
    const px = (x: number, y: number): number[] => [...img.rgba.subarray((y * 512 + x) * 4, (y * 512 + x) * 4 + 4)];
    expect(px(100, 100)).toEqual([0, 0, 0, 255]);
    expect(px(400, 100)).toEqual([0, 255, 0, 255]);
    expect(px(100, 400)).toEqual([0, 255, 0, 255]);
    expect(px(400, 400)).toEqual([0, 0, 0, 255]);
  });
});
