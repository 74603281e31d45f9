/**
 * A PhysicsAsset as a mesh of simple collision shapes. Its bodies (SkeletalBodySetup exports its
 * SkeletalBodySetups property names) keep their shapes in the AggGeom property (FKAggregateGeom:
 * SphereElems, BoxElems, SphylElems, TaperedCapsuleElems, ConvexElems), each in its bone's space;
 * its constraints (PhysicsConstraintTemplate exports, ConstraintSetup) keep in DefaultInstance
 * the two bones they join, each side's joint frame (Pos, PriAxis, SecAxis) and the profile's
 * limits. After the asset's properties comes its native CollisionDisableTable:
 *
 *   UObject: bHasGuid (bool32) [FGuid]
 *   TMap<FRigidBodyIndexPair, bool>: count (i32), then per row two body indices (i32) and bool32
 *
 * The cooked asset does not keep the skeleton's bind pose, so each body is placed on its parent
 * body by the constraint joining them (the two joint frames coincide in the reference pose);
 * bodies no constraint joins stay at the origin.
 */
import type { PropertyEntry, PropertyValue } from '../../../properties/types.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { rotatorToQuat } from '../../../math/quat.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import { mergeParts } from '../parts.js';
import { boxLod, capsuleLod, hullLod } from '../shapes.js';
import type { Mesh, MeshFactTable, MeshLod, MeshMaterial, MeshPart, MeshTransform, PhysicsBody, PhysicsConstraint, PhysicsShape, PhysicsSummary } from '../types.js';
import { entriesOf, field, num, objectName, prop, str, vec3 } from './properties.js';
import { FormatError } from '../../../errors.js';
import { propertiesNotRead } from './not-read.js';
import { parentsFirst } from '../parents-first.js';

/** The material each kind of shape is drawn with (by the `_<type>_` its part's name holds). */
const SHAPE_MATERIALS: { type: string; name: string; color: [number, number, number, number] }[] = [
  { type: 'sphere', name: 'Spheres', color: [0.3, 0.7, 1, 1] },
  { type: 'box', name: 'Boxes', color: [1, 0.55, 0.25, 1] },
  { type: 'sphyl', name: 'Capsules', color: [0.4, 0.9, 0.5, 1] },
  { type: 'tapered_capsule', name: 'Tapered capsules', color: [0.95, 0.85, 0.3, 1] },
  { type: 'convex', name: 'Convex hulls', color: [0.85, 0.5, 1, 1] },
];
const IDENTITY: MeshTransform = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
/** Rows a CollisionDisableTable may have before the count is corrupt (every pair of 2^12 bodies). */
const MAX_PAIRS = 1 << 24;

const listOf = (v: PropertyValue | undefined): PropertyValue[] => (Array.isArray(v) ? (v as PropertyValue[]) : []);
const round = (x: number): number => Math.round(x * 1000) / 1000;
const fmt = (v: readonly number[]): string => `(${v.map(round).join(', ')})`;

/** An export of the package an object path names (its last name), of class `cls`. */
function exportNamed(source: PackageSource, path: string, cls: string): SourceExport | undefined {
  const name = objectName(path);
  return source.exports.find((e) => e.name === name && e.class === cls);
}

