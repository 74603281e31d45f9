/**
 * The part of a UE5 Zen package header the search index needs, read straight into a span's record
 * (span-facts.ts) without building the package model: the name batch, the package's name, the
 * export map's names, classes and public hashes, the import map, the imported public export hashes
 * and (UE5.3+) the imported package names. The tables it does not need (bulk data map, export
 * bundles, graph data, dependency bundles) are skipped by the summary's offsets. Every offset,
 * count and index it uses is checked against the bytes; what it cannot accept it throws as a
 * FormatError, and the caller then lets the full parser (parseZenPackage) have the last word.
 * UE4.26/27 packages (FPackageSummary) are not read here.
 */
import { FormatError } from '../errors.js';
import { ObjectVersionUE5, ZenLayout } from '../engine-versions.js';
import { hexWords } from '../hash/cityhash64.js';
import { displayName } from '../zen/name-batch.js';
import { latin1, RecordStatus, type SpanFactsWriter } from './span-facts.js';

const EXPORT_ENTRY_SIZE = 72;
const NAME_HASH_ALGORITHM_ID = 0xc1640000;

/** The header wants more bytes than were read: `bytes` of the chunk. */
export class NeedsBytes {
  constructor(readonly bytes: number) {}
}

class HeadReader {
  readonly view: DataView;
  structure = 'zen package summary';
  constructor(readonly bytes: Uint8Array, readonly file: string) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  error(detail: string, at: number): FormatError {
    return new FormatError(this.file, this.structure, at, detail);
  }
  need(at: number, n: number, end = this.bytes.length): void {
    if (at < 0 || n < 0 || at + n > end) throw this.error(`needs ${n} bytes but only ${Math.max(0, end - at)} remain`, at);
  }
  u32(at: number): number { return this.view.getUint32(at, true); }
  i32(at: number): number { return this.view.getInt32(at, true); }
}

/**
 * Writes the record of the package in `bytes` (its chunk, or its first bytes of a chunk of
 * `chunkSize`). Throws NeedsBytes when its header goes past the bytes given, FormatError when
 * something does not add up.
 */
