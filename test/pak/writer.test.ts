/**
 * Versions and variants the corpus lacks, written by test/fixtures/pak-writer.ts: every version
 * 1..15 (8A and 8B), stored / Zlib / Gzip, encrypted entries and indexes (AES-ECB, and AES-CTR in
 * v15), multi-block and multi-piece entries, delete records, non-encoded v10+ entries, flat
 * directory indexes, UTF-8 and UTF-16 names, zeroed hashes, a pak without a full directory index.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { FormatError } from '../../src/core/errors.js';
import { MemoryByteSource } from '../../src/core/io/byte-source.js';
import { openPakArchive, openPakFromSource, type OpenPakOptions, type PakArchive } from '../../src/core/pak/pak-archive.js';
import { PakVersion } from '../../src/core/pak/version.js';
import { inlineDecoder, type BlockDecoder, type BlockJob } from '../../src/core/workers/block-job.js';
import { writePak, type PakWriterFile, type PakWriterOptions } from '../fixtures/pak-writer.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
const keys = (): KeyRing => new KeyRing([{ guid: null, key: KEY }]);

const FILES: PakWriterFile[] = [
  { name: 'Config/DefaultGame.ini', data: compressibleBytes(1_000, 1) },
  { name: 'Content/Maps/Big.umap', data: compressibleBytes(200_000, 2) }, // four 64 KiB blocks
  { name: 'Content/Noise.bin', data: randomBytesSeeded(70_001, 3) },
  { name: 'Root.txt', data: compressibleBytes(33, 4) },
  { name: 'Content/Empty.txt', data: new Uint8Array(0) },
];

function open(w: { bytes: Uint8Array }, opts: OpenPakOptions = { keys: keys() }): Promise<PakArchive> {
  return openPakFromSource(new MemoryByteSource('written.pak', w.bytes), opts);
}

/** Reads every file and checks its bytes against what was written, and its stored hash. */
async function expectContents(a: PakArchive, files: PakWriterFile[], prefix = 'Game/'): Promise<void> {
  const listed = new Map(a.files().map((f) => [f.path, f]));
  expect([...listed.keys()].sort()).toEqual(files.filter((f) => !f.deleted).map((f) => prefix + f.name).sort());
  for (const f of files.filter((x) => !x.deleted)) {
    const af = listed.get(prefix + f.name)!;
    expect(af.size, f.name).toBe(f.data.length);
    expect(Buffer.from(await a.read(af.ref)).equals(Buffer.from(f.data)), f.name).toBe(true);
    expect(await a.verify(af.ref), f.name).toMatchObject({ ok: true, algorithm: 'SHA1' });
  }
}

interface Variant extends PakWriterOptions { label: string }

function variants(): Variant[] {
  const out: Variant[] = [];
  for (let version = 1; version <= 15; version++) {
    for (const subVersion of version === 8 ? (['8A', '8B'] as const) : [undefined]) {
      for (const compress of [false, true]) {
        for (const encrypt of version >= PakVersion.CompressionEncryption ? [false, true] : [false]) {
          for (const encryptIndex of version >= PakVersion.IndexEncryption ? [false, true] : [false]) {
            const extras: Partial<PakWriterOptions>[] = [{}];
            if (version >= PakVersion.SortedDirectoryIndex) extras.push({ flatDirectoryIndex: true });
            if (version >= PakVersion.EncryptionMethod && (encrypt || encryptIndex)) extras.push({ encryptionMethod: 'AES-CTR' });
            for (const extra of extras) {
              const label = [subVersion ?? `v${version}`, compress && 'zlib', encrypt && 'encrypt', encryptIndex && 'encryptindex',
                extra.flatDirectoryIndex && 'flat', extra.encryptionMethod].filter(Boolean).join(' ');
              out.push({ label, version, subVersion, compress, encrypt, encryptIndex, key: KEY, ...extra });
            }
          }
        }
      }
    }
  }
  return out;
}

/** Footer size per version: what follows the magic grew with 8A/8B (method names), 9, 14 and 15. */
const FOOTER_SIZES: Record<string, number> = {
  v1: 44, v2: 44, v3: 44, v4: 45, v5: 45, v6: 45, v7: 61, '8A': 189, '8B': 221, v9: 222,
  v10: 221, v11: 221, v12: 221, v13: 221, v14: 225, v15: 262,
};

