// The cooked texture reader on split packages (.uasset/.uexp/.ubulk) in paks, on unversioned
// packages read with the cue58 mappings, on the Android pak's ASTC/ETC2/EAC textures, and on
// loose cooked textures of other engine versions (corpus/cooked).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInstallTexture, readTextureFile } from '../../../src/core/assets/texture/read/index.js';
import type { Texture } from '../../../src/core/assets/texture/types.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { KeyRing } from '../../../src/core/crypto/keys.js';
import { corpus, CUE58_AES_KEY } from '../../support/corpus.js';
import { ZEN_TEXTURES, expectTexture, formatBytes } from './expectations.js';

const MAPPINGS = 'cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap';
const loadMappings = (): Usmap => parseUsmap(new Uint8Array(readFileSync(corpus(MAPPINGS))), MAPPINGS);

async function withPackages<T>(path: string, use: (p: InstallPackages) => Promise<T>, keys?: KeyRing): Promise<T> {
  const install: Install = await openInstall([corpus(path)], keys ? { keys } : {});
  const packages = new InstallPackages(install);
  try {
    return await use(packages);
  } finally {
    await packages.close();
    await install.close();
  }
}

/** The facts and every mip's bytes, for comparing two readings of one texture. */
async function snapshot(t: Texture): Promise<unknown> {
  const { readMip, notes, ...info } = t;
  const mips: string[] = [];
  for (let i = 0; i < t.mips.length; i++) mips.push(Buffer.from(await readMip(i)).toString('base64'));
  return { info, mips };
}

describe('LegacyPak: T_Streaming and T_BC6H as split packages in a pak', () => {
  const PAKS = {
    'Tagged Zlib': 'cue58/LegacyPak/Tagged/Zlib/CUE4ParseFixtures-Legacy-Tagged-Zlib.pak',
    'Tagged Uncompressed': 'cue58/LegacyPak/Tagged/Uncompressed/CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak',
    'Unversioned Zlib': 'cue58/LegacyPak/Unversioned/Zlib/CUE4ParseFixtures-Legacy-Unversioned-Zlib.pak',
  };
  for (const [variant, path] of Object.entries(PAKS)) {
    it(`${variant}: T_Streaming is 512x512 DXT1 with 10 mips, the 3 largest in its .ubulk; T_BC6H is 64x64 BC6H`, async () => {
      const mappings = variant.startsWith('Unversioned') ? loadMappings() : undefined;
      await withPackages(path, async (packages) => {
        const t = await readInstallTexture(packages, '/Game/Fixtures/Textures/T_Streaming', { mappings });
        await expectTexture(t, ZEN_TEXTURES.T_Streaming!);
        expect(t.mips.slice(0, 4).map((m) => m.location)).toEqual(['.ubulk', '.ubulk', '.ubulk', 'inline']);
        expect(t.notes).toEqual([]);
        await expectTexture(await readInstallTexture(packages, '/Game/Fixtures/Textures/T_BC6H', { mappings }), ZEN_TEXTURES.T_BC6H!);
      });
    });
  }

  it('reads the AES-encrypted Oodle pak with the fixture key', async () => {
    await withPackages('cue58/LegacyPak/Tagged/OodleEncrypted/CUE4ParseFixtures-Legacy-Tagged-OodleEncrypted.pak', async (packages) => {
      await expectTexture(await readInstallTexture(packages, '/Game/Fixtures/Textures/T_Streaming'), ZEN_TEXTURES.T_Streaming!);
    }, KeyRing.fromArgs([CUE58_AES_KEY]));
  });

  it('gives the same texture from the pak as from the IoStore container, mip for mip', async () => {
    const fromPak = await withPackages(PAKS['Tagged Zlib'], async (p) => snapshot(await readInstallTexture(p, '/Game/Fixtures/Textures/T_Streaming')));
    const fromZen = await withPackages('cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc',
      async (p) => snapshot(await readInstallTexture(p, '/Game/Fixtures/Textures/T_Streaming')));
    expect(fromPak).toEqual(fromZen);
  });
});

describe('IoStore Unversioned with the cue58 mappings', () => {
  let tagged: Install, unversioned: Install;
  let taggedPackages: InstallPackages, unversionedPackages: InstallPackages;
  let mappings: Usmap;
  beforeAll(async () => {
    mappings = loadMappings();
    tagged = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc')]);
    unversioned = await openInstall([corpus('cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc')]);
    taggedPackages = new InstallPackages(tagged);
    unversionedPackages = new InstallPackages(unversioned);
  });
  afterAll(async () => {
    await Promise.all([taggedPackages.close(), unversionedPackages.close()]);
    await Promise.all([tagged.close(), unversioned.close()]);
  });

  for (const name of Object.keys(ZEN_TEXTURES)) {
    it(`reads ${name} as the tagged package does (facts, properties and every mip's bytes)`, async () => {
      const ref = `/Game/Fixtures/Textures/${name}`;
      const u = await readInstallTexture(unversionedPackages, ref, { mappings });
      await expectTexture(u, ZEN_TEXTURES[name]!);
      expect(await snapshot(u)).toEqual(await snapshot(await readInstallTexture(taggedPackages, ref)));
    });
  }

  it('finds the texture data without mappings too, and says the properties are defaults', async () => {
    const t = await readInstallTexture(unversionedPackages, '/Game/Fixtures/Textures/T_BC5');
    await expectTexture(t, ZEN_TEXTURES.T_BC5!);
    expect(t.srgb).toBe(true); // the engine default: the texture's own (false) needs its properties
    expect(t.notes.join(' ')).toMatch(/properties were not read/);
  });
});

