/**
 * Builds an install's search index. Zen packages are read container by container in spans of
 * packages in address order (one job, one message and one read in a worker per span of up to
 * 2 MiB, not per package; without strings only each package's header is read and decoded), and
 * come back as compact records (span-facts.ts, zen-records.ts); classic packages, .locres and text
 * files are read through their archives. Every file's path is a hit. Then, with every package's
 * exports known, Zen class and import hashes are named: /Script objects through the global script
 * objects, package imports through the exporting package's public export hashes.
 */
import { zenLayoutFor, type ZenLayout } from '../engine-versions.js';
import type { Archive } from '../archive.js';
import type { Install } from '../install/install.js';
import { parseContainerImports } from '../iostore/container-header.js';
import { IoStoreContainer } from '../iostore/container.js';
import { findScriptObjects } from '../package/script-objects.js';
import { isUAssetFileName, isUe12FileName, withoutExtension } from '../package/package-files.js';
import type { WorkerPool } from '../workers/pool.js';
import type { ScriptObjects } from '../zen/script-objects.js';
import {
  classicFacts, extractSpan, isTextFileName, locresFacts, MAX_TEXT_FILE_BYTES, textFileFacts,
  type FileFacts, type SpanItem, type SpanReply,
} from './extract.js';
import { HitKind, SearchIndexBuilder, type SearchIndex } from './search-index.js';
import { SpanFactsWriter } from './span-facts.js';
import { ZenRecords, type ItemOutcome } from './zen-records.js';

export interface SearchBuildProgress { done: number; total: number }

export interface SearchBuildOptions {
  /** Parses in its threads; without one everything runs on this thread. */
  pool?: WorkerPool;
  /** Index string values too (reads every package's export data); default true. */
  strings?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: SearchBuildProgress) => void;
}

/** Packages read in one job: up to this many bytes of them. */
const SPAN_BYTES = 2 * 1024 * 1024;
/**
 * Of a big package only its first bytes are planned when strings are not wanted: its header is
 * there (a worker decodes no more of them than the header needs). A bigger header is read alone.
 */
const HEADER_BYTES = 64 * 1024;
/** Builds started by this process: each names its worker string tables. */
let builds = 0;
/** Spans in flight per worker thread. */
const SPANS_PER_THREAD = 3;
/** Classic and text files read at once. */
const FILE_CONCURRENCY = 4;

type Role = 'zen' | 'classic' | 'locres' | 'text' | 'other';

interface Entry { path: string; archive: Archive; ref: number; role: Role }

export async function buildSearchIndex(install: Install, opts: SearchBuildOptions = {}): Promise<SearchIndex> {
  const { signal } = opts;
  const strings = opts.strings ?? true;
  const entries = listEntries(install);
  const facts: (FileFacts | undefined)[] = new Array(entries.length);
  const builder = new SearchIndexBuilder();
  const total = entries.filter((e) => e.role !== 'other').length;
  let done = 0;
  const progress = (n: number): void => {
    done += n;
    opts.onProgress?.({ done, total });
  };
  const fail = (i: number, message: string): void => { builder.problems.push({ path: entries[i]!.path, message }); };

  const zen = new ZenRecords<SpanOf>(entries.length, builder);
  const zenRead = readZen(entries, zen, strings, opts.pool, signal, progress, fail, `build ${++builds} ${Date.now()}`);
  // Interned while the workers read (this thread mostly waits on them then), not after.
  const pathTexts = new Int32Array(entries.length);
  const pathsInterned = internPaths(builder, entries, pathTexts, signal);
  // Together: when one fails (a cancel), the other's failure is handled too.
  await Promise.all([zenRead, pathsInterned]);
  await readOthers(install, entries, facts, strings, signal, progress, fail);
  signal?.throwIfAborted();

  const containers = install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.status.state !== 'locked');
  const scripts = containers.length > 0 ? await findScriptObjects(containers) : { found: undefined };
  try {
    zen.prepare(scripts.found?.objects);
    addHits(builder, entries, pathTexts, facts, zen);
  } finally {
    await scripts.found?.opened?.close();
  }
  return builder.finish();
}

/** Every file in path order, with what it is read as. */
function listEntries(install: Install): Entry[] {
  // Per unlocked container: 1 for each of its package chunks.
  const zenRefs = new Map<Archive, Uint8Array>();
  for (const a of install.archives) {
    if (!(a instanceof IoStoreContainer) || a.status.state === 'locked') continue;
    const flags = new Uint8Array(a.chunkCount);
    for (const ref of a.entriesOfType('ExportBundleData')) flags[ref] = 1;
    zenRefs.set(a, flags);
  }
  const entries: Entry[] = [];
  install.visitFiles((v) => {
    const path = v.folder === '' ? v.name : `${v.folder}/${v.name}`;
    const zen = zenRefs.get(v.archive);
    let role: Role;
    if (zen) role = zen[v.ref] === 1 ? 'zen' : 'other';
    else if (v.archive instanceof IoStoreContainer) role = 'other';
    else if (isUAssetFileName(path) || isUe12FileName(path)) role = 'classic';
    else if (path.toLowerCase().endsWith('.locres')) role = 'locres';
    else if (isTextFileName(path)) role = 'text';
    else role = 'other';
    entries.push({ path, archive: v.archive, ref: v.ref, role });
  });
  return entries;
}

