/**
 * What a search indexes of one file, taken out of its bytes: a package's names, exports (with
 * their classes), imports and the FStrings of its export data; a .locres's entries; a text file's
 * lines. Pure functions over bytes, so a worker thread runs them (worker.ts `searchExtract`) as
 * readily as this one. Zen packages come as span records (span-facts.ts), read from their headers
 * alone when strings are not wanted; they name their classes and imports by hash, and the index
 * names them once every package is in (zen-records.ts).
 */
import { ZenLayout } from '../engine-versions.js';
import { parseLocres, cultureOf } from '../assets/locres/read.js';
import { parseClassicPackageModel } from '../package-model.js';
import type { ObjectRef } from '../zen/object-index.js';
import { parseZenPackage } from '../zen/zen-package.js';
import { decodesPrefix, isStoredCodec, PLAN_STRIDE, PlanField, planBlockCount, runBlockPlan, type BlockPlan, type RangeReader, type Scratch } from '../workers/block-plan.js';
import { scanFStrings } from './fstring-scan.js';
import { NO_REF, RecordStatus, SpanFactsWriter, type SpanReply, type StringTable } from './span-facts.js';
import { NeedsBytes, writeZenSearchHead } from './zen-search-head.js';

export type { SpanReply } from './span-facts.js';

/** A classic package or a UE1/2 package: its names and paths are its own. */
export interface ClassicFacts {
  kind: 'classic';
  name: string;
  names: string[];
  exports: { name: string; classPath: string }[];
  imports: string[];
  strings: [string, string][];
}

/** Strings of a file that is not a package (a .locres's entries, a text file's lines): [where, text]. */
export interface TextFacts {
  kind: 'text';
  strings: [string, string][];
}

/** Facts of a file read on the main thread (Zen packages come as span records instead, span-facts.ts). */
export type FileFacts = ClassicFacts | TextFacts;

/** One Zen package of a span read whole (SpanTask). */
export interface SpanItem {
  /** Where the package's bytes start in the span, and how many of them were read. */
  at: number;
  length: number;
  /** The whole chunk's size (the span may hold only its first part). */
  chunkSize: number;
  /** For messages: the path as ls prints it. */
  path: string;
}

/** Zen packages lying together in one container: one read of the span, then each parsed. */
export interface SpanTask {
  /** The index build it is part of: a thread's string table serves one build (span-facts.ts). */
  build: string;
  plan: BlockPlan;
  layout: ZenLayout;
  items: SpanItem[];
  strings: boolean;
}

/**
 * First bytes of a package read to learn its header's size (at byte 4), where the first block's
 * codec can stop early (or stores): then exactly the header is read, each byte decoded once more
 * at most. A codec that cannot stop early (Oodle) decodes its whole first block for the peek, so
 * the peek takes that block whole and a header that fits it is not decoded again.
 */
const PEEK_BYTES = 16;

/**
 * Runs a span task: each package's bytes read through its part of the plan and the package read.
 * Without strings only its header is read: its first bytes (peekBytes), then, when the header is
 * bigger, that many (codecs that can stop early decode no more of a block than that). A package whose
 * bytes cannot be read is left to the main thread (RecordStatus.unread), which names the failure.
 */
export function runSpanTask(task: SpanTask, reader: RangeReader, scratch: Scratch, table?: StringTable): SpanReply {
  const { plan, items, layout, strings } = task;
  const n = planBlockCount(plan);
  const w = new SpanFactsWriter(table);
  // The items' blocks follow each other in the plan, in item order (joinPlans): item k's are [firsts[k], firsts[k + 1]).
  const firsts = new Int32Array(items.length + 1);
  for (let k = 0, end = 0; k < items.length; k++) {
    firsts[k] = end;
    const item = items[k]!;
    while (end < n && plan.blocks[end * PLAN_STRIDE + PlanField.at]! < item.at + item.length) end++;
    firsts[k + 1] = end;
  }
  const headsOnly = !strings && layout !== ZenLayout.PackageSummary;
  if (headsOnly) reader = SpanHeads.read(plan, firsts, items.length, reader);
  else readSpanAhead(plan, reader);
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const from = firsts[k]!, end = firsts[k + 1]!;
    const read = (bytes: number): Uint8Array => runBlockPlan(partOfPlan(plan, from, end, item.at, bytes), reader, scratch, undefined, true)!;
    w.begin();
    let bytes: Uint8Array;
    try {
      if (!headsOnly) {
        bytes = read(item.length);
      } else {
        bytes = read(Math.min(item.length, peekBytes(plan, from)));
        const header = bytes.length >= 8 ? new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true) : 0;
        if (header > bytes.length && bytes.length < item.length) bytes = read(Math.min(item.length, header));
      }
    } catch {
      w.unread();
      continue;
    }
    extractItem(w, bytes, item, layout, strings);
  }
  return w.finish();
}