describe('Android pak: ASTC, ETC2 and EAC textures', () => {
  // FixtureTextureDecodeTests.AndroidTextureExpectations: 64x64, one mip each.
  const ANDROID: Record<string, string> = {
    T_ASTC_4x4: 'PF_ASTC_4x4', T_ASTC_6x6: 'PF_ASTC_6x6', T_ASTC_8x8: 'PF_ASTC_8x8', T_ASTC_10x10: 'PF_ASTC_10x10',
    T_ASTC_12x12: 'PF_ASTC_12x12', T_ASTC_Normal: 'PF_ASTC_6x6', T_ETC2_RGB: 'PF_ETC2_RGB', T_ETC2_RGBA: 'PF_ETC2_RGBA',
    T_EAC_R11: 'PF_ETC2_R11_EAC', T_EAC_RG11: 'PF_ETC2_RG11_EAC',
  };
  it('reads each with its format, 64x64 and one mip of the bytes its blocks need', async () => {
    await withPackages('cue58/AndroidPak/CUE4ParseFixtures-Android-Textures.pak', async (packages) => {
      for (const [name, pixelFormat] of Object.entries(ANDROID)) {
        const t = await readInstallTexture(packages, `CUE4ParseFixtures/Content/PlatformFixtures/Android/${name}.uasset`);
        await expectTexture(t, { class: 'Texture2D', pixelFormat, width: 64, height: 64, mips: 1 });
      }
      const normal = await readInstallTexture(packages, 'CUE4ParseFixtures/Content/PlatformFixtures/Android/T_ASTC_Normal.uasset');
      expect([normal.srgb, normal.compressionSettings]).toEqual([false, 'TC_Normalmap']);
    });
  });
});

describe('loose cooked textures of other engine versions (corpus/cooked)', () => {
  it('reads from a loose folder install too, the .ubulk beside the package read by range', async () => {
    await withPackages('cooked', async (packages) => {
      const t = await readInstallTexture(packages, 'retoc56_T_Quinn_01_D.uasset');
      expect([t.pixelFormat, t.width, t.mips[0]!.location]).toEqual(['PF_DXT1', 1024, '.ubulk']);
      expect((await t.readMip(1)).length).toBe(formatBytes('PF_DXT1', 512, 512));
    });
  });

  const mipsOf = (t: Texture): string[] => t.mips.map((m) => `${m.width}x${m.height}`);
  it('UE5.6 unversioned .uasset/.uexp/.ubulk without mappings: T_Quinn_01_D, 1024x1024 DXT1, the 4 largest mips filling its 696320-byte .ubulk', async () => {
    const t = await readTextureFile(corpus('cooked/retoc56_T_Quinn_01_D.uasset'));
    await expectTexture(t, { class: 'Texture2D', pixelFormat: 'PF_DXT1', width: 1024, height: 1024, mips: 11 });
    // MANIFEST.tsv: the .ubulk is 696320 bytes.
    expect(t.mips.filter((m) => m.location === '.ubulk').reduce((s, m) => s + m.bytes, 0)).toBe(696320);
  });

  it('UE5.4/5.5 versioned package whose .ubulk is not in the corpus: the facts read, mips 0-4 are missing, the rest read', async () => {
    const t = await readTextureFile(corpus('cooked/uapi55_T_pl01_001_body_D.uasset'));
    expect([t.class, t.pixelFormat, t.width, t.height, t.lodGroup]).toEqual(['Texture2D', 'PF_DXT5', 2048, 2048, 'TEXTUREGROUP_Character']);
    expect(mipsOf(t)).toHaveLength(12);
    expect(t.mips.map((m) => m.missing !== undefined)).toEqual([true, true, true, true, true, false, false, false, false, false, false, false]);
    await expect(t.readMip(0)).rejects.toThrow(/mip 0 at byte \d+: the package's \.ubulk that holds the bytes is not in the install/);
    expect((await t.readMip(5)).length).toBe(formatBytes('PF_DXT5', 64, 64));
    expect(t.notes.join(' ')).toMatch(/mips 0-4 cannot be read/);
  });

  it('UE4.27 Zen package saved as a file (no global container): T_Emissive, 32x32 DXT5, its class found by its script import hash', async () => {
    const t = await readTextureFile(corpus('cooked/zen427_T_Emissive.uasset'));
    expect([t.class, t.pixelFormat, t.width, t.height]).toEqual(['Texture2D', 'PF_DXT5', 32, 32]);
    // UE4 records the mips below one block as 4x4.
    expect(mipsOf(t)).toEqual(['32x32', '16x16', '8x8', '4x4', '4x4', '4x4']);
    for (let i = 0; i < t.mips.length; i++) expect((await t.readMip(i)).length).toBe(formatBytes('PF_DXT5', t.mips[i]!.width, t.mips[i]!.height));
  });

  it('UE5.6 Zen package saved as a file, unversioned, its bulk data not beside it: the inline mips read', async () => {
    const t = await readTextureFile(corpus('cooked/zen56_T_Quinn_01_D.uzenasset'));
    expect([t.class, t.pixelFormat, t.width, t.height]).toEqual(['Texture2D', 'PF_DXT1', 1024, 1024]);
    expect(t.mips.map((m) => m.missing !== undefined)).toEqual([true, true, true, true, false, false, false, false, false, false, false]);
    // The same inline mips as the classic cook of the same texture.
    const classic = await readTextureFile(corpus('cooked/retoc56_T_Quinn_01_D.uasset'));
    for (let i = 4; i < 11; i++) expect(Buffer.from(await t.readMip(i)).equals(Buffer.from(await classic.readMip(i)))).toBe(true);
  });
});
