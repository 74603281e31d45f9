import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageIdValue } from '../../src/core/hash/cityhash64.js';
import { CUE58_AES_KEY, REPAK_AES_KEY, corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { buildCli, pakscope, pakscopeClosingStdout, ROOT } from './run-cli.js';

interface LsFile { path: string; size: number; container: string; chunkId: string | null; chunkType: string | null }

const ISLE999 = corpus('iostore/isle_pakchunk999-WindowsClient_P.utoc');
const TAGGED = corpus('cue58/IoStore/Tagged');
const ENCRYPTED = corpus('cue58/IoStore/Tagged/OodleEncrypted');
const DA_ALL = 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset';
/** sha256 of DA_AllProperties' ExportBundleData chunk: every cue58 variant stores the same bytes. */
const DA_ALL_SHA256 = 'a7a4a586416cb4036291c3cae5f1c266a31717eaca191e59d91ec111c830b37a';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const lsJson = (out: string): LsFile[] => (JSON.parse(out) as { files: LsFile[] }).files;
/** An ExportBundleData chunk id: the package id, little-endian, then index 0, pad, type 1. */
function packageChunkId(packageName: string): string {
  const v = packageIdValue(packageName);
  let s = '';
  for (let i = 0n; i < 8n; i++) s += Number((v >> (8n * i)) & 0xffn).toString(16).padStart(2, '0');
  return `${s}00000001`;
}

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope help and arguments', () => {
  it('prints help and the version, exit 0', async () => {
    const main = await pakscope(['--help']);
    expect(main.code).toBe(0);
    expect(main.out).toMatch(/^Usage: pakscope <command> \[options\]/);
    for (const c of ['ls', 'tree', 'info', 'cat', 'verify']) expect(main.out).toContain(`  ${c} `);
    const results = await Promise.all(['ls', 'tree', 'info', 'cat', 'verify'].map((c) => pakscope([c, '--help'])));
    for (const [i, c] of ['ls', 'tree', 'info', 'cat', 'verify'].entries()) {
      expect(results[i]!.code).toBe(0);
      expect(results[i]!.out.startsWith(`Usage: pakscope ${c} `)).toBe(true);
      expect(results[i]!.out).toContain('--aes-key KEY');
    }
    const version = await pakscope(['--version']);
    expect(version.code).toBe(0);
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.out.trim()).toBe(pkg.version);
  });

  it('refuses unknown commands, unknown options, missing arguments and malformed keys with exit 2', async () => {
    const cases = await Promise.all([
      pakscope(['frobnicate']),
      pakscope(['ls', '--frob', ISLE999]),
      pakscope(['ls']),
      pakscope(['cat', ISLE999]),
      pakscope(['tree', ISLE999, '--depth', 'x']),
      pakscope(['ls', ISLE999, '--aes-key', '0x1234']),
      pakscope(['ls', ISLE999, '--aes-key', `nothex:${CUE58_AES_KEY}`]),
      pakscope([]),
    ]);
    for (const r of cases) {
      expect(r.code).toBe(2);
      expect(r.stderr.startsWith('error: ') || r.stderr.startsWith('Usage:')).toBe(true);
    }
    for (const r of cases.slice(0, 7)) expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(cases[5]!.stderr).toMatch(/AES key "0x1234"/);
    const json = await pakscope(['ls', ISLE999, '--json', '--aes-key', 'zz']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: expect.stringContaining('AES key') });
  });
});

