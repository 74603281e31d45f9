/**
 * The benchmark's synthetic install, in small: what the generator writes must read back through
 * PakScope's own readers exactly as the catalog planned it (paths, package ids, imports, codecs,
 * the AES container, the copied Oodle blocks' hashes and compressors, sizes that end in short
 * blocks), and the results file must have the shape the README promises.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../bench/asset-kinds.js';
import { buildCatalog, type Asset } from '../../bench/catalog.js';
import { blockSizeOfContainer, BulkBlocks, codecOfContainer, generateInstall, packageCodecOf, WIDE_BLOCK, type InstallManifest, type InstallParams } from '../../bench/generate-install.js';
import { harvestOodleBlocks, harvestOodleStreamBlocks } from '../../bench/oodle-blocks.js';
import { Rng } from '../../bench/rng.js';
import { formatMarkdown, formatTable, meets, TARGET_SPECS, targetResult, validateResults, type BenchResults } from '../../bench/results.js';
import { oodleCompressor } from '../../src/core/codecs/oodle.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { zenLayoutFor } from '../../src/core/engine-versions.js';
import { packageIdFromName } from '../../src/core/hash/cityhash64.js';
import { mountPathToPackageName } from '../../src/core/install/game-path.js';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { findStoreEntry, parseContainerHeader, type ContainerHeader } from '../../src/core/iostore/container-header.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { partitionPath } from '../../src/core/iostore/container-blocks.js';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { resolvePackage } from '../../src/core/zen/resolve.js';
import { parseScriptObjects } from '../../src/core/zen/script-objects.js';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';

/** 15 containers: the 15th (index 14) is the AES one. */
const PARAMS: InstallParams = { packages: 400, containers: 15, seed: 99 };
let dir: string;
let manifest: InstallManifest;
let catalog: Asset[];
let install: Install;
const headers = new Map<string, ContainerHeader>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pakscope-test-bench-'));
  manifest = await generateInstall(PARAMS, { dir });
  catalog = buildCatalog(PARAMS);
  install = await openInstall([manifest.root], { keys: KeyRing.fromArgs([manifest.aesKeyArg]) });
  for (const a of install.archives) {
    if (!(a instanceof IoStoreContainer)) continue;
    const entry = a.entriesOfType('ContainerHeader')[0];
    if (entry !== undefined) headers.set(a.name, parseContainerHeader(await a.readChunk(entry), a.path));
  }
}, 120_000);

