/**
 * DiskSink's side of files written by workers: reserve() picks the folder, the name and a fresh
 * temporary name (and says when the name must be checked again before the rename), and
 * settleExisting() applies the conflict policy to a file that appeared at the name meanwhile.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskSink } from '../../src/core/export/disk-sink.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { listTree } from './helpers.js';

afterAll(removeTempDirs);

describe('DiskSink for worker-written files', () => {
  it('in a folder this run created nothing is checked again; in an existing one it is', async () => {
    const root = join(await makeTempDir(), 'out');
    mkdirSync(join(root, 'Old'), { recursive: true });
    const sink = await DiskSink.create(root, 'skip');
    const fresh = await sink.reserve('New/a.bin', ['New'], 'a.bin');
    expect(fresh).toMatchObject({ target: join(root, 'New', 'a.bin'), checkTarget: false });
    expect((fresh as { temp: string }).temp).toMatch(/New[/\\]\.pakscope-[0-9a-f]{12}-\d+\.partial$/);
    expect(await sink.reserve('Old/b.bin', ['Old'], 'b.bin')).toMatchObject({ target: join(root, 'Old', 'b.bin'), checkTarget: true });
    // A file there already: skipped before any work.
    await writeFile(join(root, 'Old', 'c.bin'), 'old');
    expect(await sink.reserve('Old/c.bin', ['Old'], 'c.bin')).toEqual({ skipped: 'exists in the output folder (not overwritten)' });
    // Overwrite never needs to look.
    const over = await DiskSink.create(root, 'overwrite');
    expect(await over.reserve('Old/c.bin', ['Old'], 'c.bin')).toMatchObject({ checkTarget: false });
  });

  it('a file that appeared meanwhile: skip removes the bytes, keep-both numbers them', async () => {
    for (const [policy, want] of [['skip', ['Game/x.txt']], ['keep-both', ['Game/x (2).txt', 'Game/x.txt']]] as const) {
      const root = join(await makeTempDir(), 'out');
      mkdirSync(join(root, 'Game'), { recursive: true });
      const sink = await DiskSink.create(root, policy);
      const to = await sink.reserve('Game/x.txt', ['Game'], 'x.txt');
      if ('skipped' in to) throw new Error('not reserved');
      expect(to).toMatchObject({ target: join(root, 'Game', 'x.txt'), checkTarget: true });
      await writeFile(to.target, 'appeared');
      await writeFile(to.temp, 'ours'); // what the worker wrote before it found the name taken
      const settled = await sink.settleExisting(to, 'Game/x.txt');
      expect(settled).toEqual(policy === 'skip' ? { skipped: 'exists in the output folder (not overwritten)' } : { path: 'Game/x (2).txt' });
      expect(existsSync(to.temp)).toBe(false);
      expect(await listTree(root)).toEqual(want);
      expect(await readFile(join(root, 'Game/x.txt'), 'utf8')).toBe('appeared');
      if (policy === 'keep-both') expect(await readFile(join(root, 'Game/x (2).txt'), 'utf8')).toBe('ours');
    }
  });
});