describe('every version and variant gives the files back', () => {
  const all = variants();
  it('has the whole matrix', () => expect(all.length).toBeGreaterThan(120));
  for (const v of all) {
    it(v.label, async () => {
      const w = writePak(FILES, v);
      const a = await open(w);
      expect(a.status).toEqual({ state: 'ok' });
      expect(a.version).toBe(v.version);
      expect(a.footer.size).toBe(FOOTER_SIZES[v.subVersion ?? `v${v.version}`]);
      expect(a.footer.offset).toBe(w.footerOffset);
      expect(a.footer.indexEncrypted).toBe(Boolean(v.encryptIndex));
      expect(a.mountPoint).toBe('../../../Game/');
      await expectContents(a, FILES);
      const big = a.files().find((f) => f.path.endsWith('Big.umap'))!;
      const storage = a.storage(big.ref);
      expect(storage.encrypted).toBe(Boolean(v.encrypt));
      // Compressed entries have blocks from v3; v1-2 compress a file as one stream.
      const blocks = v.compress ? (v.version >= PakVersion.CompressionEncryption ? 4 : 1) : 1;
      expect(storage.codecs).toEqual({ [v.compress ? 'Zlib' : 'None']: blocks });
      if (v.flatDirectoryIndex) expect(a.describe().fields['Full directory index']).toMatch(/\(flat\)$/);
      await a.close();
    });
  }
});

