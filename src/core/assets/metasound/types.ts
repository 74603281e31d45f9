/**
 * A MetaSound's frontend document as PakScope shows it: the graph its cook keeps
 * (FMetasoundFrontendDocument: the root graph class, its paged graphs of nodes, edges and
 * variables, its inputs and outputs, the node classes it depends on and the interfaces it
 * implements). Ids are the document's GUIDs as 32 hex digits.
 */

/** A literal (FMetasoundFrontendLiteral): its type without the enum prefix and its value. */
export interface MetaSoundLiteral {
  /** "None", "Boolean", "Integer", "Float", "String", "UObject", "BooleanArray", ... */
  type: string;
  /** The value of a scalar type, the list of an array type; null for None or a null object. */
  value: boolean | number | string | null | (boolean | number | string | null)[];
  /** The value as one line: "0.5", "true", "[1, 2]", "\"text\"", "(default)". */
  text: string;
}

export interface MetaSoundVertex {
  name: string;
  /** The data type ("Trigger", "Audio", "Float", "Time", ...). */
  typeName: string;
  vertexId: string;
}

/** A node input: its vertex, and the literal the node sets on it (InputLiterals) when it sets one. */
export interface MetaSoundNodeInput extends MetaSoundVertex {
  literal?: MetaSoundLiteral;
}

/** The class a node instantiates, from the document's dependencies (or the graph itself). */
export interface MetaSoundNodeClass {
  /** "Namespace.Name" and ".Variant" when it has one: "UE.Sine.Audio", "Input.Trigger". */
  name: string;
  /** "1.0" */
  version: string;
  /** "Input", "Output", "External", "Graph", "Variable", "Literal", "Template", ... */
  type: string;
}

export interface MetaSoundNode {
  id: string;
  classId: string;
  name: string;
  /** Null when no dependency has the node's class id (a note says so). */
  class: MetaSoundNodeClass | null;
  inputs: MetaSoundNodeInput[];
  outputs: MetaSoundVertex[];
}

/** An edge from an output pin of one node to an input pin of another. */
export interface MetaSoundEdge {
  fromNode: string;
  fromVertex: string;
  toNode: string;
  toVertex: string;
}

export interface MetaSoundVariable {
  name: string;
  typeName: string;
  id: string;
  literal: MetaSoundLiteral | null;
}

/** One page of the root graph (UE5.5+ pages a graph by platform; older documents have one). */
export interface MetaSoundGraph {
  /** The page's GUID; all zeros for the default page. */
  pageId: string;
  nodes: MetaSoundNode[];
  edges: MetaSoundEdge[];
  variables: MetaSoundVariable[];
}

/** An input of the graph class: what users of the MetaSound set, with its default literal(s). */
export interface MetaSoundGraphInput extends MetaSoundVertex {
  nodeId: string;
  /** "Reference" or "Value". */
  accessType: string;
  /** One per page (UE5.5+), or the one DefaultLiteral. */
  defaults: MetaSoundLiteral[];
}

export interface MetaSoundGraphOutput extends MetaSoundVertex {
  nodeId: string;
  accessType: string;
}

export interface MetaSoundDependency {
  id: string;
  className: string;
  version: string;
  type: string;
}

export interface MetaSoundDocument {
  /** Export name. */
  name: string;
  /** "MetaSoundSource" or "MetaSoundPatch". */
  class: string;
  /** Object path "/Game/A/MS_X.MS_X". */
  path: string;
  /** A source's output channels ("Mono", "Stereo", "Quad", ...); null for a patch. */
  outputFormat: string | null;
  /** The document model's version ("1.17"). */
  documentVersion: string;
  /** The root graph class's name (a GUID for an asset's own graph). */
  className: string;
  /** The interfaces it implements ("UE.Source.OneShot 1.0"). */
  interfaces: { name: string; version: string }[];
  inputs: MetaSoundGraphInput[];
  outputs: MetaSoundGraphOutput[];
  graphs: MetaSoundGraph[];
  dependencies: MetaSoundDependency[];
  notes: string[];
}
