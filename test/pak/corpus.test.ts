/**
 * The real UnrealPak output in corpus/pak (repak's test paks, v5..v11, plain, compressed,
 * encrypted, encrypted index) and the IoStore stub paks in corpus/iostore: footers as MANIFEST.tsv
 * records them, the file list repak's tests expect, the same bytes from every variant (the
 * sha256 of repak's source files), stored SHA1s, and what happens without the key.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { corpus, REPAK_AES_KEY } from '../support/corpus.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { KeyError } from '../../src/core/errors.js';
import { openPakArchive, type PakArchive } from '../../src/core/pak/pak-archive.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const repakKeys = (): KeyRing => KeyRing.fromArgs([REPAK_AES_KEY]);

/** repak/tests/pack/root: what tests/test.rs expects, with the sha256 of each source file. */
const REPAK_FILES: Record<string, { size: number; sha256: string }> = {
  'mount/point/root/directory/nested.txt': { size: 596, sha256: '246c88de650fb20d63abaeb7c1bd8556d0ea260bf4579beafe0b2597e00270a5' },
  'mount/point/root/test.png': { size: 10257, sha256: 'd7d3e1c21a5b98621add61a4244a413abf5ad6413b0d25ba09bfd5536c75e3b1' },
  'mount/point/root/test.txt': { size: 446, sha256: '56293a80e0394d252e995f2debccea8223e4b5b2b150bee212729b3b39ac4d46' },
  'mount/point/root/zeros.bin': { size: 2048, sha256: 'e5a00aa9991ac8a5ee3109844d84a55583bd20572ad3ffcd42792f3c36b183ad' },
};

interface ManifestFooter {
  file: string;
  size: number;
  magicFromEnd: number;
  version: number;
  indexOffset: number;
  indexSize: number;
  encryptedIndex: boolean;
  methods: string[] | null;
}

/** The "pak footer magic at end-N ..." facts MANIFEST.tsv records for every .pak in a corpus folder. */
function manifestFooters(folder: string): ManifestFooter[] {
  const out: ManifestFooter[] = [];
  for (const line of readFileSync(corpus('MANIFEST.tsv'), 'utf8').split('\n')) {
    const cols = line.split('\t');
    const file = cols[0] ?? '';
    if (!file.startsWith(`${folder}/`) || !file.endsWith('.pak')) continue;
    const m = /pak footer magic at end-(\d+) version=(\d+) indexOffset=(\d+) indexSize=(\d+) encryptedIndex=(\d)(?: compressionMethods=\[([^\]]*)\])?/.exec(line);
    if (!m) throw new Error(`MANIFEST line for ${file} has no footer facts`);
    out.push({
      file, size: Number(cols[4]), magicFromEnd: Number(m[1]), version: Number(m[2]), indexOffset: Number(m[3]),
      indexSize: Number(m[4]), encryptedIndex: m[5] === '1', methods: m[6] === undefined ? null : m[6] ? m[6].split(',') : [],
    });
  }
  return out;
}

const REPAK = manifestFooters('pak');
const STUBS = manifestFooters('iostore');

describe('corpus paks: footers as MANIFEST.tsv records them', () => {
  it('covers every .pak in the folders', () => {
    expect(REPAK.map((f) => f.file).sort()).toEqual(readdirSync(corpus('pak')).filter((n) => n.endsWith('.pak')).map((n) => `pak/${n}`).sort());
    expect(REPAK).toHaveLength(14);
    expect(STUBS).toHaveLength(4);
  });

  for (const m of [...REPAK, ...STUBS]) {
    it(m.file, async () => {
      const a = await openPakArchive(corpus(m.file), { keys: repakKeys() });
      try {
        const f = a.footer;
        expect(f.version).toBe(m.version);
        expect(f.indexOffset).toBe(m.indexOffset);
        expect(f.indexSize).toBe(m.indexSize);
        expect(f.indexEncrypted).toBe(m.encryptedIndex);
        // The footer starts with the key GUID (v7+) and the encrypted byte (v4+), then the magic.
        const beforeMagic = (m.version >= 7 ? 16 : 0) + (m.version >= 4 ? 1 : 0);
        expect(m.size - (f.offset + beforeMagic)).toBe(m.magicFromEnd);
        expect(f.offset + f.size).toBe(m.size);
        if (m.methods) expect(f.compressionMethods.filter((x) => x !== '')).toEqual(m.methods);
        if (m.version === 8) expect(f.label).toBe(m.magicFromEnd === 172 ? '8A' : '8B');
      } finally {
        await a.close();
      }
    });
  }
});

