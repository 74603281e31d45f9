/**
 * What a search indexes of one file, taken out of its bytes: a package's names, exports (with
 * their classes), imports and the FStrings of its export data; a .locres's entries; a text file's
 * lines. Pure functions over bytes, so a worker thread runs them (worker.ts `searchExtract`) as
 * readily as this one. Zen packages name their classes and imports by hash: the facts keep the
 * hashes, and the index names them once every package is in (search-build.ts).
 */
import type { ZenLayout } from '../engine-versions.js';
import { parseLocres, cultureOf } from '../assets/locres/read.js';
import { parseClassicPackageModel } from '../package-model.js';
import type { ObjectRef } from '../zen/object-index.js';
import { parseZenPackage } from '../zen/zen-package.js';
import { runBlockPlan, type BlockPlan, type RangeReader, type Scratch } from '../workers/block-plan.js';
import { scanFStrings } from './fstring-scan.js';

/** A Zen object reference as it crosses threads: kind, then the raw hex, then the package import's two indices. */
export type RefFact = [kind: ObjectRef['kind'], raw: string, packageIndex?: number, hashIndex?: number];

export interface ZenFacts {
  kind: 'zen';
  /** "/Game/A/B". */
  name: string;
  packageId: string;
  names: string[];
  exports: { name: string; class: RefFact; hash: string }[];
  imports: RefFact[];
  importedPackageIds: string[];
  importedHashes: string[];
  /** [where, text]: the export holding the string, by name. */
  strings: [string, string][];
}

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

export type FileFacts = ZenFacts | ClassicFacts | TextFacts;

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
  plan: BlockPlan;
  layout: ZenLayout;
  items: SpanItem[];
  strings: boolean;
}

/** Each item's facts, or why it could not be read ({error}). */
export type SpanReply = (ZenFacts | { error: string; needsBytes?: number })[];

/** Runs a span task: the span read (through the plan) and each package in it parsed. */
export function runSpanTask(task: SpanTask, reader: RangeReader, scratch: Scratch): SpanReply {
  const bytes = runBlockPlan(task.plan, reader, scratch);
  if (bytes === null) return [];
  return extractSpan(bytes, task);
}

/** The facts of each package of a span whose bytes are in memory. */
export function extractSpan(bytes: Uint8Array, task: Omit<SpanTask, 'plan'>): SpanReply {
  return task.items.map((item) => {
    try {
      return zenFacts(bytes.subarray(item.at, item.at + item.length), item.path, task.layout, item.chunkSize, task.strings);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
}

/** A Zen package's facts; `bytes` may be only the first part of its chunk when strings are not wanted. */
export function zenFacts(bytes: Uint8Array, path: string, layout: ZenLayout, chunkSize: number, strings: boolean): ZenFacts {
  const pkg = parseZenPackage(bytes, path, { layout, chunkSize, verifyNameHashes: false });
  const facts: ZenFacts = {
    kind: 'zen',
    name: pkg.name,
    packageId: pkg.packageId,
    names: pkg.names,
    exports: pkg.exports.map((e) => ({ name: e.name, class: refFact(e.class), hash: e.publicExportHash })),
    imports: pkg.imports.map(refFact),
    importedPackageIds: pkg.importedPackageIds,
    importedHashes: pkg.importedPublicExportHashes,
    strings: [],
  };
  if (strings) {
    for (const e of pkg.exports) {
      if (e.dataOffset < 0) continue;
      scanFStrings(bytes, e.dataOffset, e.dataOffset + e.cookedSerialSize, (text) => facts.strings.push([e.name, text]));
    }
  }
  return facts;
}

function refFact(r: ObjectRef): RefFact {
  return r.kind === 'package' ? [r.kind, r.raw, r.packageIndex, r.hashIndex] : r.kind === 'export' ? [r.kind, r.raw, r.index] : [r.kind, r.raw];
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
