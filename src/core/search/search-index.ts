/**
 * The search index of an install: every text a search can find (paths, names, export and import
 * names, class paths, strings) interned once, and per hit its file, kind, text and place, in
 * typed arrays. A query scans the distinct texts (a plain substring or regex test over interned
 * strings: hundreds of thousands of names, not millions of hits) and then walks the hits, which
 * are stored file by file, so results come out grouped by package.
 */

import { StringIds } from './string-ids.js';

/** What a hit is. */
export const HitKind = { path: 0, name: 1, export: 2, import: 3, class: 4, string: 5 } as const;
export type HitKindName = keyof typeof HitKind;
export const HIT_KIND_NAMES: readonly HitKindName[] = ['path', 'name', 'export', 'import', 'class', 'string'];

/** The kinds a user picks (the CLI's --in, the app's filters), each a set of hit kinds. */
export type SearchGroup = 'paths' | 'names' | 'classes' | 'strings';
export const SEARCH_GROUPS: readonly SearchGroup[] = ['paths', 'names', 'classes', 'strings'];
const GROUP_KINDS: Record<SearchGroup, number[]> = {
  paths: [HitKind.path],
  names: [HitKind.name, HitKind.export, HitKind.import],
  classes: [HitKind.class],
  strings: [HitKind.string],
};

export interface SearchQuery {
  text: string;
  /** Default: every group. */
  in?: readonly SearchGroup[];
  regex?: boolean;
  caseSensitive?: boolean;
  /** Only packages with an export of exactly this class: a short name (Texture2D) or a path (/Script/Engine.Texture2D). */
  class?: string;
  /** Stop after this many hits (default: all). */
  limit?: number;
}

export interface SearchMatch {
  /** The file as ls prints it. */
  path: string;
  /** The place in it: "path", "names[3]", "exports[0]", "exports[0].class", "imports[2]", an export's name for its strings, "de/Namespace/Key", "line 4". */
  where: string;
  text: string;
  kind: HitKindName;
}

/** The index's data: what is kept in memory and on disk. */
export interface SearchIndexData {
  files: string[];
  texts: string[];
  wheres: string[];
  /** Per hit, in file order. */
  hitFile: Int32Array;
  hitKind: Uint8Array;
  hitText: Int32Array;
  hitWhere: Int32Array;
  /** Files that could not be read, with why: they are missing from the index. */
  problems: { path: string; message: string }[];
  /**
   * The ids of the texts with a character past ASCII, noted as each is interned: only they need
   * toLowerCase for a case-insensitive query. Absent in an index saved before it was kept.
   */
  nonAsciiTexts?: Int32Array;
}

/** A character past ASCII: a text with one is lowercased for case-insensitive queries, the others are not. */
const NON_ASCII = /[^\x00-\x7f]/;

/** Collects hits while indexing. */
export class SearchIndexBuilder {
  private readonly files: string[] = [];
  private readonly texts = new StringIds();
  private readonly wheres: string[] = [];
  private readonly whereIds = new Map<string, number>();
  private hitFile = new Int32Array(1 << 16);
  private hitKind = new Uint8Array(1 << 16);
  private hitText = new Int32Array(1 << 16);
  private hitWhere = new Int32Array(1 << 16);
  private count = 0;
  private readonly nonAscii: number[] = [];
  readonly problems: { path: string; message: string }[] = [];

  /** Starts a file; its hits follow (files are added one after the other). */
  file(path: string): number {
    this.files.push(path);
    return this.files.length - 1;
  }

  hit(file: number, kind: number, text: string, where: string): void {
    this.hitIds(file, kind, this.intern(text), this.whereId(where));
  }

  /** A text's id, the same for equal texts; `hash`: its textHash, when known. */
  intern(text: string, hash?: number): number {
    const known = this.texts.size;
    const id = this.texts.id(text, hash);
    if (id === known && NON_ASCII.test(text)) this.nonAscii.push(id);
    return id;
  }

  text(id: number): string {
    return this.texts.strings[id]!;
  }

  /** A place's id ("names[3]"), the same for equal places. */
  whereId(where: string): number {
    let w = this.whereIds.get(where);
    if (w === undefined) {
      w = this.wheres.push(where) - 1;
      this.whereIds.set(where, w);
    }
    return w;
  }

  /** A hit by the ids of its text (intern) and place (whereId). */
  hitIds(file: number, kind: number, text: number, where: number): void {
    if (this.count === this.hitFile.length) this.grow();
    const i = this.count++;
    this.hitFile[i] = file;
    this.hitKind[i] = kind;
    this.hitText[i] = text;
    this.hitWhere[i] = where;
  }

  /**
   * `count` hits of one file and kind at once: their texts `texts[from..]`, their places
   * `wheres[0..]` (the caller reserved room for them).
   */
  hitRun(file: number, kind: number, texts: Int32Array, from: number, count: number, wheres: Int32Array): void {
    if (this.count + count > this.hitFile.length) this.grow(Math.max(this.count + count, this.hitFile.length * 2));
    const at = this.count;
    this.hitFile.fill(file, at, at + count);
    this.hitKind.fill(kind, at, at + count);
    this.hitText.set(texts.subarray(from, from + count), at);
    this.hitWhere.set(wheres.subarray(0, count), at);
    this.count += count;
  }

  finish(): SearchIndex {
    const n = this.count;
    // Exactly full (reserved so): the arrays themselves, with no copy.
    const cut = <T extends Int32Array | Uint8Array>(a: T): T => (a.length === n ? a : a.slice(0, n) as T);
    return new SearchIndex({
      files: this.files, texts: this.texts.strings, wheres: this.wheres,
      hitFile: cut(this.hitFile), hitKind: cut(this.hitKind), hitText: cut(this.hitText), hitWhere: cut(this.hitWhere),
      problems: this.problems, nonAsciiTexts: Int32Array.from(this.nonAscii),
    });
  }

