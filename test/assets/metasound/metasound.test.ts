/**
 * The MetaSound kind on cue58's MS_Source and MS_Patch, tagged and unversioned (with the .usmap).
 * Expected values: CUE4Parse's FixtureEffectAssetTests (MS_Source's OutputFormat is Mono, both
 * documents' root graph has PagedGraphs) and the documents' dependencies and interfaces as
 * `pakscope props` shows them independently of this reader (three nodes: the OnPlay trigger
 * input, the OnFinished trigger output and the mono audio output; the Source, OneShot and
 * OutputFormat.Mono interfaces). Edges: MS_Source's cook has none, so the test adds one to the
 * real document (OnPlay's output to OnFinished's input) and checks the graph and the .dot wire
 * those pins. Bad input: a node list of the wrong shape, an unknown literal type.
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { metaSoundDot } from '../../../src/core/assets/metasound/dot.js';
import { metaSoundOfExport, readMetaSound } from '../../../src/core/assets/metasound/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { installPackageProperties } from '../../../src/core/properties/open.js';
import type { ExportProperties, PropertyEntry } from '../../../src/core/properties/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { withInstall } from '../../properties/helpers.js';

const mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'm.usmap');
const SOURCE = '/Game/Fixtures/Effects/MS_Source';
const PATCH = '/Game/Fixtures/Effects/MS_Patch';
const MODES = [['Tagged', 'Tagged/Zlib'], ['Unversioned', 'Unversioned/Zlib']] as const;

describe('MetaSound kind: cue58', () => {
  for (const [mode, dir] of MODES) {
    it(`${mode}: MS_Source's document, graph and interfaces`, async () => {
      await withInstall(corpus('cue58/IoStore', dir), async (packages) => {
        const doc = await readMetaSound({ packages, ref: SOURCE }, undefined, { mappings });
        expect([doc.name, doc.class, doc.outputFormat, doc.documentVersion]).toEqual(['MS_Source', 'MetaSoundSource', 'Mono', '1.17']);
        expect(doc.interfaces).toEqual([
          { name: 'UE.Source', version: '1.1' }, { name: 'UE.Source.OneShot', version: '1.0' }, { name: 'UE.OutputFormat.Mono', version: '1.0' },
        ]);
        expect(doc.graphs).toHaveLength(1);
        const g = doc.graphs[0]!;
        expect(g.nodes.map((n) => [n.name, n.class?.name, n.class?.version, n.class?.type])).toEqual([
          ['UE.Source.OnPlay', 'Input.Trigger', '1.0', 'Input'],
          ['UE.Source.OneShot.OnFinished', 'Output.Trigger', '1.0', 'Output'],
          ['UE.OutputFormat.Mono.Audio:0', 'Output.Audio', '1.0', 'Output'],
        ]);
        expect(g.nodes.map((n) => n.inputs.map((i) => i.typeName))).toEqual([['Trigger'], ['Trigger'], ['Audio']]);
        expect([g.edges, g.variables]).toEqual([[], []]);
        expect(doc.inputs).toEqual([{
          name: 'UE.Source.OnPlay', typeName: 'Trigger', vertexId: '12F4E6A341676CFD6DD77094ABAF094A', nodeId: '495018844A436691641477B6C5002E13',
          accessType: 'Reference', defaults: [{ type: 'Boolean', value: false, text: 'false' }],
        }]);
        expect(doc.outputs.map((o) => [o.name, o.typeName, o.nodeId])).toEqual([
          ['UE.Source.OneShot.OnFinished', 'Trigger', '86F2DB404A6B7839586C0184046D1863'],
          ['UE.OutputFormat.Mono.Audio:0', 'Audio', '67E3CEAA467DDC872B859A9B15CBA728'],
        ]);
        expect(doc.dependencies.map((d) => d.className)).toEqual(['Input.Trigger', 'Output.Trigger', 'Output.Audio']);
        expect(doc.notes).toEqual([]);

        // The registry converts it to the same JSON and to a .dot with a box per node.
        const kind = assetKindOf('MetaSoundSource')!;
        expect([kind.kind, kind.view, kind.converts]).toEqual(['metasound', 'metasound', ['json', 'dot']]);
        const { model } = await packages.open(SOURCE);
        const index = model.exports.findIndex((e) => e.class === 'MetaSoundSource');
        const [json] = await kind.convert!({ packages, ref: SOURCE }, index, 'json', { mappings });
        expect(JSON.parse(new TextDecoder().decode(json!.data))).toEqual(doc);
        const [dot] = await kind.convert!({ packages, ref: SOURCE }, index, 'dot', { mappings });
        const text = new TextDecoder().decode(dot!.data);
        expect([dot!.extension, text.startsWith('digraph "MS_Source" {'), text.match(/^ {2}n\d \[label=</gm)?.length]).toEqual(['dot', true, 3]);
      });
    });

    it(`${mode}: MS_Patch's document has one paged graph, empty`, async () => {
      await withInstall(corpus('cue58/IoStore', dir), async (packages) => {
        const doc = await readMetaSound({ packages, ref: PATCH }, undefined, { mappings });
        expect([doc.class, doc.outputFormat, doc.graphs.length, doc.graphs[0]!.nodes.length, doc.interfaces]).toEqual(['MetaSoundPatch', null, 1, 0, []]);
        expect(doc.className).toBe('8E40D4454F00FF7930F5B98F7278C393');
      });
    });
  }
});

/** MS_Source's export as the property reader gives it (tagged, with offsets). */
async function sourceExport(): Promise<{ exp: ExportProperties; file: string }> {
  return withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
    const opened = await installPackageProperties(packages, SOURCE, { offsets: true });
    return { exp: opened.properties.exports.find((e) => e.class === 'MetaSoundSource')!, file: opened.path };
  });
}

