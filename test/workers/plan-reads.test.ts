/**
 * Reads and exported files made by workers that read the stored bytes themselves (block plans):
 * the same bytes and the same errors as the inline decoder, for IoStore containers (Zlib, LZ4 and
 * stored blocks mixed, AES-ECB, AES-CTR, partitions, small blocks so one read spans many, a read
 * big enough to be split across threads) and pak files (compressed, encrypted ECB and CTR, a wrong
 * key tried first); files written by a worker; cancellation; a worker dying in a batch; and the
 * worker's own parts (open files, exclusive writes).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { DecodeError, FormatError } from '../../src/core/errors.js';
import { openIoStoreContainer, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { openPakArchive, type PakArchive } from '../../src/core/pak/pak-archive.js';
import { writeFileInWorkers, writeFilesInWorkers } from '../../src/core/workers/archive-writes.js';
import { addPlanBlock, runBlockPlan, Scratch, type BlockPlan } from '../../src/core/workers/block-plan.js';
import { ReadOnlyFiles } from '../../src/core/workers/file-cache.js';
import { WRITE_PIECE_BYTES, writePlannedFile, writePlannedFiles, type PlannedWrite } from '../../src/core/workers/file-write.js';
import { jobIndexOf } from '../../src/core/workers/block-job.js';
import { createWorkerPool, type WorkerPool } from '../../src/core/workers/pool.js';
import { writePak, type PakWriterFile, type PakWriterOptions } from '../fixtures/pak-writer.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';
import { makeTempDir, removeTempDirs, writeContainer, type WriterCodec, type WriterFile } from '../fixtures/toc-writer.js';
import { ensureWorkerBundle } from './worker-bundle.js';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 5) & 0xff);
const WRONG = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 1) & 0xff);
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

let pool: WorkerPool;
const closers: { close(): Promise<void> }[] = [];

beforeAll(() => {
  pool = createWorkerPool({ threads: 2, workerFile: ensureWorkerBundle() });
});

afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
  await pool.destroy();
  await removeTempDirs();
});

const FILES: WriterFile[] = [
  { path: 'Game/A.uasset', bytes: compressibleBytes(50_000, 1) },
  { path: 'Game/Noise.ubulk', bytes: randomBytesSeeded(9_000, 2), chunkType: 'BulkData' },
  { path: 'Game/Big.ubulk', bytes: compressibleBytes(3 * 1024 * 1024 + 777, 3), chunkType: 'BulkData' },
  { path: 'Game/Tiny.txt', bytes: compressibleBytes(5, 4) },
  { path: 'Game/Empty.txt', bytes: new Uint8Array(0) },
];

/** Zlib, LZ4 and stored blocks by position, so one chunk mixes them. */
const mixed = (f: number, b: number): WriterCodec => (['Zlib', 'LZ4', 'None'] as const)[(f + b) % 3]!;

async function both(utocPath: string, keys?: KeyRing): Promise<[IoStoreContainer, IoStoreContainer]> {
  const inline = await openIoStoreContainer(utocPath, keys ? { keys } : {});
  const pooled = await openIoStoreContainer(utocPath, { decoder: pool, ...(keys ? { keys } : {}) });
  closers.push(inline, pooled);
  return [inline, pooled];
}