  /** Room for `n` more hits at once (a build that knows its count spares the doublings' copies). */
  reserve(n: number): void {
    if (this.count + n > this.hitFile.length) this.grow(this.count + n);
  }

  private grow(size = this.hitFile.length * 2): void {
    const more = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.hitFile = more(this.hitFile);
    this.hitKind = more(this.hitKind);
    this.hitText = more(this.hitText);
    this.hitWhere = more(this.hitWhere);
  }
}

/** Longest regular expression source accepted (a query is a user's typing, not a program). */
const MAX_QUERY_CHARS = 1000;

export class SearchIndex {
  /** The texts past ASCII (their ids) and their toLowerCase, made at the first case-insensitive query. */
  private lowered: { ids: Int32Array; lower: string[] } | undefined;

  constructor(readonly data: SearchIndexData) {}

  get fileCount(): number { return this.data.files.length; }
  get hitCount(): number { return this.data.hitFile.length; }
  get textCount(): number { return this.data.texts.length; }

  /**
   * The hits of a query, file by file (each file's hits together, in the order they were
   * indexed). Throws a SyntaxError for a bad regular expression. `signal` is checked every so often.
   */
  *search(q: SearchQuery, signal?: AbortSignal): Generator<SearchMatch> {
    const { files, texts, wheres, hitFile, hitKind, hitText, hitWhere } = this.data;
    const matched = this.matchTexts(q);
    const kinds = new Uint8Array(HIT_KIND_NAMES.length);
    for (const g of q.in ?? SEARCH_GROUPS) for (const k of GROUP_KINDS[g]) kinds[k] = 1;
    const keep = q.class !== undefined ? this.filesOfClass(q.class) : undefined;
    const limit = q.limit ?? Infinity;
    let found = 0;
    for (let i = 0; i < hitFile.length; i++) {
      if ((i & 0xffff) === 0) signal?.throwIfAborted();
      const t = hitText[i]!;
      if (matched[t] === 0 || kinds[hitKind[i]!] === 0) continue;
      const f = hitFile[i]!;
      if (keep && keep[f] === 0) continue;
      yield { path: files[f]!, where: wheres[hitWhere[i]!]!, text: texts[t]!, kind: HIT_KIND_NAMES[hitKind[i]!]! };
      if (++found >= limit) return;
    }
  }

  /** Per text: 1 when the query matches it. An empty query matches every text. */
  private matchTexts(q: SearchQuery): Uint8Array {
    const texts = this.data.texts;
    const matched = new Uint8Array(texts.length);
    if (q.text.length > MAX_QUERY_CHARS) throw new SyntaxError(`a query of ${q.text.length} characters is too long (at most ${MAX_QUERY_CHARS})`);
    if (q.text === '') return matched.fill(1);
    if (q.regex) {
      const re = new RegExp(q.text, q.caseSensitive ? 'u' : 'iu');
      for (let i = 0; i < texts.length; i++) if (re.test(texts[i]!)) matched[i] = 1;
    } else if (q.caseSensitive) {
      for (let i = 0; i < texts.length; i++) if (texts[i]!.includes(q.text)) matched[i] = 1;
    } else {
      // As toLowerCase on both sides, without lowercasing every text: for an ASCII text, a
      // case-insensitive regular expression (no u flag) of the lowercased query matches exactly
      // where its lowercase holds the lowercased query (the flag folds ASCII letters only, and a
      // character past ASCII never equals an ASCII one); texts past ASCII are lowercased, once.
      const needle = q.text.toLowerCase();
      const re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i');
      for (let i = 0; i < texts.length; i++) if (re.test(texts[i]!)) matched[i] = 1;
      const { ids, lower } = this.loweredNonAscii();
      for (let k = 0; k < ids.length; k++) matched[ids[k]!] = lower[k]!.includes(needle) ? 1 : 0;
    }
    return matched;
  }

  private loweredNonAscii(): { ids: Int32Array; lower: string[] } {
    if (this.lowered) return this.lowered;
    const texts = this.data.texts;
    let ids = this.data.nonAsciiTexts;
    if (!ids) {
      const found: number[] = [];
      for (let i = 0; i < texts.length; i++) if (NON_ASCII.test(texts[i]!)) found.push(i);
      ids = Int32Array.from(found);
    }
    return (this.lowered = { ids, lower: Array.from(ids, (i) => texts[i]!.toLowerCase()) });
  }

  /** Per file: 1 when one of its exports is of class `name` (a path, or the short name after its last '.'). */
  private filesOfClass(name: string): Uint8Array {
    const { texts, hitFile, hitKind, hitText } = this.data;
    const isPath = name.includes('/') || name.includes('.');
    const lower = name.toLowerCase();
    const classText = new Int8Array(texts.length).fill(-1);
    const keep = new Uint8Array(this.data.files.length);
    for (let i = 0; i < hitFile.length; i++) {
      if (hitKind[i] !== HitKind.class) continue;
      const t = hitText[i]!;
      if (classText[t] === -1) {
        const path = texts[t]!;
        const short = path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf('/')) + 1);
        classText[t] = (isPath ? path.toLowerCase() === lower : short.toLowerCase() === lower) ? 1 : 0;
      }
      if (classText[t] === 1) keep[hitFile[i]!] = 1;
    }
    return keep;
  }
}
