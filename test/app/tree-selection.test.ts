// TreeModel multi-selection (click, shift, ctrl, ctrl+A), what an export of it covers, and
// reload() after the install changed in place.
import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../src/shared/api.js';
import { TreeModel, type ListDir } from '../../src/renderer/src/lib/tree-model.js';

const file = (path: string, size: number): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: false, size, fileCount: 1, container: 'c', overrides: 0 });
const dir = (path: string, fileCount: number, size: number): TreeEntry => ({ name: path.slice(path.lastIndexOf('/') + 1), path, isDir: true, size, fileCount });

/** Game/{Maps/{a.umap, b.umap}, Sub/{c.txt}, d.ini, e.ini}, Engine/{x.uasset}; `extra` adds files to Game/Sub later. */
function fakeInstall() {
  const extra: TreeEntry[] = [];
  const tree = (): Record<string, TreeEntry[]> => ({
    '': [dir('Engine', 1, 9), dir('Game', 5 + extra.length, 15 + extra.length)],
    Engine: [file('Engine/x.uasset', 9)],
    Game: [dir('Game/Maps', 2, 3), dir('Game/Sub', 1 + extra.length, 3 + extra.length), file('Game/d.ini', 4), file('Game/e.ini', 5)],
    'Game/Maps': [file('Game/Maps/a.umap', 1), file('Game/Maps/b.umap', 2)],
    'Game/Sub': [file('Game/Sub/c.txt', 3), ...extra],
  });
  const calls: string[] = [];
  const list: ListDir = async (path, filter) => {
    calls.push(filter ? `${path}?${filter}` : path);
    const entries = tree()[path];
    if (!entries) throw new Error(`no folder ${path}`);
    if (!filter) return entries;
    // ".ini": only Game/d.ini and Game/e.ini match.
    const matches = (p: string) => p.endsWith(filter) || (filter === '.ini' && p === 'Game');
    return entries.filter((e) => matches(e.path)).map((e) => (e.path === 'Game' ? { ...e, fileCount: 2, size: 9 } : e));
  };
  return { list, calls, extra };
}

const selected = (m: TreeModel) => m.rows.flatMap((r, i) => (m.isSelected(i) ? [r.entry.path] : []));

async function opened(): Promise<TreeModel> {
  const { list } = fakeInstall();
  const m = new TreeModel({ list });
  await m.reset();
  await m.expand(1); // Game
  // Engine, Game, Game/Maps, Game/Sub, Game/d.ini, Game/e.ini
  return m;
}

