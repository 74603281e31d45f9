/**
 * The engine's curve evaluation on CT_Rich's curves, each value worked out by hand from the keys
 * the file holds (the Bezier of FRichCurve::EvalForTwoKeys, RemapTimeValue's cycles), and on
 * small curves built here for the modes the fixtures do not use.
 */
import { describe, expect, it } from 'vitest';
import { curveValueAt, evaluateCurve } from '../../../src/core/assets/table/curve-eval.js';
import type { Curve } from '../../../src/core/assets/table/types.js';

// CT_Rich "Cubic" as stored (checked against the file by read.test.ts).
const cubic: Curve = {
  name: 'Cubic', type: 'rich', interp: 'Mixed', preInfinity: 'Linear', postInfinity: 'CycleWithOffset',
  keys: [
    { time: -1, value: 4, interp: 'Cubic', arriveTangent: -1.5, leaveTangent: 2.25, tangentWeightMode: 'None' },
    { time: 0.5, value: -2, interp: 'Cubic', arriveTangent: 0.75, leaveTangent: -3.5, tangentWeightMode: 'None' },
    { time: 2, value: 8, interp: 'Linear', tangentWeightMode: 'None' },
  ],
};
const mixed: Curve = {
  name: 'Mixed', type: 'rich', interp: 'Mixed', preInfinity: 'Constant', postInfinity: 'Oscillate',
  keys: [{ time: 0, value: 1, interp: 'Constant' }, { time: 1, value: 3, interp: 'Linear' }, { time: 4, value: -1, interp: 'Cubic' }],
};

describe('curve evaluation', () => {
  it('cubic between keys: the Bezier through value +- tangent x dt / 3', () => {
    // t = 0: alpha 2/3 of [-1, 0.5]; p1 = 4 + 2.25 * 1.5 / 3 = 5.125, p2 = -2 - 0.75 * 1.5 / 3 = -2.375.
    expect(evaluateCurve(cubic, 0)).toBeCloseTo(4 / 27 + 6 * 5.125 / 27 + 12 * -2.375 / 27 + 8 * -2 / 27, 5);
  });

  it('pre-infinity linear follows the first two keys\' slope', () => {
    // slope (-2 - 4) / 1.5 = -4 per second, from (-1, 4).
    expect(curveValueAt(cubic, -2)).toBe(8);
  });

  it('post-infinity cycle with offset: one cycle (3 s) later, the value moved by last - first (4)', () => {
    expect(evaluateCurve(cubic, 3)).toBeCloseTo(evaluateCurve(cubic, 0) + 4, 5);
    expect(curveValueAt(cubic, 3.5)).toBe(curveValueAt(cubic, 0.5) + 4);
    expect(curveValueAt(cubic, 6.5)).toBe(curveValueAt(cubic, 0.5) + 8);
  });

  it('constant keys hold, linear keys lerp, and oscillation mirrors every other cycle', () => {
    expect(curveValueAt(mixed, 0.75)).toBe(1);
    expect(curveValueAt(mixed, 2.5)).toBe(1);
    expect(curveValueAt(mixed, -5)).toBe(1);
    // Oscillate, duration 4: t = 5 is the second cycle, mirrored to 4 - 1 = 3: 3 + (-1 - 3) * 2/3.
    expect(evaluateCurve(mixed, 5)).toBeCloseTo(3 - 8 / 3, 6);
    // t = 9 is the third cycle, not mirrored: 9 - 8 = 1.
    expect(curveValueAt(mixed, 9)).toBe(3);
  });

  it('a curve without keys gives its default value, or the caller\'s', () => {
    expect(evaluateCurve({ name: 'e', type: 'rich', interp: 'Linear', keys: [], preInfinity: 'Constant', postInfinity: 'Constant' }, 3, 7)).toBe(7);
    expect(evaluateCurve({ name: 'e', type: 'rich', interp: 'Linear', keys: [], preInfinity: 'Constant', postInfinity: 'Constant', defaultValue: 2.5 }, 3)).toBe(2.5);
  });

  it('a simple curve with constant interpolation steps, and a single key is flat everywhere', () => {
    const steps: Curve = { name: 's', type: 'simple', interp: 'Constant', keys: [{ time: 0, value: 5 }, { time: 1, value: 15 }, { time: 3, value: -5 }], preInfinity: 'Constant', postInfinity: 'Constant' };
    expect([0.5, 1, 2.9, 3, 10].map((t) => curveValueAt(steps, t))).toEqual([5, 15, 15, -5, -5]);
    const one: Curve = { ...steps, keys: [{ time: 2, value: 9 }], preInfinity: 'Linear', postInfinity: 'Linear' };
    expect([-100, 2, 100].map((t) => curveValueAt(one, t))).toEqual([9, 9, 9]);
  });

  it('weighted tangents: a weighted cubic whose handles lie on the straight line is the straight line', () => {
    const w: Curve = {
      name: 'w', type: 'rich', interp: 'Cubic', preInfinity: 'Constant', postInfinity: 'Constant',
      keys: [
        { time: 0, value: 0, interp: 'Cubic', leaveTangent: 1, arriveTangent: 1, tangentWeightMode: 'Both', leaveTangentWeight: Math.SQRT2, arriveTangentWeight: Math.SQRT2 },
        { time: 3, value: 3, interp: 'Cubic', leaveTangent: 1, arriveTangent: 1, tangentWeightMode: 'Both', leaveTangentWeight: Math.SQRT2, arriveTangentWeight: Math.SQRT2 },
      ],
    };
    expect(evaluateCurve(w, 1.2)).toBeCloseTo(1.2, 5);
  });
});
