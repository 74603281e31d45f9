/**
 * How the level view writes placements and arranges actors: a transform in centimetres and
 * degrees (an identity rotation and unit scale left out), and the outliner's order, each actor
 * under the one it is attached to.
 */
import type { LevelActor, Placement } from '../../../shared/api.js';

const num = (v: number): string => String(Math.round(v * 1000) / 1000);
export const vecText = (v: { x: number; y: number; z: number }): string => `(${num(v.x)}, ${num(v.y)}, ${num(v.z)})`;
export const rotText = (p: Placement): string => `(${num(p.rotation.pitch)}, ${num(p.rotation.yaw)}, ${num(p.rotation.roll)})`;
export const isUnitScale = (p: Placement): boolean => p.scale.x === 1 && p.scale.y === 1 && p.scale.z === 1;
export const isZeroRotation = (p: Placement): boolean => p.rotation.pitch === 0 && p.rotation.yaw === 0 && p.rotation.roll === 0;

/** "(x, y, z) rot (p, y, r) × (sx, sy, sz)". */
export function placementText(p: Placement): string {
  return `${vecText(p.location)}${isZeroRotation(p) ? '' : ` rot ${rotText(p)}`}${isUnitScale(p) ? '' : ` × ${vecText(p.scale)}`}`;
}

/** "/Game/M/SM_Rock.SM_Rock" -> "SM_Rock"; a package name -> its last part. */
export const shortName = (path: string): string => path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '').replace(/^.*:/, '');

export interface OutlinerRow {
  actor: LevelActor;
  depth: number;
}

/**
 * Actors in outliner order: each root (no parent, or one not in the level) followed by what is
 * attached to it, depth first. An actor in an attachment loop shows once, at the top.
 */
export function outlinerRows(actors: readonly LevelActor[]): OutlinerRow[] {
  const byPath = new Map(actors.map((a) => [a.path, a]));
  const children = new Map<string, LevelActor[]>();
  for (const a of actors) {
    if (a.parentActor && byPath.has(a.parentActor)) children.set(a.parentActor, [...(children.get(a.parentActor) ?? []), a]);
  }
  const rows: OutlinerRow[] = [];
  const seen = new Set<string>();
  const visit = (a: LevelActor, depth: number): void => {
    if (seen.has(a.path)) return;
    seen.add(a.path);
    rows.push({ actor: a, depth });
    for (const c of children.get(a.path) ?? []) visit(c, depth + 1);
  };
  for (const a of actors) if (!a.parentActor || !byPath.has(a.parentActor)) visit(a, 0);
  for (const a of actors) visit(a, 0);
  return rows;
}
