/**
 * The facts of a span of Zen packages as they cross from a worker to the main thread: the hit
 * texts and the other strings (keys: package names, script object hashes, where a string was
 * found) new to the thread's string table, the span's distinct object references, and one
 * Int32Array of records, one per package, holding ids into those tables. Structured clone copies
 * only strings the main thread has not had from that thread and three typed arrays per span,
 * instead of an object per name, export and import, and the main thread interns each distinct
 * string once per thread, not once per hit.
 *
 * A record (at `starts[k]` in `ints`):
 *   RecordStatus.ok, name text, lowerNameKey, nNames, name texts..., nExports,
 *     (name text, class ref, hashLo, hashHi) per export, nImports, refs..., nStrings, (where key, text) per string
 *   RecordStatus.error, index into `errors`
 *   RecordStatus.needsBytes, bytes of the chunk the header needs (the span held fewer)
 *   RecordStatus.unread: its bytes could not be read (the main thread reads it again and names why)
 * A ref in a record is an index into `refs` (RefKind, a, b, c per ref), -1 for none, and -2 - i
 * for the package's own export i.
 */

import { hexWords, toLowerAscii } from '../hash/cityhash64.js';
import { ByteInterner } from './byte-interner.js';
import { textHash } from './string-ids.js';

export const RecordStatus = { ok: 0, error: 1, needsBytes: 2, unread: 3 } as const;

/** What a distinct reference of a span is; `a`, `b`, `c` as said per kind. */
export const RefKind = {
  /** a: key of the /Script object's index as 16 hex digits; b, c: its low and high words. */
  script: 1,
  /** a: key of the imported package's name ASCII-lowercased (its package id's input); b, c: the public export hash's low and high words. */
  package: 2,
} as const;

export const REF_STRIDE = 4;
export const NO_REF = -1;

/** A span's facts (see the file comment). */
export interface SpanReply {
  /**
   * The string table its ids are of, and the strings new to it (ids textBase.., keyBase..): all
   * in one string, one after the other, with each one's length (one string crosses the thread
   * boundary and lives in the receiver's young generation far more cheaply than hundreds; see
   * replyTexts), and each one's textHash (string-ids.ts), so that the main thread need not hash it.
   */
  table: string;
  textBase: number;
  texts: string;
  textLengths: Int32Array;
  textHashes: Int32Array;
  keyBase: number;
  keys: string;
  keyLengths: Int32Array;
  keyHashes: Int32Array;
  refs: Int32Array;
  starts: Int32Array;
  ints: Int32Array;
  errors: string[];
}

/** Table entries after which a worker starts a new table (its memory stays bounded on a huge install). */
const MAX_TABLE_STRINGS = 400_000;

/**
 * The strings a thread has sent for one index build, so that each distinct string crosses to the
 * main thread once per thread, not once per span: a reply carries only the strings new to the
 * table, and the main thread keeps each table's ids (zen-records.ts). Replies of one table must be
 * taken in order; a table that may have lost a reply is dropped (`spoil`) and the next gets a new id.
 *
 * Strings whose characters all fit a byte (nearly all of an install's names) are found by their
 * bytes (byte-interner.ts), so that a name read from a package is looked up without a string made
 * for it, and no string is hashed twice; the others through Maps.
 */
export class StringTable {
  /** Texts of Latin-1 characters by their bytes; the others by their string. */
  readonly textBytes = new ByteInterner();
  readonly wideTexts = new Map<string, number>();
  /** Keys likewise. */
  readonly keyBytes = new ByteInterner();
  readonly wideKeys = new Map<string, number>();
  /** Latin-1 package names as written, by their bytes: their lowercased key ids. */
  readonly packageBytes = new ByteInterner();
  /** /Script object indexes (8 bytes: low word, high word): their keys' ids. */
  readonly scriptBytes = new ByteInterner();
  /** Each text by its id (this table's). */
  readonly textStrings: string[] = [];
  keyCount = 0;
  constructor(readonly id: string) {}
  get full(): boolean { return this.textStrings.length + this.keyCount > MAX_TABLE_STRINGS; }
}

/** A thread's string tables by build (a worker may serve two builds at once); the oldest beyond two are dropped. */
export class StringTables {
  private readonly byBuild = new Map<string, StringTable>();
  private made = 0;
  constructor(private readonly prefix: string) {}

  for(build: string): StringTable {
    let t = this.byBuild.get(build);
    if (!t || t.full) {
      this.byBuild.delete(build);
      t = new StringTable(`${this.prefix}:${++this.made}`);
      this.byBuild.set(build, t);
      for (const k of this.byBuild.keys()) if (this.byBuild.size > 2) this.byBuild.delete(k);
    }
    return t;
  }

  /** The build's table may have strings the main thread never got: start a new one. */
  spoil(build: string): void {
    this.byBuild.delete(build);
  }
}

let localTables = 0;