/** How many first bytes of the item whose blocks start at plan block `first` to read for its header's size. */
function peekBytes(plan: BlockPlan, first: number): number {
  if (first >= planBlockCount(plan)) return PEEK_BYTES;
  const o = first * PLAN_STRIDE;
  const codec = plan.codecs[plan.blocks[o + PlanField.codec]! | 0]!;
  // A stored block, or one whose codec stops early, costs what the bytes read cost.
  if (isStoredCodec(codec) || decodesPrefix(codec)) return PEEK_BYTES;
  return Math.max(PEEK_BYTES, plan.blocks[o + PlanField.take]!);
}

/** Stored bytes read ahead at most: a span's blocks lie together in one file, and one read beats one per package. */
const AHEAD_BYTES = 8 * 1024 * 1024;

/** The span's stored bytes in one read, when they lie in one file and not too far apart. */
function readSpanAhead(plan: BlockPlan, reader: RangeReader): void {
  const n = planBlockCount(plan);
  if (n < 2 || plan.files.length !== 1 || !reader.readAhead) return;
  let start = Infinity, end = 0;
  for (let k = 0; k < n; k++) {
    const o = k * PLAN_STRIDE;
    start = Math.min(start, plan.blocks[o + PlanField.offset]!);
    end = Math.max(end, plan.blocks[o + PlanField.offset]! + plan.blocks[o + PlanField.stored]!);
  }
  if (end - start <= AHEAD_BYTES) reader.readAhead(plan.files[0]!, start, end - start);
}

/** Stored bytes between two first blocks read with them rather than in another read. */
const HEAD_GAP = 16 * 1024;

/** SpanHeads' buffer, reused from span to span. */
let headBytes = new Uint8Array(1 << 20);

/**
 * A span's packages' first blocks (where their headers are) read in runs, neighbours less than
 * HEAD_GAP apart in one read, into one buffer: the export data lying between the headers of a
 * span's packages is not read (about half the stored bytes of a span). Reads of other bytes go to
 * the reader it wraps.
 */
class SpanHeads implements RangeReader {
  /** Per run: its offset in the file, its length, where it starts in headBytes. */
  private readonly runs: number[] = [];
  private cursor = 0;

  private constructor(private readonly file: string, private readonly base: RangeReader) {}

  /** The reader a heads-only span reads through: the items' first blocks read, or `base` itself when the plan is not one file's. */
  static read(plan: BlockPlan, firsts: Int32Array, items: number, base: RangeReader): RangeReader {
    if (plan.files.length !== 1 || items < 2) return base;
    const heads = new SpanHeads(plan.files[0]!, base);
    const spans: number[] = [];
    for (let k = 0; k < items; k++) {
      if (firsts[k]! >= firsts[k + 1]!) continue;
      const o = firsts[k]! * PLAN_STRIDE;
      const offset = plan.blocks[o + PlanField.offset]!, end = offset + plan.blocks[o + PlanField.stored]!;
      const last = spans.length - 2;
      if (last >= 0 && offset >= spans[last]! && offset - spans[last + 1]! <= HEAD_GAP) spans[last + 1] = Math.max(spans[last + 1]!, end);
      else spans.push(offset, end);
    }
    let total = 0;
    for (let i = 0; i < spans.length; i += 2) total += spans[i + 1]! - spans[i]!;
    if (headBytes.length < total) headBytes = new Uint8Array(total);
    let at = 0;
    for (let i = 0; i < spans.length; i += 2) {
      const offset = spans[i]!, length = spans[i + 1]! - offset;
      const into = headBytes.subarray(at, at + length);
      try {
        const got = base.read(heads.file, offset, length, into);
        if (got.buffer !== into.buffer || got.byteOffset !== into.byteOffset) into.set(got);
      } catch {
        // A short file: each read of these bytes then reports it for its own range.
        continue;
      }
      heads.runs.push(offset, length, at);
      at += length;
    }
    return heads;
  }

