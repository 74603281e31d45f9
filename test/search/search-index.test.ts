// The search index core on cue58: built in the worker pool and on this thread alike, cancelled,
// kept on disk and read back, and the FString scan on bytes written here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { buildSearchIndex, loadSearchIndex, saveSearchIndex, searchIndexKey, type SearchIndex } from '../../src/core/search/index.js';
import { scanFStrings } from '../../src/core/search/fstring-scan.js';
import { createWorkerPool, type WorkerPool } from '../../src/core/workers/pool.js';
import { buildCli } from '../cli/run-cli.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { KeyRing } from '../../src/core/crypto/keys.js';

const ZLIB = corpus('cue58/IoStore/Tagged/Zlib');
let pool: WorkerPool;
let install: Install;
let pooled: SearchIndex;

beforeAll(async () => {
  buildCli(); // the pool's worker bundle
  pool = createWorkerPool({ threads: 2 });
  install = await openInstall([ZLIB], { decoder: pool });
  pooled = await buildSearchIndex(install, { pool });
});
afterAll(async () => {
  await install.close();
  await pool.destroy();
  await removeTempDirs();
});

const list = (index: SearchIndex, text: string): string[] => [...index.search({ text })].map((m) => `${m.path} ${m.where} ${m.text}`);

describe('search index', () => {
  it('the worker pool and this thread index the same hits', async () => {
    const inline = await openInstall([ZLIB]);
    try {
      const here = await buildSearchIndex(inline);
      expect(here.hitCount).toBe(pooled.hitCount);
      expect(list(here, 'Frankfurt')).toEqual(list(pooled, 'Frankfurt'));
      expect(list(here, 'Texture2D')).toEqual(list(pooled, 'Texture2D'));
    } finally {
      await inline.close();
    }
  });

  it('an encrypted container with its key reads as the plain one', async () => {
    const enc = await openInstall([corpus('cue58/IoStore/Tagged/OodleEncrypted')], { decoder: pool, keys: KeyRing.fromArgs([CUE58_AES_KEY]) });
    try {
      const index = await buildSearchIndex(enc, { pool });
      expect(index.data.problems).toEqual([]);
      expect(list(index, 'Hello from Frankfurt')).toEqual(list(pooled, 'Hello from Frankfurt'));
    } finally {
      await enc.close();
    }
  });

  it('stops when its signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stopped by the test'));
    await expect(buildSearchIndex(install, { pool, signal: ac.signal })).rejects.toThrow('stopped by the test');
    const search = pooled.search({ text: '' }, ac.signal);
    expect(() => search.next()).toThrow('stopped by the test');
  });

  it('is kept on disk by a key of the files and read back equal', async () => {
    const dir = await makeTempDir();
    const key = await searchIndexKey(install, true);
    expect(await searchIndexKey(install, true)).toBe(key);
    expect(await searchIndexKey(install, false)).not.toBe(key);
    expect(await loadSearchIndex(dir, key)).toBeUndefined();
    await saveSearchIndex(dir, key, pooled);
    const loaded = await loadSearchIndex(dir, key);
    expect(loaded?.hitCount).toBe(pooled.hitCount);
    expect(list(loaded!, 'Frankfurt')).toEqual(list(pooled, 'Frankfurt'));
  });

  it('regex and case toggles; a bad regex is a SyntaxError', () => {
    expect(list(pooled, 'frankfurt').length).toBeGreaterThan(0);
    expect([...pooled.search({ text: 'frankfurt', caseSensitive: true })]).toEqual([]);
    expect([...pooled.search({ text: '^T_BC[17]$', regex: true, in: ['names'] })].map((m) => m.text)).toContain('T_BC7');
    expect(() => [...pooled.search({ text: '(', regex: true })]).toThrow(SyntaxError);
  });
});

describe('FString scan', () => {
  it('finds Latin-1 and UTF-16 strings by their length, skips bytes that only look like one', () => {
    const bytes = new Uint8Array([
      9, 9, 6, 0, 0, 0, ...Buffer.from('Hello\0'), 0xff,
      0xfd, 0xff, 0xff, 0xff, 0xe5, 0x65, 0x2c, 0x67, 0, 0, // -3: "日本" + NUL in UTF-16
      5, 0, 0, 0, 1, 2, 3, 4, 0, // control bytes: not text
    ]);
    const found: [string, number][] = [];
    scanFStrings(bytes, 0, bytes.length, (t, at) => found.push([t, at]));
    expect(found).toEqual([['Hello', 2], ['日本', 13]]);
  });
});
