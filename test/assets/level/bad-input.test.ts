/**
 * Levels that do not hold together: an attach loop, a chain too deep to be real, an actor the
 * level lists but the package lacks, properties of the wrong type, a package with no World.
 * Each is a note or a clear error, never a hang. The exports are written by hand as the property
 * reader gives them (with levelNativeReader's native data: each export's path, the World's
 * level, the level's actors).
 */
import { describe, expect, it } from 'vitest';
import { levelOfPackage, MAX_ATTACH_DEPTH } from '../../../src/core/assets/level/read.js';
import type { ExportProperties, PackageProperties, PropertyEntry, PropertyValue } from '../../../src/core/properties/types.js';
import { FormatError } from '../../../src/core/errors.js';

const PKG = '/Game/Maps/Bad';
const LEVEL = `${PKG}.Bad:PersistentLevel`;

const prop = (name: string, value: PropertyValue): PropertyEntry => ({ name, type: 'ObjectProperty', value });
let index = 0;
function exp(name: string, cls: string, path: string, properties: PropertyEntry[], native: object = {}): ExportProperties {
  return {
    index: index++, name, class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: 0,
    encoding: 'tagged', error: null, native: { path, ...native },
  };
}

/** A World whose level lists `actors`; `more` are the other exports. */
function pkg(actors: string[], more: ExportProperties[]): PackageProperties {
  index = 0;
  return {
    package: PKG,
    exports: [
      exp('Bad', 'World', `${PKG}.Bad`, [], { world: { persistentLevel: LEVEL, streamingLevels: [] } }),
      exp('PersistentLevel', 'Level', LEVEL, [], { actors: actors.map((a) => `${LEVEL}.${a}`) }),
      ...more,
    ],
  };
}

const scene = (actor: string, name: string, parent: string | null, extra: PropertyEntry[] = []): ExportProperties =>
  exp(name, 'SceneComponent', `${LEVEL}.${actor}.${name}`, [...(parent ? [prop('AttachParent', `${LEVEL}.${actor}.${parent}`)] : []), ...extra]);

