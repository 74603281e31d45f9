/**
 * MetaSound Source and Patch assets: their frontend document, which the cook keeps as properties
 * (RootMetaSoundDocument, an FMetasoundFrontendDocument). The graph is the root graph class's
 * paged graphs (UE5.5+; before, one Graph): nodes with their interface's input and output
 * vertices and the literals they set, edges from an output vertex to an input vertex, variables.
 * A node's class (name, version, type) is the dependency with its ClassID. The graph class's
 * inputs carry their defaults (Defaults per page, UE5.5+; DefaultLiteral before).
 */
import { FormatError } from '../../errors.js';
import type { ExportProperties, PropertyValue } from '../../properties/types.js';
import { knownClass, type AssetSource, type ConvertOptions } from '../registry.js';
import { sourceProperties } from '../source-properties.js';
import { enumValue, StructFields } from '../struct-fields.js';
import type {
  MetaSoundDependency, MetaSoundDocument, MetaSoundEdge, MetaSoundGraph, MetaSoundGraphInput, MetaSoundGraphOutput, MetaSoundLiteral,
  MetaSoundNode, MetaSoundNodeClass, MetaSoundVariable, MetaSoundVertex,
} from './types.js';

export const METASOUND_CLASSES: readonly string[] = ['MetaSoundSource', 'MetaSoundPatch'];
export const METASOUND_SCRIPT_PACKAGE = '/Script/MetasoundEngine';
/** The MetaSound class `cls` names (also by script import hash), if it names one. */
export const metaSoundClass = (cls: string): string | undefined => knownClass(cls, METASOUND_CLASSES, METASOUND_SCRIPT_PACKAGE);

/** The literal arrays by type: a scalar type's value is its array's first element. */
const LITERAL_ARRAYS: Record<string, string> = {
  Boolean: 'AsBoolean', Integer: 'AsInteger', Float: 'AsFloat', String: 'AsString', UObject: 'AsUObject',
};

type Scalar = boolean | number | string | null;
const isScalar = (v: PropertyValue): v is Scalar => v === null || typeof v !== 'object';

export function literalOf(s: StructFields): MetaSoundLiteral {
  const type = enumValue(s.string('Type', 'None'));
  const value = literalValue(s, type);
  return { type, value, text: literalText(type, value) };
}

function literalValue(s: StructFields, type: string): MetaSoundLiteral['value'] {
  const base = type.endsWith('Array') ? type.slice(0, -'Array'.length) : type;
  // A NoneArray keeps the number of objects to default-construct.
  if (base === 'None' || base === 'Invalid') return type === 'NoneArray' ? s.number('AsNumDefault', 0) : null;
  const field = LITERAL_ARRAYS[base];
  if (!field) throw new FormatError(s.file, `${s.where}.Type`, s.offsetOf('Type'), `unknown literal type ${type}`);
  const values = s.array(field);
  if (!values.every(isScalar)) throw new FormatError(s.file, `${s.where}.${field}`, s.offsetOf(field), 'not a list of plain values');
  if (type.endsWith('Array')) return values;
  return values.length === 0 ? null : values[0]!;
}

function literalText(type: string, value: MetaSoundLiteral['value']): string {
  const one = (v: Scalar): string => (typeof v === 'string' && type.startsWith('String') ? JSON.stringify(v) : v === null ? 'None' : String(v));
  if (Array.isArray(value)) return `[${value.map(one).join(', ')}]`;
  if (type === 'None') return '(default)';
  return one(value);
}

const vertexOf = (s: StructFields): MetaSoundVertex => ({ name: s.string('Name', 'None'), typeName: s.string('TypeName', 'None'), vertexId: s.string('VertexID') });

function versionOf(s: StructFields): string {
  return `${s.number('Major', 1)}.${s.number('Minor', 0)}`;
}

function classNameOf(s: StructFields): string {
  const ns = s.string('Namespace', 'None'), name = s.string('Name', 'None'), variant = s.string('Variant', 'None');
  return [ns, name, variant].filter((p) => p !== 'None' && p !== '').join('.');
}

function classOf(metadata: StructFields): MetaSoundNodeClass {
  return { name: classNameOf(metadata.struct('ClassName')), version: versionOf(metadata.struct('Version')), type: enumValue(metadata.string('Type', 'External')) };
}

function nodeOf(s: StructFields, classes: ReadonlyMap<string, MetaSoundNodeClass>, notes: string[]): MetaSoundNode {
  const id = s.string('ID');
  const classId = s.string('ClassID');
  const iface = s.struct('Interface');
  const literals = new Map<string, MetaSoundLiteral>();
  for (const l of s.structs('InputLiterals')) literals.set(l.string('VertexID'), literalOf(l.struct('Value')));
  const inputs = iface.structs('Inputs').map((v) => {
    const vertex = vertexOf(v);
    const literal = literals.get(vertex.vertexId);
    return literal ? { ...vertex, literal } : vertex;
  });
  const name = s.string('Name', 'None');
  const cls = classes.get(classId) ?? null;
  if (!cls) notes.push(`node ${name} (${id}): no dependency has its class ${classId}`);
  return { id, classId, name, class: cls, inputs, outputs: iface.structs('Outputs').map(vertexOf) };
}