/** Builds a SpanReply, interning as it goes. */
export class SpanFactsWriter {
  private readonly table: StringTable;
  private readonly textBase: number;
  private readonly keyBase: number;
  private readonly newTexts: string[] = [];
  private readonly newKeys: string[] = [];
  private readonly newTextHashes: number[] = [];
  private readonly newKeyHashes: number[] = [];
  /** Refs by their low word: the first of a chain (refNext) of refs with that low word. */
  private readonly refByLow = new Map<number, number>();
  private refNext = new Int32Array(256);
  private refs = new Int32Array(256);
  private refCount = 0;
  private ints = new Int32Array(4096);
  private n = 0;
  private readonly starts: number[] = [];
  private readonly errors: string[] = [];
  /** Where the record being written starts, to drop it when its package fails half way. */
  private recordAt = -1;

  /** `table`: the thread's table for this build; without one, a table of this span alone. */
  constructor(table?: StringTable) {
    this.table = table ?? new StringTable(`local:${++localTables}`);
    this.textBase = this.table.textStrings.length;
    this.keyBase = this.table.keyCount;
  }

  text(s: string): number {
    const bytes = latin1Bytes(s);
    if (!bytes) {
      let id = this.table.wideTexts.get(s);
      if (id === undefined) this.table.wideTexts.set(s, (id = this.newText(s, textHash(s))));
      return id;
    }
    const interner = this.table.textBytes;
    let id = interner.find(bytes, 0, s.length);
    if (id < 0) interner.add(bytes, 0, s.length, (id = this.newText(s, interner.missHash)));
    return id;
  }

  private newText(s: string, hash: number): number {
    this.table.textStrings.push(s);
    this.newTextHashes.push(hash);
    return this.textBase + this.newTexts.push(s) - 1;
  }

  /** The text of an id text() gave. */
  textString(id: number): string {
    return this.table.textStrings[id]!;
  }

  /** The text id of Latin-1 bytes [start, end) of `b` (one byte per character). */
  latin1Text(b: Uint8Array, start: number, end: number): number {
    const interner = this.table.textBytes;
    let id = interner.find(b, start, end);
    if (id < 0) interner.add(b, start, end, (id = this.newText(latin1(b, start, end), interner.missHash)));
    return id;
  }

  key(s: string): number {
    const bytes = latin1Bytes(s);
    if (!bytes) {
      let id = this.table.wideKeys.get(s);
      if (id === undefined) this.table.wideKeys.set(s, (id = this.newKey(s, textHash(s))));
      return id;
    }
    return this.latin1Key(bytes, 0, s.length, s);
  }

  /** The key id of Latin-1 bytes [start, end) of `b`; `s`: their string, when there is one already. */
  private latin1Key(b: Uint8Array, start: number, end: number, s?: string): number {
    const interner = this.table.keyBytes;
    let id = interner.find(b, start, end);
    if (id < 0) interner.add(b, start, end, (id = this.newKey(s ?? latin1(b, start, end), interner.missHash)));
    return id;
  }

  private newKey(s: string, hash: number): number {
    this.table.keyCount++;
    this.newKeyHashes.push(hash);
    return this.keyBase + this.newKeys.push(s) - 1;
  }

  /** The key of a package name ASCII-lowercased (its package id's input), by the name as the engine displays it. */
  packageKey(packageName: string): number {
    const bytes = latin1Bytes(packageName);
    if (!bytes) return this.key(toLowerAscii(packageName));
    asciiLowerBytes(bytes, 0, packageName.length);
    return this.latin1Key(bytes, 0, packageName.length);
  }

  /** packageKey of a package name written in Latin-1 bytes [start, end) of `b` (with no number). */
  latin1PackageKey(b: Uint8Array, start: number, end: number): number {
    const interner = this.table.packageBytes;
    let key = interner.find(b, start, end);
    if (key < 0) {
      const lower = scratchBytes(end - start);
      lower.set(b.subarray(start, end));
      asciiLowerBytes(lower, 0, end - start);
      key = this.latin1Key(lower, 0, end - start);
      interner.add(b, start, end, key);
    }
    return key;
  }

  /** A script object reference by its index's words. */
  scriptRef(lo: number, hi: number): number {
    const found = this.findRef(RefKind.script, -1, lo | 0, hi | 0);
    return found >= 0 ? found : this.addRef(RefKind.script, this.scriptKey(lo | 0, hi | 0), lo | 0, hi | 0);
  }

  /** The key of a /Script object index (16 hex digits), found by its words. */
  private scriptKey(lo: number, hi: number): number {
    const words = scriptWords;
    words[0] = lo;
    words[1] = hi;
    const interner = this.table.scriptBytes;
    let key = interner.find(scriptWordBytes, 0, 8);
    if (key < 0) interner.add(scriptWordBytes, 0, 8, (key = this.key(hexWords(hi >>> 0, lo >>> 0))));
    return key;
  }

  /** A package import: the imported package's name (as the engine displays it) and the public export hash's words. */
  packageRef(packageName: string, hashLo: number, hashHi: number): number {
    return this.packageRefByKey(this.packageKey(packageName), hashLo, hashHi);
  }

