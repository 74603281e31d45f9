/**
 * UE1/2 textures (ut2004 .utx and .usx): read from their packages, decoded, and checked against
 * what the engine itself stored beside them: MipZero (the average colour; for DXT textures a
 * quarter of it, alpha 63) and MaxColor (the largest value per channel).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { decodeTextureImage } from '../../../src/core/assets/texture/image.js';
import { readUe12Texture } from '../../../src/core/assets/texture/ue12.js';
import { FormatError } from '../../../src/core/errors.js';
import { KeyRing } from '../../../src/core/crypto/keys.js';
import { openInstall } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { ue12Properties } from '../../../src/core/properties/ue12.js';
import { parseUe12Package } from '../../../src/core/ue12/index.js';
import { corpus } from '../../support/corpus.js';

type Color = { R: number; G: number; B: number; A: number };

async function check(file: string, expected: { textures: number; format: string; scale: number; tolerance: number }): Promise<void> {
  const path = corpus('legacy', file);
  const bytes = new Uint8Array(readFileSync(path));
  const pkg = parseUe12Package(bytes, path);
  const props = ue12Properties(pkg, bytes);
  let seen = 0;
  for (const [i, e] of pkg.exports.entries()) {
    if (e.className !== 'Texture') continue;
    seen++;
    const t = readUe12Texture(bytes, path, i);
    const stored = (name: string): unknown => props.exports[i]!.properties.find((p) => p.name === name)?.value;
    const size = stored('USize') as number;
    // the size the properties give, and mips down to 1x1
    expect([t.name, t.pixelFormat, t.width, t.height, t.mips.length]).toEqual([e.objectName, expected.format, size, stored('VSize'), Math.log2(size) + 1]);
    const img = await decodeTextureImage(t);
    const sum = [0, 0, 0, 0], max = [0, 0, 0, 0];
    for (let k = 0; k < img.rgba.length; k++) {
      sum[k & 3] = sum[k & 3]! + img.rgba[k]!;
      max[k & 3] = Math.max(max[k & 3]!, img.rgba[k]!);
    }
    const mipZero = stored('MipZero') as Color;
    const mean = sum.map((s) => s / (img.width * img.height));
    [mipZero.R, mipZero.G, mipZero.B].forEach((v, c) => expect(Math.abs(mean[c]! - v * expected.scale), `${e.objectName} channel ${c}`).toBeLessThanOrEqual(expected.tolerance));
    const maxColor = stored('MaxColor') as Color | undefined;
    if (maxColor) expect(max.slice(0, 3)).toEqual([maxColor.R, maxColor.G, maxColor.B]);
    // every mip decodes to its size
    for (let m = 1; m < t.mips.length; m++) expect((await decodeTextureImage(t, { mip: m })).width).toBe(size >> m);
  }
  expect(seen).toBe(expected.textures);
}

describe('UE1/2 textures', () => {
  it('P8 with its palette (ut2004 2PP.utx): the mean is MipZero, the largest values MaxColor', () =>
    check('ut2004_2PP.utx', { textures: 7, format: 'PF_B8G8R8A8', scale: 1, tolerance: 1 }));

  it('DXT3 (ut2004 tablechairs.usx): the mean is four times MipZero', () =>
    check('ut2004_tablechairs.usx', { textures: 5, format: 'PF_DXT3', scale: 4, tolerance: 4 }));

  it('are the texture kind of the registry, and convert to one PNG per texture export', async () => {
    expect(assetKindOf('Texture')?.kind).toBe('texture');
    const install = await openInstall([corpus('legacy')], { keys: new KeyRing() });
    const packages = new InstallPackages(install);
    try {
      const { model } = await packages.open('ut2004_2PP.utx');
      const exports = convertibleExports(model);
      expect(exports.map((e) => e.name)).toEqual(['green_carpet', '4color_floor', 'tan_wall', 'crazy_kitchen', 'wood_floor', 'yellow_wall', 'drawer']);
      const files = await convertExport({ packages, ref: 'ut2004_2PP.utx' }, exports[6]!, 'png');
      expect(files.map((f) => [f.suffix, f.extension])).toEqual([['', 'png']]);
      expect([...files[0]!.data.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    } finally {
      await packages.close();
      await install.close();
    }
  });

  it('bad input: a mip cut short is a FormatError naming the texture', () => {
    const path = corpus('legacy', 'ut2004_2PP.utx');
    const bytes = new Uint8Array(readFileSync(path));
    const pkg = parseUe12Package(bytes, path);
    const i = pkg.exports.findIndex((e) => e.objectName === 'green_carpet');
    const cut = bytes.slice();
    // the first mip's lazy array: its end offset no longer matches its byte count
    const at = pkg.exports[i]!.serialOffset + 61 + 1;
    cut[at] = (cut[at]! + 1) & 255;
    expect(() => readUe12Texture(cut, path, i)).toThrow(FormatError);
    expect(() => readUe12Texture(cut, path, i)).toThrow(/Texture "green_carpet" mips at byte \d+: mip 0's data ends at \d+, its lazy array says \d+/);
  });
});
