/**
 * The asset previews' API on the cue58 UE5.8 IoStore fixtures: the registry's kinds in the
 * package view, a texture's facts, its pixels page by page (checked against the fixtures'
 * per-slice formula), thumbnails, saving a PNG (read back with Pillow), a loose copy of
 * T_Streaming without its .ubulk, a truncated package, and bad requests of every kind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { openInstall } from '../../src/core/install/install.js';
import { isInputError } from '../../src/core/errors.js';
import { ApiValidationError, MAX_PIXEL_READ, validateRequest } from '../../src/shared/api.js';
import { TEST_APP_INFO, useBackend } from '../support/backend-session.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const LEGACY_PAK = corpus('cue58/LegacyPak/Tagged/Uncompressed');
const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';
const tex = (name: string) => `${TEXTURES}/${name}.uasset`;
const PYTHON = '/usr/bin/python3';

/** The fixtures' slice pattern (cue58 README): slice s of T_Cube, T_Array, T_Volume and T_CubeArray. */
function pattern(x: number, y: number, s: number): [number, number, number, number] {
  return [(17 * x + 41 * s) & 255, (29 * y + 67 * s) & 255, (11 * (x + y) + 97 * s) & 255, 255 - ((3 * x + 5 * y + 7 * s) & 127)];
}

function expectPattern(rgba: Uint8Array, width: number, height: number, slice: number): void {
  const wrong: string[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const got = [rgba[o], rgba[o + 1], rgba[o + 2], rgba[o + 3]];
      if (got.join() !== pattern(x, y, slice).join()) wrong.push(`(${x},${y}) ${got.join()} != ${pattern(x, y, slice).join()}`);
    }
  }
  expect(wrong.slice(0, 5)).toEqual([]);
}

/** Size, mode and every pixel of a PNG as Pillow reads it. */
function readPng(file: string): { size: [number, number]; mode: string; pixels: number[][] } {
  const script = 'import json,sys\nfrom PIL import Image\nim=Image.open(sys.argv[1])\nprint(json.dumps({"size":im.size,"mode":im.mode,"pixels":[list(p) for p in im.convert("RGBA").getdata()]}))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' })) as { size: [number, number]; mode: string; pixels: number[][] };
}
const havePillow = existsSync(PYTHON) && (() => { try { execFileSync(PYTHON, ['-c', 'import PIL']); return true; } catch { return false; } })();

const session = useBackend(UNCOMPRESSED, 'pakscope-textures-');
let backend: Backend, installId: string, configDir: string, out: string;
beforeAll(() => ({ backend, installId, configDir, out } = session));