export function writeZenSearchHead(w: SpanFactsWriter, bytes: Uint8Array, file: string, layout: ZenLayout, chunkSize: number): void {
  if (layout === ZenLayout.PackageSummary) throw new FormatError(file, 'zen package summary', 0, 'a UE4 package summary is read by the full parser');
  const r = new HeadReader(bytes, file);
  const bundles = layout >= ZenLayout.DependencyBundles;
  const summaryEnd = bundles ? 52 : 44;
  r.need(0, 8);
  const headerSize = r.u32(4);
  if (headerSize > bytes.length && bytes.length < chunkSize && headerSize <= chunkSize) throw new NeedsBytes(headerSize);
  r.need(0, summaryEnd);
  if (headerSize < summaryEnd || headerSize > bytes.length) throw r.error(`header size ${headerSize} is outside ${summaryEnd}..${bytes.length}`, 4);
  const hasVersioning = r.u32(0);
  if (hasVersioning > 1) throw r.error(`bool is ${hasVersioning}, not 0 or 1`, 0);
  const nameIndexAndType = r.u32(8), nameNumber = r.u32(12);
  const hashesAt = r.i32(24), importsAt = r.i32(28), exportsAt = r.i32(32), bundleEntriesAt = r.i32(36);
  const namesAt = bundles ? r.i32(48) : -1;
  let pos = summaryEnd;
  let ue5: number | undefined;
  if (hasVersioning === 1) {
    r.structure = 'versioning info';
    r.need(pos, 20, headerSize);
    ue5 = r.i32(pos + 8);
    const n = r.i32(pos + 16);
    if (n < 0 || pos + 20 + n * 20 > headerSize) throw r.error(`custom version count ${n} does not fit the header`, pos + 16);
    pos += 20 + n * 20;
  }
  const hasCells = ue5 !== undefined ? ue5 >= ObjectVersionUE5.VerseCells : layout >= ZenLayout.VerseCells;
  let exportsEnd = bundleEntriesAt;
  if (hasCells) {
    r.structure = 'cell offsets';
    r.need(pos, 8, headerSize);
    exportsEnd = r.i32(pos);
    pos += 8;
  }
  r.structure = 'zen package summary';
  // In file order, each inside the header.
  const order = [hashesAt, importsAt, exportsAt, exportsEnd, bundleEntriesAt, ...(bundles ? [r.i32(40), r.i32(44), namesAt] : [r.i32(40)])];
  let prev = pos;
  for (const v of order) {
    if (v < prev || v > headerSize) throw r.error(`table offset ${v} is out of order (after ${prev}) or past the header's end at ${headerSize}`, 24);
    prev = v;
  }

  r.structure = 'name batch';
  // The names' text ids: a name seen before is found by its bytes, with no string made.
  const names: number[] = [];
  readNames(r, pos, hashesAt, (start, len, wide) => names.push(wide ? w.text(utf16(bytes, start, len)) : w.latin1Text(bytes, start, start + len)));
  if (nameIndexAndType >>> 30 !== 0 || (nameIndexAndType & 0x3fffffff) >= names.length) {
    throw r.error(`package name 0x${nameIndexAndType.toString(16)} is not one of the ${names.length} package names`, 8);
  }
  // Its text: the name's own when it has no number (no string made for it).
  const packageText = nameNumber === 0 ? names[nameIndexAndType & 0x3fffffff]! : w.text(displayName(w.textString(names[nameIndexAndType & 0x3fffffff]!), nameNumber));
  const packageName = w.textString(packageText);

  r.structure = 'zen package summary';
  if ((importsAt - hashesAt) % 8 !== 0) throw r.error(`imported public export hashes span ${importsAt - hashesAt} bytes, not whole 8-byte entries`, 24);
  if ((exportsAt - importsAt) % 8 !== 0) throw r.error(`import map spans ${exportsAt - importsAt} bytes, not whole 8-byte entries`, 28);
  if ((exportsEnd - exportsAt) % EXPORT_ENTRY_SIZE !== 0) throw r.error(`export map spans ${exportsEnd - exportsAt} bytes, not whole ${EXPORT_ENTRY_SIZE}-byte entries`, 32);
  const hashCount = (importsAt - hashesAt) / 8;
  const importCount = (exportsAt - importsAt) / 8;
  const exportCount = (exportsEnd - exportsAt) / EXPORT_ENTRY_SIZE;

  // UE5.3+: imported package names, as the keys of their lowercased names; before, package
  // imports index the store entry's list (not read: they stay unnamed).
  const imported: number[] = [];
  if (bundles) {
    r.structure = 'imported package names';
    const spans: number[] = [];
    const end = readNames(r, namesAt, headerSize, (start, len, wide) => spans.push(start, len, wide ? 1 : 0));
    const count = spans.length / 3;
    if (end + count * 4 !== headerSize) throw r.error(`imported package names end at ${end + count * 4}, but the header ends at ${headerSize}`, end);
    for (let i = 0; i < count; i++) {
      const start = spans[3 * i]!, len = spans[3 * i + 1]!, number = r.i32(end + i * 4);
      imported.push(spans[3 * i + 2] === 0 && number === 0 ? w.latin1PackageKey(bytes, start, start + len)
        : w.packageKey(displayName(spans[3 * i + 2] ? utf16(bytes, start, len) : latin1(bytes, start, start + len), number)));
    }
  }

  w.put(RecordStatus.ok);
  w.put(packageText);
  w.put(w.packageKey(packageName));
  w.put(names.length);
  for (const n of names) w.put(n);

  const ref = (at: number, what: string, isImport: boolean): number => {
    const lo = r.u32(at), hi = r.u32(at + 4);
    const type = hi >>> 30;
    if (type === 3) {
      if (lo !== 0xffffffff || hi !== 0xffffffff) throw r.error(`object index 0x${hexWords(hi, lo)} has the null type but is not all ones`, at);
      return -1;
    }
    if (type === 0) {
      if (isImport || hi !== 0 || lo >= exportCount) throw r.error(`${what} names export 0x${hexWords(hi, lo)} of ${exportCount}`, at);
      return -2 - lo;
    }
    if (type === 1) return w.scriptRef(lo, hi);
    const packageIndex = hi & 0x3fffffff;
    if (lo >= hashCount) throw r.error(`${what} names imported public export hash ${lo} of ${hashCount}`, at);
    if (!bundles) return -1;
    if (packageIndex >= imported.length) throw r.error(`${what} names imported package ${packageIndex} of ${imported.length}`, at);
    const h = hashesAt + lo * 8;
    return w.packageRefByKey(imported[packageIndex]!, r.u32(h), r.u32(h + 4));
  };

  r.structure = 'export map';
  w.put(exportCount);
  for (let i = 0; i < exportCount; i++) {
    const at = exportsAt + i * EXPORT_ENTRY_SIZE;
    const idx = r.u32(at + 16);
    if (idx >>> 30 !== 0 || (idx & 0x3fffffff) >= names.length) throw r.error(`export ${i} name 0x${idx.toString(16)} is not one of the ${names.length} package names`, at + 16);
    const filter = bytes[at + 68]!;
    if (filter > 2) throw r.error(`export ${i} filter flags ${filter} are not None, NotForClient or NotForServer`, at + 68);
    const name = names[idx & 0x3fffffff]!, number = r.u32(at + 20);
    w.put(number === 0 ? name : w.text(displayName(w.textString(name), number)));
    const cls = ref(at + 32, `export ${i} class`, false);
    if (cls === -1) throw r.error(`export ${i} has no class`, at + 32);
    w.put(cls);
    w.put(r.i32(at + 56));
    w.put(r.i32(at + 60));
  }
  r.structure = 'import map';
  w.put(importCount);
  for (let i = 0; i < importCount; i++) w.put(ref(importsAt + i * 8, `import ${i}`, true));
  w.put(0); // strings: not read here
}