describe('pakscope ls', () => {
  it('lists a container as JSON: every file with size, container, chunk id and type', async () => {
    const r = await pakscope(['ls', ISLE999, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const files = lsJson(r.out);
    expect(files).toHaveLength(12); // 13 TOC entries (MANIFEST.tsv) minus the container header
    expect(files[0]).toEqual({
      path: 'TheIsle/Content/Mods/BP_ModLoader.uasset',
      size: 3473,
      container: 'isle_pakchunk999-WindowsClient_P.utoc',
      chunkId: packageChunkId('/Game/Mods/BP_ModLoader'),
      chunkType: 'ExportBundleData',
    });
    expect(files.map((f) => f.path)).toEqual([...files.map((f) => f.path)].sort());
    expect(files.find((f) => f.path.endsWith('BP_SurvivalGameMode.uasset'))?.size).toBe(80995);
  });

  it('lists every cue58 variant the same: 97 packages and 14 bulk sidecars', async () => {
    const variants = ['Uncompressed', 'Zlib', 'Oodle', 'OodlePartitioned'];
    const results = await Promise.all(variants.map((v) => pakscope(['ls', join(TAGGED, v), '--json'])));
    const first = lsJson(results[0]!.out);
    expect(first).toHaveLength(111);
    expect(first.filter((f) => f.chunkType === 'ExportBundleData')).toHaveLength(97);
    expect(first.filter((f) => f.chunkType === 'BulkData')).toHaveLength(14);
    expect(first.find((f) => f.path === DA_ALL)).toMatchObject({
      size: 11682,
      chunkId: packageChunkId('/Game/Fixtures/Properties/DA_AllProperties'),
    });
    for (const [i, r] of results.entries()) {
      expect(r.code).toBe(0);
      expect(lsJson(r.out).map(({ path, size, chunkId }) => [path, size, chunkId]))
        .toEqual(first.map(({ path, size, chunkId }) => [path, size, chunkId]));
      expect(lsJson(r.out)[0]!.container).toBe(`CUE4ParseFixtures-Minimal-${variants[i]}-Windows.utoc`);
    }
  });

  it('--filter lists only the files it selects, as extract --filter does', async () => {
    const zlib = join(TAGGED, 'Zlib');
    const [all, some, none] = await Promise.all([
      pakscope(['ls', zlib, '--json']),
      pakscope(['ls', zlib, '--json', '--filter', '*.umap', '--filter', 'Content/**/T_BC*']),
      pakscope(['ls', zlib, '--filter', '/Content/**']),
    ]);
    expect(some.code).toBe(0);
    expect(some.stderr).toBe('');
    const expected = lsJson(all.out).filter((f) => f.path.endsWith('.umap') || /\/Content\/(.*\/)?T_BC[^/]*$/.test(f.path));
    expect(expected).toHaveLength(8 + 6); // the 8 maps; T_BC1, 3, 4, 5, 6H, 7
    expect(lsJson(some.out)).toEqual(expected);
    expect(none.code).toBe(0);
    expect(none.out).toBe('');
    expect(none.stderr).toBe('warning: no file matches --filter /Content/**\n');
  });

  it('lists the corpus iostore folder with warnings for the containers whose .ucas is missing, exit 0', async () => {
    const r = await pakscope(['ls', corpus('iostore'), '--json']);
    expect(r.code).toBe(0);
    const warnings = r.stderr.trim().split('\n');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^warning: .*m3d_android_MODEL_3D-Android_ASTC\.utoc: .*missing m3d_android_MODEL_3D-Android_ASTC\.ucas/);
    expect(warnings[1]).toMatch(/^warning: .*ue501_tog_Colliderproject-Windows\.utoc: .*missing/);
    const files = lsJson(r.out);
    expect(files).toHaveLength(1444);
    const containers = new Set(files.map((f) => f.container));
    // isle_pakchunk333's one file is patched by isle_pakchunk999-WindowsClient_P (a _P container).
    expect([...containers].sort()).toEqual([
      'isle_pakchunk334-Windows.utoc', 'isle_pakchunk55-Windows_P.utoc', 'isle_pakchunk999-WindowsClient_P.utoc',
      'm3d_android_MODEL_3D-Android_ASTC.utoc', 'ue501_tog_Colliderproject-Windows.utoc',
    ]);
    expect(files.find((f) => f.path === 'TheIsle/Content/TheIsle/Core/Session/BP_TIGameSession.uasset'))
      .toMatchObject({ size: 4450, container: 'isle_pakchunk999-WindowsClient_P.utoc' });
    const base = lsJson((await pakscope(['ls', corpus('iostore/isle_pakchunk333-Windows.utoc'), '--json'])).out);
    expect(base.map((f) => [f.path, f.size])).toEqual([['TheIsle/Content/TheIsle/Core/Session/BP_TIGameSession.uasset', 7509]]);
  });

  it('prints aligned text columns: path, size, container', async () => {
    const r = await pakscope(['ls', corpus('cue58/Pak/Uncompressed')]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^CUE4ParseFixtures\/Config\/DefaultGame\.ini +335 {2}CUE4ParseFixtures-Minimal-Uncompressed\.pak$/);
    expect(new Set(lines.map((l) => l.indexOf('CUE4ParseFixtures-Minimal')))).toHaveProperty('size', 1);
  });

  it('shows null chunk ids for pak files and a loose file under its own name', async () => {
    const pak = lsJson((await pakscope(['ls', corpus('cue58/Pak/Oodle/CUE4ParseFixtures-Minimal-Oodle.pak'), '--json'])).out);
    expect(pak.map((f) => [f.path, f.chunkId, f.chunkType])).toContainEqual(['CUE4ParseFixtures/Config/DefaultGame.ini', null, null]);
    const loose = await pakscope(['ls', corpus('cooked/retoc55_SM_Cube.uasset'), '--json']);
    expect(loose.code).toBe(0);
    expect(lsJson(loose.out)).toEqual([{ path: 'retoc55_SM_Cube.uasset', size: 1639, container: 'retoc55_SM_Cube.uasset', chunkId: null, chunkType: null }]);
  });

  it('takes the game\'s mappings (--usmap, for unversioned Wwise event assets\' labels): cue58\'s unversioned install lists as without, with each of its four', async () => {
    const unversioned = corpus('cue58/IoStore/Unversioned/Zlib');
    const mappings = ['Uncompressed', 'Brotli', 'Oodle', 'Zstandard'].map((c) => corpus(`cue58/Mappings/CUE4ParseFixtures-${c}.usmap`));
    const [plain, ...withMappings] = await Promise.all([[], ...mappings.map((m) => ['--usmap', m])].map((extra) => pakscope(['ls', unversioned, '--json', ...extra])));
    const files = lsJson(plain!.out);
    expect(files.find((f) => f.path === 'CUE4ParseFixtures/Content/Fixtures/Audio/SC_Fixture.uasset')).toMatchObject({ container: 'CUE4ParseFixtures-Minimal-Zlib-Windows.utoc' });
    for (const r of withMappings) expect([r.code, r.stderr, lsJson(r.out)]).toEqual([0, '', files]);
    // A file that is not a mappings file is refused before the install is read, naming it.
    const notMappings = corpus('cue58/README.md');
    const bad = await pakscope(['ls', unversioned, '--usmap', notMappings]);
    expect([bad.code, bad.stderr.trim(), bad.out]).toEqual([2, `error: ${notMappings}: usmap header at byte 0: not a mappings file (no magic 0x30C4)`, '']);
  });

  it('lets the _P container win the paths both patch containers hold', async () => {
    const files = lsJson((await pakscope(['ls', corpus('cue58/Patch/IoStore'), '--json'])).out);
    expect(files.map((f) => [f.path, f.size, f.container])).toEqual([
      ['CUE4ParseFixtures/Content/PatchFixtures/DA_PatchReferencer.uasset', 1127, 'CUE4ParseFixtures-PatchBase.utoc'],
      ['CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset', 714, 'CUE4ParseFixtures-PatchBase_0_P.utoc'],
    ]);
    const pak = lsJson((await pakscope(['ls', corpus('cue58/Patch/Pak'), '--json'])).out);
    expect(pak.filter((f) => f.path.includes('DA_PatchTarget')).map((f) => f.container)).toEqual([
      'CUE4ParseFixtures-PatchBase_0_P.pak', 'CUE4ParseFixtures-PatchBase_0_P.pak',
    ]);
  });
});

describe('encrypted containers', () => {
  it('needs the key to list, exit 2 without it, and reads with it', async () => {
    const without = await pakscope(['ls', ENCRYPTED, '--json']);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/^error: .*OodleEncrypted-Windows\.utoc: encrypted .*no AES key/);
    expect(JSON.parse(without.out)).toEqual({ error: expect.stringContaining('encrypted') });
    const withKey = await pakscope(['ls', ENCRYPTED, '--json', '--aes-key', CUE58_AES_KEY]);
    expect(withKey.code).toBe(0);
    expect(lsJson(withKey.out)).toHaveLength(111);
    // Bound to the zero GUID (the main key), as GUID:KEY.
    const bound = await pakscope(['ls', ENCRYPTED, '--json', '--aes-key', `00000000-00000000-00000000-00000000:${CUE58_AES_KEY}`]);
    expect(lsJson(bound.out)).toHaveLength(111);
    const wrong = await pakscope(['ls', ENCRYPTED, '--aes-key', REPAK_AES_KEY]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/wrong key/);
    const cat = await pakscope(['cat', ENCRYPTED, DA_ALL, '--aes-key', CUE58_AES_KEY]);
    expect(cat.code).toBe(0);
    expect(sha256(cat.stdout)).toBe(DA_ALL_SHA256);
  });

  it('describes an encrypted container without its key', async () => {
    const r = await pakscope(['info', join(ENCRYPTED, 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc'), '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out) as { status: { state: string }; fields: Record<string, unknown> };
    expect(info.status.state).toBe('locked');
    expect(info.fields['Encryption key GUID']).toBe('0'.repeat(32));
    expect(info.fields['Flags']).toBe('Compressed, Encrypted, Indexed');
    expect(r.stderr).toMatch(/^warning: .*no AES key/);
  });
});

describe('pakscope info, tree, cat', () => {
  it('describes a container from its TOC (values as MANIFEST.tsv gives them)', async () => {
    const r = await pakscope(['info', ISLE999, '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out) as { kind: string; fields: Record<string, unknown> };
    expect(info.kind).toBe('iostore');
    expect(info.fields).toMatchObject({
      'TOC version': '6 (OnDemandMetaData)',
      Flags: 'Indexed',
      Entries: 13,
      'Compressed blocks': 14,
      'Block size': 65536,
      Codecs: 'None: 14',
      'Container id': '943e1fc4578fa48e',
      Partitions: 1,
    });
    const text = await pakscope(['info', corpus('iostore/isle_pakchunk334-Windows.utoc')]);
    expect(text.out).toMatch(/^ {2}Codecs +None: 3, Oodle: 10$/m);
    expect(text.out).toMatch(/^ {2}TOC version +8 /m);
  });

  it('describes every container of a folder (pak versions and index offsets as MANIFEST.tsv gives them)', async () => {
    const manifest = (await readFile(corpus('MANIFEST.tsv'), 'utf8')).split('\n').filter((l) => l.startsWith('pak/'));
    const expected = manifest.map((l) => {
      const [local, , , , , , , , notes] = l.split('\t');
      return { path: corpus(local!), version: Number(/version=(\d+)/.exec(notes!)![1]), indexOffset: Number(/indexOffset=(\d+)/.exec(notes!)![1]) };
    }).sort((a, b) => a.path.localeCompare(b.path));
    expect(expected).toHaveLength(14);
    const r = await pakscope(['info', corpus('pak'), '--json']);
    expect(r.code).toBe(0); // the encrypted ones are described without their key (warnings)
    const { containers } = JSON.parse(r.out) as { containers: { kind: string; path: string; fields: Record<string, unknown> }[] };
    expect(containers.map((c) => ({
      path: c.path,
      version: parseInt(String(c.fields['Pak version']), 10),
      indexOffset: c.fields['Index offset'],
    })).sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected);
    expect(new Set(containers.map((c) => c.kind))).toEqual(new Set(['pak']));

    const text = await pakscope(['info', join(TAGGED, 'Zlib')]);
    expect(text.code).toBe(0);
    expect(text.out.split('\n').slice(0, 2)).toEqual([`${join(TAGGED, 'Zlib')}: 1 container`, join(TAGGED, 'Zlib', 'CUE4ParseFixtures-Minimal-Zlib-Windows.utoc')]);
    expect(text.out).toMatch(/^ {2}Codecs +None: 1, Zlib: 134$/m);

    const empty = await makeTempDir();
    const none = await pakscope(['info', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`error: ${empty}: no containers (.utoc, .pak) nor loose packages in this folder\n`);
  });

  it('draws the tree with per-folder counts and sizes, to a depth', async () => {
    const r = await pakscope(['tree', join(TAGGED, 'Oodle'), '--depth', '2']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/Oodle \(111 files, [\d.]+ [KM]iB\)$/);
    expect(lines[1]).toMatch(/^└── CUE4ParseFixtures\/ \(111 files, /);
    expect(lines[2]).toMatch(/^ {4}└── Content\/ \(111 files, /);
    expect(lines).toHaveLength(3);
    const deeper = await pakscope(['tree', join(TAGGED, 'Oodle'), '--depth', '4']);
    const folders = deeper.out.split('\n').filter((l) => /^ {8}[├└]── \w+\/ \(/.test(l));
    const counts = folders.map((l) => Number(/\((\d+) files?,/.exec(l)![1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(111);
  });

  it('writes the same bytes of a package from every variant', async () => {
    const results = await Promise.all(['Uncompressed', 'Zlib', 'Oodle', 'OodlePartitioned'].map((v) => pakscope(['cat', join(TAGGED, v), DA_ALL])));
    for (const r of results) {
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBe(11682);
      expect(sha256(r.stdout)).toBe(DA_ALL_SHA256);
    }
    const ini = await pakscope(['cat', corpus('cue58/Pak/Oodle'), 'cue4parsefixtures/config/defaultgame.ini']);
    expect(ini.code).toBe(0);
    expect(ini.stdout.length).toBe(335);
    expect(ini.out).toContain('Integer=305419896');
  });

  it('fails on a file the path does not hold, and on a container without its .ucas', async () => {
    const missing = await pakscope(['cat', ISLE999, 'TheIsle/Content/Nope.uasset']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: TheIsle\/Content\/Nope\.uasset: no such file/);
    const noUcas = await pakscope(['cat', corpus('iostore/m3d_android_MODEL_3D-Android_ASTC.utoc'), 'MODEL_3D/Content/ARGAMEMODE.uasset']);
    expect(noUcas.code).toBe(2);
    expect(noUcas.stdout.length).toBe(0);
    expect(noUcas.stderr).toMatch(/m3d_android_MODEL_3D-Android_ASTC\.ucas/);
  });

  it('ends quietly when stdout is closed early (EPIPE)', async () => {
    const r = await pakscopeClosingStdout(['cat', join(TAGGED, 'Uncompressed'), 'CUE4ParseFixtures/Content/Fixtures/Maps/Landscape.umap']);
    expect(r.received).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('pakscope verify', () => {
  it('verifies every chunk of an uncompressed container, the container header too', async () => {
    const r = await pakscope(['verify', ISLE999, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ chunks: 13, ok: 13, failed: [], unsupported: [] });
  });

  it('verifies a partitioned Oodle container and an encrypted one', async () => {
    const r = await pakscope(['verify', join(TAGGED, 'OodlePartitioned'), ENCRYPTED, '--aes-key', CUE58_AES_KEY, '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.out) as { chunks: number; ok: number; containers: { container: string; chunks: number }[] };
    expect(v).toMatchObject({ chunks: 224, ok: 224, failed: [], unsupported: [] });
    expect(v.containers.map((c) => c.chunks)).toEqual([112, 112]);
  });

  it('verifies pak entries', async () => {
    const r = await pakscope(['verify', corpus('cue58/LegacyPak/Tagged/Zlib'), corpus('pak/repak_pack_v11_compress_encrypt_encryptindex.pak'), '--aes-key', REPAK_AES_KEY]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^CUE4ParseFixtures-Legacy-Tagged-Zlib\.pak: 11 chunks, 11 ok$/m);
    expect(r.out).toMatch(/^total: \d+ chunks in 2 containers: \d+ ok, 0 failed$/m);
  });

  it('reports a damaged chunk: exit 2, the chunk id and a hash mismatch', async () => {
    const dir = await makeTempDir();
    const c = await writeContainer([
      { path: 'Game/Content/A.uasset', bytes: new Uint8Array(3000).fill(7) },
      { path: 'Game/Content/B.uasset', bytes: new Uint8Array(2000).fill(9) },
    ], { version: 8, dir, name: 'damaged' });
    const ucas = await readFile(c.ucasPaths[0]!);
    ucas[10] = ucas[10]! ^ 0xff; // inside A's first block
    await writeFile(c.ucasPaths[0]!, ucas);
    const r = await pakscope(['verify', c.utocPath, '--json']);
    expect(r.code).toBe(2);
    const v = JSON.parse(r.out) as { chunks: number; ok: number; failed: { container: string; chunkId: string; error: string }[] };
    expect(v.chunks).toBe(2);
    expect(v.ok).toBe(1);
    expect(v.failed).toEqual([{ container: 'damaged.utoc', chunkId: c.entries[0]!.chunkIdHex, error: expect.stringMatching(/^hash mismatch/) }]);
    const text = await pakscope(['verify', c.utocPath]);
    expect(text.out).toMatch(/^damaged\.utoc: 2 chunks, 1 ok, 1 failed$/m);
  });

  it('counts chunks of a codec PakScope cannot decode as unsupported, not failed (exit 0)', async () => {
    const dir = await makeTempDir();
    const c = await writeContainer([
      { path: 'Game/Content/A.uasset', bytes: new Uint8Array(5000).fill(3) },
      { path: 'Game/Content/B.uasset', bytes: new Uint8Array(4000).fill(4) },
    ], { version: 8, dir, name: 'future', codec: (file) => (file === 0 ? 'Zlib' : 'None') });
    // Rename the method "Zlib" in the TOC's method table to one no codec answers to.
    const toc = Buffer.from(await readFile(c.utocPath));
    const at = toc.indexOf('Zlib\0');
    expect(at).toBeGreaterThan(0);
    toc.write('Zstx', at, 'latin1');
    await writeFile(c.utocPath, toc);
    const r = await pakscope(['verify', c.utocPath, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      chunks: 2,
      ok: 1,
      failed: [],
      unsupported: [{ container: 'future.utoc', chunkId: c.entries[0]!.chunkIdHex, codec: 'Zstx' }],
    });
    const text = await pakscope(['verify', c.utocPath]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^ {2}unsupported: 1 chunk uses Zstx, which PakScope cannot decode$/m);
    expect(text.stderr).toMatch(/^note: 1 chunk uses a codec PakScope cannot decode and was not verified$/m);
  });

  it('fails every chunk of a container whose .ucas is missing', async () => {
    const r = await pakscope(['verify', corpus('iostore/m3d_android_MODEL_3D-Android_ASTC.utoc')]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^m3d_android_MODEL_3D-Android_ASTC\.utoc: 573 chunks, 0 ok, 573 failed$/m);
    expect(r.out).toMatch(/failed: chunk [0-9a-f]{24} and 572 more: .*m3d_android_MODEL_3D-Android_ASTC\.ucas/);
  });
});

describe('bad input', () => {
  it('gives one line naming the file, the structure and the byte offset for a truncated .utoc', async () => {
    const dir = await makeTempDir();
    const bytes = await readFile(corpus('iostore/isle_pakchunk55-Windows_P.utoc'));
    const path = join(dir, 'truncated.utoc');
    await writeFile(path, bytes.subarray(0, 1000));
    for (const cmd of ['ls', 'info', 'verify']) {
      const r = await pakscope([cmd, path]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^error: ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: [a-z ]+ at byte \\d+: .+`));
    }
    const debug = await pakscope(['ls', path, '--debug']);
    expect(debug.code).toBe(2);
  });

  it('exits 2 for a folder holding a container that cannot be read, listing the rest', async () => {
    const dir = await makeTempDir();
    await writeContainer([{ path: 'Game/Content/A.uasset', bytes: new Uint8Array(10) }], { version: 8, dir, name: 'good' });
    await writeFile(join(dir, 'bad.utoc'), new Uint8Array(10));
    const r = await pakscope(['ls', dir, '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*bad\.utoc: utoc header at byte 0: /);
    const out = JSON.parse(r.out) as { files: LsFile[]; errors: { path: string }[] };
    expect(out.files.map((f) => f.path)).toEqual(['Game/Content/A.uasset']);
    expect(out.errors.map((e) => e.path)).toEqual([join(dir, 'bad.utoc')]);
  });
});
