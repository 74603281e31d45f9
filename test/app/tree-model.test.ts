import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../src/shared/api.js';
import { TreeModel, type ListDir } from '../../src/renderer/src/lib/tree-model.js';
import { formatCodecs, formatSize } from '../../src/renderer/src/lib/format.js';
import { hexRow, hexRowCount } from '../../src/renderer/src/lib/hex.js';
import { decodeText, languageForPath } from '../../src/renderer/src/lib/languages.js';

/** A fake install: Game/{Big: 250,000 files, Small/{a,b}, c.ini}, Engine/e.uasset. */
function fakeInstall(): { list: ListDir; calls: string[] } {
  const BIG = 250_000;
  const file = (path: string, size: number): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: false, size, fileCount: 1, container: 'c', overrides: 0 });
  const dir = (path: string, fileCount: number, size: number): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: true, size, fileCount });
  const big = Array.from({ length: BIG }, (_, i) => file(`Game/Big/F${String(i).padStart(6, '0')}.uasset`, 10));
  const tree: Record<string, TreeEntry[]> = {
    '': [dir('Engine', 1, 5), dir('Game', BIG + 3, BIG * 10 + 6)],
    Engine: [file('Engine/e.uasset', 5)],
    Game: [dir('Game/Big', BIG, BIG * 10), dir('Game/Small', 2, 3), file('Game/c.ini', 3)],
    'Game/Big': big,
    'Game/Small': [file('Game/Small/a.txt', 1), file('Game/Small/b.txt', 2)],
  };
  const calls: string[] = [];
  const list: ListDir = async (path, filter) => {
    calls.push(filter ? `${path}?${filter}` : path);
    const entries = tree[path];
    if (!entries) throw new Error(`no folder ${path}`);
    if (!filter) return entries;
    // Enough of a filter for the model: files whose path contains it, folders that hold some.
    return entries.filter((e) => e.path.includes(filter) || (e.isDir && (filter === '.txt' ? e.path === 'Game' || e.path === 'Game/Small' : false)))
      .map((e) => (e.isDir && filter === '.txt' ? { ...e, fileCount: 2, size: 3 } : e));
  };
  return { list, calls };
}

const names = (m: TreeModel) => m.rows.map((r) => `${'  '.repeat(r.depth)}${r.entry.name}${r.entry.isDir ? (r.expanded ? '/-' : '/+') : ''}`);

