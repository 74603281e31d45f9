// Containers whose names try to write outside the output folder: every such name is refused and
// listed, every other file is still extracted, and nothing appears anywhere but below the folder.
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFiles, type ExportSummary } from '../../src/core/export/index.js';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { writePak } from '../fixtures/pak-writer.js';
import { listTree } from './helpers.js';

const installs: Install[] = [];
afterAll(async () => {
  await Promise.all(installs.map((i) => i.close()));
  await removeTempDirs();
});

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Names given to the IoStore writer, and what the install lists for them (mount point "../../../"). */
const HOSTILE: { name: string; listed: string; reason: RegExp }[] = [
  { name: 'a/../../evil1.txt', listed: 'a/../../evil1.txt', reason: /parent folder segment/ },
  { name: 'Game/x/../../../../up.txt', listed: 'Game/x/../../../../up.txt', reason: /parent folder segment/ },
  { name: 'C:\\x.txt', listed: 'C:/x.txt', reason: /drive letter "C:"/ },
  { name: 'Game/C:\\y.txt', listed: 'Game/C:\\y.txt', reason: /drive letter "C:"/ },
  { name: 'Game/..\\..\\win.txt', listed: 'Game/..\\..\\win.txt', reason: /backslash/ },
  { name: 'CON.txt', listed: 'CON.txt', reason: /reserved Windows device name "CON"/ },
  { name: 'Game/aux', listed: 'Game/aux', reason: /"AUX"/ },
  { name: 'Game/LPT1.log', listed: 'Game/LPT1.log', reason: /"LPT1"/ },
  { name: 'Game/trail./z.txt', listed: 'Game/trail./z.txt', reason: /trailing dot/ },
  { name: 'Game/space /z.txt', listed: 'Game/space /z.txt', reason: /trailing dot or space/ },
  { name: 'Game/nul\0byte.txt', listed: 'Game/nul\0byte.txt', reason: /NUL byte/ },
  { name: 'Game/esc\u001b[2J.txt', listed: 'Game/esc\u001b[2J.txt', reason: /control character U\+001B/ },
  { name: `Game/${'x'.repeat(300)}.txt`, listed: `Game/${'x'.repeat(300)}.txt`, reason: /longer than 255 bytes/ },
  { name: 'Game/stream.txt:evil', listed: 'Game/stream.txt:evil', reason: /character ":"/ },
];
/** Names that look hostile but, after the mount point is applied, land inside the folder. */
const HARMLESS: { name: string; listed: string }[] = [
  { name: 'Game/good.txt', listed: 'Game/good.txt' },
  { name: '../../escape.txt', listed: 'escape.txt' }, // leading "../" belong to the mount point and are dropped
  { name: '/etc/passwd', listed: 'etc/passwd' },
  { name: '\\\\server\\share\\unc.txt', listed: 'server/share/unc.txt' },
];

async function hostileContainer(): Promise<{ install: Install; parent: string; out: string }> {
  const files = [...HOSTILE, ...HARMLESS].map((h, i) => ({ path: h.name, bytes: text(`file ${i}`), chunkType: 'BulkData' }));
  const c = await writeContainer(files, { version: 8 });
  const install = await openInstall([c.utocPath]);
  installs.push(install);
  const parent = await makeTempDir();
  return { install, parent, out: join(parent, 'out') };
}

function expectRefusals(s: ExportSummary): void {
  for (const h of HOSTILE) {
    const f = s.failed.find((x) => x.path === h.listed);
    expect(f, `${JSON.stringify(h.name)} should be refused`).toBeDefined();
    expect(f!.error).toMatch(/^refused: /);
    expect(f!.error).toMatch(h.reason);
  }
  expect(s.failed).toHaveLength(HOSTILE.length);
}

describe('hostile IoStore names', () => {
  it('lists each name the way the test expects', async () => {
    const { install } = await hostileContainer();
    expect([...install.files()].map((f) => f.path).sort()).toEqual([...HOSTILE, ...HARMLESS].map((h) => h.listed).sort());
  });

  it('refuses every name that would leave the folder or misbehave on Windows, extracts the rest, writes nothing outside', async () => {
    const { install, parent, out } = await hostileContainer();
    const s = await extractFiles(install, {}, { out });
    expectRefusals(s);
    expect(s.files).toBe(HARMLESS.length);
    expect(await listTree(out)).toEqual(HARMLESS.map((h) => h.listed).sort());
    expect(await readFile(join(out, 'Game/good.txt'), 'utf8')).toBe(`file ${HOSTILE.length}`);
    // The temp parent holds the output folder and nothing else.
    expect(await readdir(parent)).toEqual(['out']);
  });

  it('applies the same rules to zip entry names', async () => {
    const { install, parent } = await hostileContainer();
    const zip = join(parent, 'x.zip');
    const s = await extractFiles(install, {}, { zip });
    expectRefusals(s);
    expect(Object.keys(unzipSync(new Uint8Array(await readFile(zip)))).sort()).toEqual(HARMLESS.map((h) => h.listed).sort());
    expect(await readdir(parent)).toEqual(['x.zip']);
  });

  it('and to JSON output names', async () => {
    const { install, parent, out } = await hostileContainer();
    const s = await extractFiles(install, {}, { out, format: 'json' });
    expectRefusals(s);
    expect(await readdir(parent)).toEqual(['out']);
  });
});

