// `pakscope props`: a package file or a package of an install, as a tree or as JSON.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PropsJson } from '../../src/core/properties/types.js';
import { corpus } from '../support/corpus.js';
import { storedUsmap } from '../usmap/usmap-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const DA = '/Game/Fixtures/Properties/DA_AllProperties';
const json = (out: string): PropsJson => JSON.parse(out) as PropsJson;
const propOf = (j: PropsJson, exp: string, name: string): unknown =>
  j.exports.find((e) => e.name === exp)!.properties.find((p) => p.name === name)?.value;

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-props-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope props', () => {
  it('a package of an install, --json: every export with its properties, where they end, and no error', async () => {
    const r = await pakscope(['props', TAGGED, DA, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = json(r.out);
    expect(j.exports.map((e) => [e.name, e.class, e.propertyBytes, e.serialSize, e.error])).toEqual([
      ['InlineFixture', 'FixtureInlineObject', 368, 372, null], ['DA_AllProperties', 'ParserFixtureData', 7441, 7445, null],
    ]);
    expect(propOf(j, 'DA_AllProperties', 'Integer')).toBe(0x12345678);
    expect(propOf(j, 'DA_AllProperties', 'UnsignedInteger64')).toBe('18364758544493064720');
    expect(propOf(j, 'DA_AllProperties', 'IntegerMap')).toEqual([{ key: 'Minimum', value: -2147483648 }, { key: 'Answer', value: 42 }, { key: 'Marker', value: 0x12345678 }]);
    expect(j.exports[1]!.properties[0]).toEqual({ name: 'bBoolean', type: 'BoolProperty', value: true });
  });

  it('the text tree: scalars and small structs inline, nested properties indented', async () => {
    const r = await pakscope(['props', TAGGED, 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(DA);
    expect(lines).toContain('DA_AllProperties (ParserFixtureData): properties 0..7441 of 7445 bytes, tagged');
    expect(lines).toContain('  Integer (IntProperty) = 305419896');
    expect(lines).toContain('  Vector (StructProperty<Vector>) = {X: 1.25, Y: -2.5, Z: 3.75}');
    expect(lines).toContain('  FixedIntegerArray[2] (IntProperty) = 2147483647');
    const nested = lines.lastIndexOf('  Nested (StructProperty<FixtureNestedStruct>)'); // DA_AllProperties' own, after InlineFixture's
    expect(lines.slice(nested + 1, nested + 3)).toEqual(['    Marker (IntProperty) = 777', '    Label (StrProperty) = "PrimaryNested_日本語"']);
    expect(lines).toContain('    ["Answer"] = 42');
  });

  it('a loose editor package and a UE1 package', async () => {
    const [bp, ue1] = await Promise.all([
      pakscope(['props', corpus('uncooked/ue50_BP_Statue.uasset'), '--json']),
      pakscope(['props', corpus('legacy/ut99_EnergySword.u'), '--json']),
    ]);
    expect(bp.code).toBe(0);
    expect(propOf(json(bp.out), 'BP_Statue', 'ParentClass')).toBe('/Script/Engine.Actor');
    expect(ue1.code).toBe(0);
    const sword = json(ue1.out).exports.find((e) => e.name === 'EnergySword')!;
    expect(sword.notes).toEqual(['a class: its default properties, found after its script and class tables']);
    expect(sword.properties.find((p) => p.name === 'Damage')!.value).toBe(50);
  });

  it('unversioned properties without --usmap: empty lists, a note, a warning, exit 0', async () => {
    const r = await pakscope(['props', corpus('cooked/uapi54_MI_BlueCube.uasset'), '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the properties are unversioned: pass the game\'s mappings with --usmap FILE to read them');
    expect(json(r.out).exports[0]).toMatchObject({ properties: [], encoding: 'unversioned', error: null });
  });

  it('--usmap reads them (a stored copy of the game\'s Zstd mappings)', async () => {
    const stored = storedUsmap(new Uint8Array(readFileSync(corpus('cooked/uapi54_BlankGame_Dumper-7.usmap'))));
    const usmap = join(temp, 'BlankGame.usmap');
    await writeFile(usmap, stored);
    const r = await pakscope(['props', corpus('cooked/uapi54_MI_BlueCube.uasset'), '--usmap', usmap, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(propOf(json(r.out), 'MI_BlueCube', 'Parent')).toBe('/Game/Materials/M_Cube.M_Cube');
  });

  it('reads a game\'s Zstd-compressed mappings as they are', async () => {
    const r = await pakscope(['props', corpus('cooked/uapi54_MI_BlueCube.uasset'), '--usmap', corpus('cooked/uapi54_BlankGame_Dumper-7.usmap')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain('Parent (ObjectProperty) = "/Game/Materials/M_Cube.M_Cube"');
  });

  it('exit 2: an export that cannot be read, a package not in the install, a container without a package, bad mappings', async () => {
    const [missing, container, notUsmap] = await Promise.all([
      pakscope(['props', TAGGED, '/Game/Nope']),
      pakscope(['props', corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc')]),
      pakscope(['props', corpus('uncooked/ue50_BP_Statue.uasset'), '--usmap', corpus('uncooked/ue50_BP_Statue.uasset')]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/Game/Nope: no such package');
    expect(container.code).toBe(2);
    expect(container.stderr).toContain('is a container: name the package inside it too');
    expect(notUsmap.code).toBe(2);
    expect(notUsmap.stderr).toContain('not a mappings file');
    // Wrong mappings for a package: the exports they do not fit fail (exit 2), the others are printed.
    const stored = storedUsmap(new Uint8Array(readFileSync(corpus('cooked/uapi54_BlankGame_Dumper-7.usmap'))));
    if (stored) {
      const usmap = join(temp, 'Other.usmap');
      await writeFile(usmap, stored);
      const wrong = await pakscope(['props', corpus('cooked/uapi55_WBP_Hello.uasset'), '--usmap', usmap, '--json']);
      expect(wrong.code).toBe(2);
      expect(json(wrong.out).exports.filter((e) => e.error === null).length).toBe(4);
    }
  });

  it('--help describes the command', async () => {
    const r = await pakscope(['props', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: pakscope props <path> \[package\] \[options\]/);
    expect(r.out).toContain('--usmap FILE');
  });
});