  read(file: string, offset: number, length: number, into: Uint8Array): Uint8Array {
    if (file === this.file) {
      const runs = this.runs;
      // Reads come in the runs' order: look on from the last run found, then from the start.
      for (let pass = 0; pass < 2; pass++) {
        for (let i = pass === 0 ? this.cursor : 0; i < runs.length; i += 3) {
          const start = runs[i]!;
          if (offset < start) break;
          if (offset + length <= start + runs[i + 1]!) {
            this.cursor = i;
            const at = runs[i + 2]! + offset - start;
            return headBytes.subarray(at, at + length);
          }
        }
      }
    }
    return this.base.read(file, offset, length, into);
  }
}

/** Blocks [first, end) of a plan, whose output starts at `base`, cut to their first `size` bytes. */
function partOfPlan(plan: BlockPlan, first: number, end: number, base: number, size: number): BlockPlan {
  const blocks: number[] = [];
  for (let k = first; k < end; k++) {
    const o = k * PLAN_STRIDE;
    const at = plan.blocks[o + PlanField.at]! - base;
    if (at >= size) break;
    for (let f = 0; f < PLAN_STRIDE; f++) blocks.push(plan.blocks[o + f]!);
    blocks[blocks.length - PLAN_STRIDE + PlanField.at] = at;
    blocks[blocks.length - PLAN_STRIDE + PlanField.take] = Math.min(plan.blocks[o + PlanField.take]!, size - at);
  }
  if (size > 0 && blocks.length === 0) throw new RangeError(`the plan has no blocks for output ${base}`);
  return { ...plan, blocks, size };
}

/**
 * The facts of each package of a span whose bytes are in memory, one record each (span-facts.ts).
 */
export function extractSpan(bytes: Uint8Array, task: Omit<SpanTask, 'plan' | 'build'>): SpanReply {
  const w = new SpanFactsWriter();
  for (const item of task.items) {
    w.begin();
    extractItem(w, bytes.subarray(item.at, item.at + item.length), item, task.layout, task.strings);
  }
  return w.finish();
}

/**
 * One package's record. Without strings a UE5 package's header is read for what the index needs
 * only (zen-search-head.ts); with strings, a UE4 package, or one that reader does not accept, the
 * full parser reads it.
 */
function extractItem(w: SpanFactsWriter, chunk: Uint8Array, item: SpanItem, layout: ZenLayout, strings: boolean): void {
  if (!strings && layout !== ZenLayout.PackageSummary) {
    try {
      writeZenSearchHead(w, chunk, item.path, layout, item.chunkSize);
      return;
    } catch (e) {
      if (e instanceof NeedsBytes) {
        w.needs(e.bytes);
        return;
      }
      w.rewind();
    }
  }
  try {
    writeZenFacts(w, chunk, item.path, layout, item.chunkSize, strings);
  } catch (e) {
    w.fail(e instanceof Error ? e.message : String(e));
  }
}

/**
 * One package's record by one reader: 'head' (zen-search-head.ts; throws what it does not accept)
 * or 'full' (parseZenPackage). For tests that hold the two to the same facts.
 */
export function zenRecordBy(reader: 'head' | 'full', bytes: Uint8Array, path: string, layout: ZenLayout): SpanReply {
  const w = new SpanFactsWriter();
  w.begin();
  if (reader === 'head') writeZenSearchHead(w, bytes, path, layout, bytes.length);
  else writeZenFacts(w, bytes, path, layout, bytes.length, false);
  return w.finish();
}