/** A span as the records remember it: what is needed to read one of its packages again. */
interface SpanOf { entries: number[]; items: SpanItem[]; c: IoStoreContainer; layout: ZenLayout }

/** The Zen packages, container by container, span by span. */
async function readZen(entries: Entry[], zen: ZenRecords<SpanOf>, strings: boolean, pool: WorkerPool | undefined,
  signal: AbortSignal | undefined, progress: (n: number) => void, fail: (i: number, m: string) => void, build: string): Promise<void> {
  const byContainer = new Map<IoStoreContainer, number[]>();
  entries.forEach((e, i) => {
    if (e.role !== 'zen') return;
    const c = e.archive as IoStoreContainer;
    let list = byContainer.get(c);
    if (!list) byContainer.set(c, (list = []));
    list.push(i);
  });
  // Read alone: the whole header (a span holds the first HEADER_BYTES of a package), or after a span's failure.
  const again = async (outcomes: ItemOutcome<SpanOf>[]): Promise<void> => {
    for (const o of outcomes) {
      const i = o.of.entries[o.k]!;
      if ('error' in o) {
        fail(i, o.error);
        continue;
      }
      const item = 'needsBytes' in o ? { ...o.of.items[o.k]!, length: o.needsBytes } : o.of.items[o.k]!;
      const one = { entries: [i], items: [item], c: o.of.c, layout: o.of.layout };
      const [bad] = zen.add(await readOne(o.of.c, entries[i]!, item, o.of.layout, strings, signal), one);
      if (bad) fail(i, 'error' in bad ? bad.error : 'needsBytes' in bad ? `its header needs ${bad.needsBytes} bytes` : 'not read');
    }
  };
  // Made as the lanes take them: the first spans go to the workers before the other containers are planned.
  const jobs = (function* (): Generator<() => Promise<void>> {
    for (const [c, list] of byContainer) {
      let layoutOf: Promise<ZenLayout> | undefined;
      for (const span of spansOf(c, list, entries, strings)) yield async () => {
        signal?.throwIfAborted();
        const layout = await (layoutOf ??= containerLayout(c));
        const reply = await readSpan(c, span, layout, strings, pool, signal, build).catch((e: unknown) => {
          if (signal?.aborted) throw e;
          return undefined;
        });
        const of = { entries: span.entries, items: span.items, c, layout };
        // A span that failed as a whole: each package alone, so that only the bad one fails, with its own error.
        await again(reply ? zen.add(reply, of) : span.entries.map((_, k) => ({ of, k, missing: true as const })));
        progress(span.entries.length);
      };
    }
  })();
  await runLimited(jobs, pool ? pool.threads * SPANS_PER_THREAD : 1);
  await again(zen.drainParked());
}

/** A span's packages read in one job: in a worker when there is a pool, else here. */
async function readSpan(c: IoStoreContainer, span: Span, layout: ZenLayout, strings: boolean, pool: WorkerPool | undefined,
  signal: AbortSignal | undefined, build: string): Promise<SpanReply> {
  const task = { build, layout, items: span.items, strings };
  const plan = pool ? await c.planChunkHeads(span.refs, span.items.map((i) => i.length), span.items.map((i) => i.at), span.length) : null;
  if (pool && plan) return pool.searchSpan({ ...task, plan });
  const bytes = new Uint8Array(span.length);
  for (const [k, item] of span.items.entries()) bytes.set(await c.readChunkRange(span.refs[k]!, 0, item.length, signal), item.at);
  return extractSpan(bytes, task);
}

