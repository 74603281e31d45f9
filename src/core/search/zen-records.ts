/**
 * The Zen packages' records (span-facts.ts) as the main thread keeps them while an index is
 * built: each span's Int32Array rewritten in place to the index's text ids and to this build's
 * key ids, so that a span's distinct strings are interned once, and each span's references mapped
 * to this build's distinct references. Package imports are named as the replies come in, while
 * the workers still read (a reference is named when it first comes if its exporting package is
 * in, else when that package comes), so that little is left once the last reply is in: naming
 * /Script objects through the global script objects (prepare), then `emit` giving each package's
 * hits in the index's order.
 */
import { findScriptObject, scriptObjectPath, type ScriptObjects } from '../zen/script-objects.js';
import { HitKind, type SearchIndexBuilder } from './search-index.js';
import { grown, RecordStatus, REF_STRIDE, RefKind, replyStrings, type SpanReply } from './span-facts.js';
import { StringIds } from './string-ids.js';

/** What a span reply said of an item that has no record to keep; `of` is what add() was given with the reply. */
export type ItemOutcome<T> = { of: T; k: number } & ({ error: string } | { needsBytes: number } | { missing: true });

/** What the main thread keeps of a thread's string table: the index's ids of its strings. */
interface TableIds { texts: Int32Array; textCount: number; keys: Int32Array; keyCount: number }

/** A package's names are copied as one run from this many on (fewer: one by one). */
const NAME_RUN = 16;

/** An export slot's fields in exportData. */
const ExportField = { key: 0, lo: 1, hi: 2, entry: 3, text: 4 } as const;
const EXPORT_STRIDE = 5;
/** A reference's fields in refData. */
const RefField = { kind: 0, key: 1, lo: 2, hi: 3, text: 4 } as const;
const REF_FIELDS = 5;

export class ZenRecords<T extends { entries: readonly number[] }> {
  private readonly keyIds = new StringIds();
  private readonly keys = this.keyIds.strings;
  private readonly tables = new Map<string, TableIds>();
  /** Replies that came before an earlier reply of their table (taken once it has come). */
  private parked: { reply: SpanReply; of: T }[] = [];
  private readonly spans: Int32Array[] = [];
  /** Per span: its references' ids among this build's distinct references. */
  private readonly spanRefs: Int32Array[] = [];
  /** Per entry: its span (-1: no record) and where its record and its export list start. */
  private readonly spanOf: Int32Array;
  private readonly startOf: Int32Array;
  private readonly exportsOf: Int32Array;
  /** Per entry: its first export slot (slots are given as records come). */
  private readonly exportBase: Int32Array;
  /** Per export slot (EXPORT_STRIDE ints, ExportField): its public key and hash, its entry and its text ("/Game/Pkg.Export", -1 until made). */
  private exportData = new Int32Array(EXPORT_STRIDE * 1024);
  private exportCount = 0;
  /**
   * Every public export by (its package's lowercased name key, hash low, hash high), the later
   * entry's (and of one entry the later export) where two have one key: open addressing over
   * export slots (0 empty, slot + 1 else).
   */
  private publicSlots = new Int32Array(1 << 12);
  private publicCount = 0;
  /** This build's distinct references (RefKind, key, low, high word), by open addressing (0 empty, id + 1 else). */
  private refSlots = new Int32Array(1 << 12);
  /** Per reference (REF_FIELDS ints, RefField): RefKind, key, low and high word, and the text it names (-1 nothing known, -2 not named yet). */
  private refData = new Int32Array(REF_FIELDS * 1024);
  private refCount = 0;
  /** Place ids ("names[3]", "exports[0].class", ...) by index, each made once. */
  private readonly whereIds: Record<'names' | 'exports' | 'classes' | 'imports', number[]> = { names: [], exports: [], classes: [], imports: [] };
  private nameWheres = new Int32Array(0);