function shapesOf(agg: PropertyValue | undefined, notes: string[], body: string): { shape: PhysicsShape; lod?: MeshLod; local: MeshTransform }[] {
  const e = entriesOf(agg) ?? [];
  const out: { shape: PhysicsShape; lod?: MeshLod; local: MeshTransform }[] = [];
  const placed = (s: PropertyEntry[]): { center: [number, number, number]; rotation: [number, number, number]; local: MeshTransform } => {
    const center = vec3(prop(s, 'Center'), ['X', 'Y', 'Z'], [0, 0, 0]);
    const rotation = vec3(prop(s, 'Rotation'), ['Pitch', 'Yaw', 'Roll'], [0, 0, 0]);
    return { center, rotation, local: { translation: center, rotation: rotatorToQuat(...rotation), scale: [1, 1, 1] } };
  };
  const named = (s: PropertyEntry[]): { name?: string } => ((n) => (n && n !== 'None' ? { name: n } : {}))(str(prop(s, 'Name')));
  for (const v of listOf(prop(e, 'SphereElems'))) {
    const s = entriesOf(v) ?? [];
    const radius = num(prop(s, 'Radius')) ?? 1;
    const { center, local } = placed(s);
    out.push({ shape: { type: 'sphere', center, rotation: [0, 0, 0], radius, ...named(s) }, lod: capsuleLod(radius, radius, 0), local });
  }
  for (const v of listOf(prop(e, 'BoxElems'))) {
    const s = entriesOf(v) ?? [];
    const size: [number, number, number] = [num(prop(s, 'X')) ?? 1, num(prop(s, 'Y')) ?? 1, num(prop(s, 'Z')) ?? 1];
    const { center, rotation, local } = placed(s);
    out.push({ shape: { type: 'box', center, rotation, size, ...named(s) }, lod: boxLod(size), local });
  }
  for (const v of listOf(prop(e, 'SphylElems'))) {
    const s = entriesOf(v) ?? [];
    const radius = num(prop(s, 'Radius')) ?? 1, length = num(prop(s, 'Length')) ?? 1;
    const { center, rotation, local } = placed(s);
    out.push({ shape: { type: 'sphyl', center, rotation, radius, length, ...named(s) }, lod: capsuleLod(radius, radius, length), local });
  }
  for (const v of listOf(prop(e, 'TaperedCapsuleElems'))) {
    const s = entriesOf(v) ?? [];
    const radius = num(prop(s, 'Radius0')) ?? 1, radius1 = num(prop(s, 'Radius1')) ?? 1, length = num(prop(s, 'Length')) ?? 1;
    const { center, rotation, local } = placed(s);
    out.push({ shape: { type: 'tapered capsule', center, rotation, radius, radius1, length, ...named(s) }, lod: capsuleLod(radius, radius1, length), local });
  }
  for (const [i, v] of listOf(prop(e, 'ConvexElems')).entries()) {
    const s = entriesOf(v) ?? [];
    const verts = listOf(prop(s, 'VertexData')).map((p) => vec3(p, ['X', 'Y', 'Z'], [0, 0, 0]));
    const t = prop(s, 'Transform');
    const translation = vec3(field(t, 'Translation'), ['X', 'Y', 'Z'], [0, 0, 0]);
    const q = field(t, 'Rotation');
    const rotation = ((x, y, z, w) => (x === undefined || y === undefined || z === undefined || w === undefined ? [0, 0, 0, 1] : [x, y, z, w]))(
      num(field(q, 'X')), num(field(q, 'Y')), num(field(q, 'Z')), num(field(q, 'W'))) as [number, number, number, number];
    const scale = vec3(field(t, 'Scale3D'), ['X', 'Y', 'Z'], [1, 1, 1]);
    const lod = hullLod(verts.flat());
    if (!lod) notes.push(`body ${body}: convex ${i} has ${verts.length} points${verts.length === 0 ? ' (its hull is only in the cooked physics data, which PakScope does not decode)' : ', too few or flat for a hull'}: not drawn`);
    out.push({
      shape: { type: 'convex', center: translation, rotation: [0, 0, 0], points: verts.length, ...named(s) },
      ...(lod ? { lod } : {}), local: { translation, rotation, scale },
    });
  }
  return out;
}

/** A joint frame (FConstraintInstance's Pos, PriAxis, SecAxis of one side) as a transform. */
function jointFrame(ci: PropertyEntry[], side: 1 | 2): { t: [number, number, number]; x: [number, number, number]; y: [number, number, number]; z: [number, number, number] } {
  const t = vec3(prop(ci, `Pos${side}`), ['X', 'Y', 'Z'], [0, 0, 0]);
  const unit = (v: number[]): [number, number, number] => { const l = Math.hypot(v[0]!, v[1]!, v[2]!) || 1; return [v[0]! / l, v[1]! / l, v[2]! / l]; };
  const x = unit(vec3(prop(ci, `PriAxis${side}`), ['X', 'Y', 'Z'], [1, 0, 0]));
  let y = vec3(prop(ci, `SecAxis${side}`), ['X', 'Y', 'Z'], [0, 1, 0]);
  const d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  y = unit([y[0] - d * x[0], y[1] - d * x[1], y[2] - d * x[2]]);
  const z: [number, number, number] = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return { t, x, y, z };
}

/** The rotation matrix (columns c0, c1, c2) as a unit quaternion (x, y, z, w). */
function quatOfColumns(c0: number[], c1: number[], c2: number[]): [number, number, number, number] {
  const m00 = c0[0]!, m10 = c0[1]!, m20 = c0[2]!, m01 = c1[0]!, m11 = c1[1]!, m21 = c1[2]!, m02 = c2[0]!, m12 = c2[1]!, m22 = c2[2]!;
  const tr = m00 + m11 + m22;
  let q: [number, number, number, number];
  if (tr > 0) { const s = Math.sqrt(tr + 1) * 2; q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4]; }
  else if (m00 > m11 && m00 > m22) { const s = Math.sqrt(1 + m00 - m11 - m22) * 2; q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s]; }
  else if (m11 > m22) { const s = Math.sqrt(1 + m11 - m00 - m22) * 2; q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s]; }
  else { const s = Math.sqrt(1 + m22 - m00 - m11) * 2; q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s]; }
  const l = Math.hypot(...q) || 1;
  return q.map((c) => c / l) as [number, number, number, number];
}