/** One package read alone, its failure as its own error. */
async function readOne(c: IoStoreContainer, e: Entry, item: SpanItem, layout: ZenLayout, strings: boolean,
  signal: AbortSignal | undefined): Promise<SpanReply> {
  let bytes: Uint8Array;
  try {
    bytes = await c.readChunkRange(e.ref, 0, item.length, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    const w = new SpanFactsWriter();
    w.begin();
    w.fail(err instanceof Error ? err.message : String(err));
    return w.finish();
  }
  return extractSpan(bytes, { layout, strings, items: [{ ...item, at: 0 }] });
}

/** The Zen layout of a container's packages, from its container header's version and its .utoc version. */
async function containerLayout(c: IoStoreContainer): Promise<ZenLayout> {
  const tocVersion = c.toc.header.version;
  const entry = c.entriesOfType('ContainerHeader')[0];
  if (entry === undefined) return zenLayoutFor({ tocVersion });
  try {
    // Its version is all that is wanted: the reading that makes no string per package.
    const header = parseContainerImports(await c.readChunk(entry), `${c.path} (container header)`);
    return zenLayoutFor({ containerHeaderVersion: header.version, tocVersion });
  } catch {
    return zenLayoutFor({ tocVersion });
  }
}

interface Span { length: number; items: SpanItem[]; entries: number[]; refs: number[] }

/** A container's packages in address order, gathered into spans of at most SPAN_BYTES (a bigger package alone). */
function spansOf(c: IoStoreContainer, list: number[], entries: Entry[], strings: boolean): Span[] {
  const offsets = c.toc.chunkOffsets, lengths = c.toc.chunkLengths;
  const sorted = [...list].sort((a, b) => offsets[entries[a]!.ref]! - offsets[entries[b]!.ref]!);
  const spans: Span[] = [];
  let span: Span | undefined;
  for (const i of sorted) {
    const ref = entries[i]!.ref;
    const size = lengths[ref]!;
    const take = strings ? size : Math.min(size, HEADER_BYTES);
    if (!span || span.length + take > SPAN_BYTES) {
      span = { length: 0, items: [], entries: [], refs: [] };
      spans.push(span);
    }
    span.items.push({ at: span.length, length: take, chunkSize: size, path: entries[i]!.path });
    span.entries.push(i);
    span.refs.push(ref);
    span.length += take;
  }
  return spans;
}

/** Classic packages, .locres and text files, read through their archives. */
async function readOthers(install: Install, entries: Entry[], facts: (FileFacts | undefined)[], strings: boolean,
  signal: AbortSignal | undefined, progress: (n: number) => void, fail: (i: number, m: string) => void): Promise<void> {
  const jobs: (() => Promise<void>)[] = [];
  entries.forEach((e, i) => {
    if (e.role === 'zen' || e.role === 'other') return;
    jobs.push(async () => {
      signal?.throwIfAborted();
      try {
        if (e.role === 'text' && (install.file(e.path)?.size ?? 0) > MAX_TEXT_FILE_BYTES) return;
        const bytes = await e.archive.read(e.ref, signal);
        if (e.role === 'classic') {
          const uexp = strings && isUAssetFileName(e.path) ? install.file(`${withoutExtension(e.path)}.uexp`) : undefined;
          const data = uexp ? await uexp.providers[0]!.archive.read(uexp.providers[0]!.file.ref, signal) : undefined;
          facts[i] = classicFacts(bytes, e.path, data, strings);
        } else if (e.role === 'locres') facts[i] = locresFacts(bytes, e.path);
        else facts[i] = textFileFacts(bytes);
      } catch (err) {
        if (signal?.aborted) throw err;
        fail(i, err instanceof Error ? err.message : String(err));
      } finally {
        progress(1);
      }
    });
  });
  await runLimited(jobs, FILE_CONCURRENCY);
}

/** Runs jobs `limit` at a time, taking each from `jobs` when a lane is free; the first failure stops the rest and rejects. */
async function runLimited(jobs: Iterable<() => Promise<void>>, limit: number): Promise<void> {
  const it = jobs[Symbol.iterator]();
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed) {
      const next = it.next();
      if (next.done) return;
      try {
        await next.value();
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
}

/** Paths interned per slice of this many, the thread yielding between slices (to take the workers' replies). */
const PATH_SLICE = 4096;

/** Every entry's path interned into `texts`, a slice at a time. */
async function internPaths(b: SearchIndexBuilder, entries: Entry[], texts: Int32Array, signal: AbortSignal | undefined): Promise<void> {
  for (let i = 0; i < entries.length;) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
    for (const end = Math.min(entries.length, i + PATH_SLICE); i < end; i++) texts[i] = b.intern(entries[i]!.path);
  }
}

/** Every file's hits, in path order. */
function addHits(b: SearchIndexBuilder, entries: Entry[], pathTexts: Int32Array, facts: (FileFacts | undefined)[], zen: ZenRecords<SpanOf>): void {
  // "names[3]" and the like made once each, not once per hit.
  const places = new Map<string, string[]>();
  const place = (table: string, k: number, suffix = ''): string => {
    const key = table + suffix;
    let list = places.get(key);
    if (!list) places.set(key, (list = []));
    return (list[k] ??= `${table}[${k}]${suffix}`);
  };
  b.reserve(entries.length + zen.hitsAtMost());
  const pathWhere = b.whereId('path');
  entries.forEach((e, i) => {
    const file = b.file(e.path);
    b.hitIds(file, HitKind.path, pathTexts[i]!, pathWhere);
    if (zen.has(i)) {
      zen.emit(i, file);
      return;
    }
    const f = facts[i];
    if (!f) return;
    if (f.kind === 'classic') {
      f.names.forEach((n, k) => b.hit(file, HitKind.name, n, place('names', k)));
      f.exports.forEach((x, k) => {
        b.hit(file, HitKind.export, x.name, place('exports', k));
        b.hit(file, HitKind.class, x.classPath, place('exports', k, '.class'));
      });
      f.imports.forEach((path, k) => b.hit(file, HitKind.import, path, place('imports', k)));
    }
    for (const [where, text] of f.strings) b.hit(file, HitKind.string, text, where);
  });
}
