// `pakscope effect`: cue58's MS_Source (its graph's three nodes, the OnPlay input's default, the
// Mono output format CUE4Parse's FixtureEffectAssetTests asserts) and NS_Fixture (User.FixtureScale
// 3.25, the texture data interface's T_BC3, the same test's values) as text, JSON from tagged and
// unversioned cooks alike, -o as .dot and .json, and the errors a user meets.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope effect', () => {
  it('prints MS_Source\'s document: output format, interfaces, inputs with defaults, each node with its class and pins', async () => {
    const r = await pakscope(['effect', TAGGED, '/Game/Fixtures/Effects/MS_Source']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out.split('\n').slice(0, 9)).toEqual([
      'MS_Source (MetaSoundSource)  output Mono  document 1.17',
      'interfaces: UE.Source 1.1, UE.Source.OneShot 1.0, UE.OutputFormat.Mono 1.0',
      'input   UE.Source.OnPlay: Trigger = false',
      'output  UE.Source.OneShot.OnFinished: Trigger',
      'output  UE.OutputFormat.Mono.Audio:0: Audio',
      'graph 3 nodes, 0 edges, 0 variables',
      '  node UE.Source.OnPlay  Input.Trigger 1.0 (Input)',
      '    in  UE.Source.OnPlay: Trigger',
      '    out UE.Source.OnPlay: Trigger',
    ]);
  });

  it('prints NS_Fixture\'s user parameters with their defaults and what they reference', async () => {
    const r = await pakscope(['effect', UNVERSIONED, 'NS_Fixture', '--usmap', USMAP]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toBe([
      'NS_Fixture (NiagaraSystem)  2 user parameters, 0 emitters',
      'user    FixtureScale: float = 3.25',
      'user    FixtureTexture: NiagaraDataInterfaceTexture = /Game/Fixtures/Effects/NS_Fixture.NS_Fixture:NiagaraDataInterfaceTexture_0',
      '          Texture /Game/Fixtures/Textures/T_BC3.T_BC3',
      'references: /Game/Fixtures/Textures/T_BC3.T_BC3',
      '',
    ].join('\n'));
  });

  it('--json is the same from tagged and unversioned packages', async () => {
    for (const pkg of ['MS_Source', 'MS_Patch', 'NS_Fixture']) {
      const tagged = await pakscope(['effect', TAGGED, pkg, '--json']);
      const unversioned = await pakscope(['effect', UNVERSIONED, pkg, '--json', '--usmap', USMAP]);
      expect([tagged.code, unversioned.code]).toEqual([0, 0]);
      expect(JSON.parse(unversioned.out)).toEqual(JSON.parse(tagged.out));
    }
    const patch = JSON.parse((await pakscope(['effect', TAGGED, 'MS_Patch', '--json'])).out) as { class: string; graphs: { nodes: unknown[] }[] };
    expect([patch.class, patch.graphs.length, patch.graphs[0]!.nodes.length]).toEqual(['MetaSoundPatch', 1, 0]);
  });

  it('-o writes the graph as .dot and the system as .json; a wrong extension is a usage error', async () => {
    const dir = await makeTempDir();
    const dot = join(dir, 'MS_Source.dot');
    const r = await pakscope(['effect', TAGGED, 'MS_Source', '-o', dot]);
    expect(r.code).toBe(0);
    const text = await readFile(dot, 'utf8');
    expect(text.startsWith('digraph "MS_Source" {\n  rankdir=LR;')).toBe(true);
    expect(text).toContain('<B>UE.Source.OnPlay</B><BR/><FONT POINT-SIZE="9">Input.Trigger 1.0</FONT>');
    const json = join(dir, 'NS.json');
    expect((await pakscope(['effect', TAGGED, 'NS_Fixture', '-o', json])).code).toBe(0);
    expect((JSON.parse(await readFile(json, 'utf8')) as { userParameters: { value: unknown }[] }).userParameters[0]!.value).toBe(3.25);
    const wrong = await pakscope(['effect', TAGGED, 'NS_Fixture', '-o', join(dir, 'NS.dot')]);
    expect([wrong.code, wrong.stderr]).toEqual([2, 'error: effect: a NiagaraSystem converts to .json, not .dot (see pakscope effect --help)\n']);
  });

  it('a package without an effect, and an unversioned one without mappings, are clear errors', async () => {
    const none = await pakscope(['effect', TAGGED, 'T_BC3']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/T_BC3\.uasset holds no MetaSound or Niagara System \(its exports are Texture2D\)/);
    const unmapped = await pakscope(['effect', UNVERSIONED, 'MS_Source']);
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toMatch(/mappings \(\.usmap\) are needed to read its MetaSound document/);
  });

  it('extract --format convert writes a MetaSound and a Niagara System as .json through the registry', async () => {
    const dir = await makeTempDir();
    const r = await pakscope(['extract', TAGGED, '--out', dir, '--filter', 'Effects/', '--format', 'convert']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(await readFile(join(dir, 'CUE4ParseFixtures/Content/Fixtures/Effects/MS_Source.json'), 'utf8')) as { outputFormat: string };
    expect(doc.outputFormat).toBe('Mono');
    const ns = JSON.parse(await readFile(join(dir, 'CUE4ParseFixtures/Content/Fixtures/Effects/NS_Fixture.json'), 'utf8')) as { userParameters: { name: string }[] };
    expect(ns.userParameters.map((p) => p.name)).toEqual(['FixtureScale', 'FixtureTexture']);
  });
});
