/**
 * Containers made by the fixture writer for every TOC version 1..10 round-trip through the reader:
 * files, bytes, chunk ids, perfect-hash lookups (with overflow), codecs, partitions, AES-ECB and
 * AES-CTR, signatures, on-demand metas, and a chunk past 4 GiB in a sparse .ucas.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { ContainerFlags, EncryptionMethod, TocVersion } from '../../src/core/iostore/toc-version.js';
import { removeTempDirs, writeContainer, type WriterFile } from '../fixtures/toc-writer.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';

afterAll(() => removeTempDirs());

const KEY_HEX = '0x' + Buffer.from('PakScopeIoStoreWriterTestKey0001', 'latin1').toString('hex');
const KEY = Uint8Array.from(Buffer.from(KEY_HEX.slice(2), 'hex'));

/** A spread of sizes: empty, tiny, exactly one block, several blocks, a partial last block. */
function sampleFiles(count = 24, seed = 1): WriterFile[] {
  const sizes = [0, 1, 17, 4096, 4097, 12288, 9000, 30000];
  return Array.from({ length: count }, (_, i) => {
    const size = sizes[i % sizes.length]! + (i >= sizes.length ? i * 3 : 0);
    const bytes = i % 3 === 0 ? randomBytesSeeded(size, seed * 1000 + i) : compressibleBytes(size, seed * 1000 + i);
    const dir = ['Game/Content/Maps', 'Game/Content/Characters/Hero', 'Engine/Content/Fonts', 'Game/Content'][i % 4];
    return { path: `${dir}/Asset_${i}.uasset`, bytes, chunkType: i % 5 === 4 ? 'BulkData' : 'ExportBundleData' };
  });
}

const sha1 = (b: Uint8Array) => createHash('sha1').update(b).digest('hex');

describe.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])('TOC version %i round-trips', (version) => {
  it('files, bytes, chunk ids, lookups and hashes', async () => {
    const files = sampleFiles();
    const w = await writeContainer(files, {
      version,
      blockSize: 4096,
      codec: (f, b) => (['None', 'Zlib'] as const)[(f + b) % 2]!,
      overflow: version >= TocVersion.PerfectHashWithOverflow ? [2, 7] : undefined,
    });
    const c = await openIoStoreContainer(w.utocPath);
    expect(c.status).toEqual({ state: 'ok' });
    const h = c.toc.header;
    expect(h.version).toBe(version);
    expect(h.entryCount).toBe(files.length);
    expect(h.compressedBlockEntryCount).toBe(w.blockCount);
    expect(c.toc.methodNames).toEqual(['None', 'Zlib']);
    expect(c.toc.trailingBytes).toBe(0);
    expect(c.describe().fields['TOC version']).toMatch(new RegExp(`^${version} \\(`));

    // Perfect hash from v4, with the forced overflow list from v5.
    expect(c.toc.perfectHashSeeds.length).toBe(version >= TocVersion.PerfectHash ? files.length / 2 : 0);
    if (version >= TocVersion.PerfectHashWithOverflow) {
      expect(c.toc.chunksWithoutPerfectHash.length).toBeGreaterThanOrEqual(2);
      expect([...c.toc.chunksWithoutPerfectHash]).toContain(w.entries[2]!.entryIndex);
      expect([...c.toc.chunksWithoutPerfectHash]).toContain(w.entries[7]!.entryIndex);
      expect([...c.toc.perfectHashSeeds].some((s) => s === -(files.length + 1))).toBe(true);
    }

    // Directory index from v2.
    const listed = new Map(c.files().map((f) => [f.path, f]));
    expect(listed.size).toBe(version >= TocVersion.DirectoryIndex ? files.length : 0);
    for (const e of w.entries) {
      expect(c.findChunk(e.chunkIdHex)).toBe(e.entryIndex);
      expect(c.chunkIdHex(e.entryIndex)).toBe(e.chunkIdHex);
      const data = await c.readChunk(e.entryIndex);
      expect(sha1(data)).toBe(sha1(e.bytes));
      if (version >= TocVersion.DirectoryIndex) {
        const f = listed.get(e.path!)!;
        expect(f).toBeDefined();
        expect(f.ref).toBe(e.entryIndex);
        expect(f.size).toBe(e.bytes.length);
        expect(f.chunkId).toBe(e.chunkIdHex);
      }
      const check = await c.verifyChunk(e.entryIndex);
      expect(check.ok).toBe(true);
      expect(check.algorithm).toBe(version >= TocVersion.PerfectHashWithOverflow ? 'BLAKE3' : 'SHA1');
    }
    // Chunk types follow the version's numbering: BulkData is 3 in UE4, 2 in UE5.
    const bulk = w.entries[4]!;
    expect(c.chunkTypeName(bulk.entryIndex)).toBe('BulkData');
    expect(parseInt(bulk.chunkIdHex.slice(22), 16)).toBe(version >= TocVersion.PerfectHashWithOverflow ? 2 : 3);
    expect(c.entriesOfType('BulkData').sort()).toEqual(w.entries.filter((_, i) => i % 5 === 4).map((e) => e.entryIndex).sort());
    expect(c.findChunk('ff'.repeat(12))).toBeUndefined();
    await c.close();
  });
});