  /** A package import by the imported package's key (packageKey) and the public export hash's words. */
  packageRefByKey(key: number, hashLo: number, hashHi: number): number {
    const found = this.findRef(RefKind.package, key, hashLo | 0, hashHi | 0);
    return found >= 0 ? found : this.addRef(RefKind.package, key, hashLo | 0, hashHi | 0);
  }

  /** A ref of the span with these numbers (a script ref's `a` follows from its words, so it is not compared), or -1. */
  private findRef(kind: number, a: number, b: number, c: number): number {
    const refs = this.refs;
    for (let id = this.refByLow.get(b) ?? -1; id >= 0; id = this.refNext[id]!) {
      const o = id * REF_STRIDE;
      if (refs[o] === kind && refs[o + 3] === c && (kind === RefKind.script || refs[o + 1] === a)) return id;
    }
    return -1;
  }

  private addRef(kind: number, a: number, b: number, c: number): number {
    const id = this.refCount++;
    if (this.refs.length < this.refCount * REF_STRIDE) this.refs = grown(this.refs, this.refCount * REF_STRIDE);
    if (this.refNext.length < this.refCount) this.refNext = grown(this.refNext, this.refCount);
    const o = id * REF_STRIDE;
    this.refs[o] = kind;
    this.refs[o + 1] = a;
    this.refs[o + 2] = b;
    this.refs[o + 3] = c;
    this.refNext[id] = this.refByLow.get(b) ?? -1;
    this.refByLow.set(b, id);
    return id;
  }

  /** Starts a package's record; its fields follow with put(). */
  begin(): void {
    this.recordAt = this.n;
    this.starts.push(this.n);
  }

  put(v: number): void {
    if (this.n === this.ints.length) this.ints = grown(this.ints, this.n + 1);
    this.ints[this.n++] = v;
  }

  /** Reserves one int (a count written later with set()); returns where it is. */
  reserve(): number {
    this.put(0);
    return this.n - 1;
  }

  set(at: number, v: number): void {
    this.ints[at] = v;
  }

  /** Drops what was written of the record begun last (to write it again another way). */
  rewind(): void {
    this.n = this.recordAt;
  }

  /** The package being written failed: its record is replaced by an error. */
  fail(message: string): void {
    if (this.recordAt < 0) throw new Error('fail() outside a record');
    this.n = this.recordAt;
    this.put(RecordStatus.error);
    this.put(this.errors.push(message) - 1);
  }

  /** The package's header needs `bytes` bytes of its chunk: its record says so. */
  needs(bytes: number): void {
    this.n = this.recordAt;
    this.put(RecordStatus.needsBytes);
    this.put(bytes);
  }

  /** The package's bytes could not be read. */
  unread(): void {
    this.n = this.recordAt;
    this.put(RecordStatus.unread);
  }

  finish(): SpanReply {
    return {
      table: this.table.id,
      textBase: this.textBase, texts: this.newTexts.join(''), textLengths: Int32Array.from(this.newTexts, (t) => t.length), textHashes: Int32Array.from(this.newTextHashes),
      keyBase: this.keyBase, keys: this.newKeys.join(''), keyLengths: Int32Array.from(this.newKeys, (k) => k.length), keyHashes: Int32Array.from(this.newKeyHashes),
      refs: this.refs.slice(0, this.refCount * REF_STRIDE), starts: Int32Array.from(this.starts), ints: this.ints.slice(0, this.n), errors: this.errors,
    };
  }
}

/** Each of a reply's strings in turn (texts or keys), with its hash. */
export function replyStrings(all: string, lengths: Int32Array, hashes: Int32Array, each: (s: string, hash: number) => void): void {
  for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]!) each(all.slice(at, at + lengths[i]!), hashes[i]!);
}

/** `a` copied into an array of at least `min` (and at least twice its length) Int32s. */
export function grown(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

const scriptWords = new Int32Array(2);
const scriptWordBytes = new Uint8Array(scriptWords.buffer);

let scratch = new Uint8Array(1024);

/** A scratch buffer of at least `n` bytes (good until the next call). */
function scratchBytes(n: number): Uint8Array {
  if (scratch.length < n) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/** `s` as one byte per character in a scratch buffer (good until the next call), or undefined when a character does not fit a byte. */
function latin1Bytes(s: string): Uint8Array | undefined {
  const b = scratchBytes(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return undefined;
    b[i] = c;
  }
  return b;
}

/** Lowercases the ASCII letters of bytes [start, end) of `b` in place (as toLowerAscii does the characters). */
function asciiLowerBytes(b: Uint8Array, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c >= 0x41 && c <= 0x5a) b[i] = c + 0x20;
  }
}

/** Characters made in one String.fromCharCode call at most (its arguments are bounded). */
const MAX_APPLY = 32 * 1024;

/** Bytes [start, end) of `b` as Latin-1 text, one character per byte. */
export function latin1(b: Uint8Array, start: number, end: number): string {
  if (end - start <= MAX_APPLY) return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
  let s = '';
  for (let i = start; i < end; i += MAX_APPLY) s += String.fromCharCode.apply(null, b.subarray(i, Math.min(end, i + MAX_APPLY)) as unknown as number[]);
  return s;
}
