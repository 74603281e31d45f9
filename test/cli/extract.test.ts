import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, REPAK_AES_KEY } from '../support/corpus.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { BIN, buildCli, pakscope } from './run-cli.js';

interface Summary { files: number; bytes: number; failed: { path: string; error: string }[]; skipped: { path: string; reason: string }[] }

const ZLIB = corpus('cue58/IoStore/Tagged/Zlib');
const TEXTURE = 'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming';
/** T_Streaming.uasset (3,947 bytes) and its .ubulk (172,032 bytes) in cue58. */
const TEXTURE_BYTES = 3947 + 172032;
/** Every file below `dir`, as paths relative to it with "/", sorted. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1).replaceAll('\\', '/')).sort();
}
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope extract', () => {
  it('extracts a package with its bulk data; a second run skips, --overwrite replaces, --keep-both numbers', async () => {
    const out = join(await makeTempDir(), 'out');
    const args = ['extract', ZLIB, '--out', out, '--filter', '**/T_Streaming.uasset'];
    const first = await pakscope([...args, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ files: 2, bytes: TEXTURE_BYTES, failed: [], skipped: [] });
    const cat = await pakscope(['cat', ZLIB, `${TEXTURE}.ubulk`]);
    expect(sha256(await readFile(join(out, `${TEXTURE}.ubulk`)))).toBe(sha256(cat.stdout));

    const again = await pakscope(args);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(new RegExp(`^extracted 0 files \\(0 B\\) to ${out.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} in \\d+\\.\\d s\\n  skipped 2 files: exists in the output folder \\(not overwritten\\)\\n$`));
    expect(again.stderr).toMatch(/--overwrite replaces them, --keep-both writes "name \(2\)\.ext"/);

    const over = await pakscope([...args, '--overwrite', '--json']);
    expect(JSON.parse(over.out)).toMatchObject({ files: 2, skipped: [] });
    const both = await pakscope([...args, '--keep-both']);
    expect(both.code).toBe(0);
    expect(both.out).toMatch(/^extracted 2 files \(172 KiB\) to /);
    expect((await readdir(join(out, 'CUE4ParseFixtures/Content/Fixtures/Textures'))).sort())
      .toEqual(['T_Streaming (2).uasset', 'T_Streaming (2).ubulk', 'T_Streaming.uasset', 'T_Streaming.ubulk']);
  });

  it('refuses names that would leave the folder, extracts the rest, exits 2', async () => {
    const c = await writeContainer([
      { path: 'Game/good.txt', bytes: new TextEncoder().encode('good'), chunkType: 'BulkData' },
      { path: 'a/../../evil.txt', bytes: new TextEncoder().encode('evil'), chunkType: 'BulkData' },
      { path: 'Game/CON.txt', bytes: new TextEncoder().encode('con'), chunkType: 'BulkData' },
      { path: 'C:\\x.txt', bytes: new TextEncoder().encode('drive'), chunkType: 'BulkData' },
    ], { version: 8 });
    const parent = await makeTempDir();
    const r = await pakscope(['extract', c.utocPath, '--out', join(parent, 'out'), '--json']);
    expect(r.code).toBe(2);
    const s = JSON.parse(r.out) as Summary;
    expect(s).toEqual({
      files: 1, bytes: 4, skipped: [],
      failed: [
        { path: 'C:/x.txt', error: 'refused: drive letter "C:"' },
        { path: 'Game/CON.txt', error: 'refused: reserved Windows device name "CON"' },
        { path: 'a/../../evil.txt', error: 'refused: parent folder segment ".."' },
      ],
    });
    expect(await readdir(parent)).toEqual(['out']);
    expect(await readFile(join(parent, 'out/Game/good.txt'), 'utf8')).toBe('good');
    // Without --json: one line per failure, and the count.
    const text = await pakscope(['extract', c.utocPath, '--out', join(parent, 'out')]);
    expect(text.code).toBe(2);
    expect(text.out).toContain('  failed: a/../../evil.txt: refused: parent folder segment ".."\n');
    expect(text.out).toMatch(/\n3 files failed\n$/);
  });

  it('lists files of a locked pak as failed (exit 2) and extracts them with the key (exit 0)', async () => {
    const pak = corpus('pak/repak_pack_v11_encrypt.pak');
    const [locked, unlocked] = await Promise.all([
      pakscope(['extract', pak, '--out', join(await makeTempDir(), 'out'), '--json']),
      pakscope(['extract', pak, '--out', join(await makeTempDir(), 'out'), '--json', '--aes-key', REPAK_AES_KEY]),
    ]);
    expect(locked.code).toBe(2);
    const s = JSON.parse(locked.out) as Summary;
    expect(s.files).toBe(0);
    expect(s.failed.map((f) => f.path)).toEqual(['mount/point/root/directory/nested.txt', 'mount/point/root/test.png', 'mount/point/root/test.txt', 'mount/point/root/zeros.bin']);
    expect(s.failed[0]!.error).toMatch(/no AES key given/);
    expect(unlocked.code).toBe(0);
    expect(JSON.parse(unlocked.out)).toEqual({ files: 4, bytes: 596 + 10257 + 446 + 2048, failed: [], skipped: [] });
  });

  it('writes a zip (relative to --out when both are given) and JSON models', async () => {
    const dir = await makeTempDir();
    const [zip, json] = await Promise.all([
      pakscope(['extract', ZLIB, '--out', dir, '--zip', 'curves.zip', '--filter', '/Curves/', '--json']),
      pakscope(['extract', ZLIB, '--out', join(dir, 'json'), '--format', 'json', '--filter', '**/SM_Fixture.uasset']),
    ]);
    expect(zip.code).toBe(0);
    expect(JSON.parse(zip.out)).toMatchObject({ files: 7, failed: [] });
    const entries = Object.keys(unzipSync(new Uint8Array(await readFile(join(dir, 'curves.zip')))));
    expect(entries).toHaveLength(7);
    expect(entries.every((e) => e.startsWith('CUE4ParseFixtures/Content/Fixtures/Curves/'))).toBe(true);
    expect(json.code).toBe(0);
    const model = JSON.parse(await readFile(join(dir, 'json/CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset.json'), 'utf8'));
    expect(model).toMatchObject({ format: 'zen', name: '/Game/Fixtures/Meshes/SM_Fixture' });
  });

  it('writes each package\'s property values in its JSON, exactly as props --json prints them', async () => {
    // A Zen package, a cooked .uasset with its .uexp in a .pak, and a UE1/2 package.
    const cases = [
      { root: ZLIB, file: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset' },
      { root: corpus('cue58/LegacyPak/Tagged/Uncompressed'), file: 'CUE4ParseFixtures/Content/Fixtures/DataTables/DT_AllProperties.uasset' },
      { root: corpus('legacy'), file: 'ut99_EnergySword.u' },
    ];
    const dir = await makeTempDir();
    for (const [i, c] of cases.entries()) {
      const out = join(dir, String(i));
      const [extract, props] = await Promise.all([
        pakscope(['extract', c.root, '--out', out, '--format', 'json', '--filter', c.file]),
        pakscope(['props', c.root, c.file, '--json']),
      ]);
      expect([extract.code, props.code], c.file).toEqual([0, 0]);
      const model = JSON.parse(await readFile(join(out, `${c.file}.json`), 'utf8')) as { names: unknown[]; imports: unknown[]; exports: { name: string; class: string; properties: unknown }[] };
      const expected = (JSON.parse(props.out) as { exports: { name: string; class: string; properties: unknown }[] }).exports;
      // The tables stay; every export gains its properties.
      expect(model.names.length, c.file).toBeGreaterThan(0);
      expect(model.exports.map((e) => ({ name: e.name, class: e.class, properties: e.properties })), c.file)
        .toEqual(expected.map((e) => ({ name: e.name, class: e.class, properties: e.properties })));
      expect(expected.some((e) => Array.isArray(e.properties) && e.properties.length > 0), c.file).toBe(true);
    }
  });

  it('--format convert writes a UE1/2 package\'s scripts as Classes/<Class>.uc beside it, other files as stored', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', corpus('legacy'), '--out', out, '--format', 'convert', '--filter', 'ut99_*', '--json']);
    expect(r.code).toBe(0);
    expect(await listTree(out)).toEqual([
      'ut99_1HH-TestBox-Large.unr', // a map: no text buffer, written as stored
      'ut99_DeveloperMutator/Classes/DeveloperMutator.uc',
      'ut99_EnergySword/Classes/EnergySword.uc',
    ]);
    const script = (await readFile(join(out, 'ut99_EnergySword/Classes/EnergySword.uc'), 'latin1')).replace(/\r\n/g, '\n');
    expect(script).toMatch(/^class EnergySword extends TournamentWeapon;$/m);
  });

  it('refuses bad arguments and a filter that matches nothing with exit 2', async () => {
    const out = join(await makeTempDir(), 'out');
    const cases = await Promise.all([
      pakscope(['extract', ZLIB]),
      pakscope(['extract', ZLIB, '--out', out, '--overwrite', '--keep-both']),
      pakscope(['extract', ZLIB, '--out', out, '--format', 'xml']),
      pakscope(['extract', '--out', out]),
      pakscope(['extract', ZLIB, '--out', out, '--filter', 'no-such-file-anywhere', '--json']),
    ]);
    for (const r of cases) expect(r.code).toBe(2);
    expect(cases[0]!.stderr).toBe('error: extract: needs --out DIR (or --zip FILE) (see pakscope extract --help)\n');
    expect(cases[1]!.stderr).toMatch(/--overwrite and --keep-both exclude each other/);
    expect(cases[2]!.stderr).toMatch(/--format takes raw, json or convert, not "xml"/);
    expect(cases[3]!.stderr).toMatch(/takes at least 1 argument/);
    expect(JSON.parse(cases[4]!.out)).toEqual({ files: 0, bytes: 0, failed: [], skipped: [] });
    expect(cases[4]!.stderr).toBe('error: no file matches --filter no-such-file-anywhere\n');
  });

  it('has help that names its options', async () => {
    const r = await pakscope(['extract', '--help']);
    expect(r.code).toBe(0);
    for (const o of ['--out DIR', '--filter GLOB', '--format raw|json', '--zip FILE', '--overwrite', '--keep-both', '--json', '--aes-key KEY']) {
      expect(r.out).toContain(o);
    }
  });

  // util-linux's `script` runs the CLI on a pseudo-terminal, which reports 0 columns: the progress
  // line once made a negative repeat count of that, failing the run after the files were written.
  it.skipIf(!existsSync('/usr/bin/script'))('shows its progress line on a terminal that reports no size, and succeeds', async () => {
    const out = join(await makeTempDir(), 'out');
    const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, BIN, 'extract', ZLIB, '--out', out].map(quote).join(' ');
    const tty = execFileSync('/usr/bin/script', ['-qec', command, '/dev/null'], { encoding: 'utf8' });
    const lines = tty.split(/\r\n?|\n/).map((l) => l.trim()).filter((l) => l !== '');
    // Padded to 79 columns, the line ends in the total's rate.
    expect(lines.some((l) => /^111\/111 files, 2\.35 MiB of 2\.35 MiB, [\d.]+ [KM]iB\/s$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`^extracted 111 files \\(2\\.35 MiB\\) to ${out.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} in \\d+\\.\\d s$`));
    expect(tty).not.toMatch(/error/i);
  });
});
