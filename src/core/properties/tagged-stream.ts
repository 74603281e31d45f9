/**
 * Tagged property streams: each value behind an FPropertyTag (tag.ts) that names it, its type and
 * its size, to the "None" that ends the list. A value carries its size, so one that cannot be
 * decoded keeps its bytes as hex and the stream goes on; only a tag that runs past the data, or a
 * stream without its terminator, stops it.
 */
import { FormatError } from '../errors.js';
import type { BinaryReader } from '../io/binary-reader.js';
import { type PropType, typeName } from './context.js';
import { isKnownType } from './decode-value.js';
import { NATIVE_ALTERNATIVES, NATIVE_STRUCTS } from './native-structs.js';
import { PropertyLoopError } from './property-errors.js';
import type { PropertyReader } from './reader.js';
import { type PropertyTag, readTag } from './tag.js';
import type { PropertyEntry, PropertyValue } from './types.js';
import { rawSuffix, rawHex } from './values.js';
import { hasTagExtensions } from './versions.js';

/** EClassSerializationControlExtension. */
const OVERRIDABLE_SERIALIZATION_INFORMATION = 0x02;

/**
 * A tagged property list, read to its "None". An object's list starts with a serialization
 * control byte from UE5.4 (a struct's does not).
 */
export function readTaggedProperties(pr: PropertyReader, r: BinaryReader, isStruct: boolean, out: PropertyEntry[] = []): PropertyEntry[] {
  pr.enter(r);
  try {
    if (!isStruct && hasTagExtensions(pr.ctx.versions)) {
      const control = r.u8();
      if (control & OVERRIDABLE_SERIALIZATION_INFORMATION) r.u8();
    }
    for (;;) {
      if (r.remaining === 0) throw r.error('the property list ends without its "None" terminator');
      const tag = readTag(pr, r);
      if (tag === null) return out;
      if (tag.size < 0 || tag.valueStart + tag.size > r.length) {
        throw r.error(`property "${tag.name}" (${typeName(tag.type)}) says its value has ${tag.size} bytes but only ${r.length - tag.valueStart} remain`, tag.tagStart);
      }
      out.push(taggedEntry(pr, r, tag));
      r.seek(tag.valueStart + tag.size);
    }
  } finally {
    pr.leave();
  }
}

/** One tagged property: its value decoded from exactly its bytes, or kept raw. */
function taggedEntry(pr: PropertyReader, r: BinaryReader, tag: PropertyTag): PropertyEntry {
  const entry: PropertyEntry = { name: tag.name, type: typeName(tag.type), value: null };
  if (tag.indexed || tag.arrayIndex > 0) entry.arrayIndex = tag.arrayIndex;
  if (pr.ctx.offsets) entry.range = { start: pr.at(r, tag.tagStart), value: pr.at(r, tag.valueStart), end: pr.at(r, tag.valueStart + tag.size) };
  if (tag.skipped) {
    entry.note = 'the value was skipped when saving';
    return entry;
  }
  if (tag.type.type === 'BoolProperty') {
    entry.value = tag.boolValue;
    return entry;
  }
  const bytes = r.slice(tag.valueStart, tag.size, `property "${tag.name}"`);
  const outerProperty = pr.currentProperty;
  pr.currentProperty = tag.name;
  let lastProblem = '';
  try {
    for (const attempt of taggedAttempts(pr, tag)) {
      const sub = r.slice(tag.valueStart, tag.size, `property "${tag.name}"`);
      try {
        const value = attempt.read(sub);
        if (sub.pos === tag.size) {
          entry.value = value;
          if (attempt.note) entry.note = attempt.note;
          pr.noteElements(entry);
          return entry;
        }
        lastProblem ||= `decoding it used ${sub.pos} of its ${tag.size} bytes`;
      } catch (e) {
        if (!(e instanceof FormatError) || e instanceof PropertyLoopError) throw e;
        lastProblem ||= e.detail;
      }
    }
  } finally {
    pr.currentProperty = outerProperty;
  }
  entry.value = rawHex(bytes.bytes);
  entry.raw = true;
  entry.offset = r.base + tag.valueStart - pr.exportBase;
  entry.note = (lastProblem ? `kept raw: ${lastProblem}` : `kept raw: ${typeName(tag.type)} is not a type this reader knows`) + rawSuffix(tag.size);
  return entry;
}

/** The ways a tagged value may be decoded, most likely first. */
function taggedAttempts(pr: PropertyReader, tag: PropertyTag): { read: (r: BinaryReader) => PropertyValue; note?: string }[] {
  const t = tag.type;
  if (t.type !== 'StructProperty') {
    if (!isKnownType(t.type)) return [];
    const attempts: { read: (r: BinaryReader) => PropertyValue; note?: string }[] = [{ read: (r) => pr.value(r, t, 'normal', tag.size) }];
    // Containers of structs whose tag does not name the struct (before UE4.12 for arrays, UE5.4
    // for sets and maps): a property named for GUIDs holds Guids.
    const guessed = guessContainerStruct(t, tag.name);
    if (guessed) attempts.push({ read: (r) => pr.value(r, guessed, 'normal', tag.size), note: 'struct type guessed from the property name: Guid' });
    return attempts;
  }
  const name = t.struct;
  const native = name !== undefined ? NATIVE_STRUCTS.get(name) : undefined;
  const tagged = { read: (r: BinaryReader): PropertyValue => readTaggedProperties(pr, r, true) };
  // UE5.4 tags say which way the struct was written.
  if (tag.binaryOrNative === false) return [tagged];
  const attempts: { read: (r: BinaryReader) => PropertyValue; note?: string }[] = [];
  if (native) attempts.push({ read: (r) => native(pr, r) });
  for (const alt of (name !== undefined ? NATIVE_ALTERNATIVES.get(name) : undefined) ?? []) attempts.push({ read: (r) => alt(pr, r) });
  // A struct with a native serializer that falls back to tagged properties (FConstraintInstance)
  // is flagged binary too: without a native reader its bytes are tried as tagged properties.
  if (tag.binaryOrNative !== true || !native) attempts.push(tagged);
  return attempts;
}

/** A container type whose unnamed struct parts are Guids, when the property's name says GUID; else undefined. */
function guessContainerStruct(t: PropType, propertyName: string): PropType | undefined {
  if (!/guid/i.test(propertyName)) return undefined;
  const fill = (x: PropType | undefined): PropType | undefined =>
    x && x.type === 'StructProperty' && x.struct === undefined ? { type: 'StructProperty', struct: 'Guid' } : x;
  if ((t.type === 'ArrayProperty' || t.type === 'SetProperty') && fill(t.inner) !== t.inner) return { ...t, inner: fill(t.inner) };
  if (t.type === 'MapProperty' && (fill(t.inner) !== t.inner || fill(t.value) !== t.value)) return { ...t, inner: fill(t.inner), value: fill(t.value) };
  return undefined;
}
