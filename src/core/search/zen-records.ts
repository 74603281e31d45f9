/**
 * The Zen packages' records (span-facts.ts) as the main thread keeps them while an index is
 * built: each span's Int32Array rewritten in place to the index's text ids and to this build's
 * key and reference ids, so that a span's distinct strings are interned once. Once every package
 * is in, `emit` gives a package's hits in the index's order, naming classes and imports: /Script
 * objects through the global script objects, package imports through the exporting package's
 * public export hashes, each distinct reference named once.
 */
import { findScriptObject, scriptObjectPath, type ScriptObjects } from '../zen/script-objects.js';
import { HitKind, type SearchIndexBuilder } from './search-index.js';
import { RecordStatus, REF_STRIDE, RefKind, type SpanReply } from './span-facts.js';

/** What a span reply said of an item that has no record to keep; `of` is what add() was given with the reply. */
export type ItemOutcome<T> = { of: T; k: number } & ({ error: string } | { needsBytes: number } | { missing: true });

/** What the main thread keeps of a thread's string table: the index's ids of its strings. */
interface TableIds { texts: Int32Array; textCount: number; keys: Int32Array; keyCount: number }

export class ZenRecords<T extends { entries: readonly number[] }> {
  private readonly keys: string[] = [];
  private readonly keyIds = new Map<string, number>();
  private readonly tables = new Map<string, TableIds>();
  /** Replies that came before an earlier reply of their table (taken once it has come). */
  private parked: { reply: SpanReply; of: T }[] = [];
  private readonly spans: Int32Array[] = [];
  private readonly spanRefs: Int32Array[] = [];
  private readonly spanRefText: Int32Array[] = [];
  /** Per entry: its span (-1: no record) and where its record and its export list start. */
  private readonly spanOf: Int32Array;
  private readonly startOf: Int32Array;
  private readonly exportsOf: Int32Array;
  // Made by prepare().
  /**
   * Every public export by (its package's lowercased name key, hash low, hash high): an open
   * addressing table of export slots (exportBase + index; 0 empty, slot + 1 else).
   */
  private publicTable: { slots: Int32Array; key: Int32Array; lo: Int32Array; hi: Int32Array } | undefined;
  /** Per export slot: its entry. */
  private exportEntry: Int32Array | undefined;
  private exportBase: Int32Array | undefined;
  private exportText: Int32Array | undefined;
  private scriptText: Int32Array | undefined;
  private scripts: ScriptObjects | undefined;
  private readonly whereCache = new Map<string, number[]>();

  constructor(entryCount: number, private readonly b: SearchIndexBuilder) {
    this.spanOf = new Int32Array(entryCount).fill(-1);
    this.startOf = new Int32Array(entryCount);
    this.exportsOf = new Int32Array(entryCount);
  }

  /**
   * Takes a span's records; `of.entries[k]` is the entry of its item k. Returns what happened to
   * the items without a record, of this reply and of parked ones it let through.
   */
  add(reply: SpanReply, of: T): ItemOutcome<T>[] {
    const outcomes: ItemOutcome<T>[] = [];
    if (!this.take(reply, of, outcomes)) {
      this.parked.push({ reply, of });
      return outcomes;
    }
    for (let again = true; again && this.parked.length > 0;) {
      again = false;
      for (const [i, p] of this.parked.entries()) {
        if (this.take(p.reply, p.of, outcomes)) {
          this.parked.splice(i, 1);
          again = true;
          break;
        }
      }
    }
    return outcomes;
  }

  /** Replies still parked (an earlier reply of their table never came): their items, to be read again. */
  drainParked(): ItemOutcome<T>[] {
    const out = this.parked.flatMap((p) => p.of.entries.map((_, k) => ({ of: p.of, k, missing: true as const })));
    this.parked = [];
    return out;
  }