describe('writer codecs', () => {
  it('Gzip and LZ4 blocks (and None and Zlib) decode; storage counts them per file', async () => {
    const codecs = ['None', 'Zlib', 'Gzip', 'LZ4'] as const;
    const files = [0, 1, 2, 3].map((i) => ({ path: `Game/Content/C${i}.bin`, bytes: compressibleBytes(20000 + i, 50 + i) }));
    const w = await writeContainer(files, { version: 8, blockSize: 4096, codec: (f, b) => codecs[(f + b) % 4]! });
    const c = await openIoStoreContainer(w.utocPath);
    expect(c.toc.methodNames).toEqual(['None', 'Zlib', 'Gzip', 'LZ4']);
    expect(c.describe().fields.Codecs).toBe('None: 5, Zlib: 5, Gzip: 5, LZ4: 5');
    expect(c.describe().fields.Flags).toBe('Compressed, Indexed');
    for (const e of w.entries) {
      expect(sha1(await c.readChunk(e.entryIndex))).toBe(sha1(e.bytes));
      const s = c.storage(e.entryIndex);
      expect(Object.values(s.codecs).reduce((a, b) => a + b, 0)).toBe(5);
      expect(s.compressedSize).toBeLessThan(s.size);
    }
    expect(c.storage(w.entries[0]!.entryIndex).codecs).toEqual({ None: 2, Zlib: 1, Gzip: 1, LZ4: 1 });
    // A range inside one LZ4 block, and one across Gzip and LZ4 blocks.
    const e1 = w.entries[1]!;
    expect(Buffer.from(await c.readChunkRange(e1.entryIndex, 8200, 50)).equals(Buffer.from(e1.bytes.subarray(8200, 8250)))).toBe(true);
    expect(Buffer.from(await c.readChunkRange(e1.entryIndex, 4000, 9000)).equals(Buffer.from(e1.bytes.subarray(4000, 13000)))).toBe(true);
    // Past the end: clipped to the chunk.
    expect((await c.readChunkRange(e1.entryIndex, 19990, 100)).length).toBe(11);
    await c.close();
  });
});

describe('reading', () => {
  it('an aborted read rejects with the abort reason', async () => {
    const w = await writeContainer(sampleFiles(4), { version: 8, blockSize: 4096, codec: 'Zlib' });
    const c = await openIoStoreContainer(w.utocPath);
    const ac = new AbortController();
    ac.abort(new Error('user cancelled'));
    await expect(c.readChunk(w.entries[3]!.entryIndex, ac.signal)).rejects.toThrow('user cancelled');
    expect(() => c.chunkIdHex(4)).toThrow(RangeError);
    expect(() => c.storage(-1)).toThrow(RangeError);
    await c.close();
  });
});

