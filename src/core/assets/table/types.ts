/**
 * The table kind's plain objects: what the readers make of a data table, a string table, a curve
 * table or a curve asset, and what the CLI, the CSV converter and the app's table view show.
 */
import type { PropertyValue } from '../../properties/types.js';

/** One row of a data table: its name and its fields, keyed by the row struct's field names as stored. */
export interface DataTableRow {
  name: string;
  /** Values as `pakscope props` encodes them. */
  values: Record<string, PropertyValue>;
}

export interface DataTable {
  kind: 'DataTable';
  /** The export's class (DataTable, CompositeDataTable, a game's subclass). */
  class: string;
  name: string;
  /** The row struct's short name ("FixtureTableRow"); its path is in rowStructPath. */
  rowStruct: string;
  rowStructPath: string | null;
  rows: DataTableRow[];
  /** A composite table: its parents' paths, in the order their rows apply. */
  parents?: string[];
  notes: string[];
  /** Why the rows stop where they do (a row that does not read: its struct missing from the mappings, bad bytes); the rows before it are kept. */
  error?: string;
}

export interface StringTableEntry {
  key: string;
  value: string;
  /** The entry's metadata (FName -> string), when it has any. */
  metadata?: Record<string, string>;
}

export interface StringTable {
  kind: 'StringTable';
  class: string;
  name: string;
  namespace: string;
  entries: StringTableEntry[];
  notes: string[];
}

/** ERichCurveInterpMode. */
export type InterpMode = 'Linear' | 'Constant' | 'Cubic' | 'None';
/** ERichCurveExtrapolation. */
export type Extrapolation = 'Cycle' | 'CycleWithOffset' | 'Oscillate' | 'Linear' | 'Constant' | 'None';
/** ERichCurveTangentWeightMode. */
export type TangentWeightMode = 'None' | 'Arrive' | 'Leave' | 'Both';

export interface CurveKey {
  time: number;
  value: number;
  /** Rich curves: each key's own interpolation to the next; simple curves use the curve's. */
  interp?: InterpMode;
  arriveTangent?: number;
  leaveTangent?: number;
  tangentMode?: number;
  tangentWeightMode?: TangentWeightMode;
  arriveTangentWeight?: number;
  leaveTangentWeight?: number;
}

export interface Curve {
  name: string;
  /** "rich" (FRichCurve: per-key modes and tangents) or "simple" (FSimpleCurve: one mode). */
  type: 'rich' | 'simple';
  /** A simple curve's mode; a rich curve's keys' mode when they share one, else "Mixed". */
  interp: InterpMode | 'Mixed';
  keys: CurveKey[];
  preInfinity: Extrapolation;
  postInfinity: Extrapolation;
  /** The value of a curve with no keys (undefined: the engine's "not set", 0 when evaluated). */
  defaultValue?: number;
}

export interface CurveTable {
  /** CurveTable for curve tables, Curve for curve assets (one row per curve). */
  kind: 'CurveTable' | 'Curve';
  class: string;
  name: string;
  /** ECurveTableMode of a table: "SimpleCurves", "RichCurves" or "Empty". */
  mode?: string;
  rows: Curve[];
  parents?: string[];
  notes: string[];
  /** Why the rows stop where they do; the rows before it are kept. */
  error?: string;
}

export type GameTable = DataTable | StringTable | CurveTable;
