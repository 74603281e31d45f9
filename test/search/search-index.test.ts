// The search index core on cue58: built in the worker pool and on this thread alike, cancelled,
// kept on disk and read back, and the FString scan on bytes written here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { buildSearchIndex, loadSearchIndex, saveSearchIndex, searchIndexKey } from '../../src/core/search/index.js';
import { HitKind, SearchIndex, SearchIndexBuilder } from '../../src/core/search/search-index.js';
import { scanFStrings } from '../../src/core/search/fstring-scan.js';
import { createWorkerPool, type WorkerPool } from '../../src/core/workers/pool.js';
import { buildCli } from '../cli/run-cli.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { zenLayoutFor, type ZenLayout } from '../../src/core/engine-versions.js';
import { FormatError } from '../../src/core/errors.js';
import { parseContainerHeader } from '../../src/core/iostore/container-header.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { zenRecordBy } from '../../src/core/search/extract.js';
import { RecordStatus, REF_STRIDE, RefKind, replyStrings, type SpanReply } from '../../src/core/search/span-facts.js';
import { NeedsBytes } from '../../src/core/search/zen-search-head.js';

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

  it('a saved file whose non-ASCII text ids are not ids of its texts is ignored (built again), not a crash at the first query', async () => {
    const dir = await makeTempDir();
    const key = 'damaged-non-ascii-ids';
    const { serialize } = await import('node:v8');
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const file = join(dir, `search-index-${key}.bin`);
    const bad = (ids: unknown) => writeFile(file, serialize({ key, index: { ...pooled.data, nonAsciiTexts: ids } }));
    for (const ids of [Int32Array.of(pooled.data.texts.length), Int32Array.of(-1), [0, 1]]) {
      await bad(ids);
      expect(await loadSearchIndex(dir, key), String(ids)).toBeUndefined();
    }
    await bad(pooled.data.nonAsciiTexts);
    expect(list((await loadSearchIndex(dir, key))!, 'ü')).toEqual(list(pooled, 'ü'));
  });

  it('regex and case toggles; a bad regex is a SyntaxError', () => {
    expect(list(pooled, 'frankfurt').length).toBeGreaterThan(0);
    expect([...pooled.search({ text: 'frankfurt', caseSensitive: true })]).toEqual([]);
    expect([...pooled.search({ text: '^T_BC[17]$', regex: true, in: ['names'] })].map((m) => m.text)).toContain('T_BC7');
    expect(() => [...pooled.search({ text: '(', regex: true })]).toThrow(SyntaxError);
  });
});

