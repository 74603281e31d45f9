/**
 * A MetaSound graph as Graphviz DOT: each node a record-like HTML table (its name and class, its
 * inputs as ports on the left with the literals it sets, its outputs as ports on the right), each
 * edge from an output port to an input port. `dot -Tsvg` draws it left to right as the editor
 * does. Every page of the document is a cluster of its own when there are several.
 */
import type { MetaSoundDocument, MetaSoundGraph } from './types.js';

const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const quoted = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function graphLines(g: MetaSoundGraph, prefix: string, indent: string): string[] {
  const lines: string[] = [];
  const ids = new Map(g.nodes.map((n, i) => [n.id, `${prefix}n${i}`]));
  g.nodes.forEach((n, i) => {
    const rows = Math.max(n.inputs.length, n.outputs.length);
    const title = `<TR><TD COLSPAN="2" BGCOLOR="#d8e2f0"><B>${html(n.name)}</B><BR/><FONT POINT-SIZE="9">${html(n.class ? `${n.class.name} ${n.class.version}` : n.classId)}</FONT></TD></TR>`;
    const cells: string[] = [];
    for (let r = 0; r < rows; r++) {
      const inp = n.inputs[r], out = n.outputs[r];
      const left = inp ? `<TD PORT="i${r}" ALIGN="LEFT">${html(inp.name)} <FONT COLOR="#666666">${html(inp.typeName)}</FONT>${inp.literal ? ` = ${html(inp.literal.text)}` : ''}</TD>` : '<TD></TD>';
      const right = out ? `<TD PORT="o${r}" ALIGN="RIGHT">${html(out.name)} <FONT COLOR="#666666">${html(out.typeName)}</FONT></TD>` : '<TD></TD>';
      cells.push(`<TR>${left}${right}</TR>`);
    }
    lines.push(`${indent}${prefix}n${i} [label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0">${title}${cells.join('')}</TABLE>>];`);
  });
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  for (const e of g.edges) {
    const from = byId.get(e.fromNode), to = byId.get(e.toNode);
    const a = ids.get(e.fromNode), b = ids.get(e.toNode);
    if (!from || !to || !a || !b) continue;
    const o = from.outputs.findIndex((v) => v.vertexId === e.fromVertex);
    const i = to.inputs.findIndex((v) => v.vertexId === e.toVertex);
    lines.push(`${indent}${a}${o >= 0 ? `:o${o}:e` : ''} -> ${b}${i >= 0 ? `:i${i}:w` : ''};`);
  }
  return lines;
}

/** The document's graph(s) as a DOT digraph. */
export function metaSoundDot(doc: MetaSoundDocument): string {
  const lines = [
    `digraph ${quoted(doc.name)} {`,
    '  rankdir=LR;',
    '  node [shape=plaintext, fontname="Helvetica", fontsize=10];',
    '  edge [arrowsize=0.7];',
  ];
  // Appended one by one, not push(...): a damaged document's graph may have more lines than a call has arguments.
  if (doc.graphs.length === 1) for (const l of graphLines(doc.graphs[0]!, '', '  ')) lines.push(l);
  else {
    doc.graphs.forEach((g, p) => {
      lines.push(`  subgraph cluster_p${p} {`, `    label=${quoted(`page ${g.pageId}`)};`);
      for (const l of graphLines(g, `p${p}_`, '    ')) lines.push(l);
      lines.push('  }');
    });
  }
  lines.push('}', '');
  return lines.join('\n');
}