describe('IoStore reads through block plans', () => {
  const variants: [string, Parameters<typeof writeContainer>[1], KeyRing?][] = [
    ['v8 Zlib, 4 KiB blocks', { version: 8, codec: 'Zlib', blockSize: 4096 }],
    ['v8 mixed codecs', { version: 8, codec: mixed, blockSize: 8192 }],
    ['v8 AES-ECB', { version: 8, codec: mixed, blockSize: 16384, encryption: { key: KEY } }, new KeyRing([{ guid: null, key: KEY }])],
    ['v10 AES-CTR', { version: 10, codec: 'Zlib', blockSize: 16384, encryption: { key: KEY, method: 'ctr' } }, new KeyRing([{ guid: null, key: KEY }])],
    ['v8 in 512 KiB partitions', { version: 8, codec: mixed, blockSize: 65536, partitionSize: 512 * 1024 }],
  ];
  for (const [label, opts, keys] of variants) {
    it(`${label}: whole chunks, ranges and written files match the inline decoder`, async () => {
      const w = await writeContainer(FILES, opts);
      const [inline, pooled] = await both(w.utocPath, keys);
      const out = await makeTempDir();
      for (const [i, e] of w.entries.entries()) {
        const got = await pooled.readChunk(e.entryIndex);
        expect(same(got, e.bytes), `${e.path} whole`).toBe(true);
        expect(same(got, await inline.readChunk(e.entryIndex))).toBe(true);
        // Ranges that start and end inside blocks and across their edges.
        for (const [from, len] of [[1, 5000], [4095, 8194], [e.bytes.length - 3, 10], [0, e.bytes.length + 50]] as const) {
          const want = e.bytes.subarray(Math.max(0, from), Math.min(e.bytes.length, Math.max(0, from) + len));
          expect(same(await pooled.readChunkRange(e.entryIndex, Math.max(0, from), len), want), `${e.path} ${from}+${len}`).toBe(true);
        }
        const target = join(out, `f${i}`);
        expect(await writeFileInWorkers(pooled, e.entryIndex, { temp: `${target}.tmp`, target, checkTarget: true })).toBe('written');
        expect(same(new Uint8Array(await readFile(target)), e.bytes), `${e.path} written`).toBe(true);
        expect((await pooled.verifyChunk(e.entryIndex)).ok).toBe(true);
      }
      expect(readdirSync(out).sort()).toEqual(w.entries.map((_, i) => `f${i}`).sort());
      // A chunk whose blocks lie in two partition files.
      if (opts.partitionSize) expect(w.entries.some((e) => pooled.storage(e.entryIndex).partitions!.length > 1)).toBe(true);
    });
  }

  it('fails as the inline decoder does: a cut .ucas, a corrupt block, a block shorter than the chunk needs', async () => {
    const w = await writeContainer(FILES, { version: 8, codec: 'Zlib', blockSize: 65536 });
    const big = w.entries[2]!;
    const a = w.entries[0]!;
    const ucas = new Uint8Array(await readFile(w.ucasPaths[0]!));
    // A cut .ucas: the last blocks lie past its end.
    const cutDir = await makeTempDir();
    const cut = join(cutDir, 'test.utoc');
    await copyFile(w.utocPath, cut);
    await writeFile(join(cutDir, 'test.ucas'), ucas.subarray(0, ucas.length - 1000));
    const [cutInline, cutPooled] = await both(cut);
    const last = w.entries.filter((e) => e.bytes.length > 0).at(-1)!;
    const wantCut = await cutInline.readChunk(last.entryIndex).catch((e: unknown) => e);
    const gotCut = await cutPooled.readChunk(last.entryIndex).catch((e: unknown) => e);
    expect(wantCut).toBeInstanceOf(FormatError);
    expect(gotCut).toBeInstanceOf(FormatError);
    expect((gotCut as FormatError).message).toBe((wantCut as FormatError).message);
    expect((gotCut as FormatError).structure).toMatch(/^block \d+ in test\.ucas$/);

    // A corrupt Zlib block of the big chunk.
    const badDir = await makeTempDir();
    const bad = join(badDir, 'test.utoc');
    await copyFile(w.utocPath, bad);
    const broken = ucas.slice();
    const plain = await openIoStoreContainer(w.utocPath);
    closers.push(plain);
    const off = plain.toc.blockOffsets[big.firstBlock + 2]!;
    broken.fill(0x55, off, off + 64);
    await writeFile(join(badDir, 'test.ucas'), broken);
    const [badInline, badPooled] = await both(bad);
    const wantBad = await badInline.readChunk(big.entryIndex).catch((e: unknown) => e);
    const gotBad = await badPooled.readChunk(big.entryIndex).catch((e: unknown) => e);
    expect(wantBad).toBeInstanceOf(DecodeError);
    expect(gotBad).toBeInstanceOf(DecodeError);
    expect((gotBad as DecodeError).message).toBe((wantBad as DecodeError).message);
    // Named by its block, file and offset there, whichever decoder met it.
    expect((gotBad as DecodeError).message).toMatch(new RegExp(`^Zlib: block ${big.firstBlock + 2} of test\\.ucas at byte ${off}: `));
    const writeBad = await writeFileInWorkers(badPooled, big.entryIndex, { temp: join(badDir, 'x.tmp'), target: join(badDir, 'x'), checkTarget: false }).catch((e: unknown) => e);
    expect((writeBad as DecodeError).message).toBe((wantBad as DecodeError).message);
    // The other chunks still read.
    expect(same(await badPooled.readChunk(a.entryIndex), a.bytes)).toBe(true);
    // Nothing is written for a chunk that does not decode.
    const out = await makeTempDir();
    const target = join(out, 'big');
    await expect(writeFileInWorkers(badPooled, big.entryIndex, { temp: `${target}.tmp`, target, checkTarget: false })).rejects.toBeInstanceOf(DecodeError);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a stored block shorter than the chunk needs is a FormatError at its block entry, from both decoders', async () => {
    // A Zlib block, then stored ones: the read goes to a worker. The TOC says the last stored
    // block holds 10 bytes, fewer than the chunk needs of it.
    const w = await writeContainer([{ path: 'Game/S.bin', bytes: randomBytesSeeded(10_000, 9) }],
      { version: 8, codec: (_f, b) => (b === 0 ? 'Zlib' : 'None'), blockSize: 4096 });
    const bytes = new Uint8Array(await readFile(w.utocPath));
    const plain = await openIoStoreContainer(w.utocPath);
    closers.push(plain);
    const last = w.entries[0]!.endBlock - 1;
    const entry = plain.toc.blockTableOffset + last * 12;
    // Entry: offset (5 bytes), compressed size (3), uncompressed size (3), method (1).
    bytes.set([10, 0, 0], entry + 5);
    const dir = await makeTempDir();
    const utoc = join(dir, 'test.utoc');
    writeFileSync(utoc, bytes);
    await copyFile(w.ucasPaths[0]!, join(dir, 'test.ucas'));
    const [inline, pooled] = await both(utoc);
    const want = await inline.readChunk(0).catch((e: unknown) => e);
    expect(want).toBeInstanceOf(FormatError);
    expect((want as FormatError).structure).toBe('compression blocks');
    expect((want as FormatError).offset).toBe(entry);
    const got = await pooled.readChunk(0).catch((e: unknown) => e);
    expect(got).toBeInstanceOf(FormatError);
    expect((got as FormatError).message).toBe((want as FormatError).message);
  });

  it('cancels a read through its signal', async () => {
    const w = await writeContainer(FILES, { version: 8, codec: 'Zlib' });
    const [, pooled] = await both(w.utocPath);
    const reason = new Error('closed the tab');
    await expect(pooled.readChunk(w.entries[2]!.entryIndex, AbortSignal.abort(reason))).rejects.toBe(reason);
    const c = new AbortController();
    const running = pooled.readChunk(w.entries[2]!.entryIndex, c.signal);
    c.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(same(await pooled.readChunk(w.entries[0]!.entryIndex), w.entries[0]!.bytes)).toBe(true);
  });
});