describe('the registry in the package view', () => {
  it('lists a texture package\'s texture export and nothing for a data asset', async () => {
    const view = await backend.openPackage({ installId, path: tex('T_BC7') });
    expect(view.assets.map(({ converts: _c, ...a }) => a)).toEqual([{ exportIndex: 0, name: 'T_BC7', class: 'Texture2D', kind: 'texture', view: 'texture' }]);
    expect(view.assets[0]!.converts).toEqual(expect.arrayContaining(['png', 'dds']));
    const cube = await backend.openPackage({ installId, path: tex('T_Cube') });
    expect(cube.assets.map((a) => [a.class, a.view])).toEqual([['TextureCube', 'texture']]);
    const data = await backend.openPackage({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset' });
    expect(data.assets).toEqual([]);
  });
});

describe('textureInfo', () => {
  it('gives the facts of the texture, with its mips and what it converts to', async () => {
    const t = await backend.textureInfo({ installId, path: tex('T_Streaming') });
    expect([t.class, t.name, t.pixelFormat, t.width, t.height, t.slices, t.cube, t.mips.length, t.exportIndex, t.hdr]).toEqual(
      ['Texture2D', 'T_Streaming', 'PF_DXT1', 512, 512, 1, false, 10, 0, false]);
    expect(t.mips.slice(0, 4).map((m) => [m.width, m.location])).toEqual([[512, '.ubulk'], [256, '.ubulk'], [128, '.ubulk'], [64, 'inline']]);
    expect(t.converts).toEqual(['png', 'dds']);
    expect(JSON.parse(JSON.stringify(t))).toEqual(t); // plain JSON over IPC and HTTP
    const mips = await backend.textureInfo({ installId, path: tex('T_Mips') });
    expect(mips.mips.map((m) => m.width)).toEqual([64, 32, 16, 8, 4, 2, 1]);
  });

  it('marks HDR formats, which also convert to .hdr', async () => {
    for (const name of ['T_FloatRGBA', 'T_BC6H']) {
      const t = await backend.textureInfo({ installId, path: tex(name) });
      expect(t.hdr, name).toBe(true);
      expect(t.converts, name).toContain('hdr');
    }
  });

  it('refuses a package without a texture, and an export that is not one', async () => {
    await expect(backend.textureInfo({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset' })).rejects.toThrow(/holds no texture/);
    await expect(backend.textureInfo({ installId, path: tex('T_BC7'), exportIndex: 5 })).rejects.toThrow(/export 5 of .*T_BC7.uasset is not a texture/);
    await expect(backend.textureInfo({ installId, path: `${TEXTURES}/T_Nope.uasset` })).rejects.toThrow(/no such package/);
  });
});

describe('texturePixels', () => {
  it('decodes every slice of a cube, an array, a cube array and a volume to the fixtures\' pattern', async () => {
    for (const [name, slices] of [['T_Cube', 6], ['T_Array', 4], ['T_CubeArray', 12], ['T_Volume', 4]] as const) {
      const t = await backend.textureInfo({ installId, path: tex(name) });
      for (let s = 0; s < slices; s++) {
        const p = await backend.texturePixels({ installId, path: tex(name), slice: s });
        expect([p.width, p.height, p.pixels, p.offset, p.total], `${name} ${s}`).toEqual([t.width, t.height, 'rgba8', 0, t.width * t.height * 4]);
        expectPattern(p.bytes, p.width, p.height, s);
      }
      await expect(backend.texturePixels({ installId, path: tex(name), slice: slices })).rejects.toThrow(new RegExp(`has ${slices} slice\\(s\\): no slice ${slices}`));
    }
  });

  it('answers in pages that add up to the whole image', async () => {
    const whole = await backend.texturePixels({ installId, path: tex('T_CubeArray'), slice: 7 });
    const parts: Uint8Array[] = [];
    for (let at = 0; at < whole.total; at += 300) {
      const page = await backend.texturePixels({ installId, path: tex('T_CubeArray'), slice: 7, offset: at, length: 300 });
      expect(page.offset).toBe(at);
      parts.push(page.bytes);
    }
    expect(Buffer.concat(parts)).toEqual(Buffer.from(whole.bytes));
    const end = await backend.texturePixels({ installId, path: tex('T_CubeArray'), slice: 7, offset: whole.total });
    expect(end.bytes.length).toBe(0);
    await expect(backend.texturePixels({ installId, path: tex('T_CubeArray'), offset: whole.total + 1 })).rejects.toThrow(/past the end of the image/);
    expect(MAX_PIXEL_READ).toBe(16 * 1024 * 1024);
  });

  it('gives the floats of an HDR format, and refuses them for an 8-bit one', async () => {
    const f = await backend.texturePixels({ installId, path: tex('T_FloatRGBA'), pixels: 'float32' });
    expect([f.pixels, f.width, f.height, f.total, f.bytes.length]).toEqual(['float32', 16, 16, 16 * 16 * 16, 16 * 16 * 16]);
    await expect(backend.texturePixels({ installId, path: tex('T_Cube'), pixels: 'float32' })).rejects.toThrow(/no floats/);
  });

  it('refuses a mip the texture does not have', async () => {
    await expect(backend.texturePixels({ installId, path: tex('T_Mips'), mip: 7 })).rejects.toThrow(/T_Mips has 7 mips: no mip 7/);
    const last = await backend.texturePixels({ installId, path: tex('T_Mips'), mip: 6 });
    expect([last.width, last.height, last.total]).toEqual([1, 1, 4]);
  });
});

describe('assetThumbnail', () => {
  it('decodes the smallest mip at least as long as asked, scaled down to fit', async () => {
    const t = await backend.assetThumbnail({ installId, path: tex('T_Streaming'), size: 100 });
    expect([t.kind, t.name, t.class, t.pixelFormat, t.width, t.height]).toEqual(['texture', 'T_Streaming', 'Texture2D', 'PF_DXT1', 512, 512]);
    expect([t.image?.width, t.image?.height, t.image?.rgba.length, t.error]).toEqual([100, 100, 100 * 100 * 4, undefined]);
  });

  it('keeps a texture smaller than asked at its size', async () => {
    const t = await backend.assetThumbnail({ installId, path: tex('T_Cube') });
    expect([t.image?.width, t.image?.height]).toEqual([16, 16]);
    expectPattern(t.image!.rgba, 16, 16, 0); // face 0, not downscaled
  });

  it('answers a package that is no texture with its kind, and a bad path with its error', async () => {
    expect(await backend.assetThumbnail({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset' }))
      .toEqual({ path: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset', kind: null });
    const bad = await backend.assetThumbnail({ installId, path: `${TEXTURES}/T_Nope.uasset` });
    expect([bad.kind, bad.error]).toEqual([null, expect.stringMatching(/no such package/)]);
    await expect(backend.assetThumbnail({ installId, path: tex('T_BC7'), size: 300 })).rejects.toThrow(/out of range/);
    await expect(backend.assetThumbnail({ installId, path: tex('T_BC7'), size: 8 })).rejects.toThrow(/out of range/);
  });
});

describe('saveConversion', () => {
  it.skipIf(!havePillow)('writes a slice as a PNG that Pillow reads back', async () => {
    const file = join(out, 'T_Cube_2.png');
    const saved = await backend.saveConversion({ installId, path: tex('T_Cube'), format: 'png', slice: 2, destination: file });
    expect(saved.path).toBe(file);
    const png = readPng(file);
    expect(png.size).toEqual([16, 16]);
    for (const [x, y] of [[0, 0], [5, 9], [15, 15]] as const) expect(png.pixels[y * 16 + x], `(${x},${y})`).toEqual(pattern(x, y, 2));
  });

  it('refuses what it must not write', async () => {
    const save = (destination: string, extra: Record<string, unknown> = {}) =>
      backend.saveConversion({ installId, path: tex('T_Cube'), format: 'png', destination, ...extra });
    await expect(save('relative/T_Cube.png')).rejects.toThrow(/absolute path/);
    await expect(save(join(UNCOMPRESSED, 'T_Cube.png'))).rejects.toThrow(/inside the install|holds containers/);
    await expect(save(join(out, 'T_Cube.jpg'))).rejects.toThrow(/ends in \.png/);
    await expect(save(join(out, 'no-such-folder', 'T_Cube.png'))).rejects.toThrow(/is not a folder/);
    await expect(save(join(out, 'T_Cube\u0001.png'))).rejects.toThrow(/control character/);
    await writeFile(join(out, 'exists.png'), 'x');
    await expect(save(join(out, 'exists.png'))).rejects.toThrow(/exists already/);
    await save(join(out, 'exists.png'), { conflict: 'overwrite' });
    await expect(backend.saveConversion({ installId, path: tex('T_Cube'), format: 'hdr', destination: join(out, 'T_Cube.hdr') })).rejects.toThrow(/does not convert to \.hdr/);
    await expect(save(join(out, 'T_Cube9.png'), { slice: 6 })).rejects.toThrow(/no slice 6/);
  });

  it('writes only files picked in the save dialog where there is one (Electron)', async () => {
    const picked = join(out, 'picked.png');
    const electron = new Backend({
      configDir, info: { ...TEST_APP_INFO, mode: 'electron' }, anyPath: true,
      dialogs: { pickFolder: async () => null, pickFile: async () => null, pickSaveFile: async (req) => (req.name === 'T_BC7.png' ? picked : null) },
    });
    try {
      const id = (await electron.openInstall({ path: UNCOMPRESSED })).id;
      await expect(electron.saveConversion({ installId: id, path: tex('T_Cube'), format: 'png', destination: join(out, 'other.png') })).rejects.toThrow(/not chosen in the save dialog/);
      expect(await electron.pickSaveFile({ name: 'T_Other.png', format: 'png' })).toBeNull();
      expect(await electron.pickSaveFile({ name: 'T_BC7.png', format: 'png' })).toBe(picked);
      expect((await electron.saveConversion({ installId: id, path: tex('T_Cube'), format: 'png', destination: picked, conflict: 'overwrite' })).path).toBe(picked);
    } finally {
      await electron.close();
    }
    expect(await backend.pickSaveFile({ name: 'T_BC7.png', format: 'png' })).toBeNull(); // browser mode: no dialog
  });
});

describe('bad textures (loose copies made from the legacy pak)', () => {
  let loose: string;
  let looseId: string;
  beforeAll(async () => {
    loose = join(configDir, 'loose');
    const dir = join(loose, TEXTURES);
    await mkdir(dir, { recursive: true });
    const pak = await openInstall([LEGACY_PAK]);
    try {
      const read = (path: string) => { const f = pak.file(path)!.providers[0]!; return f.archive.read(f.file.ref); };
      // T_Streaming without its .ubulk; T_Short: the same with its .uexp cut short.
      await writeFile(join(dir, 'T_Streaming.uasset'), await read(`${TEXTURES}/T_Streaming.uasset`));
      await writeFile(join(dir, 'T_Streaming.uexp'), await read(`${TEXTURES}/T_Streaming.uexp`));
      const uexp = await read(`${TEXTURES}/T_Streaming.uexp`);
      await writeFile(join(dir, 'T_Short.uasset'), await read(`${TEXTURES}/T_Streaming.uasset`));
      await writeFile(join(dir, 'T_Short.uexp'), uexp.subarray(0, 600));
      // T_Odd: the pixel format's name made one PakScope does not know (same length, in both files).
      const rename = (b: Uint8Array) => { const c = Buffer.from(b); c.write('PF_QQQ1', c.toString('latin1').indexOf('PF_DXT1'), 'latin1'); return c; };
      await writeFile(join(dir, 'T_Odd.uasset'), rename(await read(`${TEXTURES}/T_Streaming.uasset`)));
      await writeFile(join(dir, 'T_Odd.uexp'), rename(uexp));
    } finally {
      await pak.close();
    }
    looseId = (await backend.openInstall({ path: loose })).id;
  });

  it('shows the mips it has when the .ubulk is missing, and says why the others are not', async () => {
    const t = await backend.textureInfo({ installId: looseId, path: tex('T_Streaming') });
    expect(t.mips.map((m) => !!m.missing)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(t.notes.join(' ')).toMatch(/\.ubulk/);
    await expect(backend.texturePixels({ installId: looseId, path: tex('T_Streaming') })).rejects.toThrow(/mip 0 of T_Streaming \(512x512\) is not in the install: .*\.ubulk/);
    const p = await backend.texturePixels({ installId: looseId, path: tex('T_Streaming'), mip: 3 });
    expect([p.width, p.height]).toEqual([64, 64]);
    const thumb = await backend.assetThumbnail({ installId: looseId, path: tex('T_Streaming') });
    expect([thumb.image?.width, thumb.error]).toEqual([64, undefined]); // the largest mip there is
  });

  it('names a pixel format it does not know, and offers no conversion', async () => {
    const t = await backend.textureInfo({ installId: looseId, path: tex('T_Odd') });
    expect([t.pixelFormat, t.converts]).toEqual(['PF_QQQ1', []]); // no DDS id either
    await expect(backend.texturePixels({ installId: looseId, path: tex('T_Odd'), mip: 3 })).rejects.toThrow(/PF_QQQ1/);
    const thumb = await backend.assetThumbnail({ installId: looseId, path: tex('T_Odd') });
    expect([thumb.image, thumb.error]).toEqual([undefined, expect.stringMatching(/PF_QQQ1/)]);
    await expect(backend.saveConversion({ installId: looseId, path: tex('T_Odd'), format: 'png', destination: join(out, 'T_Odd.png') })).rejects.toThrow(/does not convert to \.png/);
    await expect(backend.saveConversion({ installId: looseId, path: tex('T_Odd'), format: 'dds', destination: join(out, 'T_Odd.dds') })).rejects.toThrow(/does not convert to \.dds/);
  });

  it('saves the mips the install has as .dds when the .ubulk is missing', async () => {
    const dds = await backend.saveConversion({ installId: looseId, path: tex('T_Streaming'), format: 'dds', destination: join(out, 'T_Streaming.dds') });
    // A 128-byte DDS header, then the inline mips 3 to 9 (64x64 down to 1x1 DXT1: 2,048 + 512 + 128 + 32 + 8 + 8 + 8 bytes).
    expect(dds.bytes).toBe(128 + 2744);
  });

  it('answers a package cut short with a message naming the file, and keeps working', async () => {
    const e = await backend.textureInfo({ installId: looseId, path: tex('T_Short') }).catch((x: unknown) => x as Error);
    expect(e).toBeInstanceOf(Error);
    expect(isInputError(e) || isInputError((e as Error).cause)).toBe(true);
    expect((e as Error).message).toMatch(/T_Short/);
    const thumb = await backend.assetThumbnail({ installId: looseId, path: tex('T_Short') });
    expect([thumb.kind, thumb.image, thumb.error]).toEqual(['texture', undefined, expect.stringMatching(/T_Short/)]);
    expect((await backend.texturePixels({ installId: looseId, path: tex('T_Streaming'), mip: 4 })).width).toBe(32);
  });
});

describe('an Unreal Engine 2 texture package (UT2004 .utx)', () => {
  it('lists its textures and shows each, through the same calls', async () => {
    const id = (await backend.openInstall({ path: corpus('legacy/ut2004_2PP.utx') })).id;
    const view = await backend.openPackage({ installId: id, path: 'ut2004_2PP.utx' });
    const textures = view.assets.filter((a) => a.kind === 'texture');
    expect(textures.map((a) => a.name)).toContain('green_carpet');
    expect(textures.length).toBe(view.model.exports.filter((e) => e.class === 'Texture').length);
    const green = textures.find((a) => a.name === 'green_carpet')!;
    const t = await backend.textureInfo({ installId: id, path: 'ut2004_2PP.utx', exportIndex: green.exportIndex });
    expect([t.class, t.name, t.exportIndex]).toEqual(['Texture', 'green_carpet', green.exportIndex]);
    const p = await backend.texturePixels({ installId: id, path: 'ut2004_2PP.utx', exportIndex: green.exportIndex, mip: 1 });
    expect([p.width, p.height]).toEqual([t.mips[1]!.width, t.mips[1]!.height]);
    const thumb = await backend.assetThumbnail({ installId: id, path: 'ut2004_2PP.utx', size: 64 });
    expect([thumb.kind, thumb.name, thumb.image?.width, thumb.error]).toEqual(['texture', textures[0]!.name, 64, undefined]);
  });
});

describe("Android textures (cue58's AndroidPak)", () => {
  // ETC2/EAC have no FourCC and no DXGI_FORMAT: the tab offered .dds and saving it threw UnsupportedPixelFormatError.
  it('offers .png only for ETC2/EAC, .dds too for ASTC (a DXGI_FORMAT), and a .dds request is refused plainly', async () => {
    const id = (await backend.openInstall({ path: corpus('cue58/AndroidPak'), aesKeys: [CUE58_AES_KEY] })).id;
    const dir = 'CUE4ParseFixtures/Content/PlatformFixtures/Android';
    const info = async (name: string) => backend.textureInfo({ installId: id, path: `${dir}/${name}.uasset` });
    // CUE4Parse's FixtureTextureDecodeTests.AndroidTextureExpectations
    for (const [name, format] of [['T_ETC2_RGB', 'PF_ETC2_RGB'], ['T_ETC2_RGBA', 'PF_ETC2_RGBA'], ['T_EAC_R11', 'PF_ETC2_R11_EAC'], ['T_EAC_RG11', 'PF_ETC2_RG11_EAC']]) {
      const t = await info(name!);
      expect([t.pixelFormat, t.converts]).toEqual([format, ['png']]);
    }
    const astc = await info('T_ASTC_4x4');
    expect([astc.pixelFormat, astc.converts]).toEqual(['PF_ASTC_4x4', ['png', 'dds']]);
    const destination = join(session.out, 'T_ETC2_RGB.dds');
    await expect(backend.saveConversion({ installId: id, path: `${dir}/T_ETC2_RGB.uasset`, format: 'dds', destination })).rejects.toThrow(/T_ETC2_RGB \(PF_ETC2_RGB\) does not convert to \.dds: \.png$/);
  });
});

describe('request validation', () => {
  const bad = (method: Parameters<typeof validateRequest>[0], req: unknown, why: RegExp) =>
    expect(() => validateRequest(method, req)).toThrow(why);

  it('takes the asset calls\' fields and nothing else', () => {
    expect(validateRequest('texturePixels', { installId: 'a', path: 'p', mip: 2, slice: 1, pixels: 'float32', offset: 0, length: 10 })).toBeTruthy();
    expect(validateRequest('textureInfo', { installId: 'a', path: 'p' })).toBeTruthy();
    expect(validateRequest('saveConversion', { installId: 'a', path: 'p', format: 'dds', destination: '/x.dds' })).toBeTruthy();
    bad('texturePixels', { installId: 'a', path: 'p', pixels: 'rgb' }, /field "pixels"/);
    bad('texturePixels', { installId: 'a', path: 'p', mip: -1 }, /field "mip"/);
    bad('texturePixels', { installId: 'a', path: 'p', mip: 1.5 }, /field "mip"/);
    bad('texturePixels', { installId: 'a', path: 'p', exportIndex: '0' }, /field "exportIndex"/);
    bad('texturePixels', { installId: 'a', path: 'p', format: 'png' }, /unknown field "format"/);
    bad('textureInfo', { installId: 'a' }, /missing field "path"/);
    bad('assetThumbnail', { installId: 'a', path: 'p', size: 'big' }, /field "size"/);
    bad('pickSaveFile', { name: 'a.png', format: 'jpg' }, /field "format"/);
    bad('saveConversion', { installId: 'a', path: 'p', format: 'png' }, /missing field "destination"/);
    bad('saveConversion', { installId: 'a', path: 'p', format: 'png', destination: '/x.png', conflict: 'skip' }, /field "conflict"/);
    bad('saveConversion', { installId: 'a', path: 'p', format: 'png', destination: '/x\0.png' }, /field "destination"/);
    bad('textureInfo', null, /must be an object/);
    expect(() => validateRequest('textureInfo', { installId: 'a', path: 'p' })).not.toThrow(ApiValidationError);
  });
});
