/**
 * The UE5.8 paks of CUE4Parse's fixture project (pak version 12, Utf8PakDirectory): the minimal
 * paks (uncompressed and Oodle), the legacy-package paks (uncompressed, Zlib, Oodle, Oodle +
 * AES), and a patch pair. Every variant of a set lists the same files and gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openPakArchive, type PakArchive } from '../../src/core/pak/pak-archive.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** path -> size and sha256 of every file, with every stored SHA1 checked on the way. */
async function contents(a: PakArchive): Promise<Record<string, { size: number; sha256: string }>> {
  const out: Record<string, { size: number; sha256: string }> = {};
  for (const f of a.files()) {
    const bytes = await a.read(f.ref);
    expect(bytes.length, f.path).toBe(f.size);
    expect(await a.verify(f.ref), f.path).toMatchObject({ ok: true, algorithm: 'SHA1' });
    out[f.path] = { size: f.size, sha256: sha256(bytes) };
  }
  return out;
}

async function withPak<T>(rel: string, fn: (a: PakArchive) => Promise<T>, keys?: KeyRing): Promise<T> {
  const a = await openPakArchive(corpus(rel), { keys });
  try {
    return await fn(a);
  } finally {
    await a.close();
  }
}

const MINIMAL = {
  Uncompressed: 'cue58/Pak/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed.pak',
  Oodle: 'cue58/Pak/Oodle/CUE4ParseFixtures-Minimal-Oodle.pak',
};

describe('cue58 minimal paks', () => {
  it('list the four files of the README with the same bytes, compressed or not', async () => {
    const plain = await withPak(MINIMAL.Uncompressed, contents);
    const oodle = await withPak(MINIMAL.Oodle, contents);
    expect(Object.fromEntries(Object.entries(plain).map(([p, f]) => [p, f.size]))).toEqual({
      'CUE4ParseFixtures/AssetRegistry.bin': 219539,
      'CUE4ParseFixtures/Config/DefaultGame.ini': 335,
      'CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures/de/CUE4ParseFixtures.locres': 13674,
      'CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures/en/CUE4ParseFixtures.locres': 6250,
    });
    expect(oodle).toEqual(plain);
    expect(plain['CUE4ParseFixtures/Config/DefaultGame.ini']!.sha256).toBe('dc5eee1013481dbb0dca34449758032bd1ea9272a9cf0e73d6577d0c10eb4fb4');
    expect(plain['CUE4ParseFixtures/AssetRegistry.bin']!.sha256).toBe('dd5e0999ef1dd2959af3bffa59b7a1012a56c9c4780fae9cca56387b7ea1d216');
  });

  it('read as the fixture project wrote them', async () => {
    await withPak(MINIMAL.Oodle, async (a) => {
      const byName = new Map(a.files().map((f) => [f.path, f]));
      const ini = text(await a.read(byName.get('CUE4ParseFixtures/Config/DefaultGame.ini')!.ref));
      expect(ini).toContain('[Fixture]\nString=Deterministic fixture value\nInteger=305419896\n');
      const en = await a.read(byName.get('CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures/en/CUE4ParseFixtures.locres')!.ref);
      expect(Buffer.from(en).includes('Greetings from Frankfurt')).toBe(true);
    });
  });

  it('describe version 12, its Oodle slot and the blocks of each file', async () => {
    await withPak(MINIMAL.Oodle, async (a) => {
      expect(a.status).toEqual({ state: 'ok' });
      expect(a.mountPoint).toBe('../../../CUE4ParseFixtures/');
      expect(a.describe().fields).toMatchObject({
        'Pak version': '12 (Utf8PakDirectory)', 'Mount point': '../../../CUE4ParseFixtures/', Entries: 4, Files: 4,
        'Index encrypted': false, 'Encryption key GUID': '0'.repeat(32), 'Compression methods': 'Oodle',
        'Methods used': 'Oodle: 3, None: 1', 'Index offset': 57332, 'Index size': 208, 'Footer size': 221,
        'Path hash index': '366 bytes at 57540', 'Full directory index': '339 bytes at 57906',
      });
      const registry = a.files().find((f) => f.path.endsWith('AssetRegistry.bin'))!;
      expect(a.storage(registry.ref)).toMatchObject({ size: 219539, codecs: { Oodle: 4 }, encrypted: false });
    });
  });
});

const LEGACY = ['Uncompressed', 'Zlib', 'Oodle', 'OodleEncrypted'].map(
  (v) => [v, `cue58/LegacyPak/Tagged/${v}/CUE4ParseFixtures-Legacy-Tagged-${v}.pak`] as const,
);
const cue58Keys = (): KeyRing => KeyRing.fromArgs([CUE58_AES_KEY]);

