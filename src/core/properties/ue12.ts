/**
 * UE1/UE2 properties (UT99, Deus Ex, UT2004), as UE Explorer (UELib's UDefaultProperty) reads
 * them: a name (compact index), an info byte (type in the low 4 bits, a size code in bits 4-6,
 * bit 7 the array flag, or the value of a bool), a struct name for structs, the size (packed or
 * explicit), then an array index when the flag is set.
 *
 * An object with a state frame (RF_HasStack) stores it before its properties. A class (class
 * index 0) has no property stream at the start: its defaults follow its script, which is not
 * read here. Array elements and binary structs other than the engine's math types need the
 * class definition, so their bytes are kept raw.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { Ue12ObjectFlags } from '../ue12/flags.js';
import type { Ue12Export, Ue12Package } from '../ue12/package.js';
import { Ue12Version } from '../ue12/versions.js';
import { recordError } from './property-errors.js';
import type { ExportProperties, PackageProperties, PropertyEntry, PropertyValue } from './types.js';
import { float32Value, rawSuffix, rawHex } from './values.js';

/** UE1/2 property types by their info-byte number. */
const TYPES: Record<number, string> = {
  1: 'ByteProperty', 2: 'IntProperty', 3: 'BoolProperty', 4: 'FloatProperty', 5: 'ObjectProperty', 6: 'NameProperty',
  7: 'StringProperty', 8: 'ClassProperty', 9: 'ArrayProperty', 10: 'StructProperty', 11: 'VectorProperty',
  12: 'RotatorProperty', 13: 'StrProperty', 14: 'MapProperty', 15: 'FixedArrayProperty', 16: 'PointerProperty',
};

/** Version from which only some structs (the atomic math types) stay binary; the rest are tagged. */
const SERIALIZE_STRUCT_TAGS = 118;
/** Version from which type 7 is DelegateProperty (it was a fixed-length string). */
const DELEGATE_PROPERTY = 100;
const MAX_DEPTH = 32;

interface Ue12Tag {
  name: string;
  type: string;
  structName?: string;
  size: number;
  arrayIndex: number;
  boolValue: boolean;
}

class Ue12Reader {
  /** `offsets`: record each entry's byte range (PropertyEntry.range). */
  constructor(readonly pkg: Ue12Package, readonly offsets = false) {}
  private get version(): number { return this.pkg.header.fileVersion; }

  name(r: BinaryReader): string {
    const at = r.pos;
    const i = r.compactIndex();
    const n = this.pkg.names[i];
    if (n === undefined) throw r.error(`name index ${i} is outside the name table (${this.pkg.names.length} names)`, at);
    return n.name;
  }

  object(r: BinaryReader): string | null {
    const at = r.pos;
    const i = r.compactIndex();
    if (i === 0) return null;
    const o = i > 0 ? this.pkg.exports[i - 1] : this.pkg.imports[-i - 1];
    if (o === undefined) throw r.error(`object index ${i} is outside the import and export tables`, at);
    return o.path;
  }

  /** FString: compact-index length with the NUL; negative for UTF-16 (UE2). */
  string(r: BinaryReader): string {
    const at = r.pos;
    const n = r.compactIndex();
    if (n === 0) return '';
    if (n > 0) {
      r.need(n);
      const s = r.latin1(n - 1);
      r.skip(1);
      return s;
    }
    if (-n * 2 > r.remaining) throw r.error(`string of ${-n} UTF-16 units but only ${r.remaining} bytes remain`, at);
    const s = r.utf16(-n - 1);
    r.skip(2);
    return s;
  }

  /** One tag; null at "None". */
  tag(r: BinaryReader): Ue12Tag | null {
    const name = this.name(r);
    if (name === 'None') return null;
    const infoAt = r.pos;
    const info = r.u8();
    const typeNumber = info & 0x0f;
    const type = TYPES[typeNumber];
    if (type === undefined) throw r.error(`property "${name}" has unknown type ${typeNumber}`, infoAt);
    const tag: Ue12Tag = { name, type: type === 'StringProperty' && this.version >= DELEGATE_PROPERTY ? 'DelegateProperty' : type, size: 0, arrayIndex: 0, boolValue: false };
    if (type === 'StructProperty') tag.structName = this.name(r);
    switch (info & 0x70) {
      case 0x00: tag.size = 1; break;
      case 0x10: tag.size = 2; break;
      case 0x20: tag.size = 4; break;
      case 0x30: tag.size = 12; break;
      case 0x40: tag.size = 16; break;
      case 0x50: tag.size = r.u8(); break;
      case 0x60: tag.size = r.u16(); break;
      default: tag.size = r.i32(); break;
    }
    if (type === 'BoolProperty') {
      tag.boolValue = (info & 0x80) !== 0;
      tag.size = 0; // the size code of a bool is meaningless: its value is the array bit
    } else if (info & 0x80) {
      tag.arrayIndex = arrayIndex(r);
    }
    return tag;
  }