describe('TreeModel', () => {
  it('lists the top level, expands lazily and collapses', async () => {
    const { list, calls } = fakeInstall();
    let changes = 0;
    const m = new TreeModel({ list, onChange: () => changes++ });
    await m.reset();
    expect(names(m)).toEqual(['Engine/+', 'Game/+']);
    expect(m.matchCount).toBe(250_004);
    expect(calls).toEqual(['']);
    await m.expand(1);
    expect(names(m)).toEqual(['Engine/+', 'Game/-', '  Big/+', '  Small/+', '  c.ini']);
    await m.expand(3);
    expect(names(m)).toEqual(['Engine/+', 'Game/-', '  Big/+', '  Small/-', '    a.txt', '    b.txt', '  c.ini']);
    m.collapse(1);
    expect(names(m)).toEqual(['Engine/+', 'Game/+']);
    // Expanding again lists the folder afresh, its subfolders closed.
    await m.expand(1);
    expect(names(m)).toEqual(['Engine/+', 'Game/-', '  Big/+', '  Small/+', '  c.ini']);
    expect(changes).toBeGreaterThan(5);
  });

  it('keeps 250,000 children cheap: one splice in, one splice out', async () => {
    const { list } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset();
    await m.expand(1);
    m.select(4); // c.ini, below Big
    await m.expand(2);
    expect(m.rows.length).toBe(5 + 250_000);
    expect(m.rows[3]!.entry.name).toBe('F000000.uasset');
    expect(m.rows[250_002]!.entry.name).toBe('F249999.uasset');
    expect(m.selectedRow?.entry.name).toBe('c.ini'); // the selection moved with its row
    m.collapse(2);
    expect(m.rows.length).toBe(5);
    expect(m.selectedRow?.entry.name).toBe('c.ini');
  });

  it('moves with the tree-view keys', async () => {
    const { list } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset();
    const key = (k: string, page = 10) => m.key(k, page);
    await key('ArrowDown');
    expect(m.selectedRow?.entry.name).toBe('Engine');
    await key('ArrowDown');
    expect(m.selectedRow?.entry.name).toBe('Game');
    await key('ArrowRight'); // opens Game
    expect(names(m)).toEqual(['Engine/+', 'Game/-', '  Big/+', '  Small/+', '  c.ini']);
    await key('ArrowRight'); // to the first child
    expect(m.selectedRow?.entry.name).toBe('Big');
    await key('End');
    expect(m.selectedRow?.entry.name).toBe('c.ini');
    expect(await key('Enter')).toBe('open');
    await key('ArrowLeft'); // a file: to its parent
    expect(m.selectedRow?.entry.name).toBe('Game');
    await key('ArrowLeft'); // an open folder: closes it
    expect(names(m)).toEqual(['Engine/+', 'Game/+']);
    await key('Home');
    expect(m.selected).toBe(0);
    await key('ArrowUp'); // stays at the top
    expect(m.selected).toBe(0);
    await key('Enter'); // a folder: toggles
    expect(names(m)).toEqual(['Engine/-', '  e.uasset', 'Game/+']);
    await m.expand(2);
    await m.expand(3); // Big: 250,000 rows
    await key('PageDown', 100);
    expect(m.selected).toBe(100);
    await key('PageDown', 100);
    expect(m.selected).toBe(200);
    await key('PageUp', 150);
    expect(m.selected).toBe(50);
    await key('End');
    expect(m.selected).toBe(m.rows.length - 1);
    expect(await key('x')).toBe(false);
  });

  it('opens folders after a filter so the matches show, and drops answers from before', async () => {
    const { list, calls } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset();
    calls.length = 0;
    await m.reset('.txt');
    await m.expandMatches();
    expect(names(m)).toEqual(['Game/-', '  Small/-', '    a.txt', '    b.txt']);
    expect(m.matchCount).toBe(2);
    expect(calls).toEqual(['?.txt', 'Game?.txt', 'Game/Small?.txt']);
    // A filter typed while the old listing is on its way wins.
    const slow = m.reset('c.ini');
    const fast = m.reset();
    await Promise.all([slow, fast]);
    expect(m.filter).toBeUndefined();
    expect(names(m)).toEqual(['Engine/+', 'Game/+']);
  });

  it('does not open a folder whose matches would flood the view', async () => {
    const { list } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset();
    await m.expandMatches(400);
    // Engine (1 file) opens; Game (250,003 files) stays closed.
    expect(names(m)).toEqual(['Engine/-', '  e.uasset', 'Game/+']);
  });

  it('opens a folder that is alone at its level, whatever it holds', async () => {
    const big = (path: string, fileCount: number): TreeEntry => ({ name: path.split('/').at(-1)!, path, isDir: true, size: fileCount, fileCount });
    const m = new TreeModel({
      list: async (path) => ({
        '': [big('Game', 5000)],
        Game: [big('Game/Content', 5000)],
        'Game/Content': [big('Game/Content/A', 2500), big('Game/Content/B', 2500)],
      } as Record<string, TreeEntry[]>)[path] ?? [],
    });
    await m.reset('x');
    await m.expandMatches(400);
    expect(names(m)).toEqual(['Game/-', '  Content/-', '    A/+', '    B/+']);
  });

  it('reports a folder that fails to list and keeps working', async () => {
    const errors: string[] = [];
    const m = new TreeModel({
      list: async (path) => {
        if (path === 'Bad') throw new Error('Bad: utoc header at byte 0: bad magic');
        return path === '' ? [{ name: 'Bad', path: 'Bad', isDir: true, size: 0, fileCount: 1 }, { name: 'Ok', path: 'Ok', isDir: true, size: 0, fileCount: 0 }] : [];
      },
      onError: (e, path) => errors.push(`${path}|${(e as Error).message}`),
    });
    await m.reset();
    await m.expand(0);
    expect(errors).toEqual(['Bad|Bad: utoc header at byte 0: bad magic']);
    expect(m.rows[0]).toMatchObject({ expanded: false, loading: false });
    await m.expand(1);
    expect(m.rows[1]!.expanded).toBe(true);
  });
});

describe('renderer helpers', () => {
  it('formats sizes and codecs', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1721)).toBe('1.68 KiB');
    expect(formatSize(2_465_829)).toBe('2.35 MiB');
    expect(formatSize(5 * 1024 ** 4)).toBe('5.00 TiB');
    expect(formatCodecs({ None: 3, Oodle: 10 })).toBe('Oodle ×10, None ×3');
  });

  it('dumps hex rows with offsets and printable ASCII', () => {
    const bytes = new Uint8Array([0x50, 0x61, 0x6b, 0x00, 0xff, ...Array.from({ length: 15 }, (_, i) => 0x41 + i)]);
    expect(hexRowCount(bytes.length)).toBe(2);
    expect(hexRow(bytes, 0)).toEqual({ offset: '00000000', hex: '50 61 6B 00 FF 41 42 43  44 45 46 47 48 49 4A 4B', ascii: 'Pak··ABCDEFGHIJK' });
    expect(hexRow(bytes, 1, 0x10000)).toEqual({ offset: '00010010', hex: '4C 4D 4E 4F', ascii: 'LMNO' });
  });

  it('picks a language and decodes UTF-8 and UTF-16 text', () => {
    expect(languageForPath('Game/Config/DefaultEngine.ini')).toBe('ini');
    expect(languageForPath('My.uproject')).toBe('javascript');
    expect(languageForPath('a/b.XML')).toBe('xml');
    expect(languageForPath('notes.txt')).toBe('plaintext');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe('hi');
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe('hi');
  });
});