describe('bad levels', () => {
  it('an attach loop is cut with a note and every component is still placed', () => {
    const p = pkg(['A'], [
      exp('A', 'Actor', `${LEVEL}.A`, [prop('RootComponent', `${LEVEL}.A.C1`)]),
      scene('A', 'C1', 'C2', [{ name: 'RelativeLocation', type: 'StructProperty<Vector>', value: { X: 1, Y: 0, Z: 0 } }]),
      scene('A', 'C2', 'C1', [{ name: 'RelativeLocation', type: 'StructProperty<Vector>', value: { X: 0, Y: 2, Z: 0 } }]),
    ]);
    const l = levelOfPackage(p, 'Bad.umap', undefined);
    expect(l.notes.some((n) => /attach loop/.test(n))).toBe(true);
    const [c1, c2] = l.actors[0]!.components;
    expect(c1!.world.location).toEqual({ x: 1, y: 2, z: 0 });
    expect(c2!.world.location).toEqual({ x: 0, y: 2, z: 0 });
  });

  it('a chain deeper than the limit is cut there', () => {
    const n = MAX_ATTACH_DEPTH + 20;
    const comps = Array.from({ length: n }, (_, i) => scene('A', `C${i}`, i + 1 < n ? `C${i + 1}` : null, [{ name: 'RelativeLocation', type: 'StructProperty<Vector>', value: { X: 1, Y: 0, Z: 0 } }]));
    const l = levelOfPackage(pkg(['A'], [exp('A', 'Actor', `${LEVEL}.A`, []), ...comps]), 'Bad.umap', undefined);
    expect(l.notes.some((x) => /deeper than/.test(x))).toBe(true);
    expect(l.actors[0]!.components).toHaveLength(n);
  });

  it('an attach parent outside the level, and an actor the package lacks, are notes', () => {
    const l = levelOfPackage(pkg(['A', 'Gone'], [
      exp('A', 'Actor', `${LEVEL}.A`, []),
      exp('C', 'SceneComponent', `${LEVEL}.A.C`, [prop('AttachParent', '/Game/Other.Other:PersistentLevel.X.Root')]),
    ]), 'Bad.umap', undefined);
    expect(l.actors.map((a) => a.name)).toEqual(['A']);
    expect(l.notes).toContain(`actor ${LEVEL}.Gone is not among the package's exports`);
    expect(l.notes.some((x) => x.startsWith('attach parent /Game/Other.Other:PersistentLevel.X.Root is not a component'))).toBe(true);
    expect(l.actors[0]!.components[0]!.world.location).toEqual({ x: 0, y: 0, z: 0 });
  });

  it('properties of the wrong type fall back to the defaults with a note', () => {
    const l = levelOfPackage(pkg(['A'], [
      exp('A', 'Actor', `${LEVEL}.A`, [prop('RootComponent', 42)]),
      exp('M', 'StaticMeshComponent', `${LEVEL}.A.M`, [
        { name: 'RelativeLocation', type: 'StructProperty<Vector>', value: 'not a vector' },
        { name: 'RelativeScale3D', type: 'StructProperty<Vector>', value: { X: 'a', Y: 1, Z: 1 } },
        prop('StaticMesh', 7),
        { name: 'OverrideMaterials', type: 'ObjectProperty', value: 'x' },
      ]),
      exp('I', 'InstancedStaticMeshComponent', `${LEVEL}.A.I`, [{ name: 'NumCustomDataFloats', type: 'IntProperty', value: 'two' }]),
    ]), 'Bad.umap', undefined);
    const m = l.actors[0]!.components.find((c) => c.name === 'M');
    const i = l.actors[0]!.components.find((c) => c.name === 'I');
    expect(m!.relative.location).toEqual({ x: 0, y: 0, z: 0 });
    expect(m!.relative.scale).toEqual({ x: 1, y: 1, z: 1 });
    expect(m!.staticMesh).toBeNull();
    expect(l.actors[0]!.rootComponent).toBeNull();
    expect(i!.instances).toEqual({ count: 0, transforms: [], customDataFloats: 0, customData: [] });
    expect(l.notes).toEqual(expect.arrayContaining([
      'A.RootComponent is not a reference or name (42): ignored',
      'M.RelativeLocation is not a vector: the default is used',
      'M.RelativeScale3D is not a vector: the default is used',
      'M.StaticMesh is not a reference or name (7): ignored',
      'M.OverrideMaterials is not an array: ignored',
      'I.NumCustomDataFloats is not a number: ignored',
    ]));
  });

  it('a light component gives its intensity and colour; a light with neither gives an empty light', () => {
    const l = levelOfPackage(pkg(['L'], [
      exp('L', 'PointLight', `${LEVEL}.L`, [prop('RootComponent', `${LEVEL}.L.LightComponent0`)]),
      exp('LightComponent0', 'PointLightComponent', `${LEVEL}.L.LightComponent0`, [
        { name: 'Intensity', type: 'FloatProperty', value: 5000 },
        { name: 'LightColor', type: 'StructProperty<Color>', value: { B: 10, G: 200, R: 255, A: 255 } },
      ]),
      exp('Dim', 'SpotLightComponent', `${LEVEL}.L.Dim`, []),
    ]), 'Bad.umap', undefined);
    const [light, dim] = l.actors[0]!.components;
    expect(light!.light).toEqual({ intensity: 5000, color: { r: 255, g: 200, b: 10, a: 255 } });
    expect(dim!.light).toEqual({});
    expect(l.counts.lights).toBe(2);
  });

  it('a package with no World, or an export that is not one, is a FormatError', () => {
    index = 0;
    const p: PackageProperties = { package: PKG, exports: [exp('T', 'Texture2D', `${PKG}.T`, [])] };
    expect(() => levelOfPackage(p, 'Bad.umap', undefined)).toThrow(FormatError);
    expect(() => levelOfPackage(p, 'Bad.umap', undefined)).toThrow(/no World \(its exports are T: Texture2D\)/);
    expect(() => levelOfPackage(p, 'Bad.umap', 0)).toThrow(/a Texture2D, not a World/);
    expect(() => levelOfPackage(p, 'Bad.umap', 5)).toThrow(/no export 5/);
  });
});