describe('repak test paks: the same four files from every variant', () => {
  for (const m of REPAK) {
    it(m.file, async () => {
      const a = await openPakArchive(corpus(m.file), { keys: repakKeys() });
      try {
        expect(a.status).toEqual({ state: 'ok' });
        expect(a.mountPoint).toBe('../mount/point/root/');
        const files = Object.fromEntries(a.files().map((f) => [f.path, f.size]));
        expect(files).toEqual(Object.fromEntries(Object.entries(REPAK_FILES).map(([p, f]) => [p, f.size])));
        for (const f of a.files()) {
          const bytes = await a.read(f.ref);
          expect(sha256(bytes), f.path).toBe(REPAK_FILES[f.path]!.sha256);
          const check = await a.verify(f.ref);
          expect(check, f.path).toMatchObject({ ok: true, algorithm: 'SHA1' });
          expect(check!.actual.SHA1).toBe(check!.expected);
        }
      } finally {
        await a.close();
      }
    });
  }

  it('stores what the variant name says', async () => {
    const a = await openPakArchive(corpus('pak/repak_pack_v8b_compress_encryptindex.pak'), { keys: repakKeys() });
    const png = a.files().find((f) => f.path.endsWith('test.png'))!;
    expect(a.storage(png.ref)).toMatchObject({ size: 10257, compressedSize: 7746, codecs: { Zlib: 1 }, encrypted: false });
    expect(a.storage(png.ref).storedHash).toBe('fde94e358b75ad7c44dd3296bb3fc5032e2683c6');
    expect(a.describe().fields).toMatchObject({
      'Pak version': '8B (FNameBasedCompressionMethod)', 'Index encrypted': true, 'Compression methods': 'Zlib',
      'Methods used': 'Zlib: 4', Files: 4, 'Index offset': 8673, 'Index size': 400,
    });
    await a.close();

    const e = await openPakArchive(corpus('pak/repak_pack_v11_encrypt.pak'), { keys: repakKeys() });
    const txt = e.files().find((f) => f.path.endsWith('test.txt'))!;
    // Stored, encrypted: the 446 bytes lie padded to 448, and the SHA1 covers the ciphertext.
    expect(e.storage(txt.ref)).toMatchObject({ size: 446, compressedSize: 446, codecs: { None: 1 }, encrypted: true });
    expect(e.describe().fields).toMatchObject({ 'Pak version': '11 (Fnv64BugFix)', 'Encrypted files': 4, 'Index encrypted': false });
    await e.close();
  });
});

describe('without the key', () => {
  it('an encrypted index leaves the pak locked, with no files, until a key is given', async () => {
    const a = await openPakArchive(corpus('pak/repak_pack_v5_encrypt_encryptindex.pak'));
    expect(a.status.state).toBe('locked');
    expect(a.status.state === 'locked' && a.status.message).toMatch(/index encrypted with the zero key GUID.*no AES key/);
    expect(a.files()).toEqual([]);
    expect(a.describe().fields).toMatchObject({ 'Pak version': '5 (RelativeChunkOffsets)', 'Index encrypted': true, Files: 0 });
    expect(await a.unlock(repakKeys())).toEqual({ state: 'ok' });
    expect(a.files().map((f) => f.path).sort()).toEqual(Object.keys(REPAK_FILES));
    const nested = a.files().find((f) => f.path.endsWith('nested.txt'))!;
    expect(sha256(await a.read(nested.ref))).toBe(REPAK_FILES[nested.path]!.sha256);
    await a.close();
  });

  it('a wrong key is named as such', async () => {
    const wrong = KeyRing.fromArgs(['0x' + '11'.repeat(32)]);
    const a = await openPakArchive(corpus('pak/repak_pack_v11_compress_encrypt_encryptindex.pak'), { keys: wrong });
    expect(a.status).toEqual({
      state: 'locked',
      message: 'index encrypted with the zero key GUID (main key); none of the 1 AES key(s) given decrypts it (wrong key)',
    });
    expect(a.files()).toEqual([]);
    await a.close();
  });

  it('encrypted entries of a plain index list, verify, and refuse to read with KeyError', async () => {
    const a = await openPakArchive(corpus('pak/repak_pack_v11_encrypt.pak'));
    expect(a.status).toEqual({
      state: 'warning',
      message: '4 of 4 files are encrypted with the zero key GUID (main key); no AES key given for it',
    });
    expect(a.files()).toHaveLength(4);
    const png = a.files().find((f) => f.path.endsWith('test.png'))!;
    await expect(a.read(png.ref)).rejects.toThrow(KeyError);
    // The stored SHA1 covers the encrypted bytes: no key needed to check them.
    expect(await a.verify(png.ref)).toMatchObject({ ok: true, algorithm: 'SHA1' });
    expect(await a.unlock(repakKeys())).toEqual({ state: 'ok' });
    expect(sha256(await a.read(png.ref))).toBe(REPAK_FILES[png.path]!.sha256);
    await a.close();
  });
});

describe('IoStore stub paks', () => {
  for (const m of STUBS) {
    it(`${m.file}: v11 with an empty index lists nothing, without error`, async () => {
      const a: PakArchive = await openPakArchive(corpus(m.file));
      expect(a.status).toEqual({ state: 'ok' });
      expect(a.version).toBe(11);
      expect(a.files()).toEqual([]);
      // The 999 stub's index is 8 bytes longer: its mount point is "../../../".
      expect(a.mountPoint).toBe(m.indexSize === 114 ? '../../../' : '/');
      expect(a.describe().fields).toMatchObject({ Entries: 0, Files: 0, 'Index offset': 0 });
      await a.close();
    });
  }
});