describe('writer partitions', () => {
  it('spreads blocks over X.ucas, X_s1.ucas ... and reads across them', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ path: `Game/Content/P${i}.bin`, bytes: randomBytesSeeded(9000 + i * 1000, 70 + i) }));
    const w = await writeContainer(files, { version: 3, blockSize: 4096, partitionSize: 16384 });
    expect(w.ucasPaths.length).toBeGreaterThanOrEqual(4);
    expect(w.ucasPaths[1]).toMatch(/test_s1\.ucas$/);
    const c = await openIoStoreContainer(w.utocPath);
    expect(c.toc.header.partitionCount).toBe(w.ucasPaths.length);
    expect(c.toc.header.partitionSize).toBe(16384);
    expect(c.describe().fields.Partitions).toBe(w.ucasPaths.length);
    for (const e of w.entries) expect(sha1(await c.readChunk(e.entryIndex))).toBe(sha1(e.bytes));
    const spans = w.entries.map((e) => c.storage(e.entryIndex).partitions!);
    expect(spans.some((p) => p.length > 1)).toBe(true);
    await c.close();

    // Remove the last partition: listing still works, reading names the missing file.
    const last = w.ucasPaths[w.ucasPaths.length - 1]!;
    await rm(last);
    const c2 = await openIoStoreContainer(w.utocPath);
    expect(c2.status.state).toBe('warning');
    expect(c2.status.state === 'warning' && c2.status.message).toContain(last.split('/').pop());
    expect(c2.files().length).toBe(files.length);
    const inLast = w.entries.find((e) => c2.storage(e.entryIndex).partitions!.includes(w.ucasPaths.length - 1))!;
    await expect(c2.readChunk(inLast.entryIndex)).rejects.toThrow(last.split('/').pop()!);
    const inFirst = w.entries[0]!;
    expect(sha1(await c2.readChunk(inFirst.entryIndex))).toBe(sha1(inFirst.bytes));
    await c2.close();
  });

  it('below v3 a container has one partition whatever the header says', async () => {
    const w = await writeContainer(sampleFiles(4), { version: 2, blockSize: 4096 });
    const c = await openIoStoreContainer(w.utocPath);
    expect(c.toc.header.partitionCount).toBe(1);
    expect(c.toc.header.partitionSize).toBe(Infinity);
    await c.close();
  });
});

describe('writer encryption', () => {
  it.each([
    { version: 4, method: 'ecb' as const },
    { version: 8, method: 'ecb' as const },
    { version: 10, method: 'ecb' as const },
    { version: 10, method: 'ctr' as const },
  ])('v$version AES-$method: right key reads, no key or a wrong key is locked', async ({ version, method }) => {
    const files = sampleFiles(12, 9);
    const guid = '0123456789ABCDEF0123456789ABCDEF';
    const w = await writeContainer(files, {
      version, blockSize: 4096, codec: (f) => (f % 2 ? 'Zlib' : 'None'), encryption: { key: KEY, method, guid },
    });
    const c = await openIoStoreContainer(w.utocPath, { keys: KeyRing.fromArgs([`${guid}:${KEY_HEX}`]) });
    expect(c.status).toEqual({ state: 'ok' });
    expect(c.toc.header.containerFlags & ContainerFlags.Encrypted).toBeTruthy();
    expect(c.toc.header.encryptionKeyGuid).toBe(guid);
    expect(c.toc.header.encryptionMethod).toBe(method === 'ctr' ? EncryptionMethod.AesCtr : EncryptionMethod.AesEcb);
    expect(c.describe().fields.Encryption).toBe(method === 'ctr' ? 'AES-CTR' : 'AES-ECB');
    if (method === 'ctr') expect(c.toc.encryptionIvs.length).toBe((w.blockCount + 1) * 12);
    expect(c.files().length).toBe(files.length);
    for (const e of w.entries) {
      expect(sha1(await c.readChunk(e.entryIndex))).toBe(sha1(e.bytes));
      expect((await c.verifyChunk(e.entryIndex)).ok).toBe(true);
    }
    expect(c.storage(w.entries[1]!.entryIndex).encrypted).toBe(true);
    await c.close();

    const none = await openIoStoreContainer(w.utocPath);
    expect(none.status.state).toBe('locked');
    expect(none.status.state === 'locked' && none.status.message).toContain(guid);
    expect(none.files()).toEqual([]);
    const wrong = await openIoStoreContainer(w.utocPath, { keys: KeyRing.fromArgs(['0x' + 'ab'.repeat(32)]) });
    expect(wrong.status.state === 'locked' && wrong.status.message).toMatch(/wrong key/);
  });
});