afterAll(async () => {
  await install?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const containerOf = (name: string): IoStoreContainer =>
  install.archives.find((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.name === name)!;

describe('the synthetic install', () => {
  it('opens whole with the key: every planned file, no problems, the usual top level', () => {
    const bulk = catalog.filter((a) => a.bulkSize > 0).length;
    expect(manifest.packages).toBe(400);
    expect(manifest.files).toBe(400 + bulk);
    expect(install.problems).toEqual([]);
    expect(install.fileCount).toBe(manifest.files);
    expect(install.listDir('').map((e) => e.name)).toEqual(['Engine', 'Game']);
    // 15 containers + global.utoc; the .pak stubs list nothing and are dropped.
    expect(install.archives.map((a) => a.name).sort()).toEqual([...Array.from({ length: 15 }, (_, i) => `pakchunk${i}-Windows`), 'global'].sort());
  });

  it('locks the AES container without the key', async () => {
    const locked = await openInstall([manifest.root]);
    try {
      expect(locked.problems.map((p) => p.path)).toEqual([join(manifest.paksDir, 'pakchunk14-Windows.utoc')]);
      expect(locked.archives.find((a) => a.name === 'pakchunk14-Windows')!.status.state).toBe('locked');
    } finally {
      await locked.close();
    }
  });

  it('names files as the engine mounts them: the package name comes back from the path', () => {
    for (const a of catalog) {
      expect(install.file(a.path), a.path).toBeDefined();
      expect(mountPathToPackageName(a.path)).toBe(a.packageName);
      expect(a.packageId).toBe(packageIdFromName(a.packageName));
    }
    expect(catalog.some((a) => a.path.startsWith('Engine/Content/'))).toBe(true);
    expect(catalog.some((a) => a.path.startsWith('Game/Plugins/GameFeatures/'))).toBe(true);
    expect(catalog.some((a) => /\/_Generated_\/MainGrid_L0_X-?\d+_Y-?\d+_DL0\.umap$/.test(a.path))).toBe(true);
  });

  it('uses each container codec it planned: package chunks compressed (LZ4 in Oodle containers), .ubulk blocks in the container codec', () => {
    for (const c of manifest.containers) {
      const i = Number(/pakchunk(\d+)/.exec(c.name)![1]);
      expect(c.codec).toBe(i === 14 ? 'Zlib' : codecOfContainer(i));
      expect(c.packageCodec).toBe(packageCodecOf(c.codec));
      const container = containerOf(c.name);
      expect(container.toc.header.compressionBlockSize).toBe(blockSizeOfContainer(i));
      const codecs = String(container.describe().fields['Codecs']);
      if (c.codec === 'None') expect(codecs).toMatch(/^None: \d+$/);
      else if (c.codec === 'Oodle') expect(codecs).toMatch(c.bulkFiles > 0 ? /^LZ4: \d+, Oodle: \d+$/ : /^LZ4: \d+$/);
      else expect(codecs).toBe(`${c.codec}: ${container.toc.header.compressedBlockEntryCount}`);
      for (const f of container.files()) {
        expect(Object.keys(container.storage(f.ref).codecs), f.path).toEqual([f.chunkType === 'BulkData' ? c.codec : c.packageCodec]);
      }
    }
    expect(manifest.containers.filter((c) => c.encrypted).map((c) => c.name)).toEqual(['pakchunk14-Windows']);
    expect(manifest.compressedPackageShare).toBeGreaterThan(0.85);
  });

  it('fills the Oodle .ubulk files with every compressor the corpus has: Kraken in 64 KiB containers, all four in the 256 KiB one', () => {
    expect(manifest.oodleSourceBlocks['Kraken']).toBeGreaterThanOrEqual(100);
    for (const name of ['Mermaid', 'Selkie', 'Leviathan']) expect(manifest.oodleSourceBlocks[name]).toBe(4);
    const seen = new Map<number, Set<string>>();
    for (const c of manifest.containers.filter((x) => x.codec === 'Oodle')) {
      const container = containerOf(c.name);
      const toc = container.toc;
      const ucas = readFileSync(partitionPath(container.path, 0));
      const names = seen.get(toc.header.compressionBlockSize) ?? new Set<string>();
      seen.set(toc.header.compressionBlockSize, names);
      for (let b = 0; b < toc.blockMethods.length; b++) {
        if (toc.methodNames[toc.blockMethods[b]!] === 'Oodle') names.add(oodleCompressor(ucas.subarray(toc.blockOffsets[b]!, toc.blockOffsets[b]! + 2)));
      }
    }
    expect([...seen.get(65536)!]).toEqual(['Kraken']);
    // This small install's 256 KiB container has a handful of .ubulk files; which compressors they drew is the next test's.
    for (const name of seen.get(262144)!) expect(['Kraken', 'Leviathan', 'Mermaid/Selkie']).toContain(name);
  });

  it('draws a 256 KiB container\'s blocks from all four compressors in turn, and short real blocks near the size asked', async () => {
    const oodle = [...await harvestOodleBlocks(), ...await harvestOodleBlocks(undefined, false), ...await harvestOodleStreamBlocks()];
    const bulk = new BulkBlocks([new Uint8Array(65536)], oodle);
    const rng = new Rng(1);
    const names = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const pieces = bulk.plan('Oodle', WIDE_BLOCK, 2.5 * WIDE_BLOCK, rng);
      expect(pieces.map((p) => p.plain.length)).toEqual([WIDE_BLOCK, WIDE_BLOCK, WIDE_BLOCK / 2]);
      for (const p of pieces) names.add(oodleCompressor(p.stored!));
    }
    expect([...names].sort()).toEqual(['Kraken', 'Leviathan', 'Mermaid/Selkie']);
    const sizes = Array.from({ length: 50 }, () => bulk.plan('Oodle', 65536, 65536 + 5000, rng).map((p) => p.plain.length));
    for (const [whole, tail] of sizes) {
      expect(whole).toBe(65536);
      expect(tail).toBeGreaterThan(2000);
      expect(tail).toBeLessThan(12000);
    }
    // Zlib: exactly the size asked, the short block compressed on its own.
    const zlib = bulk.plan('Zlib', 65536, 65536 + 1234, rng);
    expect(zlib.map((p) => p.plain.length)).toEqual([65536, 1234]);
    expect(inflateSync(zlib[1]!.stored!).length).toBe(1234);
  });

  it('stores hashes that match the decoded bytes, Oodle and AES included', async () => {
    for (const name of ['pakchunk0-Windows', 'pakchunk3-Windows', 'pakchunk10-Windows', 'pakchunk14-Windows']) {
      const c = containerOf(name);
      for (const f of c.files()) {
        const check = await c.verify(f.ref);
        expect(check?.ok, `${name} ${f.path}`).toBe(true);
        expect(check?.algorithm).toBe('BLAKE3');
      }
    }
  });

  it('writes container headers whose store entries are the catalog imports, about 10 per package', () => {
    const byId = new Map(catalog.map((a) => [a.packageId, a]));
    let imports = 0;
    for (const c of manifest.containers) {
      const h = headers.get(c.name)!;
      expect(h.version).toBe(4); // SoftPackageReferences, UE5.5
      expect(h.containerId).toBe(c.containerId);
      expect(h.packageIds.length).toBe(c.packages);
      h.packageIds.forEach((id, i) => {
        const asset = byId.get(id)!;
        expect(asset.container).toBe(Number(/pakchunk(\d+)/.exec(c.name)![1]));
        expect(h.storeEntries[i]!.importedPackages).toEqual(asset.imports.map((k) => catalog[k]!.packageId));
        imports += asset.imports.length;
      });
    }
    expect(imports).toBe(manifest.importedPackages);
    expect(imports / catalog.length).toBeGreaterThan(7);
    expect(imports / catalog.length).toBeLessThan(13);
  });

  it('writes Zen packages that parse and resolve: names, imports, classes from global.utoc', async () => {
    const global = containerOf('global');
    const scriptObjects = parseScriptObjects(await global.readChunk(global.entriesOfType('ScriptObjects')[0]!), global.path);
    for (const a of catalog.filter((_, i) => i % 7 === 0)) {
      const { archive, file } = install.file(a.path)!.providers[0]!;
      const c = archive as IoStoreContainer;
      const h = headers.get(c.name)!;
      const layout = zenLayoutFor({ containerHeaderVersion: h.version, tocVersion: c.toc.header.version });
      const pkg = parseZenPackage(await c.readChunk(file.ref), a.path, { layout, storeEntry: findStoreEntry(h, a.packageId) });
      expect(pkg.name).toBe(a.packageName);
      expect(pkg.packageId).toBe(a.packageId);
      expect(pkg.warnings).toEqual([]);
      expect(pkg.hasPackageTag).toBe(true);
      expect(pkg.importedPackageNames).toEqual(a.imports.map((k) => catalog[k]!.packageName));
      // Oodle containers' .ubulk files are as long as the real blocks drawn make them; the others' as planned.
      const ubulk = install.file(a.path.replace(/\.u(asset|map)$/, '.ubulk'));
      expect(pkg.bulkData.reduce((n, b) => n + b.serialSize, 0)).toBe(ubulk?.size ?? 0);
      if (codecOfContainer(a.container) !== 'Oodle') expect(ubulk?.size ?? 0).toBe(a.bulkSize);
      const resolved = resolvePackage(pkg, { scriptObjects });
      const kind = KINDS[a.kind];
      expect(resolved.exports[0]!.classPath).toBe(kind.classPath);
      expect(resolved.exports[0]!.name).toBe(kind.generatedClass ? `${a.objectName}_C` : a.objectName);
      expect(resolved.imports.filter((i) => i.kind === 'script').every((i) => i.resolved)).toBe(true);
      expect(ubulk !== undefined).toBe(a.bulkSize > 0);
    }
  });

  it('varies sizes: .ubulk files mostly end in a short block, package chunks of many sizes', () => {
    const ubulk = catalog.flatMap((a) => install.file(a.path.replace(/\.u(asset|map)$/, '.ubulk'))?.size ?? []);
    expect(ubulk.length).toBeGreaterThan(40);
    expect(ubulk.filter((n) => n % 65536 !== 0).length / ubulk.length).toBeGreaterThan(0.9);
    expect(new Set(ubulk).size / ubulk.length).toBeGreaterThan(0.9);
    const packages = catalog.map((a) => install.file(a.path)!.size);
    expect(new Set(packages).size / packages.length).toBeGreaterThan(0.9);
  });

  it('reuses the cached install: the same manifest comes back without writing', async () => {
    const again = await generateInstall(PARAMS, { dir });
    expect(again).toEqual(manifest);
  });
});

describe('the results file', () => {
  const sample = (): BenchResults => ({
    mode: 'quick',
    date: '2025-01-01',
    machine: { cpuModel: 'cpu', cores: 2, memoryMiB: 4096, node: 'v20', os: 'Linux' },
    install: { packages: 1, files: 1, folders: 1, containers: 1, codecs: { Zlib: 1 }, encryptedContainers: 0, gib: 0, importedPackagesPerPackage: 0, path: '/x' },
    targets: TARGET_SPECS.map((s) => targetResult(s.name, s.kind === 'min' ? s.target : s.target / 2)),
    details: {},
  });

  it('has every target once, under the promised names, targets and units', () => {
    const r = sample();
    expect(validateResults(r)).toEqual([]);
    expect(r.targets.map((t) => t.name)).toEqual(['open_index_s', 'peak_rss_mb', 'graph_s', 'package_view_ms', 'decode_ratio_zlib',
      'decode_ratio_oodle', 'decode_ratio_lz4', 'worker_scaling', 'extract_ratio_zlib', 'extract_disk_ratio_zlib', 'scroll_frame_ms',
      'texture_decode_ratio_bc1', 'texture_decode_ratio_bc7', 'texture_preview_ms', 'diff_s', 'treemap_ms', 'search_index_s', 'search_ms',
      'mesh_open_ms', 'mesh_orbit_frame_ms']);
    expect(r.targets.map((t) => [t.target, t.unit])).toEqual([[0.5, 's'], [400, 'MB'], [2, 's'], [50, 'ms'], [0.9, 'x raw'],
      [0.9, 'x raw'], [0.9, 'x raw'], [1.7, 'x'], [0.8, 'x raw'], [0.8, 'x raw'], [8, 'ms'], [0.8, 'x Pillow'], [0.8, 'x Pillow'], [150, 'ms'], [2, 's'], [1000, 'ms'], [10, 's'], [100, 'ms'], [1000, 'ms'], [16, 'ms']]);
    expect(r.targets.every((t) => t.met)).toBe(true);
  });

  it('refuses a missing target, a met target without a value, a value without a reason', () => {
    const r = sample();
    r.targets = r.targets.filter((t) => t.name !== 'graph_s');
    r.targets[0] = { ...r.targets[0]!, value: null, met: true };
    expect(validateResults(r)).toEqual([
      'target graph_s appears 0 times',
      'open_index_s: no value cannot meet its target',
      'open_index_s: a missing value needs a note saying why',
    ]);
  });

  it('compares each value the way its target reads', () => {
    expect(meets('open_index_s', 0.5)).toBe(true);
    expect(meets('open_index_s', 0.51)).toBe(false);
    expect(meets('package_view_ms', 50)).toBe(false); // "under 50 ms"
    expect(meets('decode_ratio_lz4', 0.9)).toBe(true);
    expect(meets('worker_scaling', 1.69)).toBe(false);
    expect(meets('extract_ratio_zlib', null)).toBe(false);
    expect(targetResult('scroll_frame_ms', 3, 'frames dropped', false).met).toBe(false);
  });

  it('prints the table and the markdown with every target', () => {
    const r = sample();
    for (const text of [formatTable(r), formatMarkdown(r)]) {
      for (const s of TARGET_SPECS) expect(text).toContain(s.name);
    }
    expect(formatMarkdown(r).split('\n').filter((l) => l.startsWith('| `'))).toHaveLength(TARGET_SPECS.length);
  });

  it('marks rows carried over from an earlier run with their date, and only those', () => {
    const r = sample();
    r.targets[2] = { ...r.targets[2]!, measured: '2024-12-30', note: 'old graph' };
    expect(validateResults(r)).toEqual([]);
    const rows = formatMarkdown(r).split('\n').filter((l) => l.startsWith('| `'));
    expect(rows[2]).toContain('[carried over from the run of 2024-12-30] old graph');
    expect(rows.filter((l) => l.includes('carried over'))).toHaveLength(1);
    expect(formatTable(r)).toContain('[carried over from the run of 2024-12-30]');
    r.targets[2] = { ...r.targets[2]!, measured: 'yesterday' };
    expect(validateResults(r)).toEqual(['graph_s: measured must be a date (YYYY-MM-DD)']);
  });
});
