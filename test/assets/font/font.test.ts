/**
 * The font kind. Font_Fixture (cue58, tagged and unversioned): an offline-cached font whose page
 * is T_BGRA8 and whose composite font names two typefaces without faces (CUE4Parse's
 * FixtureEngineAssetTests.FontPreservesGlyphsTexturePageAndCompositeTypeface; the manifest says
 * T_BGRA8 is SourceTextures/rgba.png, read by Pillow). The corpus has no FontFace, so FontFaces
 * are editor packages written for the test (test/fixtures/uasset-writer.ts) around Debian's font
 * files (DejaVu Sans Mono, TrueType; Nimbus Sans, CFF), and the files the kind writes are read
 * back by fontconfig (fc-query), not by PakScope.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetKindOf, assetKindOfFile } from '../../../src/core/assets/index.js';
import { readFontAsset } from '../../../src/core/assets/font/read.js';
import { fontNames } from '../../../src/core/assets/font/sfnt.js';
import { FormatError } from '../../../src/core/errors.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { writeEditorPackage } from '../../fixtures/uasset-writer.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { queryFont } from '../../support/font-reference.js';
import { readReferenceImage, readReferenceImageBytes } from '../../support/reference-image.js';
import type { TaggedProps } from '../../support/tagged-writer.js';
import { withInstall } from '../../properties/helpers.js';

const TTF = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const OTF = '/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf';
const FONT_FACE = '/Script/Engine.FontFace';
const fontKind = assetKindOf('Font')!;

const temp = mkdtempSync(join(tmpdir(), 'pakscope-font-'));
const content = join(temp, 'Proj', 'Content', 'Fonts');
const ttf = new Uint8Array(readFileSync(TTF));
const otf = new Uint8Array(readFileSync(OTF));

const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
/** A FontFace's own data in an editor package: bSaveInlineData, then FFontFaceData's TArray<uint8>. */
const inline = (bytes: Uint8Array, count = bytes.length): number[] => [...u32(1), ...u32(count), ...bytes];

function writeFace(name: string, native: number[]): void {
  const bytes = writeEditorPackage({
    name: `/Game/Fonts/${name}`, ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'],
    exports: [{ name, class: FONT_FACE, props: () => [['SourceFilename', { type: 'StrProperty', value: `D:/Art/${name}.ttf` }]], native }],
  });
  writeFileSync(join(content, `${name}.uasset`), bytes);
}

/** An editor FontData: bIsCooked false, then its tagged properties. */
const entry = (name: string, face: number): { type: 'StructProperty'; struct: string; value: TaggedProps } => ({
  type: 'StructProperty', struct: 'TypefaceEntry', value: [
    ['Name', { type: 'NameProperty', value: name }],
    ['Font', { type: 'StructProperty', struct: 'FontData', before: u32(0), value: [['FontFaceAsset', { type: 'ObjectProperty', value: face }]] }],
  ],
});

