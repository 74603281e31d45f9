/**
 * The engine's curve evaluation (FRichCurve::Eval, FSimpleCurve::Eval): constant, linear and
 * cubic interpolation between keys (cubic with weighted or unweighted tangents), and the pre- and
 * post-infinity extrapolation modes (cycle, cycle with offset, oscillate, linear, constant).
 */
import { float32Value } from '../../properties/values.js';
import type { Curve, CurveKey, InterpMode } from './types.js';

const SMALL_NUMBER = 1e-8;

/** FRealCurve::CycleTime: `time` folded into [min, max] and how many cycles away it was. */
function cycleTime(min: number, max: number, time: number): { time: number; cycles: number } {
  const initial = time;
  const duration = max - min;
  let cycles = 0;
  if (time > max) {
    cycles = Math.floor((max - time) / duration);
    time += duration * cycles;
  } else if (time < min) {
    cycles = Math.floor((time - min) / duration);
    time -= duration * cycles;
  }
  if (time === max && initial < min) time = min;
  if (time === min && initial > max) time = max;
  return { time, cycles: Math.abs(cycles) };
}

/** RemapTimeValue: a time outside the keys moved into them for the cycling modes, and the value offset of CycleWithOffset. */
function remapTime(curve: Curve, time: number): { time: number; offset: number } {
  const keys = curve.keys;
  const n = keys.length;
  if (n < 2) return { time, offset: 0 };
  const first = keys[0]!, last = keys[n - 1]!;
  const before = time <= first.time;
  if (!before && time < last.time) return { time, offset: 0 };
  const mode = before ? curve.preInfinity : curve.postInfinity;
  if (mode === 'Linear' || mode === 'Constant' || mode === 'None') return { time, offset: 0 };
  const c = cycleTime(first.time, last.time, time);
  let t = c.time;
  let offset = 0;
  if (mode === 'CycleWithOffset') offset = (before ? first.value - last.value : last.value - first.value) * c.cycles;
  else if (mode === 'Oscillate' && c.cycles % 2 === 1) t = first.time + (last.time - t);
  return { time: t, offset };
}

const bezier = (p0: number, p1: number, p2: number, p3: number, a: number): number => {
  const b = 1 - a;
  return b * b * b * p0 + 3 * b * b * a * p1 + 3 * b * a * a * p2 + a * a * a * p3;
};

/** Weighted cubic: the Bezier through the tangent handles, solved for the time first. */
function weighted(k1: CurveKey, k2: CurveKey, time: number): number {
  const dx = k2.time - k1.time;
  const third = 1 / 3;
  const w1 = k1.tangentWeightMode === 'Leave' || k1.tangentWeightMode === 'Both'
    ? (k1.leaveTangentWeight ?? 0) : Math.hypot(dx, (k1.leaveTangent ?? 0) * dx) * third;
  const w2 = k2.tangentWeightMode === 'Arrive' || k2.tangentWeightMode === 'Both'
    ? (k2.arriveTangentWeight ?? 0) : Math.hypot(dx, (k2.arriveTangent ?? 0) * dx) * third;
  const a1 = Math.atan(k1.leaveTangent ?? 0), a2 = Math.atan(k2.arriveTangent ?? 0);
  const x1 = k1.time + Math.cos(a1) * w1, y1 = k1.value + Math.sin(a1) * w1;
  const x2 = k2.time - Math.cos(a2) * w2, y2 = k2.value - Math.sin(a2) * w2;
  // x(s) is monotonic for handles inside the segment: bisect for the parameter whose x is `time`.
  let lo = 0, hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (bezier(k1.time, x1, x2, k2.time, mid) < time) lo = mid;
    else hi = mid;
  }
  return bezier(k1.value, y1, y2, k2.value, (lo + hi) / 2);
}

function evalTwoKeys(k1: CurveKey, k2: CurveKey, mode: InterpMode, time: number, rich: boolean): number {
  const diff = k2.time - k1.time;
  if (!(diff > 0) || mode === 'Constant') return k1.value;
  const alpha = (time - k1.time) / diff;
  if (mode !== 'Cubic' || !rich) return k1.value + (k2.value - k1.value) * alpha;
  const unweighted = (k1.tangentWeightMode ?? 'None') === 'None' || k1.tangentWeightMode === 'Arrive';
  const unweighted2 = (k2.tangentWeightMode ?? 'None') === 'None' || k2.tangentWeightMode === 'Leave';
  if (unweighted && unweighted2) {
    const p1 = k1.value + (k1.leaveTangent ?? 0) * diff / 3;
    const p2 = k2.value - (k2.arriveTangent ?? 0) * diff / 3;
    return bezier(k1.value, p1, p2, k2.value, alpha);
  }
  return weighted(k1, k2, time);
}

/** The curve's value at `time`, as the engine evaluates it (float32 results, as the engine's floats). */
export function evaluateCurve(curve: Curve, time: number, defaultValue = 0): number {
  const { time: t, offset } = remapTime(curve, time);
  const keys = curve.keys;
  const n = keys.length;
  let value = curve.defaultValue ?? defaultValue;
  if (n === 0) {
    // the default value
  } else if (n < 2 || t <= keys[0]!.time) {
    const k0 = keys[0]!;
    if (curve.preInfinity === 'Linear' && n > 1) {
      const k1 = keys[1]!;
      const dt = k1.time - k0.time;
      value = Math.abs(dt) <= SMALL_NUMBER ? k0.value : ((k1.value - k0.value) / dt) * (t - k0.time) + k0.value;
    } else {
      value = k0.value;
    }
  } else if (t < keys[n - 1]!.time) {
    // The first key after t (a lower bound over keys 1..n-1).
    let first = 1, count = n - 2;
    while (count > 0) {
      const step = count >> 1;
      const middle = first + step;
      if (t >= keys[middle]!.time) {
        first = middle + 1;
        count -= step + 1;
      } else {
        count = step;
      }
    }
    const k1 = keys[first - 1]!, k2 = keys[first]!;
    const mode = curve.type === 'rich' ? (k1.interp ?? 'Linear') : (curve.interp === 'Mixed' ? 'Linear' : curve.interp);
    value = evalTwoKeys(k1, k2, mode, t, curve.type === 'rich');
  } else {
    const last = keys[n - 1]!, prev = keys[n - 2]!;
    if (curve.postInfinity === 'Linear') {
      const dt = prev.time - last.time;
      value = Math.abs(dt) <= SMALL_NUMBER ? last.value : ((prev.value - last.value) / dt) * (t - last.time) + last.value;
    } else {
      value = last.value;
    }
  }
  return Math.fround(value + offset);
}

/** The value at `time` as a number to show: the shortest decimal of the float32 (3.6388888, not 3.6388888359069824). */
export function curveValueAt(curve: Curve, time: number): number {
  const v = float32Value(evaluateCurve(curve, time));
  return typeof v === 'number' ? v : Number(v);
}
