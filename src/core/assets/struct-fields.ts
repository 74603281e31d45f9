/**
 * Reading a struct the property reader gave (a list of PropertyEntry, or a native struct's object
 * of fields) by field name, for the asset readers that walk deep structs (MetaSound documents,
 * Niagara parameter stores). Names compare without case: the tagged and the unversioned cooks of
 * one class spell some differently ("RootMetasoundDocument" / "RootMetaSoundDocument", "Metadata"
 * / "MetaData"). A value of the wrong shape is a FormatError naming the file, the field's path and
 * the nearest byte offset the reader knows.
 */
import { FormatError } from '../errors.js';
import type { PropertyEntry, PropertyValue } from '../properties/types.js';

const isEntry = (v: unknown): v is PropertyEntry =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as PropertyEntry).name === 'string' && typeof (v as PropertyEntry).type === 'string' && 'value' in (v as object);

/** A struct value: its fields by name, where it sits in the file, and how to name it in errors. */
export class StructFields {
  private readonly byName = new Map<string, { value: PropertyValue; offset: number }>();

  constructor(readonly file: string, readonly where: string, value: PropertyValue | undefined, readonly offset: number) {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const e of value) {
        if (!isEntry(e)) throw new FormatError(file, where, offset, 'not a struct (a list of values, not of properties)');
        // A static array's elements share a name: the first one is the field.
        const key = e.name.toLowerCase();
        if (!this.byName.has(key)) this.byName.set(key, { value: e.value, offset: e.range?.value ?? e.offset ?? offset });
      }
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) this.byName.set(k.toLowerCase(), { value: v, offset });
    } else {
      throw new FormatError(file, where, offset, `not a struct (a ${typeof value})`);
    }
  }

  /** Fields of a list of properties (an export's). */
  static of(file: string, where: string, entries: readonly PropertyEntry[], offset = 0): StructFields {
    return new StructFields(file, where, entries as PropertyEntry[], offset);
  }

  has(name: string): boolean { return this.byName.has(name.toLowerCase()); }
  raw(name: string): PropertyValue | undefined { return this.byName.get(name.toLowerCase())?.value; }
  offsetOf(name: string): number { return this.byName.get(name.toLowerCase())?.offset ?? this.offset; }
  private path(name: string): string { return `${this.where}.${name}`; }

  /** A nested struct (empty when absent: the class default is a struct of defaults). */
  struct(name: string): StructFields {
    return new StructFields(this.file, this.path(name), this.raw(name), this.offsetOf(name));
  }

  /** A nested struct, or undefined when the field is absent. */
  optionalStruct(name: string): StructFields | undefined {
    return this.has(name) ? this.struct(name) : undefined;
  }

  /** An array (empty when absent). */
  array(name: string): PropertyValue[] {
    const v = this.raw(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some(isEntry)) throw new FormatError(this.file, this.path(name), this.offsetOf(name), 'not an array');
    return v as PropertyValue[];
  }

  /** An array of structs (empty when absent). */
  structs(name: string): StructFields[] {
    return this.array(name).map((v, i) => new StructFields(this.file, `${this.path(name)}[${i}]`, v, this.offsetOf(name)));
  }

  /** A string field (Name, Str, Guid, enum, object path); `fallback` when absent; null for a null reference. */
  string(name: string, fallback = ''): string {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string') throw new FormatError(this.file, this.path(name), this.offsetOf(name), `not a string (${JSON.stringify(v)?.slice(0, 60)})`);
    return v;
  }

  /** An object reference's path, null for a null reference or an absent field. */
  reference(name: string): string | null {
    const v = this.raw(name);
    if (v === undefined || v === null || v === '' || v === 'None') return null;
    if (typeof v !== 'string') throw new FormatError(this.file, this.path(name), this.offsetOf(name), 'not an object reference');
    return v;
  }

  number(name: string, fallback: number): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'number') throw new FormatError(this.file, this.path(name), this.offsetOf(name), `not a number (${JSON.stringify(v)?.slice(0, 60)})`);
    return v;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') throw new FormatError(this.file, this.path(name), this.offsetOf(name), 'not a boolean');
    return v;
  }
}

/** "EMetasoundFrontendClassType::Input" -> "Input": an enum value without its type. */
export const enumValue = (v: string): string => v.slice(v.lastIndexOf(':') + 1);