/** Body 1's place in body 2's space: frame 2 times frame 1's inverse. */
function childInParent(ci: PropertyEntry[]): MeshTransform {
  const f1 = jointFrame(ci, 1), f2 = jointFrame(ci, 2);
  // R = R2 * R1^T (columns of R: R2 applied to the rows of R1).
  const r1Rows = [[f1.x[0], f1.y[0], f1.z[0]], [f1.x[1], f1.y[1], f1.z[1]], [f1.x[2], f1.y[2], f1.z[2]]];
  const apply2 = (v: number[]): [number, number, number] => [0, 1, 2].map((k) => f2.x[k]! * v[0]! + f2.y[k]! * v[1]! + f2.z[k]! * v[2]!) as [number, number, number];
  const cols = r1Rows.map(apply2);
  const rp = [0, 1, 2].map((k) => cols[0]![k]! * f1.t[0] + cols[1]![k]! * f1.t[1] + cols[2]![k]! * f1.t[2]);
  return { translation: [f2.t[0] - rp[0]!, f2.t[1] - rp[1]!, f2.t[2] - rp[2]!], rotation: quatOfColumns(cols[0]!, cols[1]!, cols[2]!), scale: [1, 1, 1] };
}

function limitsOf(profile: PropertyEntry[]): string[] {
  const out: string[] = [];
  for (const group of ['ConeLimit', 'TwistLimit', 'LinearLimit']) {
    for (const f of entriesOf(prop(profile, group)) ?? []) {
      if (typeof f.value === 'number' || typeof f.value === 'string' || typeof f.value === 'boolean') out.push(`${f.name} ${typeof f.value === 'number' ? round(f.value) : String(f.value).replace(/^.*::/, '')}`);
    }
  }
  return out;
}

function readCollisionTable(exp: SourceExport): PhysicsSummary['collisionPairs'] {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" CollisionDisableTable`);
  r.seek(exp.properties.propertyStart + exp.properties.propertyBytes);
  if (r.bool32()) r.skip(16);
  const at = r.pos;
  const n = r.count(12, 'collision pairs');
  if (n > MAX_PAIRS) throw r.error(`${n} collision pairs`, at);
  const out: PhysicsSummary['collisionPairs'] = [];
  for (let i = 0; i < n; i++) {
    const a = r.i32(), b = r.i32();
    out.push({ bodies: [a, b], enabled: r.bool32() });
  }
  return out;
}