describe('TreeModel multi-selection', () => {
  it('a click selects one row; shift extends a range from the anchor; ctrl toggles', async () => {
    const m = await opened();
    m.select(2);
    expect(selected(m)).toEqual(['Game/Maps']);
    m.selectRange(4);
    expect(selected(m)).toEqual(['Game/Maps', 'Game/Sub', 'Game/d.ini']);
    expect(m.selected).toBe(4);
    // The anchor stays: shift-clicking above it flips the range.
    m.selectRange(0);
    expect(selected(m)).toEqual(['Engine', 'Game', 'Game/Maps']);
    expect(m.selectedRow?.entry.path).toBe('Engine');
    // Ctrl adds and removes single rows and moves the anchor.
    m.toggleSelected(5);
    expect(selected(m)).toEqual(['Engine', 'Game', 'Game/Maps', 'Game/e.ini']);
    m.toggleSelected(1);
    expect(selected(m)).toEqual(['Engine', 'Game/Maps', 'Game/e.ini']);
    expect(m.selected).toBe(1);
    m.selectRange(3);
    expect(selected(m)).toEqual(['Game', 'Game/Maps', 'Game/Sub']);
    // A plain click starts over.
    m.select(4);
    expect(selected(m)).toEqual(['Game/d.ini']);
  });

  it('shift+arrows extend, plain arrows move a single selection', async () => {
    const m = await opened();
    m.select(2);
    await m.key('ArrowDown', 10, true);
    await m.key('ArrowDown', 10, true);
    expect(selected(m)).toEqual(['Game/Maps', 'Game/Sub', 'Game/d.ini']);
    await m.key('ArrowUp', 10, true);
    expect(selected(m)).toEqual(['Game/Maps', 'Game/Sub']);
    await m.key('End', 10, true);
    expect(selected(m)).toEqual(['Game/Maps', 'Game/Sub', 'Game/d.ini', 'Game/e.ini']);
    await m.key('ArrowUp', 10);
    expect(selected(m)).toEqual(['Game/d.ini']);
  });

  it('ctrl+A takes every visible row; an export covers each folder once', async () => {
    const m = await opened();
    await m.expand(2); // Game/Maps: its two files show
    m.selectAll();
    expect(selected(m)).toHaveLength(m.rows.length);
    expect(m.exportPaths()).toEqual(['Engine', 'Game']);
    // A folder and files outside it; files inside a selected folder add nothing.
    m.select(2); // Game/Maps
    m.toggleSelected(3); // Game/Maps/a.umap: inside the folder
    m.toggleSelected(7); // Game/e.ini
    m.toggleSelected(0); // Engine
    expect(selected(m)).toEqual(['Engine', 'Game/Maps', 'Game/Maps/a.umap', 'Game/e.ini']);
    expect(m.exportPaths()).toEqual(['Engine', 'Game/Maps', 'Game/e.ini']);
    expect(m.exportEntries().reduce((n, e) => n + e.fileCount, 0)).toBe(1 + 2 + 1);
    // Without the folder, its selected file is exported alone.
    m.toggleSelected(2);
    expect(m.exportPaths()).toEqual(['Engine', 'Game/Maps/a.umap', 'Game/e.ini']);
  });

  it('under a filter, ctrl+A selects the matches and a folder stands for its matching files', async () => {
    const { list } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset('.ini');
    await m.expandMatches();
    expect(m.rows.map((r) => r.entry.path)).toEqual(['Game', 'Game/d.ini', 'Game/e.ini']);
    m.selectAll();
    expect(m.exportEntries()).toEqual([{ name: 'Game', path: 'Game', isDir: true, fileCount: 2, size: 9 }]);
    // A new filter starts a new selection.
    await m.reset();
    expect(m.selection.size).toBe(0);
    expect(m.exportPaths()).toEqual([]);
  });

  it('keeps the selection by path while rows move, and drops rows hidden by a collapse', async () => {
    const m = await opened();
    m.select(4); // Game/d.ini
    m.toggleSelected(5); // Game/e.ini, the focus
    await m.expand(2); // Game/Maps opens above them
    expect(selected(m)).toEqual(['Game/d.ini', 'Game/e.ini']);
    expect(m.selectedRow?.entry.path).toBe('Game/e.ini');
    m.selectRange(3); // from the anchor (e.ini) up to Game/Maps/a.umap
    expect(selected(m)).toEqual(['Game/Maps/a.umap', 'Game/Maps/b.umap', 'Game/Sub', 'Game/d.ini', 'Game/e.ini']);
    // The focus (a.umap) is hidden by the collapse: it moves to the folder, which joins the selection.
    m.collapse(2);
    expect(selected(m)).toEqual(['Game/Maps', 'Game/Sub', 'Game/d.ini', 'Game/e.ini']);
    expect(m.selection.has('Game/Maps/a.umap')).toBe(false);
    expect(m.selectedRow?.entry.path).toBe('Game/Maps');
    m.select(4); // Game/d.ini
    m.toggleSelected(3); // Game/Sub
    m.collapse(1); // the focus (Sub) is inside Game: it moves to Game
    expect(selected(m)).toEqual(['Game']);
    // Collapsing a folder with selected rows but not the focus keeps the focus where it is.
    await m.expand(1);
    m.select(3); // Game/Sub
    m.toggleSelected(0); // Engine, the focus
    m.collapse(1);
    expect(m.selectedRow?.entry.path).toBe('Engine');
    expect(selected(m)).toEqual(['Engine']);
  });

  it('reload() lists again, keeping open folders, focus and selection, with the new files', async () => {
    const { list, calls, extra } = fakeInstall();
    const m = new TreeModel({ list });
    await m.reset();
    await m.expand(1); // Game
    await m.expand(3); // Game/Sub
    m.select(4); // Game/Sub/c.txt
    m.toggleSelected(6); // Game/e.ini
    expect(m.matchCount).toBe(6);
    extra.push(file('Game/Sub/new.txt', 1));
    calls.length = 0;
    await m.reload();
    expect(calls).toEqual(['', 'Game', 'Game/Sub']);
    expect(m.rows.map((r) => `${r.entry.path}${r.expanded ? '/' : ''}`)).toEqual([
      'Engine', 'Game/', 'Game/Maps', 'Game/Sub/', 'Game/Sub/c.txt', 'Game/Sub/new.txt', 'Game/d.ini', 'Game/e.ini',
    ]);
    expect(m.matchCount).toBe(7);
    expect(selected(m)).toEqual(['Game/Sub/c.txt', 'Game/e.ini']);
    expect(m.selectedRow?.entry.path).toBe('Game/e.ini');
    // The anchor came along: shift extends from e.ini.
    m.selectRange(5);
    expect(selected(m)).toEqual(['Game/Sub/new.txt', 'Game/d.ini', 'Game/e.ini']);
  });
});