function graphOf(s: StructFields, classes: ReadonlyMap<string, MetaSoundNodeClass>, notes: string[]): MetaSoundGraph {
  const nodes = s.structs('Nodes').map((n) => nodeOf(n, classes, notes));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: MetaSoundEdge[] = s.structs('Edges').map((e) => ({
    fromNode: e.string('FromNodeID'), fromVertex: e.string('FromVertexID'), toNode: e.string('ToNodeID'), toVertex: e.string('ToVertexID'),
  }));
  for (const e of edges) {
    const from = byId.get(e.fromNode), to = byId.get(e.toNode);
    if (!from?.outputs.some((v) => v.vertexId === e.fromVertex)) notes.push(`an edge starts at output ${e.fromVertex} of node ${e.fromNode}, which the graph does not have`);
    if (!to?.inputs.some((v) => v.vertexId === e.toVertex)) notes.push(`an edge ends at input ${e.toVertex} of node ${e.toNode}, which the graph does not have`);
  }
  const variables: MetaSoundVariable[] = s.structs('Variables').map((v) => ({
    name: v.string('Name', 'None'), typeName: v.string('TypeName', 'None'), id: v.string('ID'),
    literal: v.has('Literal') ? literalOf(v.struct('Literal')) : null,
  }));
  return { pageId: s.string('PageID', '00000000000000000000000000000000'), nodes, edges, variables };
}

/** The document of a MetaSound export's properties; `path` is its object path. */
export function metaSoundOfExport(exp: ExportProperties, file: string, path: string, warnings: readonly string[] = []): MetaSoundDocument {
  const cls = metaSoundClass(exp.class) ?? exp.class;
  const props = StructFields.of(file, `${exp.class} "${exp.name}"`, exp.properties);
  const docName = exp.properties.find((e) => e.name.toLowerCase() === 'rootmetasounddocument')?.name;
  if (!docName) throw new FormatError(file, `${exp.class} "${exp.name}"`, 0, `it has no RootMetaSoundDocument (its properties are ${exp.properties.map((e) => e.name).join(', ') || 'none'})`);
  const doc = props.struct(docName);
  const notes = [...warnings];
  if (exp.error) notes.push(`${exp.name}: its properties stop early: ${exp.error}`);

  const dependencies: MetaSoundDependency[] = [];
  const classes = new Map<string, MetaSoundNodeClass>();
  for (const d of doc.structs('Dependencies')) {
    const cls = classOf(d.struct('Metadata'));
    const id = d.string('ID');
    dependencies.push({ id, className: cls.name, version: cls.version, type: cls.type });
    classes.set(id, cls);
  }

  const root = doc.struct('RootGraph');
  // UE5.5+ pages the graph; before, the root graph class has one Graph.
  const graphs = root.has('PagedGraphs') ? root.structs('PagedGraphs') : root.has('Graph') ? [root.struct('Graph')] : [];
  const rootIface = root.struct('Interface');
  const inputs: MetaSoundGraphInput[] = rootIface.structs('Inputs').map((i) => ({
    ...vertexOf(i), nodeId: i.string('NodeID'), accessType: enumValue(i.string('AccessType', 'Reference')),
    defaults: i.has('Defaults') ? i.structs('Defaults').map((d) => literalOf(d.struct('Literal'))) : i.has('DefaultLiteral') ? [literalOf(i.struct('DefaultLiteral'))] : [],
  }));
  const outputs: MetaSoundGraphOutput[] = rootIface.structs('Outputs').map((o) => ({
    ...vertexOf(o), nodeId: o.string('NodeID'), accessType: enumValue(o.string('AccessType', 'Reference')),
  }));
  const isSource = cls === 'MetaSoundSource';
  const format = props.raw('OutputFormat');
  return {
    name: exp.name,
    class: cls,
    path,
    // The class default is Mono: a tagged cook leaves it out.
    outputFormat: isSource ? (typeof format === 'string' ? enumValue(format) : 'Mono') : null,
    documentVersion: versionOf(doc.struct('Metadata').struct('Version').struct('Number')),
    className: classNameOf(root.struct('Metadata').struct('ClassName')),
    interfaces: doc.structs('Interfaces').map((i) => ({ name: i.string('Name', 'None'), version: versionOf(i.struct('Number')) })),
    inputs,
    outputs,
    graphs: graphs.map((g) => graphOf(g, classes, notes)),
    dependencies,
    notes,
  };
}

/** Export `exportIndex` of `source` (or its first MetaSound) read as a MetaSound document. */
export async function readMetaSound(source: AssetSource, exportIndex: number | undefined, opts: Pick<ConvertOptions, 'mappings' | 'engine'> = {}): Promise<MetaSoundDocument> {
  const opened = await sourceProperties(source, opts, { offsets: true });
  const file = opened.path;
  const exports = opened.properties.exports;
  const exp = exportIndex !== undefined ? exports[exportIndex] : exports.find((e) => metaSoundClass(e.class) !== undefined);
  if (!exp) {
    if (exportIndex !== undefined) throw new FormatError(file, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(file, 'export map', 0, `no MetaSound (its exports are ${exports.map((e) => `${e.name}: ${e.class}`).join(', ') || 'none'})`);
  }
  const where = `export ${exp.index} "${exp.name}"`;
  if (metaSoundClass(exp.class) === undefined) throw new FormatError(file, where, 0, `a ${exp.class}, not a MetaSound Source or Patch`);
  if (exp.encoding === 'unversioned' && exp.properties.length === 0 && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(file, where, 0, "the package is unversioned: the game's mappings (.usmap) are needed to read its MetaSound document");
  }
  if (exp.error && exp.properties.length === 0) {
    if (exp.errorData) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the MetaSound cannot be read');
    throw new FormatError(file, where, 0, `its properties do not read: ${exp.error}`);
  }
  return metaSoundOfExport(exp, file, `${opened.properties.package}.${exp.name}`, opened.warnings);
}
