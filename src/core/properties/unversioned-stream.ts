/**
 * Unversioned property streams: an FUnversionedHeader and the values it lists, in the order of
 * the class's schema (the package's own, or the mappings'). The values have no sizes: one that
 * cannot be decoded ends the stream.
 */
import { FormatError } from '../errors.js';
import type { BinaryReader } from '../io/binary-reader.js';
import type { MappedProperty, MappedStruct } from '../usmap/types.js';
import { typeName } from './context.js';
import { MAX_PROPERTY_DEPTH } from './property-errors.js';
import type { PropertyReader } from './reader.js';
import type { PropertyEntry } from './types.js';

/** The property at a schema slot of `s`, counting its own slots first, then its supers'. */
function schemaSlot(pr: PropertyReader, s: MappedStruct, index: number): { prop: MappedProperty; arrayIndex: number } | undefined {
  let cur: MappedStruct | undefined = s;
  for (let hops = 0; cur && hops < MAX_PROPERTY_DEPTH; hops++) {
    if (index < cur.propertyCount) {
      let cache = pr.slotCache.get(cur);
      if (!cache) {
        cache = new Map();
        for (const p of cur.properties) for (let i = 0; i < p.arrayDim; i++) cache.set(p.index + i, { prop: p, arrayIndex: i });
        pr.slotCache.set(cur, cache);
      }
      return cache.get(index);
    }
    index -= cur.propertyCount;
    cur = cur.super ? pr.findSchema(cur.super) : undefined;
  }
  return undefined;
}

/** An FUnversionedHeader and the values it lists, in schema order. */
export function readUnversionedProperties(pr: PropertyReader, r: BinaryReader, structName: string, out: PropertyEntry[] = []): PropertyEntry[] {
  pr.enter(r);
  try {
    const headerAt = r.pos;
    const header = readUnversionedHeader(r);
    if (header.values.length === 0) return out;
    const schema = pr.findSchema(structName);
    if (!schema) {
      throw r.error(`"${structName}" is not in the mappings, so its unversioned properties cannot be read`, headerAt);
    }
    for (const { index, zero } of header.values) {
      const slot = schemaSlot(pr, schema, index);
      if (!slot) {
        if (zero) continue; // a default value of a property the mappings do not know: nothing to read
        throw r.error(`${structName} has no property at schema index ${index} in the mappings (do they match this game build?)`);
      }
      const { prop, arrayIndex } = slot;
      const entry: PropertyEntry = { name: prop.name, type: typeName(prop.type), value: null };
      if (prop.arrayDim > 1) entry.arrayIndex = arrayIndex;
      if (zero) {
        entry.value = pr.zero(prop.type);
      } else {
        const at = r.pos;
        try {
          entry.value = pr.value(r, prop.type, 'normal');
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          throw propertyError(r, `property "${prop.name}" (${entry.type})`, e);
        }
        if (pr.ctx.offsets) {
          entry.range = { start: pr.at(r, at), value: pr.at(r, at), end: pr.at(r, r.pos) };
          pr.noteElements(entry);
        }
      }
      out.push(entry);
    }
    return out;
  } finally {
    pr.leave();
  }
}

interface UnversionedHeader {
  /** Schema index of each stored or zero value, in order. */
  values: { index: number; zero: boolean }[];
}

/** Real schemas have at most a few thousand slots; more fragments than this are corrupt data. */
const MAX_FRAGMENTS = 65536;

/**
 * FUnversionedHeader: u16 fragments (7-bit skip count, has-zero-mask bit, last-fragment bit,
 * 7-bit value count), then a bit mask over the values of fragments that have one: one byte for up
 * to 8 bits, two for up to 16, else whole u32 words.
 */
export function readUnversionedHeader(r: BinaryReader): UnversionedHeader {
  const fragments: { skip: number; hasZeros: boolean; count: number }[] = [];
  let zeroBits = 0;
  for (;;) {
    const packed = r.u16();
    const frag = { skip: packed & 0x7f, hasZeros: (packed & 0x80) !== 0, count: packed >> 9 };
    fragments.push(frag);
    if (frag.hasZeros) zeroBits += frag.count;
    if (packed & 0x100) break;
    if (fragments.length > MAX_FRAGMENTS) throw r.error(`unversioned header has more than ${MAX_FRAGMENTS} fragments`);
  }
  let mask: Uint8Array = new Uint8Array(0);
  if (zeroBits > 0) {
    const bytes = zeroBits <= 8 ? 1 : zeroBits <= 16 ? 2 : Math.ceil(zeroBits / 32) * 4;
    mask = r.bytesView(bytes);
  }
  const values: { index: number; zero: boolean }[] = [];
  let index = 0, bit = 0;
  for (const f of fragments) {
    index += f.skip;
    for (let i = 0; i < f.count; i++) {
      const zero = f.hasZeros && ((mask[bit >> 3]! >> (bit & 7)) & 1) === 1;
      if (f.hasZeros) bit++;
      values.push({ index: index++, zero });
    }
  }
  return { values };
}

/**
 * `e`, thrown reading the value of `property` with the export's reader `r`: its structure path
 * starts with the reader's (the export), then this property, then what `e` adds (inner properties).
 */
function propertyError(r: BinaryReader, property: string, e: FormatError): FormatError {
  const holder = r.structure;
  const inner = e.structure === holder ? '' : e.structure.startsWith(`${holder} > `) ? e.structure.slice(holder.length) : ` > ${e.structure}`;
  return new FormatError(e.file, `${holder} > ${property}${inner}`, e.offset, e.detail);
}