export function physicsAssetOf(source: PackageSource, exp: SourceExport): Mesh {
  if (!propertiesRead(exp)) {
    throw propertiesNotRead(exp, 'the bodies cannot be found',
      'unversioned properties: the bodies and constraints are properties, read only with the game\'s mappings (.usmap); pass them');
  }
  const notes = [...source.warnings];
  const props = exp.properties.properties;
  const bodies: PhysicsBody[] = [];
  const bodyShapes: ReturnType<typeof shapesOf>[] = [];
  for (const path of listOf(prop(props, 'SkeletalBodySetups'))) {
    if (typeof path !== 'string') continue;
    const e = exportNamed(source, path, 'SkeletalBodySetup') ?? exportNamed(source, path, 'BodySetup');
    if (!e) { notes.push(`body ${path} is not an export of the package (not read)`); continue; }
    const p = e.properties.properties;
    const bone = str(prop(p, 'BoneName')) ?? e.name;
    const shapes = shapesOf(prop(p, 'AggGeom'), notes, bone);
    const physicsType = str(prop(p, 'PhysicsType'));
    const trace = str(prop(p, 'CollisionTraceFlag'));
    bodies.push({
      name: e.name, bone, shapes: shapes.map((s) => s.shape),
      ...(physicsType ? { physicsType: physicsType.replace(/^.*::/, '') } : {}), ...(trace ? { collisionTrace: trace.replace(/^.*::/, '') } : {}),
    });
    bodyShapes.push(shapes);
  }
  const constraints: PhysicsConstraint[] = [];
  const parentOf = new Map<number, { parent: number; local: MeshTransform }>();
  for (const path of listOf(prop(props, 'ConstraintSetup'))) {
    if (typeof path !== 'string') continue;
    const e = exportNamed(source, path, 'PhysicsConstraintTemplate');
    if (!e) { notes.push(`constraint ${path} is not an export of the package (not read)`); continue; }
    const ci = entriesOf(prop(e.properties.properties, 'DefaultInstance')) ?? [];
    const profile = entriesOf(prop(ci, 'ProfileInstance')) ?? [];
    const c: PhysicsConstraint = {
      name: str(prop(ci, 'JointName')) ?? e.name, bone1: str(prop(ci, 'ConstraintBone1')) ?? '', bone2: str(prop(ci, 'ConstraintBone2')) ?? '',
      disableCollision: prop(profile, 'bDisableCollision') === true, limits: limitsOf(profile),
    };
    constraints.push(c);
    const child = bodies.findIndex((b) => b.bone === c.bone1), parent = bodies.findIndex((b) => b.bone === c.bone2);
    if (child >= 0 && parent >= 0 && child !== parent && !parentOf.has(child)) parentOf.set(child, { parent, local: childInParent(ci) });
  }
  // Parents before children; a loop of constraints is cut where it closes.
  const { order, cut } = parentsFirst(bodies.length, (b) => parentOf.get(b)?.parent ?? -1);
  for (const b of cut) parentOf.delete(b);
  const parts: MeshPart[] = [];
  const partOfBody = new Map<number, number>();
  for (const b of order) {
    const p = parentOf.get(b);
    partOfBody.set(b, parts.length);
    parts.push({ name: bodies[b]!.bone, parent: p ? partOfBody.get(p.parent)! : -1, local: p ? p.local : IDENTITY });
    const bodyPart = parts.length - 1;
    bodyShapes[b]!.forEach((s, i) => parts.push({
      name: `${bodies[b]!.bone}_${s.shape.type.replace(' ', '_')}${s.shape.name ? `_${s.shape.name}` : ''}_${i}`,
      parent: bodyPart, local: s.local, ...(s.lod ? { geometry: s.lod } : {}),
    }));
  }
  if (constraints.length > 0 || bodies.length > 1) notes.push('the cooked asset keeps no bind pose: each body is placed on its parent by the joint frames of the constraint joining them');
  const collisionPairs = readCollisionTable(exp);
  const boundsBodies = listOf(prop(props, 'BoundsBodies')).filter((x): x is number => typeof x === 'number');
  const physics: PhysicsSummary = { bodies, constraints, collisionPairs, boundsBodies };
  const facts: MeshFactTable[] = [
    {
      title: 'Bodies', columns: ['Body', 'Bone', 'Shape', 'Center (cm)', 'Rotation (°)', 'Size (cm)'],
      rows: bodies.flatMap((b) => (b.shapes.length === 0 ? [[b.name, b.bone, '(none)', '', '', '']] : b.shapes.map((s) => [
        b.name, b.bone, s.type, fmt(s.center), fmt(s.rotation),
        s.type === 'box' ? `${s.size!.map(round).join(' x ')}` : s.type === 'sphere' ? `radius ${round(s.radius!)}`
          : s.type === 'convex' ? `${s.points} points` : `radius ${round(s.radius!)}${s.radius1 !== undefined ? `/${round(s.radius1)}` : ''}, length ${round(s.length!)}`,
      ]))),
    },
    {
      title: 'Constraints', columns: ['Joint', 'Bone 1 (child)', 'Bone 2 (parent)', 'Collision between', 'Limits'],
      rows: constraints.map((c) => [c.name, c.bone1, c.bone2, c.disableCollision ? 'disabled' : 'enabled', c.limits.join(', ') || 'engine defaults']),
    },
    {
      title: 'Collision pairs', columns: ['Body A', 'Body B', 'Collision'],
      rows: collisionPairs.map((p) => [bodies[p.bodies[0]]?.bone ?? `#${p.bodies[0]}`, bodies[p.bodies[1]]?.bone ?? `#${p.bodies[1]}`, p.enabled ? 'enabled' : 'disabled']),
    },
  ];
  // A material per kind of shape, so the view and the .glb tell them apart.
  const materials: MeshMaterial[] = [];
  for (const part of parts) {
    const kind = part.geometry ? SHAPE_MATERIALS.find((m) => part.name.includes(`_${m.type}_`)) : undefined;
    if (!kind || !part.geometry) continue;
    let index = materials.findIndex((m) => m.name === kind.name);
    if (index < 0) { index = materials.length; materials.push({ name: kind.name, material: '', baseColor: kind.color }); }
    for (const section of part.geometry.sections) section.materialIndex = index;
  }
  const geometry = mergeParts(parts);
  return {
    class: exp.class, name: exp.name, materials, sockets: [], notes,
    lods: geometry.vertexCount > 0 ? [geometry] : [], bones: [], morphTargets: [], parts, facts, physics,
  };
}