  /**
   * A property stream to its "None". `strict` also rejects sizes a type cannot have (a 2-byte
   * int): how a class's defaults are told from the bytes before them.
   */
  properties(r: BinaryReader, out: PropertyEntry[], base: number, depth = 0, strict = false): void {
    if (depth > MAX_DEPTH) throw r.error(`structs nested deeper than ${MAX_DEPTH} (a property loop?)`);
    for (;;) {
      if (r.remaining === 0) throw r.error('the property list ends without its "None" terminator');
      const tagAt = r.pos;
      const tag = this.tag(r);
      if (tag === null) return;
      if (tag.size < 0 || tag.size > r.remaining) {
        throw r.error(`property "${tag.name}" (${tag.type}) says its value has ${tag.size} bytes but only ${r.remaining} remain`, tagAt);
      }
      const start = r.pos;
      if (strict && !plausibleSize(tag)) throw r.error(`property "${tag.name}" (${tag.type}) cannot have ${tag.size} bytes`, tagAt);
      const entry: PropertyEntry = { name: tag.name, type: tag.structName ? `StructProperty<${tag.structName}>` : tag.type, value: null };
      if (tag.arrayIndex > 0) entry.arrayIndex = tag.arrayIndex;
      if (this.offsets) entry.range = { start: r.base + tagAt - base, value: r.base + start - base, end: r.base + start + tag.size - base };
      if (tag.type === 'BoolProperty') {
        entry.value = tag.boolValue;
      } else {
        const sub = r.slice(start, tag.size, `property "${tag.name}"`);
        let problem: string;
        try {
          const value = this.value(sub, tag, base, depth);
          if (sub.pos === tag.size) entry.value = value;
          problem = sub.pos === tag.size ? '' : `decoding it used ${sub.pos} of its ${tag.size} bytes`;
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          problem = e.detail;
        }
        if (problem) {
          entry.value = rawHex(sub.bytes);
          entry.raw = true;
          entry.offset = r.base + start - base;
          entry.note = `kept raw: ${problem}${rawSuffix(tag.size)}`;
        }
      }
      out.push(entry);
      r.seek(start + tag.size);
    }
  }

  private value(r: BinaryReader, tag: Ue12Tag, base: number, depth: number): PropertyValue {
    switch (tag.type) {
      case 'ByteProperty': return r.u8();
      case 'IntProperty': return r.i32();
      case 'FloatProperty': return float32Value(r.f32());
      case 'ObjectProperty':
      case 'ClassProperty':
        return this.object(r);
      case 'NameProperty': return this.name(r);
      case 'StringProperty': return fixedString(r, tag.size);
      case 'DelegateProperty': return { object: this.object(r), function: this.name(r) };
      case 'StrProperty': return this.string(r);
      case 'PointerProperty': return r.i32();
      case 'VectorProperty': return vector(r);
      case 'RotatorProperty': return rotator(r);
      case 'StructProperty': return this.struct(r, tag.structName!, base, depth);
      case 'ArrayProperty': {
        const n = r.compactIndex();
        if (n === 0 && r.remaining === 0) return [];
        // One byte per element can only be bytes; other sizes need the class's definition.
        if (n > 0 && r.remaining === n) return Array.from(r.bytesView(n));
        throw new NeedsClassError(r, `an array of ${n} elements whose type only the class definition gives`);
      }
      default:
        throw new NeedsClassError(r, `a ${tag.type} needs the class definition`);
    }
  }

  private struct(r: BinaryReader, name: string, base: number, depth: number): PropertyValue {
    const binary = BINARY_STRUCTS[name];
    if (binary && (this.version < SERIALIZE_STRUCT_TAGS || TAGGED_ERA_BINARY.has(name))) return binary(this, r);
    if (this.version < SERIALIZE_STRUCT_TAGS) throw new NeedsClassError(r, `a binary ${name} struct needs the struct definition`);
    const out: PropertyEntry[] = [];
    this.properties(r, out, base, depth + 1);
    return out;
  }
}

/** Sizes each type can have (structs and containers: anything). */
function plausibleSize(tag: Ue12Tag): boolean {
  switch (tag.type) {
    case 'ByteProperty': return tag.size === 1;
    case 'IntProperty': case 'FloatProperty': return tag.size === 4;
    case 'ObjectProperty': case 'ClassProperty': case 'NameProperty': return tag.size >= 1 && tag.size <= 5;
    case 'StructProperty':
      return tag.structName === 'Vector' || tag.structName === 'Rotator' ? tag.size === 12 : tag.structName === 'Color' ? tag.size === 4 : tag.size > 0;
    case 'BoolProperty': return true;
    default: return tag.size > 0;
  }
}

