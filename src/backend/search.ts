/**
 * The app's search and size map (the search panel, the size map view): one search index per open
 * install, built in the worker pool on the first search and kept in memory and on disk (a
 * folder beside the settings, keyed by the install's files' sizes and times: a second opening
 * of the same install finds it there); hits sent as events in batches while they are found.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Install } from '../core/install/install.js';
import { SizeMap } from '../core/install/size-map.js';
import { buildSearchIndex, loadSearchIndex, saveSearchIndex, searchIndexKey, SEARCH_GROUPS, type SearchGroup, type SearchIndex } from '../core/search/index.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type { ApiEvent } from '../shared/api.js';
import { MAX_SEARCH_HITS, type SearchHit, type SearchRequest, type SearchStarted, type SizeMapRequest, type SizeMapView } from '../shared/search-api.js';
import { RequestError } from './request-error.js';

/** Hits per search-results event. */
const BATCH = 250;
/** Index progress events at most this often (ms). */
const PROGRESS_MS = 100;
/** The size map's largest box (px): a request beyond it is a mistake. */
const MAX_MAP_SIDE = 16384;

export interface SearchServiceOptions {
  configDir: string;
  emit: (e: ApiEvent) => void;
  pool?: WorkerPool;
}

export class SearchService {
  private readonly indexes = new Map<string, { install: Install; index: Promise<SearchIndex> }>();
  private readonly maps = new Map<string, { install: Install; tree: ReturnType<Install['treeArrays']>; map: SizeMap }>();
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly opts: SearchServiceOptions) {}

  start(installId: string, install: Install, req: SearchRequest): SearchStarted {
    const groups = (req.in ?? [...SEARCH_GROUPS]).map((g) => g.toLowerCase());
    const bad = groups.filter((g) => !(SEARCH_GROUPS as readonly string[]).includes(g));
    if (bad.length > 0) throw new RequestError(`unknown search kinds: ${bad.join(', ')} (${SEARCH_GROUPS.join(', ')})`, 400);
    if (req.regex) {
      try {
        new RegExp(req.text, 'u');
      } catch (e) {
        throw new RequestError(`not a regular expression: ${(e as Error).message}`, 400);
      }
    }
    const searchId = randomUUID();
    const abort = new AbortController();
    this.running.set(searchId, abort);
    void this.run(searchId, installId, install, req, groups as SearchGroup[], abort.signal).finally(() => this.running.delete(searchId));
    return { searchId };
  }

  cancel(searchId: string): void {
    this.running.get(searchId)?.abort();
  }

  forget(installId: string): void {
    this.indexes.delete(installId);
    this.maps.delete(installId);
  }

  sizeMap(installId: string, install: Install, req: SizeMapRequest): SizeMapView {
    const width = Math.min(req.width ?? 1000, MAX_MAP_SIDE), height = Math.min(req.height ?? 700, MAX_MAP_SIDE);
    let m = this.maps.get(installId);
    // A reload (keys added) makes a new tree: the map follows it.
    const tree = install.treeArrays();
    if (!m || m.install !== install || m.tree.fileCount !== tree.fileCount || m.tree.folderCount !== tree.folderCount) {
      m = { install, tree, map: new SizeMap(tree) };
      this.maps.set(installId, m);
    }
    try {
      return m.map.layout({ folder: req.path, width, height, measure: req.measure ?? 'size' });
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(e.message, 404);
      throw e;
    }
  }

  private async run(searchId: string, installId: string, install: Install, req: SearchRequest, groups: SearchGroup[], signal: AbortSignal): Promise<void> {
    const started = performance.now();
    let count = 0;
    let limited = false;
    let error: string | undefined;
    try {
      const index = await this.index(searchId, installId, install, signal);
      let batch: SearchHit[] = [];
      const query = { text: req.text, in: groups, regex: req.regex ?? false, caseSensitive: req.caseSensitive ?? false, ...(req.class?.trim() ? { class: req.class.trim() } : {}) };
      for (const m of index.search(query, signal)) {
        if (count === MAX_SEARCH_HITS) {
          limited = true;
          break;
        }
        batch.push({ path: m.path, where: m.where, text: m.text.length > 500 ? `${m.text.slice(0, 500)}…` : m.text, kind: m.kind });
        count++;
        if (batch.length === BATCH) {
          this.opts.emit({ type: 'search-results', searchId, hits: batch });
          batch = [];
          // Let other requests (and a cancel) in between batches.
          await new Promise((r) => setImmediate(r));
        }
      }
      if (batch.length > 0 && !signal.aborted) this.opts.emit({ type: 'search-results', searchId, hits: batch });
    } catch (e) {
      if (!signal.aborted) error = e instanceof Error ? e.message : String(e);
    }
    this.opts.emit({
      type: 'search-done', searchId, count, limited, cancelled: signal.aborted, seconds: Math.round(performance.now() - started) / 1000,
      ...(error !== undefined ? { error } : {}),
    });
  }

  /** The install's index: in memory, else on disk, else built (and then kept on disk). */
  private index(searchId: string, installId: string, install: Install, signal: AbortSignal): Promise<SearchIndex> {
    const known = this.indexes.get(installId);
    if (known && known.install === install) return known.index;
    const dir = join(this.opts.configDir, 'search');
    const index = (async () => {
      const key = await searchIndexKey(install, true);
      const saved = await loadSearchIndex(dir, key);
      if (saved) return saved;
      let last = 0;
      const built = await buildSearchIndex(install, {
        ...(this.opts.pool ? { pool: this.opts.pool } : {}),
        onProgress: (p) => {
          const now = performance.now();
          if (now - last < PROGRESS_MS && p.done < p.total) return;
          last = now;
          this.opts.emit({ type: 'search-progress', searchId, done: p.done, total: p.total });
        },
      });
      await saveSearchIndex(dir, key, built).catch(() => undefined);
      return built;
    })();
    this.indexes.set(installId, { install, index });
    index.catch(() => { if (this.indexes.get(installId)?.index === index) this.indexes.delete(installId); });
    void signal;
    return index;
  }
}
