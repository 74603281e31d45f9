/**
 * Editor (uncooked) materials in an install, written for the test (test/fixtures/uasset-writer.ts)
 * as a UE5.3 editor saves them: M_Base, a Material whose parameters are its parameter expressions
 * (a scalar with its DefaultValue, a static switch whose false default the tag leaves out), and
 * MI_Editor, an instance of it that overrides the scalar and, on its MaterialInstanceEditorOnlyData
 * export (where UE5.1+ editors keep an instance's StaticParameters), the switch.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMaterial } from '../../../src/core/assets/material/read.js';
import { writeEditorPackage, type EditorPackageExport } from '../../fixtures/uasset-writer.js';
import type { TaggedProps } from '../../support/tagged-writer.js';
import { withInstall } from '../../properties/helpers.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-material-editor-'));
const content = join(temp, 'Proj', 'Content', 'Mat');
const SAVED_BY: [number, number, number, number, string] = [5, 3, 2, 0, '++UE5+Release-5.3'];

const info = (name: string): TaggedProps => [['Name', { type: 'NameProperty', value: name }]];
function write(name: string, exports: EditorPackageExport[]): void {
  writeFileSync(join(content, `${name}.uasset`), writeEditorPackage({ name: `/Game/Mat/${name}`, ue5: 1009, savedBy: SAVED_BY, exports }));
}

beforeAll(() => {
  mkdirSync(content, { recursive: true });
  write('M_Base', [
    { name: 'M_Base', class: '/Script/Engine.Material', props: () => [['TwoSided', { type: 'BoolProperty', value: true }]] },
    {
      name: 'MaterialExpressionScalarParameter_0', class: '/Script/Engine.MaterialExpressionScalarParameter', outer: 'M_Base',
      props: (ref) => [['DefaultValue', { type: 'FloatProperty', value: 0.5 }], ['ParameterName', { type: 'NameProperty', value: 'Gloss' }], ['Material', { type: 'ObjectProperty', value: ref('/Game/Mat/M_Base.M_Base') }]],
    },
    {
      name: 'MaterialExpressionStaticSwitchParameter_0', class: '/Script/Engine.MaterialExpressionStaticSwitchParameter', outer: 'M_Base',
      props: (ref) => [['ParameterName', { type: 'NameProperty', value: 'UseDetail' }], ['Material', { type: 'ObjectProperty', value: ref('/Game/Mat/M_Base.M_Base') }]],
    },
  ]);
  write('MI_Editor', [
    {
      name: 'MI_Editor', class: '/Script/Engine.MaterialInstanceConstant',
      props: (ref) => [
        ['Parent', { type: 'ObjectProperty', value: ref('/Game/Mat/M_Base.M_Base', '/Script/Engine.Material') }],
        ['ScalarParameterValues', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'ScalarParameterValue', value: [{ type: 'StructProperty', struct: 'ScalarParameterValue', value: [
          ['ParameterInfo', { type: 'StructProperty', struct: 'MaterialParameterInfo', value: info('Gloss') }],
          ['ParameterValue', { type: 'FloatProperty', value: 0.875 }],
        ] }] }],
        ['EditorOnlyData', { type: 'ObjectProperty', value: ref('/Game/Mat/MI_Editor.MI_Editor:MI_EditorEditorOnlyData') }],
      ],
    },
    {
      name: 'MI_EditorEditorOnlyData', class: '/Script/Engine.MaterialInstanceEditorOnlyData', outer: 'MI_Editor',
      props: () => [['StaticParameters', { type: 'StructProperty', struct: 'StaticParameterSet', value: [
        ['StaticSwitchParameters', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'StaticSwitchParameter', value: [{ type: 'StructProperty', struct: 'StaticSwitchParameter', value: [
          ['Value', { type: 'BoolProperty', value: true }],
          ['ParameterInfo', { type: 'StructProperty', struct: 'MaterialParameterInfo', value: info('UseDetail') }],
          ['bOverride', { type: 'BoolProperty', value: true }],
        ] }] }],
      ] }]],
    },
  ]);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('editor materials', () => {
  it('an instance over an editor material: the expressions\' defaults, its overrides from its editor-only data', async () => {
    const m = await withInstall(join(temp, 'Proj'), (packages) => readMaterial({ packages, ref: '/Game/Mat/MI_Editor' }, undefined));
    expect(m.chain.map((l) => [l.name, l.class])).toEqual([['MI_Editor', 'MaterialInstanceConstant'], ['M_Base', 'Material']]);
    expect(m.chain[1]!.parameters.map((p) => [p.kind, p.name, p.value])).toEqual([['scalar', 'Gloss', 0.5], ['switch', 'UseDetail', false]]);
    expect(m.parameters.map((p) => [p.kind, p.name, p.value, p.from, p.overrides])).toEqual([
      ['scalar', 'Gloss', 0.875, 0, [{ from: 1, value: 0.5 }]],
      ['switch', 'UseDetail', true, 0, [{ from: 1, value: false }]],
    ]);
    expect(m.twoSided).toBe(true);
    expect(m.notes).toEqual([]);
  });
});