describe('pak reads through block plans', () => {
  const files: PakWriterFile[] = [
    { name: 'Content/Big.umap', data: compressibleBytes(300_000, 5) },
    { name: 'Content/Noise.bin', data: randomBytesSeeded(70_001, 6) },
    { name: 'Root.txt', data: compressibleBytes(33, 7) },
    { name: 'Content/Empty.txt', data: new Uint8Array(0) },
  ];
  const variants: [string, PakWriterOptions][] = [
    ['v11 zlib', { version: 11, compress: true, codec: 'Zlib' }],
    ['v11 zlib, AES-ECB entries and index', { version: 11, compress: true, encrypt: true, encryptIndex: true, key: KEY }],
    ['v15 zlib, AES-CTR entries', { version: 15, compress: true, encrypt: true, key: KEY, encryptionMethod: 'AES-CTR' }],
    ['v3 stored, encrypted', { version: 3, encrypt: true, key: KEY }],
  ];
  for (const [label, opts] of variants) {
    it(`${label}: files, ranges and written files match what was packed`, async () => {
      const dir = await makeTempDir();
      const path = join(dir, 'written.pak');
      await writeFile(path, writePak(files, opts).bytes);
      const keys = new KeyRing([{ guid: null, key: KEY }]);
      const pak = await openPakArchive(path, { keys, decoder: pool });
      closers.push(pak);
      expect(pak.writesInWorkers).toBe(true);
      for (const f of pak.files()) {
        const want = files.find((x) => `Game/${x.name}` === f.path || f.path.endsWith(x.name))!.data;
        expect(same(await pak.read(f.ref), want), f.path).toBe(true);
        expect(same(await pak.readRange(f.ref, 70_000, 100_000), want.subarray(Math.min(70_000, want.length), 170_000))).toBe(true);
        const target = join(dir, `out-${f.ref}`);
        expect(await writeFileInWorkers(pak, f.ref, { temp: `${target}.tmp`, target, checkTarget: true })).toBe('written');
        expect(same(new Uint8Array(await readFile(target)), want)).toBe(true);
      }
    });
  }

  it('with a plain index, tries the next key when the first does not decrypt the entries', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'written.pak');
    await writeFile(path, writePak(files, { version: 11, compress: true, encrypt: true, key: KEY }).bytes);
    const pak: PakArchive = await openPakArchive(path, { keys: new KeyRing([{ guid: null, key: WRONG }, { guid: null, key: KEY }]), decoder: pool });
    closers.push(pak);
    const big = pak.files().find((f) => f.path.endsWith('Big.umap'))!;
    expect(same(await pak.read(big.ref), files[0]!.data)).toBe(true);
    // Written by a worker, on a pak that has not read yet: the job with the first key fails to
    // decode, and the file goes again with the next.
    const fresh: PakArchive = await openPakArchive(path, { keys: new KeyRing([{ guid: null, key: WRONG }, { guid: null, key: KEY }]), decoder: pool });
    closers.push(fresh);
    const target = join(dir, 'big.out');
    expect(await writeFileInWorkers(fresh, big.ref, { temp: `${target}.tmp`, target, checkTarget: true })).toBe('written');
    expect(same(new Uint8Array(await readFile(target)), files[0]!.data)).toBe(true);
  });

  it('names the entry and block of a corrupt block, as the inline decoder does', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'written.pak');
    const w = writePak(files, { version: 11, compress: true, codec: 'Zlib' });
    const bytes = w.bytes.slice();
    const entry = w.entries.find((e) => e.name.endsWith('Big.umap'))!;
    bytes.fill(0x55, entry.blocks[1]![0], entry.blocks[1]![0] + 40);
    await writeFile(path, bytes);
    const inline = await openPakArchive(path);
    const pooled = await openPakArchive(path, { decoder: pool });
    closers.push(inline, pooled);
    const ref = pooled.files().find((f) => f.path.endsWith('Big.umap'))!.ref;
    const want = await inline.read(ref).catch((e: unknown) => e);
    const got = await pooled.read(ref).catch((e: unknown) => e);
    expect(want).toBeInstanceOf(FormatError);
    expect(got).toBeInstanceOf(FormatError);
    expect((got as FormatError).message).toBe((want as FormatError).message);
    expect((got as FormatError).message).toMatch(/entry "[^"]*Big\.umap" block at \d+/);
  });
});