  constructor(entryCount: number, private readonly b: SearchIndexBuilder) {
    this.spanOf = new Int32Array(entryCount).fill(-1);
    this.startOf = new Int32Array(entryCount);
    this.exportsOf = new Int32Array(entryCount);
    this.exportBase = new Int32Array(entryCount);
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
    if (t.texts.length < t.textCount + reply.textLengths.length) t.texts = grown(t.texts, t.textCount + reply.textLengths.length);
    replyStrings(reply.texts, reply.textLengths, reply.textHashes, (s, hash) => { t.texts[t.textCount++] = this.b.intern(s, hash); });
    if (t.keys.length < t.keyCount + reply.keyLengths.length) t.keys = grown(t.keys, t.keyCount + reply.keyLengths.length);
    replyStrings(reply.keys, reply.keyLengths, reply.keyHashes, (s, hash) => { t.keys[t.keyCount++] = this.keyIds.id(s, hash); });
    const { texts, keys } = t;
    const { ints, starts, refs } = reply;
    const global = new Int32Array(refs.length / REF_STRIDE);
    for (let i = 0, o = 0; o < refs.length; i++, o += REF_STRIDE) global[i] = this.ref(refs[o]!, keys[refs[o + 1]!]!, refs[o + 2]!, refs[o + 3]!);
    const span = this.spans.push(ints) - 1;
    this.spanRefs.push(global);
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
      const lower = (ints[p + 2] = keys[ints[p + 2]!]!);
      p += 3;
      const names = ints[p++]!;
      for (let i = 0; i < names; i++, p++) ints[p] = texts[ints[p]!]!;
      this.exportsOf[e] = p;
      const exports = ints[p++]!;
      const at = p;
      for (let i = 0; i < exports; i++, p += 4) ints[p] = texts[ints[p]!]!;
      this.addExports(e, lower, ints, at, exports);
      p += 1 + ints[p]!; // imports: refs of the span, as they are
      const strings = ints[p++]!;
      for (let i = 0; i < strings; i++, p += 2) {
        ints[p] = keys[ints[p]!]!;
        ints[p + 1] = texts[ints[p + 1]!]!;
      }
    }
    return true;
  }

  /** Entry `e`'s export slots, its public exports in the public table, and the references to them named. */
  private addExports(e: number, lowerKey: number, ints: Int32Array, at: number, count: number): void {
    const base = (this.exportBase[e] = this.exportCount);
    this.exportCount += count;
    if (this.exportData.length < this.exportCount * EXPORT_STRIDE) this.exportData = grown(this.exportData, this.exportCount * EXPORT_STRIDE);
    for (let k = 0; k < count; k++) {
      const slot = base + k;
      const lo = ints[at + k * 4 + 2]!, hi = ints[at + k * 4 + 3]!;
      const o = slot * EXPORT_STRIDE, data = this.exportData;
      data[o + ExportField.entry] = e;
      data[o + ExportField.text] = -1;
      data[o + ExportField.key] = lowerKey;
      data[o + ExportField.lo] = lo;
      data[o + ExportField.hi] = hi;
      if ((lo === 0 && hi === 0) || (lo === -1 && hi === -1)) continue;
      const i = this.findPublic(lowerKey, lo, hi);
      if (i >= 0) {
        // Two exports with one key: the later entry's wins (of one entry, the later export), as in entry order.
        const old = this.publicSlots[i]! - 1;
        if (this.exportData[old * EXPORT_STRIDE + ExportField.entry]! > e) continue;
        this.publicSlots[i] = slot + 1;
      } else {
        this.publicSlots[-1 - i] = slot + 1;
        if (++this.publicCount * 2 > this.publicSlots.length) this.rehashPublic();
      }
      // A reference that came before its export: named now (or named again, by the export that now wins).
      const r = this.findRef(RefKind.package, lowerKey, lo, hi);
      if (r >= 0) this.refData[(this.refSlots[r]! - 1) * REF_FIELDS + RefField.text] = this.slotText(slot);
    }
  }

  /** Where (lowerKey, lo, hi) is in the public table: its table index, or -1 - the empty index where it would go. */
  private findPublic(lowerKey: number, lo: number, hi: number): number {
    const slots = this.publicSlots, data = this.exportData;
    const mask = slots.length - 1;
    for (let i = (Math.imul(lowerKey, 0x9e3779b1) ^ Math.imul(lo, 0x85ebca6b) ^ hi) & mask; ; i = (i + 1) & mask) {
      const v = slots[i]! - 1;
      if (v < 0) return -1 - i;
      const o = v * EXPORT_STRIDE;
      if (data[o + ExportField.lo] === lo && data[o + ExportField.hi] === hi && data[o + ExportField.key] === lowerKey) return i;
    }
  }

  private rehashPublic(): void {
    const old = this.publicSlots;
    this.publicSlots = new Int32Array(old.length * 2);
    for (const v of old) {
      if (v === 0) continue;
      const o = (v - 1) * EXPORT_STRIDE;
      const i = this.findPublic(this.exportData[o + ExportField.key]!, this.exportData[o + ExportField.lo]!, this.exportData[o + ExportField.hi]!);
      this.publicSlots[-1 - i] = v;
    }
  }

  /** The build's id of a reference; a package import new to the build is named if its export is in. */
  private ref(kind: number, key: number, lo: number, hi: number): number {
    const i = this.findRef(kind, key, lo, hi);
    if (i >= 0) return this.refSlots[i]! - 1;
    const id = this.refCount++;
    if (this.refData.length < this.refCount * REF_FIELDS) this.refData = grown(this.refData, this.refCount * REF_FIELDS);
    const o = id * REF_FIELDS;
    this.refData[o + RefField.kind] = kind;
    this.refData[o + RefField.key] = key;
    this.refData[o + RefField.lo] = lo;
    this.refData[o + RefField.hi] = hi;
    let text = -2;
    if (kind === RefKind.package) {
      if ((lo === 0 && hi === 0) || (lo === -1 && hi === -1)) text = -1;
      else {
        const p = this.findPublic(key, lo, hi);
        if (p >= 0) text = this.slotText(this.publicSlots[p]! - 1);
      }
    } else if (kind !== RefKind.script) text = -1;
    this.refData[o + RefField.text] = text;
    this.refSlots[-1 - i] = id + 1;
    if (this.refCount * 2 > this.refSlots.length) this.rehashRefs();
    return id;
  }

  /** Where a reference is in refSlots: its index, or -1 - the empty index where it would go. */
  private findRef(kind: number, key: number, lo: number, hi: number): number {
    const slots = this.refSlots, data = this.refData;
    const mask = slots.length - 1;
    for (let i = (Math.imul(key, 0x9e3779b1) ^ Math.imul(lo, 0x85ebca6b) ^ Math.imul(hi, 0xc2b2ae35) ^ kind) & mask; ; i = (i + 1) & mask) {
      const v = slots[i]! - 1;
      if (v < 0) return -1 - i;
      const o = v * REF_FIELDS;
      if (data[o + RefField.lo] === lo && data[o + RefField.hi] === hi && data[o + RefField.key] === key && data[o + RefField.kind] === kind) return i;
    }
  }

  private rehashRefs(): void {
    this.refSlots = new Int32Array(this.refSlots.length * 2);
    for (let id = 0; id < this.refCount; id++) {
      const o = id * REF_FIELDS, d = this.refData;
      const i = this.findRef(d[o + RefField.kind]!, d[o + RefField.key]!, d[o + RefField.lo]!, d[o + RefField.hi]!);
      this.refSlots[-1 - i] = id + 1;
    }
  }

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

  /** Every package is in: the references not named yet are named. `scripts`: the install's global script objects. */
  prepare(scripts: ScriptObjects | undefined): void {
    const data = this.refData;
    for (let id = 0; id < this.refCount; id++) {
      const at = id * REF_FIELDS + RefField.text;
      if (data[at] !== -2) continue;
      if (this.refData[id * REF_FIELDS + RefField.kind] === RefKind.script && scripts) {
        const i = findScriptObject(scripts, this.keys[this.refData[id * REF_FIELDS + RefField.key]!]!);
        data[at] = i === undefined ? -1 : this.b.intern(scriptObjectPath(scripts, i));
      } else data[at] = -1;
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
    const refs = this.spanRefs[this.spanOf[e]!]!;
    const data = this.refData;
    const w = this.whereIds;
    let p = this.startOf[e]! + 3;
    const names = ints[p++]!;
    if (names >= NAME_RUN) {
      // Names are most of the hits: one run of them, copied at once.
      if (this.nameWheres.length < names) this.nameWheres = this.whereRun(names);
      b.hitRun(file, HitKind.name, ints, p, names, this.nameWheres);
      p += names;
    } else for (let k = 0; k < names; k++) b.hitIds(file, HitKind.name, ints[p++]!, w.names[k] ?? this.where('names', k));
    const exports = ints[p++]!;
    for (let k = 0; k < exports; k++, p += 4) {
      b.hitIds(file, HitKind.export, ints[p]!, w.exports[k] ?? this.where('exports', k));
      const ref = ints[p + 1]!;
      const cls = ref >= 0 ? data[refs[ref]! * REF_FIELDS + RefField.text]! : ref <= -2 ? this.exportName(e, -2 - ref) : -1;
      if (cls >= 0) b.hitIds(file, HitKind.class, cls, w.classes[k] ?? this.where('classes', k));
    }
    const imports = ints[p++]!;
    for (let k = 0; k < imports; k++) {
      const ref = ints[p++]!;
      const t = ref >= 0 ? data[refs[ref]! * REF_FIELDS + RefField.text]! : ref <= -2 ? this.exportName(e, -2 - ref) : -1;
      if (t >= 0) b.hitIds(file, HitKind.import, t, w.imports[k] ?? this.where('imports', k));
    }
    const strings = ints[p++]!;
    for (let k = 0; k < strings; k++, p += 2) b.hitIds(file, HitKind.string, ints[p + 1]!, b.whereId(this.keys[ints[p]!]!));
  }

  /** "names[3]" and the like: each made and interned once. */
  /** The places "names[0]".."names[n - 1]" (at least), as one array. */
  private whereRun(n: number): Int32Array<ArrayBuffer> {
    const run = new Int32Array(Math.max(n, this.nameWheres.length * 2));
    for (let k = 0; k < run.length; k++) run[k] = this.whereIds.names[k] ?? this.where('names', k);
    return run;
  }

  private where(table: 'names' | 'exports' | 'classes' | 'imports', k: number): number {
    const text = table === 'classes' ? `exports[${k}].class` : `${table}[${k}]`;
    return (this.whereIds[table][k] = this.b.whereId(text));
  }

  /** "/Game/Pkg.Export" of entry `e`'s export `k`, -1 when it has no export k. */
  private exportName(e: number, k: number): number {
    const ints = this.spans[this.spanOf[e]!]!;
    if (k >= ints[this.exportsOf[e]!]!) return -1;
    return this.slotText(this.exportBase[e]! + k);
  }

  /** "/Game/Pkg.Export" of an export slot, made and interned once. */
  private slotText(slot: number): number {
    const cached = this.exportData[slot * EXPORT_STRIDE + ExportField.text]!;
    if (cached >= 0) return cached;
    const e = this.exportData[slot * EXPORT_STRIDE + ExportField.entry]!, k = slot - this.exportBase[e]!;
    const ints = this.spans[this.spanOf[e]!]!;
    const name = this.b.text(ints[this.startOf[e]! + 1]!);
    return (this.exportData[slot * EXPORT_STRIDE + ExportField.text] = this.b.intern(`${name}.${this.b.text(ints[this.exportsOf[e]! + 1 + k * 4]!)}`));
  }
}