describe('writer signatures and on-demand metas', () => {
  it('a Signed TOC keeps its signatures and one SHA1 per block', async () => {
    const w = await writeContainer(sampleFiles(6), { version: 8, blockSize: 4096, codec: 'Zlib', signed: true });
    const c = await openIoStoreContainer(w.utocPath);
    const s = c.toc.signatures!;
    expect(s.hashSize).toBe(32);
    expect(s.tocSignature.every((b) => b === 0xaa)).toBe(true);
    expect(s.blockSignature.every((b) => b === 0xbb)).toBe(true);
    expect(s.blockHashes.length).toBe(w.blockCount * 20);
    expect(c.describe().fields.Signed).toBe(true);
    for (const e of w.entries) expect(sha1(await c.readChunk(e.entryIndex))).toBe(sha1(e.bytes));
    await c.close();
  });

  it('v6 with the OnDemand flag has a hash per chunk and per block after the metas', async () => {
    const w = await writeContainer(sampleFiles(6), { version: 6, blockSize: 4096, onDemand: true });
    const c = await openIoStoreContainer(w.utocPath);
    expect(c.describe().fields.Flags).toBe('Indexed, OnDemand');
    expect(c.toc.onDemandChunkHashes!.length).toBe(6 * 20);
    expect(c.toc.onDemandBlockHashes!.length).toBe(w.blockCount * 20);
    expect(c.toc.trailingBytes).toBe(0);
    for (const e of w.entries) expect(sha1(await c.readChunk(e.entryIndex))).toBe(sha1(e.bytes));
    await c.close();
  });
});

describe('writer sparse .ucas', () => {
  it('reads a chunk stored past the 4 GiB mark', async () => {
    const past = 2 ** 32 + 12345;
    const files = [
      { path: 'Game/Content/Before.bin', bytes: compressibleBytes(5000, 1) },
      { path: 'Game/Content/Far.bin', bytes: randomBytesSeeded(10000, 2) },
    ];
    const w = await writeContainer(files, { version: 8, blockSize: 4096, codec: (f) => (f ? 'None' : 'Zlib'), placeAt: { fileIndex: 1, diskOffset: past } });
    const st = await stat(w.ucasPaths[0]!);
    expect(st.size).toBeGreaterThan(2 ** 32);
    expect(st.blocks * 512).toBeLessThan(16 * 1024 * 1024); // sparse: almost nothing on disk
    const c = await openIoStoreContainer(w.utocPath);
    const far = w.entries[1]!;
    expect(c.toc.blockOffsets[far.firstBlock]).toBe(past);
    expect(sha1(await c.readChunk(far.entryIndex))).toBe(sha1(far.bytes));
    expect(Buffer.from(await c.readChunkRange(far.entryIndex, 4090, 20)).equals(Buffer.from(far.bytes.subarray(4090, 4110)))).toBe(true);
    expect((await c.verifyChunk(far.entryIndex)).ok).toBe(true);
    await c.close();
  });
});