describe('pool mechanics of plans', () => {
  it('writes many small files in batches, and a cancelled write leaves nothing behind', async () => {
    const many = Array.from({ length: 60 }, (_, i): WriterFile => ({ path: `Game/F${i}.bin`, bytes: compressibleBytes(20_000 + i, 100 + i) }));
    const w = await writeContainer(many, { version: 8, codec: 'Zlib' });
    const [, pooled] = await both(w.utocPath);
    await pooled.readChunk(w.entries[0]!.entryIndex); // the .ucas open: plans are made at once
    const out = await makeTempDir();
    const c = new AbortController();
    const write = (i: number): Promise<string> => {
      const target = join(out, `f${i}`);
      return writeFileInWorkers(pooled, w.entries[i]!.entryIndex, { temp: `${target}.partial`, target, checkTarget: true }, c.signal);
    };
    const first = w.entries.slice(0, 30).map((_, i) => write(i));
    await new Promise((resolve) => setImmediate(resolve)); // the first tasks are out
    c.abort(new Error('stop'));
    const rest = w.entries.slice(30).map((_, i) => write(30 + i));
    const results = await Promise.all([...first, ...rest]);
    // Jobs not sent were cancelled; sent ones finished or stopped; nothing is half there.
    expect(results.slice(30).every((r) => r === 'cancelled')).toBe(true);
    expect(results.every((r) => r === 'written' || r === 'cancelled')).toBe(true);
    for (const [i, r] of results.entries()) {
      const target = join(out, `f${i}`);
      expect(existsSync(`${target}.partial`)).toBe(false);
      if (r === 'written') expect(same(new Uint8Array(await readFile(target)), w.entries[i]!.bytes)).toBe(true);
      else expect(existsSync(target), `f${i} ${r}`).toBe(false);
    }
    // Without a signal all are written.
    const again = await makeTempDir();
    const written = await Promise.all(w.entries.map((e, i) => {
      const target = join(again, `f${i}`);
      return writeFileInWorkers(pooled, e.entryIndex, { temp: `${target}.partial`, target, checkTarget: true });
    }));
    expect(written.every((r) => r === 'written')).toBe(true);
    // Many files in one job: each has its own result, a bad one fails alone.
    const batch = await makeTempDir();
    const targets = w.entries.map((_, i) => ({ temp: join(batch, `f${i}.partial`), target: join(batch, `f${i}`), checkTarget: true }));
    const refs = w.entries.map((e) => e.entryIndex);
    refs[7] = 1_000_000;
    const results2 = await writeFilesInWorkers(pooled, refs, targets);
    expect(results2.filter((r) => r === 'written')).toHaveLength(59);
    expect(results2[7]).toBeInstanceOf(RangeError);
    for (const [i, e] of w.entries.entries()) {
      if (i === 7) expect(existsSync(targets[7]!.target)).toBe(false);
      else expect(same(new Uint8Array(await readFile(targets[i]!.target)), e.bytes)).toBe(true);
    }
    expect(readdirSync(batch).some((n) => n.endsWith('.partial'))).toBe(false);
    expect(readdirSync(again)).toHaveLength(60);
  });

  it('reads hundreds of tiny Zlib chunks right (their output sits in Node\'s shared pool of small buffers, which must not be moved)', async () => {
    const tiny = Array.from({ length: 300 }, (_, i): WriterFile => ({ path: `Game/T${i}.txt`, bytes: compressibleBytes(1 + (i % 200), 500 + i) }));
    const w = await writeContainer(tiny, { version: 8, codec: 'Zlib' });
    const [, pooled] = await both(w.utocPath);
    const got = await Promise.all(w.entries.map((e) => pooled.readChunk(e.entryIndex)));
    expect(got.every((g, i) => same(g, w.entries[i]!.bytes))).toBe(true);
    expect(got.every((g) => g.buffer.byteLength < 4096)).toBe(true);
  });

  it('leaves the bytes at the temporary name when a file appeared at the target meanwhile', async () => {
    const w = await writeContainer(FILES, { version: 8, codec: 'Zlib' });
    const [, pooled] = await both(w.utocPath);
    const out = await makeTempDir();
    const target = join(out, 'a');
    await writeFile(target, 'already here');
    expect(await writeFileInWorkers(pooled, w.entries[0]!.entryIndex, { temp: `${target}.partial`, target, checkTarget: true })).toBe('exists');
    expect(await readFile(target, 'utf8')).toBe('already here');
    expect(same(new Uint8Array(await readFile(`${target}.partial`)), w.entries[0]!.bytes)).toBe(true);
    // checkTarget false replaces it.
    expect(await writeFileInWorkers(pooled, w.entries[0]!.entryIndex, { temp: `${target}.p2`, target, checkTarget: false })).toBe('written');
    expect(same(new Uint8Array(await readFile(target)), w.entries[0]!.bytes)).toBe(true);
  });
});