describe('version details', () => {
  it('Gzip before v8 (entry flags) and from v8 (footer slot)', async () => {
    for (const version of [3, 5, 8, 11]) {
      const a = await open(writePak(FILES, { version, compress: true, codec: 'Gzip' }));
      await expectContents(a, FILES);
      const big = a.files().find((f) => f.path.endsWith('Big.umap'))!;
      expect(a.storage(big.ref).codecs).toEqual({ Gzip: 4 });
      expect(a.describe().fields['Compression methods']).toBe(version >= 8 ? 'Gzip' : 'Zlib, Gzip, Oodle (by entry flags)');
    }
  });

  it('v6+ delete records are not files, but are reported', async () => {
    const files = [...FILES, { name: 'Content/Gone.uasset', data: new Uint8Array(0), deleted: true }];
    for (const version of [6, 9, 10, 12]) {
      const a = await open(writePak(files, { version }));
      await expectContents(a, files);
      expect(a.deletedPaths).toEqual(['Game/Content/Gone.uasset']);
      expect(a.describe().fields).toMatchObject({ 'Deleted records': 1, Files: FILES.length });
    }
  });

  it('v10+ non-encoded entries keep their SHA1 in the index; bit-packed ones in front of their bytes', async () => {
    const files = FILES.map((f, i) => ({ ...f, nonEncoded: i % 2 === 0 }));
    const a = await open(writePak(files, { version: 11, compress: true, encrypt: true, encryptIndex: true, key: KEY }));
    await expectContents(a, files);
    const ini = a.files().find((f) => f.path.endsWith('DefaultGame.ini'))!;
    const root = a.files().find((f) => f.path.endsWith('Root.txt'))!; // index 3: bit-packed
    expect(a.storage(ini.ref).storedHash).toMatch(/^[0-9a-f]{40}$/);
    expect(a.storage(root.ref).storedHash).toBeUndefined();
  });

  it('names: v12 UTF-8, UTF-16 before it, Latin-1 in legacy indexes', async () => {
    const named = (names: string[]): PakWriterFile[] => names.map((name, i) => ({ name, data: compressibleBytes(10 + i, i) }));
    const unicode = named(['Dir/日本語 ü.txt', 'Ω/é.bin']);
    for (const version of [12, 13]) await expectContents(await open(writePak(unicode, { version })), unicode);
    await expectContents(await open(writePak(unicode, { version: 13, flatDirectoryIndex: true })), unicode);
    await expectContents(await open(writePak(unicode, { version: 11, utf16Names: true })), unicode);
    await expectContents(await open(writePak(unicode, { version: 7 })), unicode); // UTF-16 FStrings in the index
    const latin = named(['Café/Crème.txt']);
    await expectContents(await open(writePak(latin, { version: 5 })), latin);
  });

  it('mount points: leading "../" and "/" are not part of the paths', async () => {
    const files = FILES.slice(0, 2);
    await expectContents(await open(writePak(files, { version: 11, mountPoint: '/' })), files, '');
    await expectContents(await open(writePak(files, { version: 5, mountPoint: '../../../' })), files, '');
    await expectContents(await open(writePak(files, { version: 11, mountPoint: '../../../Engine/Plugins/X/' })), files, 'Engine/Plugins/X/');
    await expectContents(await open(writePak(files, { version: 3, mountPoint: '..\\..\\..\\Game\\' })), files, 'Game/');
  });

  it('a v10+ pak without a full directory index lists the pruned names and warns', async () => {
    const a = await open(writePak(FILES, { version: 11, fullDirectoryIndex: false, prunedFilter: (n) => n.startsWith('Config/') }));
    expect(a.status.state).toBe('warning');
    expect(a.status.state === 'warning' && a.status.message).toContain('no full directory index');
    expect(a.files().map((f) => f.path)).toEqual(['Game/Config/DefaultGame.ini']);
    expect(a.describe().fields).toMatchObject({ Entries: FILES.length, Files: 1, 'Full directory index': 'None' });
  });

  it('v14 pakchunk index and v15 encryption method are described', async () => {
    const a = await open(writePak(FILES, { version: 14, pakchunkIndex: 7 }));
    expect(a.footer.pakchunkIndex).toBe(7);
    expect(a.describe().fields['Pakchunk index']).toBe(7);
    const b = await open(writePak(FILES, { version: 15, encrypt: true, encryptIndex: true, key: KEY, encryptionMethod: 'AES-CTR' }));
    expect(b.describe().fields).toMatchObject({ 'Pak version': '15 (EncryptionMethod)', Encryption: 'AES-CTR', 'Encrypted files': 5 });
  });

  it('v7+ key GUIDs pick the keys bound to them', async () => {
    const guid = '0123456789ABCDEF0011223344556677';
    const w = writePak(FILES, { version: 8, encrypt: true, encryptIndex: true, key: KEY, keyGuid: guid });
    const keyHex = Buffer.from(KEY).toString('hex');
    expect((await open(w, { keys: KeyRing.fromArgs([`${'F'.repeat(32)}:${keyHex}`]) })).status.state).toBe('locked');
    const a = await open(w, { keys: KeyRing.fromArgs([`${guid}:${keyHex}`]) });
    expect(a.status).toEqual({ state: 'ok' });
    expect(a.footer.encryptionKeyGuid).toBe(guid);
    expect(a.describe().fields['Encryption key GUID']).toBe(guid);
  });

  it('zeroed hashes: verify has nothing to check, and an encrypted index is judged by its mount point', async () => {
    const w = writePak(FILES, { version: 11, encrypt: true, encryptIndex: true, key: KEY, zeroHashes: true });
    const a = await open(w, { keys: KeyRing.fromArgs(['0x' + '22'.repeat(32), Buffer.from(KEY).toString('hex')]) });
    expect(a.status).toEqual({ state: 'ok' });
    const ini = a.files().find((f) => f.path.endsWith('DefaultGame.ini'))!;
    expect(await a.verify(ini.ref)).toBeNull();
    expect((await open(w, { keys: KeyRing.fromArgs(['0x' + '22'.repeat(32)]) })).status.state).toBe('locked');
  });

  it('encrypted entries of a plain index: a wrong key among the candidates is passed over', async () => {
    const w = writePak(FILES, { version: 11, compress: true, encrypt: true, key: KEY });
    const a = await open(w, { keys: KeyRing.fromArgs(['0x' + '33'.repeat(32), Buffer.from(KEY).toString('hex')]) });
    const big = a.files().find((f) => f.path.endsWith('Big.umap'))!;
    expect(Buffer.from(await a.read(big.ref)).equals(Buffer.from(FILES[1]!.data))).toBe(true);
  });

  it('a stored file over a MiB is read and decrypted in pieces (ECB and CTR)', async () => {
    const big: PakWriterFile[] = [{ name: 'Movies/Intro.bk2', data: randomBytesSeeded(2_500_123, 9) }];
    await expectContents(await open(writePak(big, { version: 11, encrypt: true, key: KEY })), big);
    await expectContents(await open(writePak(big, { version: 15, encrypt: true, key: KEY, encryptionMethod: 'AES-CTR' })), big);
    await expectContents(await open(writePak(big, { version: 4 })), big);
  });

  it('a v9 frozen index is refused with a clear error', async () => {
    await expect(open(writePak(FILES, { version: 9, frozen: true }))).rejects.toThrow(/frozen memory image/);
  });
});

