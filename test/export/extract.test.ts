import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFiles, exportFileList, ZipLimitError, type ExportProgress } from '../../src/core/export/index.js';
import { checkChunkHash } from '../../src/core/hash/chunk-hash.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { Install, openInstall } from '../../src/core/install/install.js';
import { fakeArchive } from '../install/fake-archive.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { chunkMetaHash } from '../../src/core/iostore/toc.js';
import { createWorkerPool, type WorkerPool } from '../../src/core/workers/pool.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { writePak } from '../fixtures/pak-writer.js';
import { ensureWorkerBundle } from '../workers/worker-bundle.js';
import { listTree, sha256 } from './helpers.js';

const TAGGED = corpus('cue58/IoStore/Tagged');
const ZLIB = join(TAGGED, 'Zlib');
const UNCOMPRESSED = join(TAGGED, 'Uncompressed');
const LEGACY_PAK = corpus('cue58/LegacyPak/Tagged/Uncompressed');

let pool: WorkerPool;
const installs: Install[] = [];

async function open(paths: string[], keys?: KeyRing): Promise<Install> {
  const install = await openInstall(paths, { decoder: pool, ...(keys ? { keys } : {}) });
  installs.push(install);
  return install;
}

beforeAll(() => {
  pool = createWorkerPool({ threads: 2, workerFile: ensureWorkerBundle() });
});

afterAll(async () => {
  await Promise.all(installs.map((i) => i.close()));
  await pool.destroy();
  await removeTempDirs();
});