describe('worker parts', () => {
  it('ReadOnlyFiles keeps at most maxOpen files, closes idle ones, and names a file that ended early', async () => {
    const dir = await makeTempDir();
    const paths = [0, 1, 2, 3].map((i) => join(dir, `f${i}`));
    paths.forEach((p, i) => writeFileSync(p, Uint8Array.from({ length: 100 }, (_, k) => (k + i) & 0xff)));
    let now = 1000;
    const files = new ReadOnlyFiles(2, 500, () => now);
    const buf = new Uint8Array(10);
    for (const p of paths) files.readInto(p, 5, 10, buf);
    expect(files.openCount).toBe(2);
    expect(buf[0]).toBe(8); // f3 byte 5
    now += 400;
    files.readInto(paths[2]!, 0, 1, buf);
    now += 200;
    expect(files.closeIdle()).toBe(1); // f3 idle 600 ms, f2 200 ms
    expect(() => files.readInto(paths[0]!, 95, 10, buf)).toThrow(FormatError);
    expect(() => files.readInto(paths[0]!, 95, 10, buf)).toThrow(/f0: read at byte 100: file ended early/);
    files.closeAll();
    expect(files.openCount).toBe(0);
  });

  it('writePlannedFiles reads the stored bytes of neighbouring files in one go, and each file gets its own', async () => {
    const dir = await makeTempDir();
    const src = join(dir, 'src.bin');
    const data = randomBytesSeeded(10_000, 12);
    writeFileSync(src, data);
    /** A stored file of `size` bytes at `offset`; two blocks when `split`. */
    const plan = (offset: number, size: number, split = false): BlockPlan => {
      const blocks: number[] = [];
      const parts = split ? [Math.floor(size / 2), size - Math.floor(size / 2)] : [size];
      let at = 0;
      for (const n of parts) {
        addPlanBlock(blocks, { file: 0, offset: offset + at, stored: n, compressed: n, uncompressed: n, codec: 0, encrypted: false, at, skip: 0, take: n });
        at += n;
      }
      return { files: [src], codecs: ['None'], size, blocks };
    };
    // 0-999, 1000-2999 (two blocks), 3000-3499 follow one another; 5000-5999 does not; 6000-6099 follows it.
    const layout: [number, number, boolean?][] = [[0, 1000], [1000, 2000, true], [3000, 500], [5000, 1000], [6000, 100]];
    const files: PlannedWrite[] = layout.map(([o, n, split], i) => ({ plan: plan(o, n, split), to: { temp: join(dir, `t${i}`), target: join(dir, `f${i}`), checkTarget: false } }));
    const inner = new ReadOnlyFiles();
    const calls: string[] = [];
    const reader = {
      read: (f: string, o: number, n: number, into: Uint8Array) => { calls.push(`read ${o}+${n}`); return inner.read(f, o, n, into); },
      readAhead: (f: string, o: number, n: number) => { calls.push(`ahead ${o}+${n}`); return inner.readAhead(f, o, n); },
    };
    const readsBefore = calls.length;
    const results = writePlannedFiles(files.length, (i) => files[i]!, new Int32Array(files.length), reader, new Scratch(), () => false);
    expect(results).toEqual(Array(5).fill('written'));
    expect(calls.slice(readsBefore).filter((c) => c.startsWith('ahead'))).toEqual(['ahead 0+3500', 'ahead 5000+1100']);
    for (const [i, [o, n]] of layout.entries()) expect(same(new Uint8Array(await readFile(join(dir, `f${i}`))), data.subarray(o, o + n))).toBe(true);
    // A range short of the file is not read ahead; each file then fails on its own read.
    const short = [plan(9500, 400), plan(9900, 400)].map((p, i) => ({ plan: p, to: { temp: join(dir, `s${i}.t`), target: join(dir, `s${i}`), checkTarget: false } }));
    const shortResults = writePlannedFiles(2, (i) => short[i]!, new Int32Array(2), inner, new Scratch(), () => false);
    expect(shortResults[0]).toBe('written');
    expect(shortResults[1]).toMatchObject({ error: expect.objectContaining({ message: expect.stringMatching(/file ended early/) }) });
    expect(existsSync(join(dir, 's1'))).toBe(false);
    inner.closeAll();
  });

  it('writePlannedFile writes a new file straight to its name, else through its temporary name, never through a symlink', async () => {
    const dir = await makeTempDir();
    const src = join(dir, 'src.bin');
    const data = randomBytesSeeded(5000, 11);
    writeFileSync(src, data);
    const blocks: number[] = [];
    addPlanBlock(blocks, { file: 0, offset: 100, stored: 3000, compressed: 3000, uncompressed: 3000, codec: 0, encrypted: false, at: 0, skip: 0, take: 3000 });
    const plan: BlockPlan = { files: [src], codecs: ['None'], size: 3000, blocks };
    const reader = new ReadOnlyFiles();
    const scratch = new Scratch();
    const want = data.subarray(100, 3100);
    expect(same(runBlockPlan(plan, reader, scratch)!, want)).toBe(true);
    const target = join(dir, 'out.bin');
    // Nothing at the name: written there, the temporary name never made.
    expect(writePlannedFile(plan, { temp: `${target}.t1`, target, checkTarget: true }, reader, scratch, () => false)).toBe('written');
    expect(same(new Uint8Array(await readFile(target)), want)).toBe(true);
    expect(existsSync(`${target}.t1`)).toBe(false);
    // Something at the name and at the temporary name: refused, both left as they were.
    writeFileSync(`${target}.tmp`, 'planted');
    expect(() => writePlannedFile(plan, { temp: `${target}.tmp`, target, checkTarget: false }, reader, scratch, () => false)).toThrow(/EEXIST/);
    expect(readFileSync(`${target}.tmp`, 'utf8')).toBe('planted');
    // Cancelled: nothing of this write is left.
    const fresh = join(dir, 'fresh.bin');
    expect(writePlannedFile(plan, { temp: `${fresh}.t2`, target: fresh, checkTarget: false }, reader, scratch, () => true)).toBe('cancelled');
    expect(existsSync(`${fresh}.t2`) || existsSync(fresh)).toBe(false);
    // A symlink at the name is never followed: left alone under checkTarget, replaced (not written through) without.
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const link = join(dir, 'link.bin');
    symlinkSync(outside, link);
    expect(writePlannedFile(plan, { temp: `${link}.t3`, target: link, checkTarget: true }, reader, scratch, () => false)).toBe('exists');
    expect(same(new Uint8Array(await readFile(`${link}.t3`)), want)).toBe(true);
    expect(writePlannedFile(plan, { temp: `${link}.t4`, target: link, checkTarget: false }, reader, scratch, () => false)).toBe('written');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(same(new Uint8Array(await readFile(link)), want)).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    reader.closeAll();
  });

  it('writePlannedFile writes a big file in pieces: byte-exact, its KiB counted, a cancel between pieces removes it, a bad block names its index', async () => {
    const dir = await makeTempDir();
    const src = join(dir, 'big-src.bin');
    const BLOCK = 1024 * 1024;
    const n = 10; // 10 MiB: three pieces of at most 4 MiB
    const data = compressibleBytes(n * BLOCK, 21);
    writeFileSync(src, data);
    const blocks: number[] = [];
    for (let k = 0; k < n; k++) {
      addPlanBlock(blocks, { file: 0, offset: k * BLOCK, stored: BLOCK, compressed: BLOCK, uncompressed: BLOCK, codec: 0, encrypted: false, at: k * BLOCK, skip: 0, take: BLOCK });
    }
    const plan: BlockPlan = { files: [src], codecs: ['None'], size: n * BLOCK, blocks };
    expect(plan.size).toBeGreaterThan(2 * WRITE_PIECE_BYTES);
    const reader = new ReadOnlyFiles();
    const scratch = new Scratch();
    const kib = new Int32Array(new SharedArrayBuffer(8));
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const target = join(dir, 'big.bin');
    expect(writePlannedFile(plan, { temp: `${target}.t`, target, checkTarget: false }, reader, scratch, () => false, flags, 1, kib)).toBe('written');
    expect(same(new Uint8Array(await readFile(target)), data)).toBe(true);
    expect(kib[1]).toBe(n * 1024);
    // The scratch output never held more than a piece.
    expect(scratch.output(0).buffer.byteLength).toBeLessThanOrEqual(WRITE_PIECE_BYTES + 1);
    // Stopped after the first piece (4 blocks): the file is removed, and the count had moved.
    let asked = 0;
    const stopAfterPiece = (): boolean => ++asked > 1; // asked once per piece: the second says stop
    const cut = join(dir, 'cut.bin');
    kib[1] = 0;
    expect(writePlannedFile(plan, { temp: `${cut}.t`, target: cut, checkTarget: false }, reader, scratch, stopAfterPiece, flags, 1, kib)).toBe('cancelled');
    expect(existsSync(cut) || existsSync(`${cut}.t`)).toBe(false);
    expect(kib[1]).toBe(4 * 1024);
    // Block 9 (in the third piece) reaches past the end of the source: the error names block 9, and nothing is left.
    const broken = { ...plan, blocks: blocks.slice() };
    broken.blocks[9 * 12 + 1] = n * BLOCK - 100;
    const bad = join(dir, 'bad.bin');
    let error: unknown;
    try {
      writePlannedFile(broken, { temp: `${bad}.t`, target: bad, checkTarget: false }, reader, scratch, () => false);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect(jobIndexOf(error)).toBe(9);
    expect(existsSync(bad)).toBe(false);
    reader.closeAll();
  });
});