  /** Takes a reply whose table is up to it; false (nothing done) when an earlier reply of its table is still to come. */
  private take(reply: SpanReply, of: T, outcomes: ItemOutcome<T>[]): boolean {
    let t = this.tables.get(reply.table);
    if (!t) this.tables.set(reply.table, (t = { texts: new Int32Array(1024), textCount: 0, keys: new Int32Array(256), keyCount: 0 }));
    if (reply.textBase !== t.textCount || reply.keyBase !== t.keyCount) return false;
    if (t.texts.length < t.textCount + reply.texts.length) t.texts = grown(t.texts, t.textCount + reply.texts.length);
    for (const s of reply.texts) t.texts[t.textCount++] = this.b.intern(s);
    if (t.keys.length < t.keyCount + reply.keys.length) t.keys = grown(t.keys, t.keyCount + reply.keys.length);
    for (const s of reply.keys) t.keys[t.keyCount++] = this.key(s);
    const { texts, keys } = t;
    const { ints, starts, refs } = reply;
    for (let o = 0; o < refs.length; o += REF_STRIDE) refs[o + 1] = keys[refs[o + 1]!]!;
    const span = this.spans.push(ints) - 1;
    this.spanRefs.push(refs);
    this.spanRefText.push(new Int32Array(refs.length / REF_STRIDE).fill(-2));
    for (let k = 0; k < of.entries.length; k++) {
      if (k >= starts.length || ints[starts[k]!] === RecordStatus.unread) {
        outcomes.push({ of, k, missing: true });
        continue;
      }
      let p = starts[k]!;
      const status = ints[p]!;
      if (status === RecordStatus.error) {
        outcomes.push({ of, k, error: reply.errors[ints[p + 1]!]! });
        continue;
      }
      if (status === RecordStatus.needsBytes) {
        outcomes.push({ of, k, needsBytes: ints[p + 1]! });
        continue;
      }
      const e = of.entries[k]!;
      this.spanOf[e] = span;
      this.startOf[e] = p;
      ints[p + 1] = texts[ints[p + 1]!]!;
      ints[p + 2] = keys[ints[p + 2]!]!;
      p += 3;
      const names = ints[p++]!;
      for (let i = 0; i < names; i++, p++) ints[p] = texts[ints[p]!]!;
      this.exportsOf[e] = p;
      const exports = ints[p++]!;
      for (let i = 0; i < exports; i++, p += 4) ints[p] = texts[ints[p]!]!;
      p += 1 + ints[p]!; // imports: refs of the span, as they are
      const strings = ints[p++]!;
      for (let i = 0; i < strings; i++, p += 2) {
        ints[p] = keys[ints[p]!]!;
        ints[p + 1] = texts[ints[p + 1]!]!;
      }
    }
    return true;
  }

  private key(s: string): number {
    let id = this.keyIds.get(s);
    if (id === undefined) {
      id = this.keys.push(s) - 1;
      this.keyIds.set(s, id);
    }
    return id;
  }

  /** Every package is in: the tables that name references. `scripts`: the install's global script objects. */
  /** At most how many hits emit() gives in all: each name, export, class, import and string one. */
  hitsAtMost(): number {
    let n = 0;
    for (let e = 0; e < this.spanOf.length; e++) {
      if (this.spanOf[e]! < 0) continue;
      const ints = this.spans[this.spanOf[e]!]!;
      let p = this.exportsOf[e]!;
      n += ints[this.startOf[e]! + 3]! + 2 * ints[p]!;
      p += 1 + 4 * ints[p]!;
      n += ints[p]!;
      p += 1 + ints[p]!;
      n += ints[p]!;
    }
    return n;
  }

  prepare(scripts: ScriptObjects | undefined): void {
    this.scripts = scripts;
    this.scriptText = new Int32Array(this.keys.length).fill(-2);
    const base = (this.exportBase = new Int32Array(this.spanOf.length));
    let exports = 0;
    for (let e = 0; e < this.spanOf.length; e++) {
      if (this.spanOf[e]! < 0) continue;
      base[e] = exports;
      exports += this.spans[this.spanOf[e]!]![this.exportsOf[e]!]!;
    }
    this.exportText = new Int32Array(exports).fill(-1);
    const entryOf = (this.exportEntry = new Int32Array(exports));
    let size = 1024;
    while (size < exports * 2) size *= 2;
    const t = (this.publicTable = { slots: new Int32Array(size), key: new Int32Array(exports), lo: new Int32Array(exports), hi: new Int32Array(exports) });
    // Entry order, then export order: of two exports with one key, the later wins (as a map filled in that order).
    for (let e = 0; e < this.spanOf.length; e++) {
      if (this.spanOf[e]! < 0) continue;
      const ints = this.spans[this.spanOf[e]!]!;
      const lower = ints[this.startOf[e]! + 2]!;
      const at = this.exportsOf[e]!;
      for (let k = 0; k < ints[at]!; k++) {
        const slot = base[e]! + k;
        entryOf[slot] = e;
        const lo = ints[at + 1 + k * 4 + 2]!, hi = ints[at + 1 + k * 4 + 3]!;
        if ((lo === 0 && hi === 0) || (lo === -1 && hi === -1)) continue;
        t.key[slot] = lower;
        t.lo[slot] = lo;
        t.hi[slot] = hi;
        const s = this.findPublic(lower, lo, hi);
        t.slots[s < 0 ? -1 - s : s] = slot + 1;
      }
    }
  }

