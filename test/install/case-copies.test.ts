// Issue 25, finding 3: a pak listing Case/File.txt, case/file.txt, CASE/FILE.TXT and
// Case/file.TXT (different bytes). The engine looks paths up regardless of case and a later
// index entry replaces an earlier one: the last wins. The others stay visible as overridden
// copies: in the details, in `ls` with a note, and in a warning on stderr.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFile } from '../../src/backend/summary.js';
import { openInstall } from '../../src/core/install/install.js';
import { writePak } from '../fixtures/pak-writer.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from '../cli/run-cli.js';

const text = (s: string) => new TextEncoder().encode(s);
/** In index order; the bytes tell them apart. */
const SPELLINGS = [
  ['Case/File.txt', 'one'],
  ['case/file.txt', 'two two'],
  ['CASE/FILE.TXT', 'three three three'],
  ['Case/file.TXT', 'four four four four'],
] as const;

let pak: string;
beforeAll(async () => {
  buildCli();
  const dir = await makeTempDir();
  pak = join(dir, 'case-v3.pak');
  await writeFile(pak, writePak([...SPELLINGS.map(([name, s]) => ({ name, data: text(s) })), { name: 'Other.txt', data: text('other') }], { version: 3 }).bytes);
});
afterAll(removeTempDirs);

describe('paths that differ only by case in one pak', () => {
  it('the last in the index wins, found in any spelling; the others are its overridden copies', async () => {
    const install = await openInstall([pak]);
    try {
      expect(install.archives[0]!.files()).toHaveLength(5);
      expect([...install.files()].map((f) => [f.path, f.size])).toEqual([['Game/Case/file.TXT', 19], ['Game/Other.txt', 5]]);
      for (const [name] of SPELLINGS) {
        const f = install.file(`Game/${name}`)!;
        expect(f.path, name).toBe('Game/Case/file.TXT');
        expect(new TextDecoder().decode(await f.providers[0]!.archive.read(f.providers[0]!.file.ref))).toBe('four four four four');
      }
      const [copies] = install.caseCopies();
      expect(install.caseCopies()).toHaveLength(1);
      expect(copies!.providers.map((p) => p.file.path)).toEqual(['Game/Case/file.TXT', 'Game/CASE/FILE.TXT', 'Game/case/file.txt', 'Game/Case/File.txt']);
      const details = describeFile(copies!);
      expect(details.overridden.map((o) => [o.container, o.path])).toEqual([
        ['case-v3', 'Game/CASE/FILE.TXT'], ['case-v3', 'Game/case/file.txt'], ['case-v3', 'Game/Case/File.txt'],
      ]);
    } finally {
      await install.close();
    }
  });

  it('ls notes the copies, a warning names them, extract writes the winner; exit 0', async () => {
    const ls = await pakscope(['ls', pak]);
    expect(ls.code).toBe(0);
    expect(ls.stdout.toString().split('\n')[0]).toBe('Game/Case/file.TXT  19  case-v3.pak  (overrides 3 copies in its container whose path differs only by case)');
    expect(ls.stderr).toBe('warning: case-v3.pak lists 4 paths that differ only by case: Game/Case/file.TXT wins (the engine\'s lookup ignores case; ' +
      'the last in its index wins); Game/CASE/FILE.TXT, Game/case/file.txt, Game/Case/File.txt are overridden copies\n');
    const json = JSON.parse((await pakscope(['ls', pak, '--json'])).stdout.toString()) as { files: { path: string; caseCopies?: string[] }[] };
    expect(json.files[0]).toMatchObject({ path: 'Game/Case/file.TXT', caseCopies: ['Game/CASE/FILE.TXT', 'Game/case/file.txt', 'Game/Case/File.txt'] });
    expect(json.files[1]!.caseCopies).toBeUndefined();
    const out = join(await makeTempDir(), 'out');
    const extract = await pakscope(['extract', pak, '--out', out]);
    expect(extract.code, extract.stderr).toBe(0);
    expect(extract.stderr).toMatch(/case-v3\.pak lists 4 paths that differ only by case/);
    expect(await readdir(join(out, 'Game', 'Case'))).toEqual(['file.TXT']);
    expect(await readFile(join(out, 'Game', 'Case', 'file.TXT'), 'utf8')).toBe('four four four four');
  });
});
