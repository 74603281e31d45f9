/**
 * Material chains that go wrong, in editor packages written for the test
 * (test/fixtures/uasset-writer.ts) into a project folder: two instances each the other's parent
 * (a loop), an instance whose parent package is not in the install, and an instance whose
 * properties have the wrong types. Each reads what it can and says what it could not, at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMaterial } from '../../../src/core/assets/material/read.js';
import { writeEditorPackage } from '../../fixtures/uasset-writer.js';
import type { TaggedProps } from '../../support/tagged-writer.js';
import { withInstall } from '../../properties/helpers.js';

const MIC = '/Script/Engine.MaterialInstanceConstant';
const temp = mkdtempSync(join(tmpdir(), 'pakscope-material-'));
const content = join(temp, 'Proj', 'Content', 'Mat');

function write(name: string, props: (ref: (path: string, cls?: string) => number) => TaggedProps): void {
  const bytes = writeEditorPackage({ name: `/Game/Mat/${name}`, ue5: 1004, savedBy: [5, 0, 3, 0, '++UE5+Release-5.0'], exports: [{ name, class: MIC, props }] });
  writeFileSync(join(content, `${name}.uasset`), bytes);
}

const scalar = (name: string, value: number) => ({
  type: 'StructProperty' as const, struct: 'ScalarParameterValue',
  value: [
    ['ParameterInfo', { type: 'StructProperty' as const, struct: 'MaterialParameterInfo', value: [['Name', { type: 'NameProperty' as const, value: name }]] as TaggedProps }],
    ['ParameterValue', { type: 'FloatProperty' as const, value }],
  ] as TaggedProps,
});

beforeAll(() => {
  mkdirSync(content, { recursive: true });
  write('MI_LoopA', (ref) => [['Parent', { type: 'ObjectProperty', value: ref('/Game/Mat/MI_LoopB.MI_LoopB', MIC) }], ['ScalarParameterValues', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'ScalarParameterValue', value: [scalar('Gloss', 0.25)] }]]);
  write('MI_LoopB', (ref) => [['Parent', { type: 'ObjectProperty', value: ref('/Game/Mat/MI_LoopA.MI_LoopA', MIC) }], ['ScalarParameterValues', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'ScalarParameterValue', value: [scalar('Gloss', 0.75), scalar('Metal', 1)] }]]);
  write('MI_Orphan', (ref) => [['Parent', { type: 'ObjectProperty', value: ref('/Game/Gone/M_Gone.M_Gone', '/Script/Engine.Material') }], ['ScalarParameterValues', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'ScalarParameterValue', value: [scalar('Gloss', 0.5)] }]]);
  write('MI_WrongTypes', () => [
    ['Parent', { type: 'IntProperty', value: 7 }],
    ['ScalarParameterValues', { type: 'IntProperty', value: 3 }],
    ['VectorParameterValues', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'VectorParameterValue', value: [scalar('NotAColour', 2)] }],
  ]);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const read = (ref: string) => withInstall(join(temp, 'Proj'), (packages) => readMaterial({ packages, ref }, undefined));

describe('material chains that go wrong', () => {
  it('a loop of parents ends where it comes back, with a note, and the nearer value wins', async () => {
    const m = await read('/Game/Mat/MI_LoopA');
    expect(m.chain.map((l) => l.name)).toEqual(['MI_LoopA', 'MI_LoopB']);
    expect(m.notes).toEqual(['the parent chain loops: MI_LoopB\'s parent /Game/Mat/MI_LoopA.MI_LoopA is already in it']);
    expect(m.parameters.map((p) => [p.name, p.value, p.from])).toEqual([['Gloss', 0.25, 0], ['Metal', 1, 1]]);
  });

  it('a parent missing from the install ends the chain with a note naming it', async () => {
    const m = await read('/Game/Mat/MI_Orphan');
    expect(m.chain.map((l) => l.name)).toEqual(['MI_Orphan']);
    expect(m.chain[0]!.parent).toBe('/Game/Gone/M_Gone.M_Gone');
    expect(m.notes).toHaveLength(1);
    expect(m.notes[0]).toMatch(/^parent \/Game\/Gone\/M_Gone\.M_Gone does not read: .*M_Gone/);
    expect(m.parameters.map((p) => [p.name, p.value])).toEqual([['Gloss', 0.5]]);
  });

  it('properties of the wrong type are skipped with a note each, never trusted', async () => {
    const m = await read('/Game/Mat/MI_WrongTypes');
    expect(m.chain[0]!.parent).toBeNull();
    expect(m.parameters).toEqual([]);
    expect(m.notes).toEqual([
      'MI_WrongTypes: Parent is not an object reference: ignored',
      'MI_WrongTypes: ScalarParameterValues is not a list (number): skipped',
      'MI_WrongTypes: VectorParameterValues[0] is not a vector parameter PakScope reads: skipped',
    ]);
  });

  it('an export the package does not have is an error naming it', async () => {
    await expect(withInstall(join(temp, 'Proj'), (packages) => readMaterial({ packages, ref: '/Game/Mat/MI_LoopA' }, 5))).rejects.toThrow(/no export 5 \(the package has 1\)/);
  });
});