describe('hostile pak names', () => {
  // (A pak whose index has a ".." after the mount point does not open at all: pak/paths.ts.)
  it('refuses device names and drive letters from a pak', async () => {
    const dir = await makeTempDir();
    const pak = writePak([
      { name: 'good/p.txt', data: text('good') },
      { name: 'CON.txt', data: text('con') },
      { name: 'C:\\pak.txt', data: text('drive') },
      { name: 'good/com3', data: text('com') },
    ], { version: 11, mountPoint: '../../../' });
    await writeFile(join(dir, 'h.pak'), pak.bytes);
    const install = await openInstall([join(dir, 'h.pak')]);
    installs.push(install);
    expect([...install.files()].map((f) => f.path).sort()).toEqual(['C:/pak.txt', 'CON.txt', 'good/com3', 'good/p.txt']);
    const parent = await makeTempDir();
    const s = await extractFiles(install, {}, { out: join(parent, 'out') });
    expect(s.files).toBe(1);
    expect(s.failed.map((f) => [f.path, f.error])).toEqual([
      ['C:/pak.txt', 'refused: drive letter "C:"'],
      ['CON.txt', 'refused: reserved Windows device name "CON"'],
      ['good/com3', 'refused: reserved Windows device name "COM3"'],
    ]);
    expect(await listTree(parent)).toEqual(['out/good/p.txt']);
  });
});

describe('symlinks in the output folder', () => {
  async function setup(): Promise<{ install: Install; parent: string; out: string; outside: string }> {
    const c = await writeContainer([
      { path: 'link/x.txt', bytes: text('through the link'), chunkType: 'BulkData' },
      { path: 'inner/y.txt', bytes: text('inside link'), chunkType: 'BulkData' },
      { path: 'Game/target.txt', bytes: text('new content'), chunkType: 'BulkData' },
      { path: 'Game/other.txt', bytes: text('other'), chunkType: 'BulkData' },
    ], { version: 8 });
    const install = await openInstall([c.utocPath]);
    installs.push(install);
    const parent = await makeTempDir();
    const out = join(parent, 'out');
    const outside = join(parent, 'outside');
    await mkdir(join(out, 'Game'), { recursive: true });
    await mkdir(join(out, 'real'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'keep me');
    await symlink(outside, join(out, 'link'));
    await symlink(join(out, 'real'), join(out, 'inner'));
    await symlink(join(outside, 'secret.txt'), join(out, 'Game/target.txt'));
    return { install, parent, out, outside };
  }

  it('never follows a folder symlink to a place outside; one that stays inside is used', async () => {
    const { install, out, outside } = await setup();
    const s = await extractFiles(install, {}, { out });
    expect(s.failed).toEqual([{ path: 'link/x.txt', error: 'refused: "link" in the output folder is a symlink to a place outside it' }]);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(join(out, 'real/y.txt'), 'utf8')).toBe('inside link');
    // An existing symlink at the file's own name counts as an existing file: skipped by default.
    expect(s.skipped).toEqual([{ path: 'Game/target.txt', reason: 'exists in the output folder (not overwritten)' }]);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
  });

  it('overwrite replaces a symlink at the file name with the file, never writing through it', async () => {
    const { install, out, outside } = await setup();
    const s = await extractFiles(install, ['Game'], { out, conflict: 'overwrite' });
    expect(s).toMatchObject({ files: 2, failed: [] });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
    expect(await readFile(join(out, 'Game/target.txt'), 'utf8')).toBe('new content');
    const { lstat } = await import('node:fs/promises');
    expect((await lstat(join(out, 'Game/target.txt'))).isSymbolicLink()).toBe(false);
  });

  it('refuses a dangling symlink on the way', async () => {
    const { install, out } = await setup();
    await symlink(join(out, 'nowhere'), join(out, 'Game2'));
    const c = await writeContainer([{ path: 'Game2/z.txt', bytes: text('z'), chunkType: 'BulkData' }], { version: 8 });
    const other = await openInstall([c.utocPath]);
    installs.push(other, install);
    const s = await extractFiles(other, {}, { out });
    expect(s.failed).toEqual([{ path: 'Game2/z.txt', error: 'refused: "Game2" in the output folder is a symlink to a place outside it' }]);
  });
});
