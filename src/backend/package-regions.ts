/**
 * Byte regions of a package for the hex view: every header field and every table entry the
 * parsers located, named ("export 3 (Foo): class"), grouped by the section holding it, in offset
 * order. The parsers give sections (model.sections) and entry offsets; the entries inside a section
 * follow from the format's fixed entry sizes and, where entries vary in length, from the bytes
 * themselves. Every byte of every section is covered: what is not split up further is named
 * after its section. Regions never overlap.
 */
import type { PackageModel } from '../core/package-model.js';
import type { UAssetPackage } from '../core/uasset/package.js';
import type { Ue12Package } from '../core/ue12/package.js';
import { EXPORT_ENTRY_SIZE } from '../core/zen/package-tables.js';
import type { PackageByteRegion } from '../shared/package-api.js';

/** Regions kept for one package; the rest are counted (a 100,000-name package still opens fast). */
export const MAX_REGIONS = 60_000;

/** Collects regions up to a cap and counts all. */
export class RegionList {
  readonly regions: PackageByteRegion[] = [];
  total = 0;
  constructor(private readonly cap = MAX_REGIONS) {}

  add(start: number, size: number, label: string, group: string, ref?: string): void {
    if (!(size > 0) || !Number.isFinite(start) || start < 0) return;
    this.total++;
    if (this.regions.length >= this.cap) return;
    const r: PackageByteRegion = { start, end: start + size, label, group };
    if (ref !== undefined) r.ref = ref;
    this.regions.push(r);
  }

  /** Consecutive fields of fixed sizes from `start`: [label, size, ref?][]. */
  fields(start: number, group: string, prefix: string, list: readonly (readonly [string, number, string?])[]): number {
    let at = start;
    for (const [label, size, ref] of list) {
      this.add(at, size, prefix ? `${prefix}: ${label}` : label, group, ref);
      at += size;
    }
    return at;
  }
}

type Section = PackageModel['sections'][number];

/**
 * The regions in offset order, overlaps dropped (the first of two overlapping wins), and every
 * byte of every section not covered by a region given as a region named after its section.
 */