describe('cue58 legacy-package paks', () => {
  it('give the same eleven files in every variant', async () => {
    const results: Record<string, Awaited<ReturnType<typeof contents>>> = {};
    for (const [variant, rel] of LEGACY) results[variant] = await withPak(rel, contents, cue58Keys());
    const base = results.Uncompressed!;
    expect(Object.keys(base).sort()).toEqual([
      'DataTables/DT_AllProperties.uasset', 'DataTables/DT_AllProperties.uexp', 'Maps/Empty.uexp', 'Maps/Empty.umap',
      'Properties/DA_AllProperties.uasset', 'Properties/DA_AllProperties.uexp', 'Textures/T_BC6H.uasset',
      'Textures/T_BC6H.uexp', 'Textures/T_Streaming.uasset', 'Textures/T_Streaming.ubulk', 'Textures/T_Streaming.uexp',
    ].map((p) => `CUE4ParseFixtures/Content/Fixtures/${p}`));
    expect(base['CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.ubulk']!.size).toBe(172032);
    for (const [variant] of LEGACY) expect(results[variant], variant).toEqual(base);
  });

  it('hold real packages: .uasset and .umap start with the package tag', async () => {
    await withPak(LEGACY[3]![1], async (a) => {
      for (const f of a.files().filter((x) => /\.(uasset|umap)$/.test(x.path))) {
        const b = await a.read(f.ref);
        expect([...b.subarray(0, 4)], f.path).toEqual([0xc1, 0x83, 0x2a, 0x9e]);
      }
    }, cue58Keys());
  });

  it('the encrypted one: with the key it opens; without it is locked; with a wrong key it says so', async () => {
    const rel = LEGACY[3]![1];
    await withPak(rel, async (a) => {
      expect(a.status).toEqual({ state: 'ok' });
      expect(a.describe().fields).toMatchObject({ 'Index encrypted': true, 'Encrypted files': 11, 'Methods used': 'Oodle: 10, None: 1' });
      const bulk = a.files().find((f) => f.path.endsWith('.ubulk'))!;
      expect(a.storage(bulk.ref)).toMatchObject({ encrypted: true, codecs: { Oodle: 3 } });
    }, cue58Keys());

    await withPak(rel, async (a) => {
      expect(a.status).toEqual({ state: 'locked', message: 'index encrypted with the zero key GUID (main key); no AES key given for it' });
      expect(a.files()).toEqual([]);
      const keys = new KeyRing();
      keys.add({ guid: null, key: Buffer.from('CUE4ParseFixtureAESKey0123456789', 'latin1') });
      expect(await a.unlock(keys)).toEqual({ state: 'ok' });
      expect(a.files()).toHaveLength(11);
    });

    await withPak(rel, async (a) => {
      expect(a.status.state).toBe('locked');
      expect(a.status.state === 'locked' && a.status.message).toContain('none of the 1 AES key(s) given decrypts it (wrong key)');
      expect(a.files()).toEqual([]);
    }, KeyRing.fromArgs(['0x' + 'ab'.repeat(32)]));
  });

  it('a key bound to another GUID is not tried; the right key among wrong ones is found', async () => {
    const rel = LEGACY[3]![1];
    const bound = KeyRing.fromArgs([`${'1'.repeat(32)}:${CUE58_AES_KEY}`]);
    await withPak(rel, async (a) => expect(a.status.state).toBe('locked'), bound);
    const several = KeyRing.fromArgs(['0x' + 'ab'.repeat(32), '0x' + 'cd'.repeat(32), CUE58_AES_KEY]);
    await withPak(rel, async (a) => expect(a.status).toEqual({ state: 'ok' }), several);
  });
});

describe('cue58 patch paks', () => {
  it('the _P pak replaces two of the base pak\'s four files with new bytes', async () => {
    const base = await withPak('cue58/Patch/Pak/CUE4ParseFixtures-PatchBase.pak', contents);
    const patch = await withPak('cue58/Patch/Pak/CUE4ParseFixtures-PatchBase_0_P.pak', contents);
    const dir = 'CUE4ParseFixtures/Content/PatchFixtures/';
    expect(Object.keys(base).sort()).toEqual(['DA_PatchReferencer.uasset', 'DA_PatchReferencer.uexp', 'DA_PatchTarget.uasset', 'DA_PatchTarget.uexp'].map((n) => dir + n));
    expect(Object.keys(patch).sort()).toEqual([`${dir}DA_PatchTarget.uasset`, `${dir}DA_PatchTarget.uexp`]);
    expect(patch[`${dir}DA_PatchTarget.uasset`]!.size).toBe(937);
    expect(base[`${dir}DA_PatchTarget.uasset`]!.size).toBe(936);
    for (const p of Object.keys(patch)) expect(patch[p]!.sha256).not.toBe(base[p]!.sha256);
  });
});
