/**
 * Reading a level's property values: typed reads (a reference, a number, a vector, a rotator, a
 * quaternion, a transform) that fall back to the engine's default with a note when a value has
 * another type. The level reader and the socket reader (sockets.ts) use it.
 */
import { fields } from '../../properties/fields.js';
import type { PropertyValue } from '../../properties/types.js';
import { IDENTITY, ONE, ZERO, ZERO_ROTATOR, placementFromQuat, type Placement, type Quat, type Rotator, type Vec3 } from './transform.js';

/** Typed reads of property values, each with a note (and the default) for a value of another type. */
export class Reader {
  readonly notes: string[] = [];

  /** `v` as a string (an object path, a name), null when null; undefined (with a note) for another type. */
  str(v: PropertyValue | undefined, what: string): string | null | undefined {
    if (v === undefined || v === null) return v === null ? null : undefined;
    if (typeof v === 'string') return v;
    this.notes.push(`${what} is not a reference or name (${JSON.stringify(v).slice(0, 60)}): ignored`);
    return undefined;
  }

  num(v: PropertyValue | undefined, what: string): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'number') return v;
    this.notes.push(`${what} is not a number: ignored`);
    return undefined;
  }

  vec(v: PropertyValue | undefined, what: string, fallback: Vec3): Vec3 {
    if (v === undefined) return fallback;
    const f = fields(v);
    if (f && typeof f['X'] === 'number' && typeof f['Y'] === 'number' && typeof f['Z'] === 'number') return { x: f['X'], y: f['Y'], z: f['Z'] };
    this.notes.push(`${what} is not a vector: the default is used`);
    return fallback;
  }

  rot(v: PropertyValue | undefined, what: string): Rotator {
    if (v === undefined) return ZERO_ROTATOR;
    const f = fields(v);
    if (f && typeof f['Pitch'] === 'number' && typeof f['Yaw'] === 'number' && typeof f['Roll'] === 'number') return { pitch: f['Pitch'], yaw: f['Yaw'], roll: f['Roll'] };
    this.notes.push(`${what} is not a rotator: the default is used`);
    return ZERO_ROTATOR;
  }

  quat(v: PropertyValue | undefined, what: string): Quat {
    const f = fields(v);
    if (f && ['X', 'Y', 'Z', 'W'].every((k) => typeof f[k] === 'number')) return { x: f['X'] as number, y: f['Y'] as number, z: f['Z'] as number, w: f['W'] as number };
    if (v !== undefined) this.notes.push(`${what} is not a quaternion: the default is used`);
    return { x: 0, y: 0, z: 0, w: 1 };
  }

  /** An FTransform property (Rotation, Translation, Scale3D). */
  transform(v: PropertyValue | undefined, what: string): Placement {
    if (v === undefined) return IDENTITY;
    const f = fields(v);
    if (!f) {
      this.notes.push(`${what} is not a transform: the identity is used`);
      return IDENTITY;
    }
    return placementFromQuat(this.vec(f['Translation'], `${what}.Translation`, ZERO), this.quat(f['Rotation'], `${what}.Rotation`), this.vec(f['Scale3D'], `${what}.Scale3D`, ONE));
  }
}