  /** Where (lowerKey, lo, hi) is in the public table: its table index, or -1 - the empty index where it would go. */
  private findPublic(lowerKey: number, lo: number, hi: number): number {
    const t = this.publicTable!;
    const mask = t.slots.length - 1;
    for (let i = (Math.imul(lowerKey, 0x9e3779b1) ^ Math.imul(lo, 0x85ebca6b) ^ hi) & mask; ; i = (i + 1) & mask) {
      const v = t.slots[i]! - 1;
      if (v < 0) return -1 - i;
      if (t.lo[v] === lo && t.hi[v] === hi && t.key[v] === lowerKey) return i;
    }
  }

  /** Whether entry `e` has a record: emit() gives its hits. */
  has(e: number): boolean {
    return this.spanOf[e]! >= 0;
  }

  /** Entry `e`'s hits (after its path's) to `file` of the index, in the order the index has always kept. */
  emit(e: number, file: number): void {
    const b = this.b;
    const ints = this.spans[this.spanOf[e]!]!;
    let p = this.startOf[e]! + 3;
    const names = ints[p++]!;
    for (let k = 0; k < names; k++) b.hitIds(file, HitKind.name, ints[p++]!, this.where('names', k, ''));
    const exports = ints[p++]!;
    for (let k = 0; k < exports; k++, p += 4) {
      b.hitIds(file, HitKind.export, ints[p]!, this.where('exports', k, ''));
      const cls = this.name(e, ints[p + 1]!);
      if (cls >= 0) b.hitIds(file, HitKind.class, cls, this.where('exports', k, '.class'));
    }
    const imports = ints[p++]!;
    for (let k = 0; k < imports; k++) {
      const t = this.name(e, ints[p++]!);
      if (t >= 0) b.hitIds(file, HitKind.import, t, this.where('imports', k, ''));
    }
    const strings = ints[p++]!;
    for (let k = 0; k < strings; k++, p += 2) b.hitIds(file, HitKind.string, ints[p + 1]!, b.whereId(this.keys[ints[p]!]!));
  }

  /** "names[3]" and the like: each made and interned once. */
  private where(table: string, k: number, suffix: string): number {
    const id = table + suffix;
    let list = this.whereCache.get(id);
    if (!list) this.whereCache.set(id, (list = []));
    return (list[k] ??= this.b.whereId(`${table}[${k}]${suffix}`));
  }

  /** The text id of what a record's reference names, -1 when it names nothing known. */
  private name(e: number, ref: number): number {
    if (ref === -1) return -1;
    if (ref <= -2) return this.exportName(e, -2 - ref);
    const span = this.spanOf[e]!;
    const cache = this.spanRefText[span]!;
    const cached = cache[ref]!;
    if (cached !== -2) return cached;
    const refs = this.spanRefs[span]!;
    const o = ref * REF_STRIDE;
    let t = -1;
    if (refs[o] === RefKind.script) {
      const key = refs[o + 1]!;
      t = this.scriptText![key]!;
      if (t === -2) {
        const i = this.scripts ? findScriptObject(this.scripts, this.keys[key]!) : undefined;
        t = this.scriptText![key] = i === undefined ? -1 : this.b.intern(scriptObjectPath(this.scripts!, i));
      }
    } else if (refs[o] === RefKind.package) {
      t = this.publicExport(refs[o + 1]!, refs[o + 2]!, refs[o + 3]!);
    }
    return (cache[ref] = t);
  }

  /** "/Game/Pkg.Export" of entry `e`'s export `k`. */
  private exportName(e: number, k: number): number {
    const ints = this.spans[this.spanOf[e]!]!;
    if (k >= ints[this.exportsOf[e]!]!) return -1;
    const slot = this.exportBase![e]! + k;
    const cached = this.exportText![slot]!;
    if (cached >= 0) return cached;
    const name = this.b.text(ints[this.startOf[e]! + 1]!);
    return (this.exportText![slot] = this.b.intern(`${name}.${this.b.text(ints[this.exportsOf[e]! + 1 + k * 4]!)}`));
  }

  /** The public export of hash (lo, hi) of the package named `lowerKey` (the last one in entry order). */
  private publicExport(lowerKey: number, lo: number, hi: number): number {
    if ((lo === 0 && hi === 0) || (lo === -1 && hi === -1)) return -1;
    const i = this.findPublic(lowerKey, lo, hi);
    if (i < 0) return -1;
    const slot = this.publicTable!.slots[i]! - 1;
    const e = this.exportEntry![slot]!;
    return this.exportName(e, slot - this.exportBase![e]!);
  }
}

function grown(a: Int32Array, min: number): Int32Array {
  const b = new Int32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}