/** A value whose layout the class or struct definition would give (kept raw, not an error). */
class NeedsClassError extends FormatError {
  constructor(r: BinaryReader, detail: string) {
    super(r.file, r.structure, r.absolutePos, detail);
  }
}

/** UE1's array index: 1, 2 or 4 bytes by its top bits. */
function arrayIndex(r: BinaryReader): number {
  const b = r.u8();
  if ((b & 0x80) === 0) return b;
  if ((b & 0xc0) === 0x80) return ((b & 0x7f) << 8) + r.u8();
  const c = r.u8(), d = r.u8(), e = r.u8();
  return (b & 0x3f) * 0x1000000 + (c << 16) + (d << 8) + e;
}

function fixedString(r: BinaryReader, size: number): string {
  const b = r.bytesView(size);
  const end = b.indexOf(0);
  return new TextDecoder('latin1').decode(end < 0 ? b : b.subarray(0, end));
}

const f = (r: BinaryReader): number | string => float32Value(r.f32());
const vector = (r: BinaryReader): PropertyValue => ({ X: f(r), Y: f(r), Z: f(r) });
const rotator = (r: BinaryReader): PropertyValue => ({ Pitch: r.i32(), Yaw: r.i32(), Roll: r.i32() });

/** The structs the engine serializes as raw bytes (UELib's BinaryStructType), with their layouts. */
const BINARY_STRUCTS: Record<string, (pr: Ue12Reader, r: BinaryReader) => PropertyValue> = {
  Vector: (_p, r) => vector(r),
  Rotator: (_p, r) => rotator(r),
  Rotation: (_p, r) => rotator(r),
  Color: (p, r) => {
    const a = r.u8(), g = r.u8(), b = r.u8(), alpha = r.u8();
    // UE1 stores R,G,B,A; UE2 stores B,G,R,A.
    return p.pkg.header.fileVersion > Ue12Version.UT99 ? { R: b, G: g, B: a, A: alpha } : { R: a, G: g, B: b, A: alpha };
  },
  PointRegion: (p, r) => ({ Zone: p.object(r), iLeaf: r.i32(), ZoneNumber: r.u8() }),
  Region: (p, r) => ({ Zone: p.object(r), iLeaf: r.i32(), ZoneNumber: r.u8() }),
  // "struct Plane extends Vector": a struct's own fields serialize before its super's.
  Plane: (_p, r) => ({ W: f(r), X: f(r), Y: f(r), Z: f(r) }),
  Sphere: (_p, r) => ({ W: f(r), X: f(r), Y: f(r), Z: f(r) }),
  Quat: (_p, r) => ({ X: f(r), Y: f(r), Z: f(r), W: f(r) }),
  Scale: (_p, r) => ({ Scale: vector(r), SheerRate: f(r), SheerAxis: r.u8() }),
  Coords: (_p, r) => ({ Origin: vector(r), XAxis: vector(r), YAxis: vector(r), ZAxis: vector(r) }),
  Box: (_p, r) => ({ Min: vector(r), Max: vector(r), IsValid: r.u8() }),
  Range: (_p, r) => ({ Min: f(r), Max: f(r) }),
  RangeVector: (_p, r) => ({ X: { Min: f(r), Max: f(r) }, Y: { Min: f(r), Max: f(r) }, Z: { Min: f(r), Max: f(r) } }),
  Guid: (_p, r) => r.guid(),
};
/** From version 118 only these stay binary (UELib, for packages older than UE3's immutable structs). */
const TAGGED_ERA_BINARY = new Set(['Vector', 'Rotator', 'Color', 'PointRegion']);

/** FStateFrame of an object with RF_HasStack (UE1/2 layout). */
function skipStateFrame(p: Ue12Reader, r: BinaryReader): void {
  const node = p.object(r);
  p.object(r); // StateNode
  r.u64(); // ProbeMask
  r.u32(); // LatentAction
  if (node !== null) r.compactIndex(); // code offset
}

/** Version from which a class names its Within class and config; 99: its hidden categories. */
const CLASS_WITHIN = 62;
const CLASS_HIDE_CATEGORIES = 99;
/** More entries than this in a class's tables is not a class. */
const MAX_CLASS_TABLE = 4096;

/**
 * Where a class's default properties start. They end the class's data, after its script, whose
 * size on disk cannot be known without decompiling it; so the class's fixed tail (ClassFlags,
 * ClassGuid, dependencies, package imports, Within, ConfigName, hidden categories) is looked for
 * at each offset, and taken where its tables check out (dependencies are classes with a 0/1
 * "deep" flag, imports are names) and a strict property stream after it ends exactly at the end.
 */