describe('raw export of real containers', () => {
  it('writes every file of the Zlib container byte-exact: sha256 as Archive.read, and the stored chunk hashes verify', async () => {
    const install = await open([ZLIB]);
    const out = join(await makeTempDir(), 'out');
    const progress: ExportProgress[] = [];
    const s = await extractFiles(install, {}, { out, onProgress: (p) => progress.push(p), progressIntervalMs: 0 });
    expect(s).toMatchObject({ files: 111, bytes: install.totalSize, failed: [], skipped: [], cancelled: false });
    expect(await listTree(out)).toEqual([...install.files()].map((f) => f.path).sort());
    for (const f of install.files()) {
      const { archive, file } = f.providers[0]!;
      const written = new Uint8Array(await readFile(join(out, f.path)));
      expect(sha256(written), f.path).toBe(sha256(await archive.read(file.ref)));
      // The exported bytes themselves match the hash the container stores for the chunk.
      const check = await checkChunkHash(chunkMetaHash((archive as IoStoreContainer).toc, file.ref), written);
      expect(check.ok, f.path).toBe(true);
    }
    const last = progress[progress.length - 1]!;
    expect(last).toMatchObject({ filesDone: 111, filesTotal: 111, bytesDone: install.totalSize, bytesTotal: install.totalSize, secondsLeft: 0 });
    expect(progress.some((p) => p.current.endsWith('.uasset') && p.filesDone < 111)).toBe(true);
    // Counters only grow.
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.bytesDone).toBeGreaterThanOrEqual(progress[i - 1]!.bytesDone);
  });

  it('a selected Zen package brings its bulk data beside it (the 14 .ubulk of cue58 Uncompressed)', async () => {
    const install = await open([UNCOMPRESSED]);
    const packages = [...install.files()].filter((f) => f.path.endsWith('.ubulk')).map((f) => f.path.replace(/\.ubulk$/, '.uasset'));
    expect(packages).toHaveLength(14);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, packages, { out });
    expect(s).toMatchObject({ files: 28, failed: [], skipped: [] });
    const tree = await listTree(out);
    expect(tree.filter((p) => p.endsWith('.ubulk'))).toHaveLength(14);
    const texture = 'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming';
    expect(tree).toContain(`${texture}.uasset`);
    const bulk = install.file(`${texture}.ubulk`)!;
    expect(bulk.providers[0]!.file.chunkType).toBe('BulkData');
    expect(bulk.size).toBe(172032);
    expect(sha256(await readFile(join(out, `${texture}.ubulk`)))).toBe(sha256(await bulk.providers[0]!.archive.read(bulk.providers[0]!.file.ref)));
    // A folder means everything below it; companions already selected are written once.
    const audio = join(await makeTempDir(), 'out');
    const a = await extractFiles(install, ['cue4parsefixtures/content/fixtures/AUDIO/'], { out: audio });
    expect(a.files).toBe([...install.files()].filter((f) => f.path.includes('/Audio/')).length);
    expect(a.skipped).toEqual([]);
  });

  it('names bulk chunks that have no path of their own after their package: .ubulk, .uptnl, .m.ubulk', async () => {
    const id = (type: number): Uint8Array => Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, type]);
    const pkg = randomBytesSeeded(3000, 1), bulk = randomBytesSeeded(70000, 2), optional = randomBytesSeeded(500, 3), mapped = randomBytesSeeded(800, 4);
    const other = randomBytesSeeded(100, 5);
    const c = await writeContainer([
      { path: 'Game/Pkg.uasset', bytes: pkg, chunkType: 'ExportBundleData', chunkId: id(1) },
      { bytes: bulk, chunkType: 'BulkData', chunkId: id(2) },
      { bytes: optional, chunkType: 'OptionalBulkData', chunkId: id(3) },
      { bytes: mapped, chunkType: 'MemoryMappedBulkData', chunkId: id(4) },
      // Another package's bulk data stays out.
      { bytes: other, chunkType: 'BulkData', chunkId: Uint8Array.from([9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 0, 2]) },
    ], { version: 8, codec: 'Zlib' });
    const install = await open([c.utocPath]);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, ['Game/Pkg.uasset'], { out });
    expect(s).toMatchObject({ files: 4, bytes: 3000 + 70000 + 500 + 800, failed: [] });
    expect(await listTree(out)).toEqual(['Game/Pkg.m.ubulk', 'Game/Pkg.uasset', 'Game/Pkg.ubulk', 'Game/Pkg.uptnl']);
    expect(sha256(await readFile(join(out, 'Game/Pkg.ubulk')))).toBe(sha256(bulk));
    expect(sha256(await readFile(join(out, 'Game/Pkg.uptnl')))).toBe(sha256(optional));
    expect(sha256(await readFile(join(out, 'Game/Pkg.m.ubulk')))).toBe(sha256(mapped));
    // companions: false writes only what was selected.
    const only = join(await makeTempDir(), 'out');
    expect((await extractFiles(install, ['Game/Pkg.uasset'], { out: only, companions: false })).files).toBe(1);
  });

  it('a pak package brings its .uexp and .ubulk; a glob filter selects like the tree filter', async () => {
    const install = await open([LEGACY_PAK]);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, { filters: ['**/T_Streaming.uasset'] }, { out });
    expect(await listTree(out)).toEqual([
      'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.uasset',
      'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.ubulk',
      'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.uexp',
    ]);
    expect(s.files).toBe(3);
    for (const p of await listTree(out)) {
      const f = install.file(p)!.providers[0]!;
      expect(sha256(await readFile(join(out, p))), p).toBe(sha256(await f.archive.read(f.file.ref)));
    }
  });

  it('lists what it cannot read (a locked pak, a missing .ucas, a path not in the install) and extracts the rest', async () => {
    const install = await open([ZLIB, corpus('pak/repak_pack_v11_encrypt.pak'), corpus('iostore/m3d_android_MODEL_3D-Android_ASTC.utoc')]);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, { paths: ['mount', 'CUE4ParseFixtures/Content/Fixtures/Curves', 'Engine/Content/EditorMaterials/Camera', 'No/Such/Thing'] }, { out });
    const curves = [...install.files()].filter((f) => f.path.includes('/Curves/'));
    expect(curves.length).toBe(7);
    expect(s.files).toBe(curves.length);
    expect(s.failed.find((f) => f.path === 'mount/point/root/test.txt')?.error).toMatch(/encrypted with the zero key GUID.*no AES key/);
    expect(s.failed.filter((f) => f.path.startsWith('mount/'))).toHaveLength(4);
    const camera = s.failed.filter((f) => f.path.startsWith('Engine/Content/EditorMaterials/Camera/'));
    expect(camera.length).toBeGreaterThan(0);
    for (const f of camera) expect(f.error).toMatch(/m3d_android_MODEL_3D-Android_ASTC\.ucas does not exist/);
    expect(s.failed.find((f) => f.path === 'No/Such/Thing')?.error).toBe('no such file or folder in the install');
    expect(await listTree(out)).toEqual(curves.map((f) => f.path).sort());
  });

  it('reads encrypted containers with their key', async () => {
    const install = await open([join(TAGGED, 'OodleEncrypted')], KeyRing.fromArgs([CUE58_AES_KEY]));
    const plain = await open([ZLIB]);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, { filters: ['DA_AllProperties'] }, { out });
    expect(s.files).toBe(1);
    const p = 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset';
    const z = plain.file(p)!.providers[0]!;
    expect(sha256(await readFile(join(out, p)))).toBe(sha256(await z.archive.read(z.file.ref)));
  });
});