describe('case-insensitive queries: as toLowerCase on both sides, without lowercasing every text', () => {
  /** The hits whose text holds the query when both are lowercased: what a case-insensitive query meant when it lowercased every text. */
  const reference = (index: SearchIndex, text: string): string[] => {
    const { files, texts, wheres, hitFile, hitText, hitWhere } = index.data;
    const needle = text.toLowerCase();
    const out: string[] = [];
    for (let i = 0; i < hitFile.length; i++) {
      const t = texts[hitText[i]!]!;
      if (t.toLowerCase().includes(needle)) out.push(`${files[hitFile[i]!]} ${wheres[hitWhere[i]!]} ${t}`);
    }
    return out;
  };

  it('cue58 (its strings in several scripts): the same hits as the reference', () => {
    expect(pooled.data.nonAsciiTexts!.length).toBeGreaterThan(0);
    for (const q of ['frankfurt', 'TEXTURE2D', 'hello from', '日本語', 'ü', 'é', '/game/fixtures/', 't_bc', '.', '(', 'zzzz-nothing']) {
      const want = reference(pooled, q);
      expect(list(pooled, q), q).toEqual(want);
    }
    expect(reference(pooled, '日本語').length).toBeGreaterThan(0);
  });

  it('texts whose lowercase changes length or lands in ASCII (Kelvin sign, dotted I, sharp s, sigma), saved before the non-ASCII ids were kept too', () => {
    const b = new SearchIndexBuilder();
    const texts = ['Kelvin \u212A', 'İstanbul', 'STRAẞE', 'Straße', 'ΟΔΟΣ', 'οδος', 'Ärger', 'plain ASCII Key', 'a.b(c)', 'İ'];
    for (const [i, t] of texts.entries()) b.hit(b.file(`F${i}`), HitKind.name, t, 'names[0]');
    const index = b.finish();
    expect([...index.data.nonAsciiTexts!].map((i) => index.data.texts[i])).toEqual(texts.filter((t) => /[^\x00-\x7f]/.test(t)));
    const { nonAsciiTexts: _, ...older } = index.data;
    const old = new SearchIndex(older);
    for (const q of ['k', 'K', '\u212A', 'i', 'İ', 'i\u0307', 'ß', 'ẞ', 'ss', 'σ', 'ς', 'Σ', 'ä', 'ASCII', 'a.b(', '.', ')']) {
      const want = reference(index, q);
      expect(list(index, q), q).toEqual(want);
      expect(list(old, q), `${q} (no ids kept)`).toEqual(want);
    }
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

/** A record of span-facts.ts as plain values: its strings and references spelled out. */
function spelled(reply: SpanReply): unknown {
  const { ints, refs } = reply;
  const texts: string[] = [], keys: string[] = [];
  replyStrings(reply.texts, reply.textLengths, reply.textHashes, (s) => texts.push(s));
  replyStrings(reply.keys, reply.keyLengths, reply.keyHashes, (s) => keys.push(s));
  const ref = (r: number): string => {
    if (r === -1) return 'none';
    if (r <= -2) return `export ${-2 - r}`;
    const o = r * REF_STRIDE;
    return refs[o] === RefKind.script ? `script ${keys[refs[o + 1]!]}` : `package ${keys[refs[o + 1]!]} ${refs[o + 2]} ${refs[o + 3]}`;
  };
  expect(ints[0]).toBe(RecordStatus.ok);
  let p = 1;
  const name = texts[ints[p++]!], lower = keys[ints[p++]!];
  const names = Array.from(ints.subarray(p + 1, p + 1 + ints[p]!), (t) => texts[t]);
  p += 1 + ints[p]!;
  const exports = [];
  for (let n = ints[p++]!; n > 0; n--, p += 4) exports.push([texts[ints[p]!], ref(ints[p + 1]!), ints[p + 2], ints[p + 3]]);
  const imports = Array.from(ints.subarray(p + 1, p + 1 + ints[p]!), ref);
  return { name, lower, names, exports, imports };
}

describe('the header reader for the index (zen-search-head.ts)', () => {
  /** Every package chunk of an install's IoStore containers, with the Zen layout its container says. */
  async function packages(root: string): Promise<{ path: string; bytes: Uint8Array; layout: ZenLayout }[]> {
    const inst = await openInstall([root]);
    try {
      const out = [];
      for (const c of inst.archives) {
        if (!(c instanceof IoStoreContainer) || c.status.state === 'locked') continue;
        const header = c.entriesOfType('ContainerHeader')[0];
        const headerBytes = header === undefined ? undefined : await c.readChunk(header).catch(() => undefined);
        if (header !== undefined && !headerBytes) continue; // (the corpus has one container without its .ucas)
        const version = headerBytes ? parseContainerHeader(headerBytes, c.path).version : undefined;
        const layout = zenLayoutFor({ tocVersion: c.toc.header.version, ...(version !== undefined ? { containerHeaderVersion: version } : {}) });
        for (const ref of c.entriesOfType('ExportBundleData')) {
          out.push({ path: `${c.path}#${ref}`, bytes: await c.readChunk(ref), layout });
        }
      }
      return out;
    } finally {
      await inst.close();
    }
  }

  it('reads the same names, exports, classes and imports as the full parser (cue58 and the game containers of the corpus)', async () => {
    const all = [...await packages(ZLIB), ...await packages(corpus('iostore'))];
    expect(all.length).toBeGreaterThan(100);
    for (const p of all) {
      expect(spelled(zenRecordBy('head', p.bytes, p.path, p.layout)), p.path).toEqual(spelled(zenRecordBy('full', p.bytes, p.path, p.layout)));
    }
    // T_BC7 as the cue58 manifest lists it: its texture export and its class.
    const t = all.map((p) => spelled(zenRecordBy('head', p.bytes, p.path, p.layout)) as { name: string; exports: unknown[][] })
      .find((r) => r.name.endsWith('/T_BC7'));
    expect(t?.exports[0]?.[0]).toBe('T_BC7');
  });

  it('on damaged bytes throws a FormatError or asks for more bytes, never anything else', async () => {
    const [p] = await packages(ZLIB);
    const header = new DataView(p!.bytes.buffer, p!.bytes.byteOffset).getUint32(4, true);
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    for (let i = 0; i < 2000; i++) {
      const bytes = p!.bytes.slice(0, i % 3 === 0 ? rand(header + 1) : p!.bytes.length);
      for (let k = 0; k < 4; k++) if (bytes.length > 0) bytes[rand(Math.min(bytes.length, header))] = rand(256);
      try {
        zenRecordBy('head', bytes, 'damaged', p!.layout);
      } catch (e) {
        if (!(e instanceof FormatError || e instanceof NeedsBytes)) throw e;
      }
    }
  });
});