function locateClassDefaults(p: Ue12Reader, r: BinaryReader, base: number): { start: number; properties: PropertyEntry[] } | undefined {
  const pkg = p.pkg;
  const version = pkg.header.fileVersion;
  const isClass = (index: number): boolean => {
    const o = index > 0 ? pkg.exports[index - 1] : index < 0 ? pkg.imports[-index - 1] : undefined;
    return o !== undefined && o.className === 'Class';
  };
  const validName = (i: number): boolean => i >= 0 && i < pkg.names.length;
  for (let q = 0; q + 21 < r.length; q++) {
    const s = r.slice(q, r.length - q);
    try {
      s.skip(4 + 16); // ClassFlags, ClassGuid
      const deps = s.compactIndex();
      if (deps < 1 || deps > MAX_CLASS_TABLE) continue;
      let ok = true;
      for (let i = 0; i < deps && ok; i++) {
        ok = isClass(s.compactIndex()) && s.u32() <= 1;
        s.skip(4); // ScriptTextCRC
      }
      if (!ok) continue;
      const imports = s.compactIndex();
      if (imports < 0 || imports > MAX_CLASS_TABLE) continue;
      for (let i = 0; i < imports && ok; i++) ok = validName(s.compactIndex());
      if (!ok) continue;
      if (version >= CLASS_WITHIN) {
        const within = s.compactIndex();
        if (within !== 0 && !isClass(within)) continue;
        if (!validName(s.compactIndex())) continue;
      }
      if (version >= CLASS_HIDE_CATEGORIES) {
        const hidden = s.compactIndex();
        if (hidden < 0 || hidden > MAX_CLASS_TABLE) continue;
        for (let i = 0; i < hidden && ok; i++) ok = validName(s.compactIndex());
        if (!ok) continue;
      }
      const start = q + s.pos;
      const defaults = r.slice(start, r.length - start);
      const properties: PropertyEntry[] = [];
      p.properties(defaults, properties, base, 0, true);
      if (defaults.remaining === 0) return { start, properties };
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return undefined;
}

function exportProperties(p: Ue12Reader, bytes: Uint8Array, e: Ue12Export): ExportProperties {
  const out: ExportProperties = {
    index: e.index, name: e.objectName, class: e.className, properties: [], propertyBytes: 0, propertyStart: 0,
    serialSize: e.serialSize, encoding: 'ue12', error: null,
  };
  if (e.serialSize === 0) {
    out.encoding = 'none';
    return out;
  }
  const file = p.pkg.fileName;
  const end = Math.min(bytes.length, e.serialOffset + e.serialSize);
  if (e.serialOffset >= end) {
    recordError(out, new FormatError(file, `export ${e.index} "${e.objectName}" properties`, e.serialOffset,
      `the export's ${e.serialSize} bytes are past the end of the file`));
    return out;
  }
  const r = new BinaryReader(bytes.subarray(e.serialOffset, end), file, e.serialOffset).struct(`export ${e.index} "${e.objectName}" properties`);
  if (e.classIndex === 0) {
    // A class: no property stream at the start; its defaults end its data.
    const found = locateClassDefaults(p, r, e.serialOffset);
    if (!found) {
      out.encoding = 'none';
      out.notes = ['a class: its default properties follow its script, and were not found'];
      return out;
    }
    out.properties = found.properties;
    out.propertyStart = found.start;
    out.propertyBytes = r.length - found.start;
    out.notes = ['a class: its default properties, found after its script and class tables'];
    return out;
  }
  const notes: string[] = [];
  try {
    if (e.objectFlags & Ue12ObjectFlags.RF_HasStack) {
      skipStateFrame(p, r);
      out.propertyStart = r.pos;
      notes.push(`a state frame (${r.pos} bytes) comes before the properties`);
    }
    p.properties(r, out.properties, e.serialOffset);
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    recordError(out, err);
  }
  out.propertyBytes = r.pos - out.propertyStart;
  if (notes.length > 0) out.notes = notes;
  return out;
}

/** The properties of export `index` (0-based) of a UE1/2 package alone; `bytes` is the whole file. */
export function ue12ExportProperties(pkg: Ue12Package, bytes: Uint8Array, index: number): ExportProperties {
  const e = pkg.exports[index];
  if (!e) throw new RangeError(`${pkg.fileName}: no export ${index} (the package has ${pkg.exports.length})`);
  return exportProperties(new Ue12Reader(pkg), bytes, e);
}

/** The properties of every export of a UE1/2 package; `bytes` is the whole file. `offsets`: record each entry's byte range. */
export function ue12Properties(pkg: Ue12Package, bytes: Uint8Array, opts: { offsets?: boolean } = {}): PackageProperties {
  const p = new Ue12Reader(pkg, opts.offsets ?? false);
  return { package: pkg.packageName, exports: pkg.exports.map((e) => exportProperties(p, bytes, e)) };
}
