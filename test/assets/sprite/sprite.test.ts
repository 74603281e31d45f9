/**
 * The sprite kind: Sprite_Fixture (cue58, tagged and unversioned) as the PNG of its region of its
 * baked source texture. Expected values: BakedSourceDimension (16, 16), a BakedSourceTexture and
 * BakedRenderData (CUE4Parse's FixtureExtendedAssetTests PaperSpriteCustomSerializerDeserializes);
 * the texture is T_BGRA8, which the manifest says is SourceTextures/rgba.png, so the sprite is that
 * file's top-left 16 x 16 pixels as Pillow reads them. Bad input: a region outside the texture,
 * no texture, a dimension of the wrong type (an editor package written for the test).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { readSprite, spriteImage } from '../../../src/core/assets/sprite/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { writeEditorPackage } from '../../fixtures/uasset-writer.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { readReferenceImage, readReferenceImageBytes } from '../../support/reference-image.js';
import { withInstall } from '../../properties/helpers.js';

const spriteKind = assetKindOf('PaperSprite')!;
const mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'm.usmap');
const SPRITE = '/Game/Fixtures/Paper2D/Sprite_Fixture';

describe('sprite kind: Sprite_Fixture', () => {
  const source = readReferenceImage(corpus('cue58/SourceTextures/rgba.png'));
  const crop = new Uint8Array(16 * 16 * 4);
  for (let y = 0; y < 16; y++) crop.set(source.rgba.subarray(y * source.width * 4, (y * source.width + 16) * 4), y * 16 * 4);

  for (const [mode, dir] of [['Tagged', 'Tagged/Uncompressed'], ['Unversioned', 'Unversioned/Zlib']] as const) {
    it(`${mode}: 16 x 16 of T_BGRA8, the top-left of rgba.png`, async () => {
      await withInstall(corpus('cue58/IoStore', dir), async (packages) => {
        // The package's first export is the sprite's BodySetup.
        const { model } = await packages.open(SPRITE);
        const index = model.exports.findIndex((e) => e.class === 'PaperSprite');
        await expect(readSprite({ packages, ref: SPRITE }, 0, { mappings })).rejects.toThrow(/a BodySetup, not a PaperSprite/);
        const sprite = await readSprite({ packages, ref: SPRITE }, index, { mappings });
        expect([sprite.size, sprite.texture, sprite.vertices > 0]).toEqual([[16, 16], '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8', true]);
        const [png, ...more] = await spriteKind.convert!({ packages, ref: SPRITE }, index, undefined, { mappings });
        expect([more, png!.extension]).toEqual([[], 'png']);
        const got = readReferenceImageBytes(png!.data, 'png');
        expect([got.width, got.height]).toEqual([16, 16]);
        expect(Buffer.from(got.rgba).equals(Buffer.from(crop))).toBe(true);

        // Bad input: a region past the texture's edge, and no texture at all.
        const outside = await spriteImage({ packages, ref: SPRITE }, { ...sprite, uv: [60, 60] }).catch((e: unknown) => e) as FormatError;
        expect([outside.name, outside.structure]).toEqual(['FormatError', 'PaperSprite "Sprite_Fixture" BakedSourceUV/BakedSourceDimension']);
        expect(outside.message).toMatch(/the region \(60, 60\) \+ 16 x 16 is not inside its 64 x 64 texture/);
        await expect(spriteImage({ packages, ref: SPRITE }, { ...sprite, texture: null })).rejects.toThrow(/has no BakedSourceTexture/);
      });
    });
  }
});

describe('sprite kind: bad input', () => {
  const temp = mkdtempSync(join(tmpdir(), 'pakscope-sprite-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('a BakedSourceDimension that is no Vector2D is a FormatError naming it and its offset', async () => {
    const content = join(temp, 'Proj', 'Content', 'Sprites');
    mkdirSync(content, { recursive: true });
    writeFileSync(join(content, 'S_Bad.uasset'), writeEditorPackage({
      name: '/Game/Sprites/S_Bad', ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'],
      exports: [{ name: 'S_Bad', class: '/Script/Paper2D.PaperSprite', props: () => [['BakedSourceDimension', { type: 'IntProperty', value: 16 }]] }],
    }));
    const e = await withInstall(join(temp, 'Proj'), (packages) => readSprite({ packages, ref: '/Game/Sprites/S_Bad' }, 0)).catch((x: unknown) => x) as FormatError;
    expect([e.name, e.structure]).toEqual(['FormatError', 'PaperSprite "S_Bad" BakedSourceDimension']);
    expect(e.offset).toBeGreaterThan(0);
    expect(e.message).toMatch(/S_Bad\.uasset: PaperSprite "S_Bad" BakedSourceDimension at byte \d+: not a Vector2D/);
  });
});