describe('the archive', () => {
  it('decodes through the BlockDecoder it is given, stored plain files without it', async () => {
    const jobs: BlockJob[] = [];
    const decoder: BlockDecoder = { decode: (j, s) => { jobs.push(...j); return inlineDecoder.decode(j, s); } };
    const a = await open(writePak(FILES, { version: 11, compress: true }), { decoder });
    await expectContents(a, FILES);
    expect(jobs.map((j) => j.codec)).toEqual(['Zlib', 'Zlib', 'Zlib', 'Zlib', 'Zlib', 'Zlib', 'Zlib', 'Zlib']);
    expect(jobs.every((j) => j.aes === undefined)).toBe(true);

    jobs.length = 0;
    const e = await open(writePak(FILES.slice(0, 1), { version: 11, encrypt: true, key: KEY }), { decoder, keys: keys() });
    await expectContents(e, FILES.slice(0, 1));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ codec: 'None', compressedSize: 1000, uncompressedSize: 1000, aes: { mode: 'ecb' } });
    expect(jobs[0]!.data.length).toBe(1008);
  });

  it('readRange decodes only the blocks it needs', async () => {
    const jobs: BlockJob[] = [];
    const decoder: BlockDecoder = { decode: (j, s) => { jobs.push(...j); return inlineDecoder.decode(j, s); } };
    const a = await open(writePak(FILES, { version: 11, compress: true, encrypt: true, key: KEY }), { decoder, keys: keys() });
    const big = a.files().find((f) => f.path.endsWith('Big.umap'))!;
    const data = FILES[1]!.data;
    expect(Buffer.from(await a.readRange(big.ref, 70_000, 100_000)).equals(Buffer.from(data.subarray(70_000, 170_000)))).toBe(true);
    expect(jobs.map((j) => j.uncompressedSize)).toEqual([65536, 65536]); // blocks 1 and 2 of 0..3
    expect(Buffer.from(await a.readRange(big.ref, 199_990, 1000)).equals(Buffer.from(data.subarray(199_990)))).toBe(true);
    expect(await a.readRange(big.ref, 500_000, 10)).toHaveLength(0);
    await expect(a.readRange(big.ref, -1, 10)).rejects.toThrow(RangeError);
    await expect(a.read(99)).rejects.toThrow(/no entry 99 \(the pak lists 5 files\)/);

    const movie: PakWriterFile[] = [{ name: 'Movies/Intro.bk2', data: randomBytesSeeded(2_500_123, 9) }];
    const m = await open(writePak(movie, { version: 15, encrypt: true, key: KEY, encryptionMethod: 'AES-CTR' }));
    const part = await m.readRange(m.files()[0]!.ref, 1_500_007, 1_000_000);
    expect(Buffer.from(part).equals(Buffer.from(movie[0]!.data.subarray(1_500_007, 2_500_007)))).toBe(true);
  });

  it('read honours an aborted signal', async () => {
    const a = await open(writePak(FILES, { version: 11, compress: true }));
    const big = a.files().find((f) => f.path.endsWith('Big.umap'))!;
    await expect(a.read(big.ref, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  describe('on disk', () => {
    let dir = '';
    afterAll(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

    it('openPakArchive opens a file read-only and names it by its stem', async () => {
      dir = await mkdtemp(join(tmpdir(), 'pakscope-pak-'));
      const path = join(dir, 'pakchunk0-Windows_P.pak');
      await writeFile(path, writePak(FILES, { version: 11, compress: true }).bytes);
      const a = await openPakArchive(path);
      expect(a.name).toBe('pakchunk0-Windows_P');
      expect(a.kind).toBe('pak');
      expect(a.path).toBe(path);
      await expectContents(a, FILES);
      expect(a.describe()).toMatchObject({ kind: 'pak', path });
      await a.close();
      await expect(openPakArchive(join(dir, 'missing.pak'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('a file that is not a pak is a FormatError', async () => {
      const path = join(dir, 'not.pak');
      await writeFile(path, new Uint8Array(4096).fill(7));
      await expect(openPakArchive(path)).rejects.toThrow(FormatError);
    });
  });
});