/** A Zen package's record from the full parse (parseZenPackage), its strings too when asked. */
function writeZenFacts(w: SpanFactsWriter, bytes: Uint8Array, path: string, layout: ZenLayout, chunkSize: number, strings: boolean): void {
  const pkg = parseZenPackage(bytes, path, { layout, chunkSize, verifyNameHashes: false });
  const ref = (r: ObjectRef): number => {
    switch (r.kind) {
      case 'export': return -2 - r.index;
      case 'script': return w.scriptRef(parseInt(r.raw.slice(8), 16), parseInt(r.raw.slice(0, 8), 16));
      case 'package': {
        const id = pkg.importedPackageIds[r.packageIndex], hash = pkg.importedPublicExportHashes[r.hashIndex];
        const name = pkg.importedPackageNames?.[r.packageIndex];
        if (id === undefined || hash === undefined || name === undefined) return NO_REF;
        return w.packageRef(name, parseInt(hash.slice(8), 16), parseInt(hash.slice(0, 8), 16));
      }
      default: return NO_REF;
    }
  };
  w.put(RecordStatus.ok);
  w.put(w.text(pkg.name));
  w.put(w.packageKey(pkg.name));
  w.put(pkg.names.length);
  for (const n of pkg.names) w.put(w.text(n));
  w.put(pkg.exports.length);
  for (const e of pkg.exports) {
    w.put(w.text(e.name));
    w.put(ref(e.class));
    w.put(parseInt(e.publicExportHash.slice(8), 16) | 0);
    w.put(parseInt(e.publicExportHash.slice(0, 8), 16) | 0);
  }
  w.put(pkg.imports.length);
  for (const r of pkg.imports) w.put(ref(r));
  const count = w.reserve();
  let n = 0;
  if (strings) {
    for (const e of pkg.exports) {
      if (e.dataOffset < 0) continue;
      const where = w.key(e.name);
      scanFStrings(bytes, e.dataOffset, e.dataOffset + e.cookedSerialSize, (text) => {
        w.put(where);
        w.put(w.text(text));
        n++;
      });
    }
  }
  w.set(count, n);
}

/**
 * A classic package's facts: `bytes` the .uasset (or UE1/2 package), `exportData` its .uexp
 * when it has one (export offsets count from the .uasset's start, running on into the .uexp).
 */
export function classicFacts(bytes: Uint8Array, path: string, exportData: Uint8Array | undefined, strings: boolean, packageName?: string): ClassicFacts {
  const model = parseClassicPackageModel(bytes, path, {
    ...(exportData ? { uexpSize: exportData.length } : {}),
    ...(packageName !== undefined ? { packageName } : {}),
  });
  const facts: ClassicFacts = {
    kind: 'classic',
    name: model.name,
    names: model.names,
    exports: model.exports.map((e) => ({ name: e.name, classPath: e.classPath ?? e.class })),
    imports: model.imports.map((i) => i.path),
    strings: [],
  };
  if (strings) {
    for (const e of model.exports) {
      const start = e.serialOffset, end = e.serialOffset + e.serialSize;
      if (start < bytes.length) scanFStrings(bytes, start, Math.min(end, bytes.length), (text) => facts.strings.push([e.name, text]));
      if (exportData && end > bytes.length) {
        scanFStrings(exportData, Math.max(0, start - bytes.length), end - bytes.length, (text) => facts.strings.push([e.name, text]));
      }
    }
  }
  return facts;
}

/** A .locres's entries: where is "culture/namespace/key". */
export function locresFacts(bytes: Uint8Array, path: string): TextFacts {
  const culture = cultureOf(path);
  const locres = parseLocres(bytes, path);
  return { kind: 'text', strings: locres.entries.map((e) => [`${culture}/${e.namespace}/${e.key}`, e.text]) };
}

/** Longest text file read for its lines. */
export const MAX_TEXT_FILE_BYTES = 8 * 1024 * 1024;
/** Longest line kept whole; the rest of a longer one is cut. */
const MAX_LINE_CHARS = 1000;

/** A text file's non-empty lines: where is "line N" (from 1). UTF-8, or UTF-16 with its byte order mark. */
export function textFileFacts(bytes: Uint8Array): TextFacts {
  const utf16le = bytes[0] === 0xff && bytes[1] === 0xfe;
  const utf16be = bytes[0] === 0xfe && bytes[1] === 0xff;
  const text = new TextDecoder(utf16le ? 'utf-16le' : utf16be ? 'utf-16be' : 'utf-8').decode(bytes);
  const strings: [string, string][] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (t !== '') strings.push([`line ${i + 1}`, t.length > MAX_LINE_CHARS ? t.slice(0, MAX_LINE_CHARS) : t]);
  });
  return { kind: 'text', strings };
}

/** Files read as text for their lines. */
const TEXT_EXTENSIONS = new Set(['.ini', '.txt', '.json', '.csv', '.xml', '.uplugin', '.uproject', '.cfg', '.md', '.lua', '.yaml', '.yml', '.html', '.po']);

export function isTextFileName(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot >= 0 && TEXT_EXTENSIONS.has(path.slice(dot).toLowerCase());
}
