/**
 * FRichCurve and FSimpleCurve structs (as the property reader gives them) as Curve objects.
 * Properties a cooked struct leaves out have the engine's defaults: constant extrapolation,
 * linear interpolation, DefaultValue "not set" (MAX_flt).
 */
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { Curve, CurveKey, Extrapolation, InterpMode, TangentWeightMode } from './types.js';

const INTERP: readonly InterpMode[] = ['Linear', 'Constant', 'Cubic', 'None'];
const EXTRAP: readonly Extrapolation[] = ['Cycle', 'CycleWithOffset', 'Oscillate', 'Linear', 'Constant', 'None'];
const WEIGHT: readonly TangentWeightMode[] = ['None', 'Arrive', 'Leave', 'Both'];
const MAX_FLT = 3.4028234663852886e38;

/** An enum value as stored ("ERichCurveExtrapolation::RCCE_Linear", "RCCE_Linear" or its number) as the member's name. */
function member<T extends string>(v: PropertyValue | undefined, names: readonly T[], fallback: T): T {
  if (typeof v === 'number') return names[v] ?? fallback;
  if (typeof v !== 'string') return fallback;
  const bare = (v.includes('::') ? v.slice(v.lastIndexOf('::') + 2) : v).replace(/^(RCCE|RCIM|RCTWM)_(Weighted)?/, '');
  return names.find((n) => n === bare) ?? fallback;
}

const num = (v: PropertyValue | undefined, fallback = 0): number => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : fallback);

function field(entries: readonly PropertyEntry[] | Record<string, PropertyValue>, name: string): PropertyValue | undefined {
  if (Array.isArray(entries)) return entries.find((e) => e.name === name)?.value;
  return (entries as Record<string, PropertyValue>)[name];
}

/** A key's fields: an object (native RichCurveKey) or entries (a key read property by property). */
function keyFields(k: PropertyValue): Record<string, PropertyValue> {
  if (Array.isArray(k)) return Object.fromEntries((k as PropertyEntry[]).map((e) => [e.name, e.value]));
  return k !== null && typeof k === 'object' ? (k as Record<string, PropertyValue>) : {};
}

/** A curve struct's entries (or fields) as a Curve named `name`. */
export function curveOf(name: string, entries: readonly PropertyEntry[] | Record<string, PropertyValue>, type: 'rich' | 'simple'): Curve {
  const rawKeys = field(entries, 'Keys');
  const keys: CurveKey[] = (Array.isArray(rawKeys) ? rawKeys : []).map((k) => {
    const f = keyFields(k as PropertyValue);
    const key: CurveKey = { time: num(f['Time']), value: num(f['Value']) };
    if (type === 'rich') {
      key.interp = member(f['InterpMode'], INTERP, 'Linear');
      key.tangentMode = num(f['TangentMode']);
      key.tangentWeightMode = member(f['TangentWeightMode'], WEIGHT, 'None');
      key.arriveTangent = num(f['ArriveTangent']);
      key.leaveTangent = num(f['LeaveTangent']);
      key.arriveTangentWeight = num(f['ArriveTangentWeight']);
      key.leaveTangentWeight = num(f['LeaveTangentWeight']);
    }
    return key;
  });
  const dv = field(entries, 'DefaultValue');
  const defaultValue = dv === undefined ? undefined : num(dv, MAX_FLT);
  let interp: Curve['interp'];
  if (type === 'simple') {
    interp = member(field(entries, 'InterpMode'), INTERP, 'Linear');
  } else {
    const modes = new Set(keys.map((k) => k.interp!));
    interp = modes.size === 0 ? 'Linear' : modes.size === 1 ? [...modes][0]! : 'Mixed';
  }
  return {
    name, type, interp, keys,
    preInfinity: member(field(entries, 'PreInfinityExtrap'), EXTRAP, 'Constant'),
    postInfinity: member(field(entries, 'PostInfinityExtrap'), EXTRAP, 'Constant'),
    ...(defaultValue !== undefined && Math.abs(defaultValue) < MAX_FLT * 0.999999 ? { defaultValue } : {}),
  };
}

/** Component names of a curve asset's curves, by class. */
const COMPONENTS: Record<string, readonly string[]> = {
  CurveFloat: ['Value'],
  CurveVector: ['X', 'Y', 'Z'],
  CurveLinearColor: ['R', 'G', 'B', 'A'],
};

/** A curve asset's curves (CurveFloat 1, CurveVector 3, CurveLinearColor 4), missing ones empty. */
export function curveAssetCurves(cls: string, properties: readonly PropertyEntry[]): Curve[] {
  const names = COMPONENTS[cls] ?? ['Value'];
  if (cls === 'CurveFloat') {
    const v = properties.find((p) => p.name === 'FloatCurve')?.value;
    return [curveOf('FloatCurve', Array.isArray(v) ? (v as PropertyEntry[]) : keyFields(v ?? null), 'rich')];
  }
  return names.map((component, i) => {
    const p = properties.find((e) => e.name === 'FloatCurves' && (e.arrayIndex ?? 0) === i);
    const v = p?.value;
    return curveOf(component, Array.isArray(v) ? (v as PropertyEntry[]) : keyFields(v ?? null), 'rich');
  });
}