export function finishRegions(list: RegionList, sections: readonly Section[]): PackageByteRegion[] {
  const sorted = list.regions.slice().sort((a, b) => a.start - b.start || a.end - b.end);
  const leaves: PackageByteRegion[] = [];
  let end = 0;
  for (const r of sorted) {
    if (r.start < end) continue;
    leaves.push(r);
    end = r.end;
  }
  const gaps: PackageByteRegion[] = [];
  // Sections may nest (a thumbnail inside the thumbnail table): the gaps of the innermost first.
  const bySize = sections.filter((s) => s.size > 0).sort((a, b) => a.size - b.size);
  const covered = [...leaves];
  for (const s of bySize) {
    const inside = covered.filter((r) => r.end > s.offset && r.start < s.offset + s.size).sort((a, b) => a.start - b.start);
    let at = s.offset;
    for (const r of inside) {
      if (r.start > at) gaps.push({ start: at, end: r.start, label: s.name, group: s.name });
      at = Math.max(at, r.end);
    }
    if (at < s.offset + s.size) gaps.push({ start: at, end: s.offset + s.size, label: s.name, group: s.name });
    covered.push(...gaps.splice(0));
  }
  return covered.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The finished regions and how many there would be without the cap. */
function finish(list: RegionList, sections: readonly Section[]): { regions: PackageByteRegion[]; total: number } {
  const regions = finishRegions(list, sections);
  return { regions, total: regions.length + (list.total - list.regions.length) };
}

/** A little-endian / big-endian view over the bytes read, bounds-checked: out of range is undefined. */
class Bytes {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u32(at: number): number | undefined { return at >= 0 && at + 4 <= this.bytes.length ? this.view.getUint32(at, true) : undefined; }
  u16be(at: number): number | undefined { return at >= 0 && at + 2 <= this.bytes.length ? this.view.getUint16(at, false) : undefined; }
  u64small(at: number): number | undefined {
    if (at < 0 || at + 8 > this.bytes.length) return undefined;
    const hi = this.view.getUint32(at + 4, true);
    return hi === 0 ? this.view.getUint32(at, true) : undefined;
  }
}

function sectionsNamed(model: PackageModel): Map<string, Section> {
  const out = new Map<string, Section>();
  for (const s of model.sections) if (!out.has(s.name)) out.set(s.name, s);
  return out;
}

/** Fixed-size entries filling a section: `label(i)` names each. */
function entries(list: RegionList, s: Section | undefined, size: number, label: (i: number) => string, ref?: (i: number) => string): void {
  if (!s || size <= 0) return;
  const n = Math.floor(s.size / size);
  for (let i = 0; i < n; i++) list.add(s.offset + i * size, size, label(i), s.name, ref?.(i));
}

// ---- Zen ----

const ZEN_EXPORT_FIELDS: readonly [string, number][] = [
  ['cooked serial offset', 8], ['cooked serial size', 8], ['object name', 8], ['outer', 8], ['class', 8],
  ['super', 8], ['template', 8], ['public export hash', 8], ['object flags', 4], ['filter flags', 1], ['padding', 3],
];

/** UE5 FNameBatch (name batch, imported package names): count, string bytes, hash id, hashes, headers, strings. */
function nameBatch(list: RegionList, b: Bytes, s: Section, names: readonly string[], what: string, withNumbers = false): void {
  const g = s.name;
  const count = b.u32(s.offset);
  list.add(s.offset, 4, 'name count', g);
  if (count === undefined || count === 0 || count !== names.length) return;
  list.add(s.offset + 4, 4, 'string bytes', g);
  list.add(s.offset + 8, 8, 'hash algorithm id', g);
  const hashes = s.offset + 16;
  const headers = hashes + count * 8;
  let str = headers + count * 2;
  for (let i = 0; i < count; i++) {
    list.add(hashes + i * 8, 8, `hash of ${what} ${i}: ${names[i]}`, g);
    const h = b.u16be(headers + i * 2);
    list.add(headers + i * 2, 2, `length of ${what} ${i}`, g);
    if (h === undefined) return;
    const len = (h & 0x7fff) * (h & 0x8000 ? 2 : 1);
    list.add(str, len, `${what} ${i}: ${names[i]}`, g, what === 'name' ? `name:${i}` : undefined);
    str += len;
  }
  if (withNumbers) for (let i = 0; i < count; i++) list.add(str + i * 4, 4, `number of ${what} ${i}`, g);
}

/** UE4.25-4.27 names buffer: u16 big-endian header then the string (UTF-16 aligned to 2). */
function namePairs(list: RegionList, b: Bytes, s: Section, names: readonly string[]): void {
  let at = s.offset;
  const end = s.offset + s.size;
  for (let i = 0; i < names.length && at < end; i++) {
    const h = b.u16be(at);
    if (h === undefined) return;
    list.add(at, 2, `length of name ${i}`, s.name);
    at += 2;
    const wide = (h & 0x8000) !== 0;
    if (wide && (at - s.offset) & 1) at++;
    const len = (h & 0x7fff) * (wide ? 2 : 1);
    list.add(at, len, `name ${i}: ${names[i]}`, s.name, `name:${i}`);
    at += len;
  }
}

/** Regions of a Zen package from its sections and its header bytes (the first headerSize bytes at least). */
export function zenRegions(model: PackageModel, header: Uint8Array, cap = MAX_REGIONS): { regions: PackageByteRegion[]; total: number } {
  const list = new RegionList(cap);
  const b = new Bytes(header);
  const sec = sectionsNamed(model);
  const details = model.details as {
    importedPackageNames?: string[]; importedPublicExportHashes?: string[]; bulkData?: unknown[];
    exportBundleEntries?: { exportIndex: number; command: string }[]; dependencyBundleHeaders?: unknown[];
    dependencyBundleEntries?: number[]; cellExports?: unknown[];
  };
  const exportName = (i: number): string => model.exports[i]?.name ?? '?';

  const ue5 = sec.get('zen package summary');
  if (ue5) {
    const tail: [string, number, string?][] = ue5.size >= 52
      ? [['dependency bundle headers offset', 4], ['dependency bundle entries offset', 4], ['imported package names offset', 4]]
      : [['graph data offset', 4]];
    list.fields(0, ue5.name, '', [
      ['has versioning info', 4], ['header size', 4, 'field:headerSize'], ['package name', 8], ['package flags', 4, 'field:packageFlags'],
      ['cooked header size', 4, 'field:cookedHeaderSize'], ['imported public export hashes offset', 4], ['import map offset', 4],
      ['export map offset', 4], ['export bundle entries offset', 4], ...tail,
    ]);
  }
  const ue4 = sec.get('package summary');
  if (ue4) {
    list.fields(0, ue4.name, '', [
      ['package name', 8], ['source package name', 8], ['package flags', 4, 'field:packageFlags'], ['cooked header size', 4, 'field:cookedHeaderSize'],
      ['names offset', 4], ['names size', 4], ['name hashes offset', 4], ['name hashes size', 4], ['import map offset', 4],
      ['export map offset', 4], ['export bundles offset', 4], ['graph data offset', 4], ['graph data size', 4], ['padding', 4],
    ]);
  }
  const versioning = sec.get('versioning info');
  if (versioning) {
    const at = list.fields(versioning.offset, versioning.name, '', [
      ['zen version', 4], ['file version UE4', 4], ['file version UE5', 4], ['licensee version', 4], ['custom version count', 4],
    ]);
    const n = Math.floor((versioning.offset + versioning.size - at) / 20);
    for (let i = 0; i < n; i++) list.fields(at + i * 20, versioning.name, `custom version ${i}`, [['guid', 16], ['version', 4]]);
  }
  const cells = sec.get('cell offsets');
  if (cells) list.fields(cells.offset, cells.name, '', [['cell import map offset', 4], ['cell export map offset', 4]]);

  const batch = sec.get('name batch');
  if (batch) nameBatch(list, b, batch, model.names, 'name');
  const pairs = sec.get('names');
  if (pairs) namePairs(list, b, pairs, model.names);
  const nameHashes = sec.get('name hashes');
  if (nameHashes) {
    list.add(nameHashes.offset, 8, 'hash algorithm id', nameHashes.name);
    entries(list, { ...nameHashes, offset: nameHashes.offset + 8, size: nameHashes.size - 8 }, 8, (i) => `hash of name ${i}: ${model.names[i] ?? '?'}`);
  }
  const importedNames = sec.get('imported package names');
  if (importedNames) nameBatch(list, b, importedNames, details.importedPackageNames ?? [], 'imported package', true);

  const bulk = sec.get('bulk data map');
  if (bulk) {
    const n = details.bulkData?.length ?? 0;
    const prefix = bulk.size - n * 32;
    let at = bulk.offset;
    if (prefix >= 16) {
      list.add(at, 8, 'padding length', bulk.name);
      list.add(at + 8, prefix - 16, 'padding', bulk.name);
      at += prefix - 8;
    }
    list.add(at, 8, 'bulk data map size', bulk.name);
    entries(list, { ...bulk, offset: at + 8, size: n * 32 }, 32, (i) => `bulk data ${i}`);
  }
  const hashes = details.importedPublicExportHashes ?? [];
  entries(list, sec.get('imported public export hashes'), 8, (i) => `imported public export hash ${i}: ${hashes[i] ?? '?'}`);
  entries(list, sec.get('import map'), 8, (i) => `import ${i}: ${model.imports[i]?.path ?? '?'}`, (i) => `import:${i}`);
  const exportMap = sec.get('export map');
  if (exportMap) {
    const n = Math.floor(exportMap.size / EXPORT_ENTRY_SIZE);
    for (let i = 0; i < n; i++) {
      const at = exportMap.offset + i * EXPORT_ENTRY_SIZE;
      const prefix = `export ${i} (${exportName(i)})`;
      // The whole entry is the export's row; its first field carries the link.
      list.fields(at, exportMap.name, prefix, ZEN_EXPORT_FIELDS.map(([l, s], k) => (k === 0 ? [l, s, `export:${i}`] as const : [l, s] as const)));
    }
  }
  entries(list, sec.get('cell import map'), 8, (i) => `cell import ${i}`);
  entries(list, sec.get('cell export map'), 40, (i) => `cell export ${i}`);
  const bundleEntries = details.exportBundleEntries ?? [];
  entries(list, sec.get('export bundle entries'), 8, (i) => {
    const e = bundleEntries[i];
    return e ? `bundle entry ${i}: ${e.command} export ${e.exportIndex} (${exportName(e.exportIndex)})` : `bundle entry ${i}`;
  });
  entries(list, sec.get('export bundles'), 8, (i) => `export bundle slot ${i}`);
  entries(list, sec.get('dependency bundle headers'), 20, (i) => `dependency bundle header ${i} (${exportName(i)})`);
  entries(list, sec.get('dependency bundle entries'), 4, (i) => `dependency bundle entry ${i}`);

  for (const e of model.exports) {
    if (e.dataFileOffset === undefined || e.dataFileOffset < 0) continue;
    list.add(e.dataFileOffset, e.serialSize, `export ${e.index} data: ${e.name} (${e.class})`, 'export data', `export-data:${e.index}`);
  }
  const tag = sec.get('package tag');
  if (tag) list.add(tag.offset, tag.size, 'package tag', tag.name);
  return finish(list, model.sections);
}

// ---- .uasset / .umap ----

/** Regions of a classic UE4/UE5 package; offsets count through the .uasset and then the .uexp. */
export function uassetRegions(pkg: UAssetPackage, model: PackageModel, cap = MAX_REGIONS): { regions: PackageByteRegion[]; total: number } {
  const list = new RegionList(cap);
  const sec = sectionsNamed(model);
  const summary = sec.get('summary');
  if (summary) {
    const fields = Object.entries(pkg.summary.fieldOffsets).sort((a, b) => a[1] - b[1]);
    fields.forEach(([name, at], i) => {
      const next = fields[i + 1]?.[1] ?? summary.offset + summary.size;
      list.add(at, next - at, name, summary.name, `field:${name}`);
    });
  }
  const names = sec.get('name map');
  if (names) {
    pkg.names.forEach((n, i) => {
      const next = pkg.names[i + 1]?.offset ?? names.offset + names.size;
      list.add(n.offset, next - n.offset, `name ${i}: ${n.name}`, names.name, `name:${i}`);
    });
  }
  const table = (s: Section | undefined, items: readonly { offset: number }[], label: (i: number) => string, ref: (i: number) => string): void => {
    if (!s || items.length === 0) return;
    const size = s.size / items.length;
    items.forEach((x, i) => list.add(x.offset, size, label(i), s.name, ref(i)));
  };
  table(sec.get('import map'), pkg.imports, (i) => `import ${i}: ${pkg.imports[i]!.path}`, (i) => `import:${i}`);
  table(sec.get('export map'), pkg.exports, (i) => `export ${i}: ${pkg.exports[i]!.path}`, (i) => `export:${i}`);
  for (const e of pkg.exports) {
    if (e.serialSize > 0 && e.dataFile !== 'missing') list.add(e.serialOffset, e.serialSize, `export ${e.index} data: ${e.objectName} (${e.className})`, 'export data', `export-data:${e.index}`);
  }
  pkg.thumbnails.forEach((t, i) => {
    if (t.dataSize > 0) list.add(t.dataOffset, t.dataSize, `thumbnail ${i} image (${t.format}): ${t.objectPath}`, `thumbnail ${t.objectPath}`, `thumbnail:${i}`);
  });
  return finish(list, model.sections);
}

// ---- UE1/2 ----

/** Regions of an Unreal Engine 1/2 package: header fields, table entries (variable length), export data. */
export function ue12Regions(pkg: Ue12Package, model: PackageModel, cap = MAX_REGIONS): { regions: PackageByteRegion[]; total: number } {
  const list = new RegionList(cap);
  const sec = sectionsNamed(model);
  const header = sec.get('header');
  if (header) {
    const h = pkg.header;
    const at = list.fields(0, header.name, '', [
      ['tag', 4], ['file version and licensee', 4], ['package flags', 4, 'field:packageFlags'], ['name count', 4, 'field:nameCount'],
      ['name offset', 4, 'field:nameOffset'], ['export count', 4, 'field:exportCount'], ['export offset', 4, 'field:exportOffset'],
      ['import count', 4, 'field:importCount'], ['import offset', 4, 'field:importOffset'],
    ]);
    if (h.heritageCount !== null) list.fields(at, header.name, '', [['heritage count', 4, 'field:heritageCount'], ['heritage offset', 4, 'field:heritageOffset']]);
    else {
      const after = list.fields(at, header.name, '', [['guid', 16, 'field:guid'], ['generation count', 4]]);
      h.generations.forEach((_, i) => list.fields(after + i * 8, header.name, `generation ${i}`, [['export count', 4], ['name count', 4]]));
    }
  }
  const variable = (s: Section | undefined, items: readonly { offset: number }[], label: (i: number) => string, ref: (i: number) => string): void => {
    if (!s) return;
    items.forEach((x, i) => list.add(x.offset, (items[i + 1]?.offset ?? s.offset + s.size) - x.offset, label(i), s.name, ref(i)));
  };
  variable(sec.get('name table'), pkg.names, (i) => `name ${i}: ${pkg.names[i]!.name}`, (i) => `name:${i}`);
  variable(sec.get('import table'), pkg.imports, (i) => `import ${i}: ${pkg.imports[i]!.path}`, (i) => `import:${i}`);
  variable(sec.get('export table'), pkg.exports, (i) => `export ${i}: ${pkg.exports[i]!.path}`, (i) => `export:${i}`);
  entries(list, sec.get('heritage table'), 16, (i) => `heritage ${i}: ${pkg.heritage[i] ?? '?'}`);
  for (const e of pkg.exports) {
    if (e.serialSize > 0) list.add(e.serialOffset, e.serialSize, `export ${e.index} data: ${e.objectName} (${e.className})`, 'export data', `export-data:${e.index}`);
  }
  return finish(list, model.sections);
}