const entry = (name: string, type: string, value: PropertyEntry['value']): PropertyEntry => ({ name, type, value });
/** The first paged graph's entries of a document export (mutable). */
function graphEntries(exp: ExportProperties): PropertyEntry[] {
  const doc = exp.properties.find((e) => e.name === 'RootMetasoundDocument')!.value as PropertyEntry[];
  const root = doc.find((e) => e.name === 'RootGraph')!.value as PropertyEntry[];
  return (root.find((e) => e.name === 'PagedGraphs')!.value as PropertyEntry[][])[0]!;
}

describe('MetaSound graph: edges and literals', () => {
  it('an edge joins an output pin to an input pin, in the graph and the .dot; a node literal shows on its pin', async () => {
    const { exp, file } = await sourceExport();
    const copy = structuredClone(exp);
    const graph = graphEntries(copy);
    const edges = graph.find((e) => e.name === 'Edges')!;
    // OnPlay's output vertex -> OnFinished's input vertex (ids as the document has them).
    edges.value = [[
      entry('FromNodeID', 'StructProperty<Guid>', '495018844A436691641477B6C5002E13'),
      entry('FromVertexID', 'StructProperty<Guid>', 'CC02F2799674D5DA72ABBEB51D1DC820'),
      entry('ToNodeID', 'StructProperty<Guid>', '86F2DB404A6B7839586C0184046D1863'),
      entry('ToVertexID', 'StructProperty<Guid>', 'DC13176B76D7263C9A5AC6AF2436C9B4'),
    ]];
    const audio = (graph.find((e) => e.name === 'Nodes')!.value as PropertyEntry[][])[2]!;
    audio.find((e) => e.name === 'InputLiterals')!.value = [[
      entry('VertexID', 'StructProperty<Guid>', '1073B4F9A62848057651709D850DE57C'),
      entry('Value', 'StructProperty<MetasoundFrontendLiteral>', [
        entry('Type', 'EnumProperty<EMetasoundFrontendLiteralType>', 'EMetasoundFrontendLiteralType::Float'),
        entry('AsFloat', 'ArrayProperty<FloatProperty>', [0.5]),
      ]),
    ]];
    const doc = metaSoundOfExport(copy, file, `${SOURCE}.MS_Source`);
    expect(doc.graphs[0]!.edges).toEqual([{
      fromNode: '495018844A436691641477B6C5002E13', fromVertex: 'CC02F2799674D5DA72ABBEB51D1DC820',
      toNode: '86F2DB404A6B7839586C0184046D1863', toVertex: 'DC13176B76D7263C9A5AC6AF2436C9B4',
    }]);
    expect(doc.graphs[0]!.nodes[2]!.inputs[0]!.literal).toEqual({ type: 'Float', value: 0.5, text: '0.5' });
    expect(doc.notes).toEqual([]);
    const dot = metaSoundDot(doc);
    expect(dot).toContain('  n0:o0:e -> n1:i0:w;');
    expect(dot).toContain('UE.OutputFormat.Mono.Audio:0 <FONT COLOR="#666666">Audio</FONT> = 0.5</TD>');

    // An edge to a pin the graph lacks is a note, not a crash.
    (edges.value as PropertyEntry[][])[0]![3]!.value = 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF';
    expect(metaSoundOfExport(copy, file, 'x').notes).toEqual(['an edge ends at input FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF of node 86F2DB404A6B7839586C0184046D1863, which the graph does not have']);
  });

  it('bad input: a node list that is no array, an unknown literal type, no document: FormatErrors naming the field and its offset', async () => {
    const { exp, file } = await sourceExport();
    const bad = structuredClone(exp);
    const nodes = graphEntries(bad).find((e) => e.name === 'Nodes')!;
    nodes.value = 7;
    const e1 = (() => { try { metaSoundOfExport(bad, file, 'x'); } catch (e) { return e; } })() as FormatError;
    expect(e1).toBeInstanceOf(FormatError);
    expect(e1.structure).toBe('MetaSoundSource "MS_Source".RootMetasoundDocument.RootGraph.PagedGraphs[0].Nodes');
    expect(e1.file).toBe(file);
    expect(e1.offset).toBeGreaterThan(0);
    expect(e1.offset).toBe(nodes.range!.value);

    const lit = structuredClone(exp);
    const doc = lit.properties.find((e) => e.name === 'RootMetasoundDocument')!.value as PropertyEntry[];
    const root = doc.find((e) => e.name === 'RootGraph')!.value as PropertyEntry[];
    const iface = root.find((e) => e.name === 'Interface')!.value as PropertyEntry[];
    const input = (iface.find((e) => e.name === 'Inputs')!.value as PropertyEntry[][])[0]!;
    const literal = ((input.find((e) => e.name === 'Defaults')!.value as PropertyEntry[][])[0]!.find((e) => e.name === 'Literal')!.value as PropertyEntry[]);
    literal.find((e) => e.name === 'Type')!.value = 'EMetasoundFrontendLiteralType::Banana';
    expect(() => metaSoundOfExport(lit, file, 'x')).toThrow(/RootGraph\.Interface\.Inputs\[0\]\.Defaults\[0\]\.Literal\.Type at byte \d+: unknown literal type Banana/);

    expect(() => metaSoundOfExport({ ...exp, properties: [] }, file, 'x')).toThrow(FormatError);
    await withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), async (packages) => {
      await expect(readMetaSound({ packages, ref: SOURCE }, undefined)).rejects.toThrow(/mappings \(\.usmap\) are needed to read its MetaSound document/);
      await expect(readMetaSound({ packages, ref: '/Game/Fixtures/Effects/NS_Fixture' }, undefined, { mappings })).rejects.toThrow(/no MetaSound \(its exports are/);
    });
  });
});
