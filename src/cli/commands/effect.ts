/**
 * `pakscope effect <path> [package]`: a sound designer's or VFX artist's asset. A MetaSound Source
 * or Patch (core/assets/metasound): its frontend document's graph, nodes with their classes and
 * pins, edges, inputs with their defaults, interfaces. A Niagara System (core/assets/niagara): its
 * user parameters with their defaults, its emitters and renderers and the assets they reference.
 * The export is found through the converter registry; -o writes what the registry converts to.
 */
import { writeFile } from 'node:fs/promises';
import { convertibleExports } from '../../core/assets/index.js';
import { metaSoundFile } from '../../core/assets/metasound/kind.js';
import { niagaraFile } from '../../core/assets/niagara/kind.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { readMetaSound } from '../../core/assets/metasound/read.js';
import type { MetaSoundDocument } from '../../core/assets/metasound/types.js';
import { readNiagaraSystem } from '../../core/assets/niagara/read.js';
import type { NiagaraSystemAsset, NiagaraUserParameter } from '../../core/assets/niagara/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, USMAP_OPTION, type Command } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

const EFFECT_KINDS = ['metasound', 'niagara'];

type Effect = { kind: 'metasound'; value: MetaSoundDocument } | { kind: 'niagara'; value: NiagaraSystemAsset };

export const effectCommand: Command = {
  name: 'effect',
  args: '<path> [package]',
  summary: 'Print a MetaSound\'s node graph or a Niagara System\'s user parameters',
  description: [
    'Reads the MetaSound Source or Patch, or the Niagara System, of a package file (<path> alone)',
    'or of a package inside the containers and folders of <path>. Unversioned packages need --usmap.',
    '',
    'A MetaSound prints its frontend document: the output format (a source\'s), the interfaces it',
    'implements, the graph\'s inputs with their default literals and its outputs, then each page',
    'of its graph: every node with its class (namespace.name.variant) and version, its input pins',
    '(with the literal the node sets) and output pins, and every edge from an output pin to an',
    'input pin.',
    'A Niagara System prints its user parameters (name, type, default: numbers, vectors,',
    'booleans, a data interface with the assets it references), its emitters (enabled, CPU or GPU',
    'simulation) with their renderers and the meshes and materials they reference.',
    '',
    '--json prints the document ({"name","class","outputFormat","interfaces","inputs":[{"name",',
    '"typeName","defaults":[{"type","value"}]}],"outputs","graphs":[{"pageId","nodes":[{"id",',
    '"name","class":{"name","version","type"},"inputs","outputs"}],"edges":[{"fromNode",',
    '"fromVertex","toNode","toVertex"}],"variables"}],"dependencies","notes"}) or the system',
    '({"name","userParameters":[{"name","type","value","dataInterface"}],"emitters":[{"name",',
    '"enabled","simTarget","renderers":[{"name","class","enabled","references"}]}],',
    '"referencedAssets","notes"}).',
    '-o FILE writes it as .json, or a MetaSound\'s graph as Graphviz .dot (dot -Tsvg draws it).',
  ].join('\n'),
  examples: [
    'pakscope effect Paks /Game/Audio/MS_Footsteps --usmap Game.usmap',
    'pakscope effect Paks /Game/Audio/MS_Footsteps -o MS_Footsteps.dot',
    'pakscope effect Paks /Game/FX/NS_Sparks --json',
  ],
  options: {
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write it to FILE: .json, or .dot for a MetaSound\'s graph.' },
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'effect')) };
    const out = typeof values['out'] === 'string' ? values['out'] : undefined;
    const ext = out !== undefined ? /\.([^./\\]+)$/.exec(out)?.[1]?.toLowerCase() : undefined;
    if (out !== undefined && ext !== 'json' && ext !== 'dot') throw new UsageError(`-o writes a .json or .dot, not ${out}`, 'effect');
    const asset = await withAssetPackage(session, args, opts, 'effect', async ({ source, model, path }): Promise<Effect> => {
      const exp = effectExport(model, path);
      if (out !== undefined && !exp.kind.converts.includes(ext!)) throw new UsageError(`a ${exp.class} converts to ${exp.kind.converts.map((x) => `.${x}`).join(', ')}, not .${ext}`, 'effect');
      // Read once: the document printed is the one -o writes, through the kind's own converter.
      const effect: Effect = exp.kind.kind === 'metasound'
        ? { kind: 'metasound', value: await readMetaSound(source, exp.index, opts) }
        : { kind: 'niagara', value: await readNiagaraSystem(source, exp.index, opts) };
      if (out !== undefined) {
        const file = effect.kind === 'metasound' ? metaSoundFile(effect.value, ext) : niagaraFile(effect.value);
        await writeFile(out, file.data);
        session.out.note(`wrote ${out}: ${file.data.length} bytes`);
      }
      return effect;
    });
    if (!asset) return;
    for (const n of asset.value.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(asset.value));
    else if (asset.kind === 'metasound') await printMetaSound(session, asset.value);
    else await printNiagara(session, asset.value);
  },
};

