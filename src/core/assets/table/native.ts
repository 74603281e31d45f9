/**
 * What table classes serialize after their property stream (UObject's bHasGuid and FGuid first):
 *
 *   UDataTable (and UCompositeDataTable): i32 row count; per row an FName and the row struct's
 *     properties (tagged, or unversioned by the row struct's schema).
 *   UStringTable: FString namespace; i32 count of (FString key, FString source string); i32
 *     count of (FString key, i32 count of (FName, FString)) metadata.
 *   UCurveTable (and UCompositeCurveTable): i32 row count; ECurveTableMode (u8, from
 *     FFortniteMainBranchObjectVersion ShrinkCurveTableSize); per row an FName and an
 *     FSimpleCurve or FRichCurve struct.
 *
 * The readers return the raw rows (property entries); rows.ts turns them into table objects.
 */
import { FormatError } from '../../errors.js';
import type { BinaryReader } from '../../io/binary-reader.js';
import type { NativeDataReader } from '../../properties/context.js';
import type { PropertyReader } from '../../properties/reader.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { CustomVersionKey, customVersionAtLeast } from '../../properties/versions.js';

export const DATA_TABLE_CLASSES = ['DataTable', 'CompositeDataTable'] as const;
export const STRING_TABLE_CLASSES = ['StringTable'] as const;
export const CURVE_TABLE_CLASSES = ['CurveTable', 'CompositeCurveTable'] as const;
export const CURVE_ASSET_CLASSES = ['CurveFloat', 'CurveVector', 'CurveLinearColor'] as const;

/** FFortniteMainBranchObjectVersion::ShrinkCurveTableSize: the curve table mode byte. */
const SHRINK_CURVE_TABLE_SIZE = 23;
const CURVE_TABLE_MODES = ['Empty', 'SimpleCurves', 'RichCurves'] as const;

export interface RawRow {
  name: string;
  entries: PropertyEntry[];
}

export type NativeTable =
  | { type: 'data'; rows: RawRow[]; error?: string }
  | { type: 'string'; namespace: string; entries: { key: string; value: string }[]; metadata: Map<string, Record<string, string>> }
  | { type: 'curve'; mode: string; rows: RawRow[]; error?: string };

const has = (list: readonly string[], c: string): boolean => list.includes(c);

/** The short name of an object path: "/Script/Mod.FixtureTableRow" -> "FixtureTableRow". */
export function shortName(path: string): string {
  const tail = path.slice(path.lastIndexOf('/') + 1);
  return tail.slice(Math.max(tail.lastIndexOf('.'), tail.lastIndexOf(':')) + 1);
}

/** UObject::Serialize's tail after the properties: bHasGuid and the object's FGuid when set. */
function skipObjectGuid(r: BinaryReader): void {
  if (r.remaining < 4) return;
  if (r.bool32()) r.skip(16);
}

/** A struct's properties as a list of entries (a native struct's object becomes entries too). */
function structEntries(pr: PropertyReader, r: BinaryReader, struct: string): PropertyEntry[] {
  const v: PropertyValue = pr.struct(r, struct);
  if (Array.isArray(v)) return v as PropertyEntry[];
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([name, value]) => ({ name, type: 'native', value }));
  return [{ name: 'Value', type: 'native', value: v }];
}

/**
 * `count` rows of an FName and the struct's properties. A row that does not read (its struct not
 * in the mappings, bad bytes) ends them: the rows before it are kept, with the reason. Unversioned
 * rows state no size, so no later row can be found.
 */
function readRows(pr: PropertyReader, r: BinaryReader, count: number, struct: string): { rows: RawRow[]; error?: string } {
  const rows: RawRow[] = [];
  for (let i = 0; i < count; i++) {
    let name: string | undefined;
    try {
      name = pr.name(r);
      rows.push({ name, entries: struct === '' ? [] : structEntries(pr, r, struct) });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      return { rows, error: `row ${i}${name !== undefined ? ` "${name}"` : ''} of ${count} does not read: ${e.message}` };
    }
  }
  return { rows };
}

function dataTable(pr: PropertyReader, r: BinaryReader, properties: readonly PropertyEntry[]): NativeTable {
  const rowStruct = properties.find((p) => p.name === 'RowStruct')?.value;
  if (typeof rowStruct !== 'string' || rowStruct === '') throw r.error('the data table names no RowStruct, so its rows cannot be read');
  const struct = shortName(rowStruct);
  r.struct(`data table rows (${struct})`);
  return { type: 'data', ...readRows(pr, r, r.count(8, 'data table row count'), struct) };
}

function stringTable(pr: PropertyReader, r: BinaryReader): NativeTable {
  r.struct('string table');
  const namespace = r.fstring();
  const n = r.count(8, 'string table entry count');
  const entries: { key: string; value: string }[] = [];
  for (let i = 0; i < n; i++) entries.push({ key: r.fstring(), value: r.fstring() });
  const metadata = new Map<string, Record<string, string>>();
  if (r.remaining >= 4) {
    const m = r.count(8, 'string table metadata count');
    for (let i = 0; i < m; i++) {
      const key = r.fstring();
      const k = r.count(12, 'metadata entry count');
      const meta: Record<string, string> = {};
      for (let j = 0; j < k; j++) {
        const id = pr.name(r);
        meta[id] = r.fstring();
      }
      metadata.set(key, meta);
    }
  }
  return { type: 'string', namespace, entries, metadata };
}

function curveTable(pr: PropertyReader, r: BinaryReader): NativeTable {
  r.struct('curve table rows');
  const count = r.count(8, 'curve table row count');
  const hasMode = customVersionAtLeast(pr.ctx.versions, CustomVersionKey.FortniteMain, SHRINK_CURVE_TABLE_SIZE);
  let mode: string;
  if (hasMode) {
    const at = r.pos;
    const m = r.u8();
    mode = CURVE_TABLE_MODES[m] ?? '';
    if (!mode) throw r.error(`curve table mode ${m} is not one the engine writes (0 Empty, 1 SimpleCurves, 2 RichCurves)`, at);
  } else {
    mode = count > 0 ? 'RichCurves' : 'Empty';
  }
  const struct = mode === 'Empty' ? '' : mode === 'SimpleCurves' ? 'SimpleCurve' : 'RichCurve';
  return { type: 'curve', mode, ...readRows(pr, r, count, struct) };
}

/** The NativeDataReader of the table classes (undefined for every other class). */
export const readTableNative: NativeDataReader = (pr, r, exp) => {
  const isData = has(DATA_TABLE_CLASSES, exp.class) || exp.properties.some((p) => p.name === 'RowStruct');
  const isString = has(STRING_TABLE_CLASSES, exp.class);
  const isCurve = has(CURVE_TABLE_CLASSES, exp.class);
  if (!isData && !isString && !isCurve) return undefined;
  skipObjectGuid(r);
  if (isString) return stringTable(pr, r);
  if (isCurve) return curveTable(pr, r);
  return dataTable(pr, r, exp.properties);
};