/** A name batch at `at`, ending at or before `end`: each name's bytes handed to `each`; returns where the batch ends. */
function readNames(r: HeadReader, at: number, end: number, each: (start: number, length: number, wide: boolean) => void): number {
  r.need(at, 4, end);
  const count = r.u32(at);
  if (count === 0) return at + 4;
  if (count * 10 > end - at) throw r.error(`name count ${count} needs at least ${count * 10} bytes but only ${end - at} remain`, at);
  r.need(at, 16, end);
  const stringBytes = r.u32(at + 4);
  if (r.u32(at + 8) !== NAME_HASH_ALGORITHM_ID || r.u32(at + 12) !== 0) {
    throw r.error(`name hash algorithm is 0x${hexWords(r.u32(at + 12), r.u32(at + 8))}, not 0xc1640000`, at + 8);
  }
  const headersAt = at + 16 + count * 8;
  r.need(headersAt, count * 2, end);
  const b = r.bytes;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const h = b[headersAt + 2 * i]!;
    const len = ((h & 0x7f) << 8) | b[headersAt + 2 * i + 1]!;
    total += h & 0x80 ? len * 2 : len;
  }
  if (total !== stringBytes) throw r.error(`${count} name headers add up to ${total} string bytes, but the batch declares ${stringBytes}`, at + 4);
  let p = headersAt + count * 2;
  r.need(p, total, end);
  for (let i = 0; i < count; i++) {
    const h = b[headersAt + 2 * i]!;
    const len = ((h & 0x7f) << 8) | b[headersAt + 2 * i + 1]!;
    each(p, len, (h & 0x80) !== 0);
    p += h & 0x80 ? len * 2 : len;
  }
  return p;
}

/** `length` UTF-16LE code units at `start`, unaligned. */
function utf16(b: Uint8Array, start: number, length: number): string {
  const units = new Uint16Array(length);
  for (let k = 0; k < length; k++) units[k] = b[start + 2 * k]! | (b[start + 2 * k + 1]! << 8);
  return String.fromCharCode.apply(null, units as unknown as number[]);
}
