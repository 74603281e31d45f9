/**
 * Transforms as a level composes them, against values worked by hand: a child 10 cm along a
 * parent's X, the parent turned 90 degrees in yaw and scaled 2, lands 20 cm along the world's Y.
 */
import { describe, expect, it } from 'vitest';
import { compose, matrixToPlacement, placement, quatToRotator, rotatorToQuat } from '../../../src/core/assets/level/transform.js';

const close = (a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }) => {
  expect(a.x).toBeCloseTo(b.x, 6);
  expect(a.y).toBeCloseTo(b.y, 6);
  expect(a.z).toBeCloseTo(b.z, 6);
};

describe('level transforms', () => {
  it('yaw 90 turns X into Y (the engine is left-handed, Z up)', () => {
    const q = rotatorToQuat({ pitch: 0, yaw: 90, roll: 0 });
    expect(q.z).toBeCloseTo(Math.SQRT1_2, 9);
    expect(q.w).toBeCloseTo(Math.SQRT1_2, 9);
  });

  it('a rotator survives the round trip through its quaternion', () => {
    const r = quatToRotator(rotatorToQuat({ pitch: 10, yaw: 20, roll: 30 }));
    expect(r.pitch).toBeCloseTo(10, 9);
    expect(r.yaw).toBeCloseTo(20, 9);
    expect(r.roll).toBeCloseTo(30, 9);
  });

  it('composes a child under a moved, turned and scaled parent', () => {
    const parent = placement({ x: 100, y: 0, z: 50 }, { pitch: 0, yaw: 90, roll: 0 }, { x: 2, y: 2, z: 2 });
    const child = placement({ x: 10, y: 0, z: 5 }, { pitch: 0, yaw: 45, roll: 0 }, { x: 1, y: 1, z: 3 });
    const w = compose(child, parent);
    close(w.location, { x: 100, y: 20, z: 60 });
    expect(w.rotation.yaw).toBeCloseTo(135, 9);
    close(w.scale, { x: 2, y: 2, z: 6 });
  });

  it('reads an instance matrix: rows are the scaled axes, then the translation', () => {
    // yaw 90, scale 2, at (125, 0, 15): X axis -> (0, 2, 0), Y axis -> (-2, 0, 0).
    const p = matrixToPlacement([0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 125, 0, 15, 1]);
    close(p.location, { x: 125, y: 0, z: 15 });
    close(p.scale, { x: 2, y: 2, z: 2 });
    expect(p.rotation.yaw).toBeCloseTo(90, 9);
  });

  it('a mirrored matrix becomes a negative X scale', () => {
    const p = matrixToPlacement([-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    close(p.scale, { x: -1, y: 1, z: 1 });
    expect(p.rotation.yaw).toBeCloseTo(0, 9);
  });
});