describe('--format json', () => {
  // Found by the issue 25 campaign: every JSON export left the global.utoc it opened for /Script
  // imports to the garbage collector ("Closing file descriptor ... on garbage collection").
  it('closes the global container it opened beside the install', async () => {
    const install = await open([UNCOMPRESSED]);
    const fds = () => readdirSync('/proc/self/fd').length;
    // The install's own .ucas is opened at its first read, and stays open with it.
    const file = install.file('CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset')!;
    await file.providers[0]!.archive.read(file.providers[0]!.file.ref);
    const before = fds();
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, { paths: ['CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset'] }, { out, format: 'json' });
    expect(s.files).toBe(1);
    expect(JSON.parse(await readFile(join(out, 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset.json'), 'utf8')).imports.some((i: { path: string }) => i.path.startsWith('/Script/'))).toBe(true);
    expect(fds()).toBe(before);
  });

  it('writes every Zen package of the Zlib container as a parseable model with resolved /Script imports', async () => {
    const install = await open([ZLIB, join(TAGGED, 'global.utoc')]);
    const out = join(await makeTempDir(), 'out');
    const s = await extractFiles(install, {}, { out, format: 'json' });
    expect(s.failed).toEqual([]);
    const packages = [...install.files()].filter((f) => /\.(uasset|umap)$/.test(f.path));
    const bulk = [...install.files()].filter((f) => f.path.endsWith('.ubulk'));
    expect(packages).toHaveLength(97);
    expect(s.files).toBe(packages.length + bulk.length);
    const tree = await listTree(out);
    expect(tree.filter((p) => p.endsWith('.json'))).toHaveLength(97);
    // Not packages: written raw.
    for (const b of bulk) expect(tree).toContain(b.path);
    const model = JSON.parse(await readFile(join(out, 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset.json'), 'utf8'));
    expect(model).toMatchObject({ format: 'zen', name: '/Game/Fixtures/Meshes/SM_Fixture', summary: { chunkSize: 7262, hasPackageTag: true } });
    expect(model.exports.map((e: { path: string }) => e.path)).toContain('/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture');
    expect(model.exports.find((e: { name: string }) => e.name === 'SM_Fixture').class).toBe('StaticMesh');
    expect(model.imports.map((i: { path: string }) => i.path)).toContain('/Script/Engine.StaticMesh');
    for (const p of packages) {
      const m = JSON.parse(await readFile(join(out, `${p.path}.json`), 'utf8'));
      expect(m.format).toBe('zen');
      expect(m.fileName).toBe(p.path);
      expect(m.warnings).toEqual([]);
    }
  });

  it('writes classic packages from a pak as uasset models, .uexp/.ubulk raw; a UE1/2 package as ue12; a UE3 package fails', async () => {
    const dir = await makeTempDir();
    const cube = (ext: string): Promise<Buffer> => readFile(corpus(`cooked/retoc55_SM_Cube.${ext}`));
    const pak = writePak(await Promise.all(['uasset', 'uexp', 'ubulk'].map(async (ext) => ({ name: `Meshes/SM_Cube.${ext}`, data: new Uint8Array(await cube(ext)) }))),
      { version: 11, mountPoint: '../../../Game/Content/', compress: true });
    await writeFile(join(dir, 'cube.pak'), pak.bytes);
    const install = await open([join(dir, 'cube.pak'), corpus('legacy/ut99_EnergySword.u'), corpus('legacy/uelib_TestUC3.u')]);
    const out = join(dir, 'out');
    const s = await extractFiles(install, {}, { out, format: 'json' });
    expect(s.failed).toEqual([{ path: 'uelib_TestUC3.u', error: expect.stringMatching(/Unreal Engine 3 package/) }]);
    expect(s.files).toBe(4);
    expect(await listTree(out)).toEqual([
      'Game/Content/Meshes/SM_Cube.uasset.json',
      'Game/Content/Meshes/SM_Cube.ubulk',
      'Game/Content/Meshes/SM_Cube.uexp',
      'ut99_EnergySword.u.json',
    ]);
    const model = JSON.parse(await readFile(join(out, 'Game/Content/Meshes/SM_Cube.uasset.json'), 'utf8'));
    expect(model).toMatchObject({ format: 'uasset', fileName: 'Game/Content/Meshes/SM_Cube.uasset' });
    expect(model.names).toHaveLength(20);
    expect(model.exports).toHaveLength(3);
    expect(sha256(await readFile(join(out, 'Game/Content/Meshes/SM_Cube.uexp')))).toBe(sha256(await cube('uexp')));
    const ue1 = JSON.parse(await readFile(join(out, 'ut99_EnergySword.u.json'), 'utf8'));
    expect(ue1.format).toBe('ue12');
    expect(ue1.names).toHaveLength(198); // MANIFEST.tsv: Names=198 Exports=112
    expect(ue1.exports).toHaveLength(112);
  });
});

describe('zip', () => {
  it('streams the Zlib container into one zip that unzips to the same bytes', async () => {
    const install = await open([ZLIB]);
    const dir = await makeTempDir();
    const zip = join(dir, 'all.zip');
    const s = await extractFiles(install, {}, { zip });
    expect(s).toMatchObject({ files: 111, bytes: install.totalSize, failed: [] });
    const entries = unzipSync(new Uint8Array(await readFile(zip)));
    expect(Object.keys(entries).sort()).toEqual([...install.files()].map((f) => f.path).sort());
    for (const f of install.files()) {
      const p = f.providers[0]!;
      expect(sha256(entries[f.path]!), f.path).toBe(sha256(await p.archive.read(p.file.ref)));
    }
    // Only the zip: no temporary or spool file beside it.
    expect(await listTree(dir)).toEqual(['all.zip']);
    // A second export to the same zip is skipped by default, numbered under keep-both.
    expect((await extractFiles(install, {}, { zip })).skipped).toEqual([{ path: zip, reason: 'the zip exists (not overwritten)' }]);
    await extractFiles(install, { filters: ['**/*.ubulk'] }, { zip, conflict: 'keep-both', zipLevel: 0 });
    expect(await listTree(dir)).toEqual(['all (2).zip', 'all.zip']);
    expect(Object.keys(unzipSync(new Uint8Array(await readFile(join(dir, 'all (2).zip')))))).toHaveLength(14);
    // JSON models go into a zip as well.
    await extractFiles(install, { filters: ['SM_Fixture'] }, { zip: join(dir, 'json.zip'), format: 'json' });
    const json = unzipSync(new Uint8Array(await readFile(join(dir, 'json.zip'))));
    expect(Object.keys(json)).toEqual(['CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset.json']);
    expect(JSON.parse(new TextDecoder().decode(Object.values(json)[0]))).toMatchObject({ format: 'zen', name: '/Game/Fixtures/Meshes/SM_Fixture' });
  });

  it('holds a big file in a spool file until its turn', async () => {
    const big = compressibleBytes(10 * 1024 * 1024, 7); // past the 8 MiB a zip entry waits for in memory
    const c = await writeContainer([
      { path: 'Game/big.bin', bytes: big, chunkType: 'BulkData' },
      { path: 'Game/small.txt', bytes: new TextEncoder().encode('small'), chunkType: 'BulkData' },
    ], { version: 8, codec: 'Zlib' });
    const install = await open([c.utocPath]);
    const dir = await makeTempDir();
    const s = await extractFiles(install, {}, { zip: join(dir, 'x.zip'), zipLevel: 1 });
    expect(s.files).toBe(2);
    const entries = unzipSync(new Uint8Array(await readFile(join(dir, 'x.zip'))));
    expect(sha256(entries['Game/big.bin']!)).toBe(sha256(big));
    expect(new TextDecoder().decode(entries['Game/small.txt'])).toBe('small');
    expect(await listTree(dir)).toEqual(['x.zip']);
  });
});

describe('zip limits', () => {
  it('refuses more files, or more bytes, than a zip without ZIP64 holds, before writing anything', async () => {
    const dir = await makeTempDir();
    const many = new Install([], [fakeArchive('many.pak', Array.from({ length: 65_536 }, (_, i) => [`F${i >> 10}/f${i}`, 1] as [string, number]))], []);
    await expect(extractFiles(many, {}, { zip: join(dir, 'x.zip') })).rejects.toThrow(ZipLimitError);
    await expect(extractFiles(many, {}, { zip: join(dir, 'x.zip') })).rejects.toThrow(/65536 files selected; fflate writes no ZIP64 records/);
    const big = new Install([], [fakeArchive('big.pak', [['a.bin', 3 * 2 ** 30], ['b.bin', 2 ** 30 + 1]])], []);
    await expect(extractFiles(big, {}, { zip: join(dir, 'x.zip') })).rejects.toThrow(/4294967297 bytes selected/);
    expect(await listTree(dir)).toEqual([]);
    // 65,535 files fit (the fake archive's bytes are "fits:" and the path).
    const fits = new Install([], [fakeArchive('fits.pak', Array.from({ length: 65_535 }, (_, i) => [`F${i >> 10}/f${i}`, `fits:F${i >> 10}/f${i}`.length] as [string, number]))], []);
    expect((await extractFiles(fits, { paths: ['F0/f0'] }, { zip: join(dir, 'x.zip') })).files).toBe(1);
  });
});

describe('cancel', () => {
  let written: Promise<string> | undefined;
  /** Written once: a small file, a 24 MiB file of six 4 MiB pieces, another small file. */
  async function bigContainer(): Promise<Install> {
    written ??= writeContainer([
      { path: 'a/small.bin', bytes: randomBytesSeeded(1000, 1), chunkType: 'BulkData' },
      { path: 'b/big.bin', bytes: compressibleBytes(24 * 1024 * 1024, 2), chunkType: 'BulkData' },
      { path: 'c/after.bin', bytes: randomBytesSeeded(1000, 3), chunkType: 'BulkData' },
    ], { version: 8, codec: 'Zlib' }).then((c) => c.utocPath);
    return open([await written]);
  }

  it('stops mid-file: the partial file is removed, what was done stays, the summary says cancelled', async () => {
    const install = await bigContainer();
    const out = join(await makeTempDir(), 'out');
    const controller = new AbortController();
    const seen: ExportProgress[] = [];
    const s = await extractFiles(install, {}, {
      out, concurrency: 1, signal: controller.signal, progressIntervalMs: 0,
      onProgress: (p) => {
        seen.push(p);
        // The small file is done; a worker is on the big file's first pieces (each file is a batch of its own).
        if (p.filesDone >= 1 && !controller.signal.aborted) controller.abort();
      },
    });
    expect(s.cancelled).toBe(true);
    expect(s.failed).toEqual([]);
    const tree = await listTree(out);
    // The big file was stopped between pieces and removed; nothing .partial; what was written is counted.
    expect(tree).toContain('a/small.bin');
    expect(tree).not.toContain('b/big.bin');
    expect(tree.every((p) => !p.includes('.partial') && !p.includes('.pakscope-'))).toBe(true);
    expect(s.files).toBe(tree.length);
    expect(readFileSync(join(out, 'a/small.bin')).length).toBe(1000);
    expect(s.files).toBeLessThan(3);
    expect(seen.some((p) => p.filesDone >= 1)).toBe(true);
  });

  it('a big file goes to disk through the workers in pieces, byte-exact, its bytes counted as they go', async () => {
    const install = await bigContainer();
    const out = join(await makeTempDir(), 'out');
    const seen: ExportProgress[] = [];
    const s = await extractFiles(install, ['b'], { out, progressIntervalMs: 0, onProgress: (p) => seen.push(p) });
    expect(s).toMatchObject({ files: 1, bytes: 24 * 1024 * 1024, failed: [], cancelled: false });
    const big = install.file('b/big.bin')!;
    expect(sha256(new Uint8Array(await readFile(join(out, 'b/big.bin'))))).toBe(sha256(await big.providers[0]!.archive.read(big.providers[0]!.file.ref)));
    expect(seen.at(-1)).toMatchObject({ filesDone: 1, bytesDone: 24 * 1024 * 1024 });
  });

  it('removes a zip that cannot be complete', async () => {
    const install = await bigContainer();
    const dir = await makeTempDir();
    const controller = new AbortController();
    const s = await extractFiles(install, {}, {
      zip: join(dir, 'x.zip'), concurrency: 1, signal: controller.signal, progressIntervalMs: 0,
      onProgress: (p) => { if (p.current === 'b/big.bin' && p.bytesDone > 1000) controller.abort(); },
    });
    expect(s.cancelled).toBe(true);
    expect(await listTree(dir)).toEqual([]);
  });

  it('an already aborted signal rejects before anything is written', async () => {
    const install = await bigContainer();
    const out = join(await makeTempDir(), 'out');
    await expect(extractFiles(install, {}, { out, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(existsSync(out)).toBe(false);
  });
});

describe('conflicts', () => {
  async function setup(): Promise<{ install: Install; out: string }> {
    const c = await writeContainer([
      { path: 'Game/a.txt', bytes: new TextEncoder().encode('new a'), chunkType: 'BulkData' },
      { path: 'Game/b.m.ubulk', bytes: new TextEncoder().encode('new b'), chunkType: 'BulkData' },
    ], { version: 8 });
    const install = await open([c.utocPath]);
    const out = join(await makeTempDir(), 'out');
    await mkdir(join(out, 'Game'), { recursive: true });
    await writeFile(join(out, 'Game/a.txt'), 'old a');
    return { install, out };
  }

  it('skip (the default) leaves the existing file and lists it', async () => {
    const { install, out } = await setup();
    const s = await extractFiles(install, {}, { out });
    expect(s).toMatchObject({ files: 1, skipped: [{ path: 'Game/a.txt', reason: 'exists in the output folder (not overwritten)' }] });
    expect(await readFile(join(out, 'Game/a.txt'), 'utf8')).toBe('old a');
    expect(await readFile(join(out, 'Game/b.m.ubulk'), 'utf8')).toBe('new b');
  });

  it('overwrite replaces it', async () => {
    const { install, out } = await setup();
    const s = await extractFiles(install, {}, { out, conflict: 'overwrite' });
    expect(s).toMatchObject({ files: 2, skipped: [] });
    expect(await readFile(join(out, 'Game/a.txt'), 'utf8')).toBe('new a');
  });

  it('keep-both writes "name (2).ext", then "(3)"', async () => {
    const { install, out } = await setup();
    await extractFiles(install, {}, { out, conflict: 'keep-both' });
    await extractFiles(install, {}, { out, conflict: 'keep-both' });
    expect(await listTree(out)).toEqual(['Game/a (2).txt', 'Game/a (3).txt', 'Game/a.txt', 'Game/b (2).m.ubulk', 'Game/b.m.ubulk']);
    expect(await readFile(join(out, 'Game/a.txt'), 'utf8')).toBe('old a');
    expect(await readFile(join(out, 'Game/a (3).txt'), 'utf8')).toBe('new a');
  });

  it('refuses a file where a folder of that name exists', async () => {
    const { install, out } = await setup();
    await mkdir(join(out, 'Game/b.m.ubulk'));
    const s = await extractFiles(install, {}, { out, conflict: 'overwrite' });
    expect(s.failed).toEqual([{ path: 'Game/b.m.ubulk', error: 'refused: a folder of that name exists in the output' }]);
  });
});

describe('exportFileList', () => {
  it('lists the selection as CSV and JSON', async () => {
    const install = await open([UNCOMPRESSED]);
    const csv = exportFileList(install, { filters: ['**/*.ubulk'] }, 'csv');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('path,size,container,chunkId,chunkType');
    expect(lines).toHaveLength(15);
    expect(lines).toContain('CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.ubulk,172032,CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc,e1c737fa62507a8400000002,BulkData');
    const json = JSON.parse(exportFileList(install, ['CUE4ParseFixtures/Content/Fixtures/Textures'], 'json')) as { files: { path: string; size: number }[] };
    expect(json.files.length).toBe([...install.files()].filter((f) => f.path.includes('/Textures/')).length);
    expect(json.files.every((f) => f.path.startsWith('CUE4ParseFixtures/Content/Fixtures/Textures/'))).toBe(true);
  });

  it('quotes CSV cells and defuses formulas in names', async () => {
    const c = await writeContainer([
      { path: '=SUM(1,2)', bytes: new Uint8Array(1), chunkType: 'BulkData' },
      { path: 'Game/say "hi".txt', bytes: new Uint8Array(2), chunkType: 'BulkData' },
    ], { version: 8 });
    const install = await open([c.utocPath]);
    const lines = exportFileList(install, {}, 'csv').trimEnd().split('\r\n');
    expect(lines[1]!.startsWith('"\'=SUM(1,2)",1,test.utoc,')).toBe(true);
    expect(lines[2]!.startsWith('"Game/say ""hi"".txt",2,test.utoc,')).toBe(true);
  });
});
