/**
 * Unversioned properties (cooked UE5.4 and UE5.6 packages) read with the mappings dumped from
 * their games: uapi54_BlankGame_Dumper-7.usmap (usmap version 3) maps the UE5.4 BlankGame assets,
 * uapi56_ExplicitEnumValuesExample.usmap (version 4, explicit enum values) the UE5.6 third-person
 * template's. Both files are Zstd-compressed: the test decompresses them itself when this Node
 * has no zstd (test/usmap/usmap-writer.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExportProperties, PropertyValue } from '../../src/core/properties/types.js';
import { parseUsmap } from '../../src/core/usmap/parse.js';
import type { Usmap } from '../../src/core/usmap/types.js';
import { corpus } from '../support/corpus.js';
import { storedUsmap } from '../usmap/usmap-writer.js';
import { allEntries, exportNamed, looseProperties, prop } from './helpers.js';

function mappings(file: string): Usmap | undefined {
  const stored = storedUsmap(new Uint8Array(readFileSync(corpus('cooked', file))));
  return stored ? parseUsmap(stored, file) : undefined;
}
const usmap54 = mappings('uapi54_BlankGame_Dumper-7.usmap');
const usmap56 = mappings('uapi56_ExplicitEnumValuesExample.usmap');
const cooked = (f: string): string => corpus('cooked', f);
const errors = (exports: readonly ExportProperties[]): [string, string][] =>
  exports.filter((e) => e.error !== null).map((e) => [e.name, e.error!.replace(/^.*: /, '')]);

describe('unversioned properties without mappings', () => {
  it('keep every export\'s list empty with a note, not an error', () => {
    const p = looseProperties(cooked('uapi54_MI_BlueCube.uasset'));
    expect(p.exports).toEqual([{
      index: 0, name: 'MI_BlueCube', class: 'MaterialInstanceConstant', properties: [], propertyBytes: 0, propertyStart: 0,
      serialSize: 137, encoding: 'unversioned', error: null,
      notes: ['unversioned properties: a mappings file (.usmap) for this game is needed to read them'],
    }]);
  });
});

describe.skipIf(!usmap54)('UE5.4 BlankGame with its Dumper-7 mappings (usmap v3)', () => {
  it('reads a material instance', () => {
    const mi = looseProperties(cooked('uapi54_MI_BlueCube.uasset'), usmap54).exports[0]!;
    expect([mi.error, mi.propertyBytes, mi.serialSize]).toEqual([null, 119, 137]);
    expect(prop(mi, 'Parent')).toBe('/Game/Materials/M_Cube.M_Cube');
    const vector = (prop(mi, 'VectorParameterValues') as PropertyValue[])[0]!;
    expect(prop(prop(vector, 'ParameterInfo'), 'Name')).toBe('ColorTint');
    expect(prop(prop(vector, 'ParameterInfo'), 'Association')).toBe('EMaterialParameterAssociation::GlobalParameter');
    expect(prop(prop(mi, 'BasePropertyOverrides'), 'OpacityMaskClipValue')).toBe(0.3333);
    expect(prop(mi, 'bIncludedInBaseGame')).toBe(true);
  });

  it('reads every export of a Blueprint: components, construction script nodes', () => {
    const bp = looseProperties(cooked('uapi54_BP_CubePawn.uasset'), usmap54);
    expect(errors(bp.exports)).toEqual([]);
    expect(bp.exports.map((e) => [e.name, e.properties.length, e.propertyBytes, e.serialSize])).toEqual([
      ['BP_CubePawn_C', 1, 10, 214], ['Default__BP_CubePawn_C', 0, 2, 6], ['RotatingMovement_GEN_VARIABLE', 1, 30, 38],
      ['DefaultSceneRoot_GEN_VARIABLE', 0, 6, 14], ['SCS_Node_0', 4, 40, 44], ['SCS_Node_1', 4, 40, 44], ['SCS_Node_2', 4, 40, 44],
      ['SimpleConstructionScript_0', 3, 34, 38], ['StaticMesh_GEN_VARIABLE', 1, 10, 22],
    ]);
    expect(prop(exportNamed(bp, 'RotatingMovement_GEN_VARIABLE'), 'RotationRate')).toEqual({ Pitch: 0, Yaw: 45, Roll: 0 });
    const node = exportNamed(bp, 'SCS_Node_1');
    expect(prop(node, 'ComponentClass')).toBe('/Script/Engine.StaticMeshComponent');
    expect(prop(node, 'InternalVariableName')).toBe('StaticMesh');
    expect(prop(node, 'VariableGuid')).toBe('76448BFD4043500223572FB72C3A0896');
    expect(prop(exportNamed(bp, 'StaticMesh_GEN_VARIABLE'), 'StaticMesh')).toBe('/Game/Environment/SM_OrangeCube.SM_OrangeCube');
  });

  it('mappings of another build: the exports they do not fit get an error, the others still read', () => {
    const hello = looseProperties(cooked('uapi55_WBP_Hello.uasset'), usmap54);
    expect(errors(hello.exports)).toEqual([
      ['TextBlock_51', 'object index 37963648 is outside the import and export maps'],
      ['Default__WBP_Hello_C', '"WBP_Hello_C" is not in the mappings, so its unversioned properties cannot be read'],
    ]);
    expect(hello.exports.filter((e) => e.error === null).length).toBe(4);
  });
});

describe.skipIf(!usmap56)('UE5.6 third-person template with explicit enum values (usmap v4)', () => {
  it('reads enums by their explicit values', () => {
    const mi = looseProperties(cooked('uapi56_MI_Quinn_01.uasset'), usmap56).exports[0]!;
    expect(mi.error).toBeNull();
    expect(prop(prop(mi, 'BasePropertyOverrides'), 'BlendMode')).toBe('EBlendMode::BLEND_Masked');
    const texture = looseProperties(cooked('retoc56_T_Quinn_01_D.uasset'), usmap56).exports[0]!;
    expect(prop(texture, 'LODGroup')).toBe('TextureGroup::TEXTUREGROUP_Character');
    expect(prop(texture, 'ImportedSize')).toEqual({ X: 1024, Y: 1024 });
  });

  it('reads every export of the template\'s character, mesh, skeleton and material', () => {
    const counts: Record<string, number> = {};
    for (const f of ['retoc56_BP_ThirdPersonCharacter.uasset', 'retoc56_M_Mannequin.uasset', 'retoc56_SK_Mannequin.uasset', 'retoc56_SM_Cube.uasset', 'uapi56_BPI_SyncAnimation.uasset']) {
      const p = looseProperties(cooked(f), usmap56);
      expect(errors(p.exports), f).toEqual([]);
      expect(p.exports.flatMap((e) => allEntries(e.properties)).filter((e) => e.raw), f).toEqual([]);
      counts[f] = p.exports.reduce((n, e) => n + e.properties.length, 0);
    }
    expect(counts).toEqual({
      'retoc56_BP_ThirdPersonCharacter.uasset': 60, 'retoc56_M_Mannequin.uasset': 7, 'retoc56_SK_Mannequin.uasset': 39,
      'retoc56_SM_Cube.uasset': 6, 'uapi56_BPI_SyncAnimation.uasset': 0,
    });
    const character = looseProperties(cooked('retoc56_BP_ThirdPersonCharacter.uasset'), usmap56);
    const movement = exportNamed(character, 'CharMoveComp');
    expect([prop(movement, 'JumpZVelocity'), prop(movement, 'AirControl'), prop(movement, 'RotationRate')]).toEqual([500, 0.35, { Pitch: 0, Yaw: 500, Roll: 0 }]);
    expect(prop(prop(movement, 'NavAgentProps'), 'AgentRadius')).toBe(42);
    expect(prop(exportNamed(character, 'SpringArmComponent_0__A9892D03'), 'TargetArmLength')).toBe(400);
    expect(prop(exportNamed(character, 'Default__BP_ThirdPersonCharacter_C'), 'CharacterMovement'))
      .toBe('/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.Default__BP_ThirdPersonCharacter_C:CharMoveComp');
  });

  it('a class the mappings do not know is an error for its exports only', () => {
    const weapon = looseProperties(cooked('uapi57_BP_WorldWeapon.uasset'), usmap56);
    expect(errors(weapon.exports).map(([name]) => name)).toEqual(['Default__BP_WorldWeapon_C', 'WorldPhysicsComponent', 'WorldUsableComponent']);
    expect(weapon.exports.length).toBe(11);
  });
});