beforeAll(() => {
  mkdirSync(content, { recursive: true });
  writeFace('Face_Mono', inline(ttf));
  writeFace('Face_Nimbus', inline(otf));
  writeFace('Face_Loose', u32(0)); // not inline: its font is Face_Loose.ufont beside it
  writeFileSync(join(content, 'Face_Loose.ufont'), ttf);
  writeFace('Face_Cut', inline(ttf.subarray(0, 100), 5000));
  writeFace('Face_NotAFont', inline(new TextEncoder().encode('<svg>not a font</svg>')));
  writeFace('Face_CutDirectory', inline(ttf.subarray(0, 40)));
  const font = writeEditorPackage({
    name: '/Game/Fonts/F_Composite', ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'],
    exports: [{
      name: 'F_Composite', class: '/Script/Engine.Font', props: (ref) => [['CompositeFont', {
        type: 'StructProperty', struct: 'CompositeFont', value: [['DefaultTypeface', {
          type: 'StructProperty', struct: 'Typeface', value: [['Fonts', {
            type: 'ArrayProperty', inner: 'StructProperty', struct: 'TypefaceEntry',
            value: [entry('Regular', ref('/Game/Fonts/Face_Mono.Face_Mono', FONT_FACE)), entry('Sans', ref('/Game/Fonts/Face_Nimbus.Face_Nimbus', FONT_FACE))],
          }]],
        }]],
      }]],
    }],
  });
  writeFileSync(join(content, 'F_Composite.uasset'), font);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const project = join(temp, 'Proj');
const convert = (ref: string, extension?: string) => withInstall(project, (packages) => fontKind.convert!({ packages, ref }, 0, extension, {}));

describe('font kind: FontFace', () => {
  it('writes an inline TrueType face as the .ttf it was imported from, which fontconfig reads as DejaVu Sans Mono', async () => {
    const [file, ...rest] = await convert('/Game/Fonts/Face_Mono');
    expect(rest).toEqual([]);
    expect(file!.extension).toBe('ttf');
    expect(Buffer.from(file!.data).equals(Buffer.from(ttf))).toBe(true);
    expect(queryFont(file!.data, 'ttf')).toEqual({ family: 'DejaVu Sans Mono', style: 'Book', format: 'TrueType' });
    const face = await withInstall(project, (packages) => readFontAsset({ packages, ref: '/Game/Fonts/Face_Mono' }, 0));
    expect(face.kind === 'face' && [face.sourceFilename, face.file!.format, face.file!.from, face.file!.names.family, face.file!.names.style])
      .toEqual(['D:/Art/Face_Mono.ttf', 'ttf', 'inline', 'DejaVu Sans Mono', 'Book']);
  });

  it('writes a CFF face as .otf (by its OTTO tag) and refuses to call it a .ttf', async () => {
    const [file] = await convert('/Game/Fonts/Face_Nimbus');
    expect(file!.extension).toBe('otf');
    expect(queryFont(file!.data, 'otf')).toEqual({ family: 'Nimbus Sans', style: 'Regular', format: 'CFF' });
    await expect(convert('/Game/Fonts/Face_Nimbus', 'ttf')).rejects.toThrow(/Face_Nimbus is a \.otf font .* not \.ttf/);
  });

  it('reads a face that is not inline from the .ufont beside its package', async () => {
    const [file] = await convert('/Game/Fonts/Face_Loose');
    expect([file!.extension, Buffer.from(file!.data).equals(Buffer.from(ttf))]).toEqual(['ttf', true]);
    // The loose file alone converts too, through the registry's plain-file kinds.
    const kind = assetKindOfFile('Game/Content/Fonts/Face_Loose.ufont')!;
    const [plain] = await kind.convertFile!({ path: 'Face_Loose.ufont', bytes: ttf }, undefined, {});
    expect(plain!.extension).toBe('ttf');
  });

  it('bad input: a data size past the export, bytes that are no font, a cut table directory are FormatErrors naming file, structure and offset', async () => {
    const cut = await convert('/Game/Fonts/Face_Cut').catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(FormatError);
    expect((cut as FormatError).message).toMatch(/Face_Cut\.uasset: .*FontFace "Face_Cut".* at byte \d+: .*font data size 5000 needs at least 5000 bytes but only 100 remain/);
    const notFont = await convert('/Game/Fonts/Face_NotAFont').catch((e: unknown) => e) as FormatError;
    expect([notFont.name, notFont.structure]).toEqual(['FormatError', 'FontFaceData']);
    expect(notFont.offset).toBeGreaterThan(0);
    expect(notFont.message).toMatch(/Face_NotAFont\.uasset: FontFaceData at byte \d+: 21 bytes that are no TrueType, OpenType or WOFF font \(they start 3c 73 76 67\)/);
    const dir = await convert('/Game/Fonts/Face_CutDirectory').catch((e: unknown) => e) as FormatError;
    // The font's 40 bytes end the export data, before the 4-byte package tag; numTables is at 4 in them.
    const size = readFileSync(join(content, 'Face_CutDirectory.uasset')).length;
    expect([dir.name, dir.structure, dir.offset]).toEqual(['FormatError', 'sfnt table directory', size - 4 - 40 + 4]);
    expect(dir.message).toMatch(/Face_CutDirectory\.uasset: sfnt table directory at byte \d+: 18 tables need 288 bytes but only 28 remain/);
    expect(() => fontNames(ttf.subarray(0, 3), 'x.ttf')).toThrow(/x\.ttf: font file at byte 0: not a TrueType/);
  });
});

describe('font kind: Font', () => {
  it('writes a composite font as its typefaces\' faces, each from its own package', async () => {
    const files = await convert('/Game/Fonts/F_Composite');
    expect(files.map((f) => [f.suffix, f.extension])).toEqual([['_Regular', 'ttf'], ['_Sans', 'otf']]);
    expect(queryFont(files[1]!.data, 'otf').family).toBe('Nimbus Sans');
    const font = await withInstall(project, (packages) => readFontAsset({ packages, ref: '/Game/Fonts/F_Composite' }, 0));
    expect(font.kind === 'font' && font.typefaces.map((t) => [t.typeface, t.name, t.fontFace]))
      .toEqual([['Default', 'Regular', '/Game/Fonts/Face_Mono.Face_Mono'], ['Default', 'Sans', '/Game/Fonts/Face_Nimbus.Face_Nimbus']]);
  });

  for (const [mode, dir] of [['Tagged', 'Tagged/Uncompressed'], ['Unversioned', 'Unversioned/Zlib']] as const) {
    it(`Font_Fixture (${mode}): an offline font, its page T_BGRA8 written as the PNG of rgba.png, its typefaces named`, async () => {
      const mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'm.usmap');
      await withInstall(corpus('cue58/IoStore', dir), async (packages) => {
        const source = { packages, ref: '/Game/Fixtures/Fonts/Font_Fixture' };
        const font = await readFontAsset(source, 0, { mappings });
        if (font.kind !== 'font') throw new Error('not a font');
        expect([font.cacheType, font.textures, font.legacyFontName, font.legacyFontSize]).toEqual(['Offline', ['/Game/Fixtures/Textures/T_BGRA8.T_BGRA8'], 'FixtureRegular', 12]);
        expect(font.typefaces.map((t) => [t.typeface, t.name, t.fontFace])).toEqual([['Default', 'FixtureRegular', null], ['Sub-typeface 1 (el;en)', 'FixtureUnicode', null]]);
        const [page, ...more] = await fontKind.convert!(source, 0, undefined, { mappings });
        expect([more, page!.extension]).toEqual([[], 'png']);
        const got = readReferenceImageBytes(page!.data, 'png');
        const want = readReferenceImage(corpus('cue58/SourceTextures/rgba.png'));
        expect([got.width, got.height]).toEqual([64, 64]);
        expect(Buffer.from(got.rgba).equals(Buffer.from(want.rgba))).toBe(true);
        const json = JSON.parse(new TextDecoder().decode((await fontKind.convert!(source, 0, 'json', { mappings }))[0]!.data)) as { name: string };
        expect(json.name).toBe('Font_Fixture');
      });
    });
  }
});
