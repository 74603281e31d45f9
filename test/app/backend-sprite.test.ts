/**
 * The backend saves a Paper2D sprite as its PNG with one open of the sprite's package (it used to
 * open it once to ask whether the asset is a sprite and again to read it), and the PNG is the
 * sprite's region: Sprite_Fixture is the top-left 16 x 16 of T_BGRA8, which cue58's manifest says
 * is SourceTextures/rgba.png (both read by Pillow). A texture's PNG still goes to the texture.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';
import { readReferenceImage, readReferenceImageBytes } from '../support/reference-image.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const s = useBackend(corpus('cue58/IoStore/Tagged/Uncompressed'), 'pakscope-backend-sprite-');

describe('saving a sprite as .png', () => {
  let opens: string[] = [];
  beforeAll(() => {
    const open = InstallPackages.prototype.open;
    vi.spyOn(InstallPackages.prototype, 'open').mockImplementation(function (this: InstallPackages, target, opts) {
      opens.push(typeof target === 'string' ? target : target.path);
      return open.call(this, target, opts);
    });
  });
  afterEach(() => { opens = []; });

  it('opens Sprite_Fixture once and writes its region of rgba.png', async () => {
    const path = `${FIXTURES}/Paper2D/Sprite_Fixture.uasset`;
    const file = join(s.out, 'Sprite_Fixture.png');
    await s.backend.saveConversion({ installId: s.installId, path, format: 'png', destination: file });
    expect(opens.filter((p) => p.endsWith('Sprite_Fixture.uasset'))).toEqual([path]);

    const source = readReferenceImage(corpus('cue58/SourceTextures/rgba.png'));
    const crop = new Uint8Array(16 * 16 * 4);
    for (let y = 0; y < 16; y++) crop.set(source.rgba.subarray(y * source.width * 4, (y * source.width + 16) * 4), y * 16 * 4);
    const got = readReferenceImageBytes(new Uint8Array(readFileSync(file)), 'png');
    expect([got.width, got.height]).toEqual([16, 16]);
    expect(Buffer.from(got.rgba).equals(Buffer.from(crop))).toBe(true);
  });

  it('a texture package\'s .png is still its texture', async () => {
    const path = `${FIXTURES}/Textures/T_BGRA8.uasset`;
    const file = join(s.out, 'T_BGRA8.png');
    await s.backend.saveConversion({ installId: s.installId, path, format: 'png', destination: file });
    const source = readReferenceImage(corpus('cue58/SourceTextures/rgba.png'));
    const got = readReferenceImageBytes(new Uint8Array(readFileSync(file)), 'png');
    expect([got.width, got.height]).toEqual([source.width, source.height]);
    expect(Buffer.from(got.rgba).equals(Buffer.from(source.rgba))).toBe(true);
  });
});