function effectExport(model: PackageModel, path: string) {
  const found = convertibleExports(model).find((e) => EFFECT_KINDS.includes(e.kind.kind));
  if (found) return found;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no MetaSound or Niagara System (its exports are ${classes || 'none'})`, 'effect');
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

async function printMetaSound(session: Session, d: MetaSoundDocument): Promise<void> {
  const out = session.out;
  await out.line(`${d.name} (${d.class})${d.outputFormat ? `  output ${d.outputFormat}` : ''}  document ${d.documentVersion}`);
  if (d.interfaces.length) await out.line(`interfaces: ${d.interfaces.map((i) => `${i.name} ${i.version}`).join(', ')}`);
  for (const i of d.inputs) await out.line(`input   ${i.name}: ${i.typeName}${i.defaults.length ? ` = ${i.defaults.map((l) => l.text).join(' | ')}` : ''}`);
  for (const o of d.outputs) await out.line(`output  ${o.name}: ${o.typeName}`);
  for (const g of d.graphs) {
    const page = d.graphs.length > 1 ? `page ${g.pageId}: ` : '';
    await out.line(`graph ${page}${plural(g.nodes.length, 'node')}, ${plural(g.edges.length, 'edge')}, ${plural(g.variables.length, 'variable')}`);
    const names = new Map(g.nodes.map((n) => [n.id, n]));
    for (const n of g.nodes) {
      await out.line(`  node ${n.name}  ${n.class ? `${n.class.name} ${n.class.version} (${n.class.type})` : `class ${n.classId}`}`);
      for (const i of n.inputs) await out.line(`    in  ${i.name}: ${i.typeName}${i.literal ? ` = ${i.literal.text}` : ''}`);
      for (const o of n.outputs) await out.line(`    out ${o.name}: ${o.typeName}`);
    }
    for (const e of g.edges) {
      const from = names.get(e.fromNode), to = names.get(e.toNode);
      const pin = (n: typeof from, id: string, side: 'inputs' | 'outputs'): string => n?.[side].find((v) => v.vertexId === id)?.name ?? id;
      await out.line(`  edge ${from?.name ?? e.fromNode}.${pin(from, e.fromVertex, 'outputs')} -> ${to?.name ?? e.toNode}.${pin(to, e.toVertex, 'inputs')}`);
    }
    for (const v of g.variables) await out.line(`  variable ${v.name}: ${v.typeName}${v.literal ? ` = ${v.literal.text}` : ''}`);
  }
}

export function userValueText(p: NiagaraUserParameter): string {
  if (p.value === null) return 'None';
  if (Array.isArray(p.value)) return `(${p.value.join(', ')})`;
  return String(p.value);
}

async function printNiagara(session: Session, s: NiagaraSystemAsset): Promise<void> {
  const out = session.out;
  await out.line(`${s.name} (${s.class})  ${plural(s.userParameters.length, 'user parameter')}, ${plural(s.emitters.length, 'emitter')}`);
  for (const p of s.userParameters) {
    await out.line(`user    ${p.name}: ${p.type} = ${userValueText(p)}`);
    for (const r of p.dataInterface?.references ?? []) await out.line(`          ${r.property} ${r.path}`);
  }
  for (const e of s.emitters) {
    await out.line(`emitter ${e.name}  ${e.enabled ? 'enabled' : 'disabled'}${e.simTarget ? `  ${e.simTarget}` : ''}${e.emitter ? `  ${e.emitter}` : ''}`);
    for (const r of e.renderers) {
      await out.line(`  renderer ${r.name} (${r.class})${r.enabled ? '' : ' disabled'}`);
      for (const x of r.references) await out.line(`    ${x.property} ${x.path}`);
    }
  }
  if (s.referencedAssets.length) await out.line(`references: ${s.referencedAssets.join(', ')}`);
}
