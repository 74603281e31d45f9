/**
 * `pakscope material <path> [package]`: a material, material instance or material function
 * (core/assets/material): its parent chain followed through the install, and every scalar,
 * vector, texture and static switch parameter with the value that takes effect and the level it
 * comes from. The package's material export is found through the converter registry.
 */
import { convertibleExports } from '../../core/assets/index.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { readMaterial } from '../../core/assets/material/read.js';
import type { MaterialAsset, MaterialParameterValue } from '../../core/assets/material/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command, USMAP_OPTION } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const materialCommand: Command = {
  name: 'material',
  args: '<path> [package]',
  summary: 'Print a material\'s parent chain and parameters',
  description: [
    'Reads the material of a package file (<path> alone) or of a package inside the containers',
    'and folders of <path>: Material, MaterialInstanceConstant, MaterialInstanceDynamic and',
    'MaterialFunction. An instance\'s parent is followed through the install (instance, parent',
    'instance, base material); a parent that is missing or loops back ends the chain with a note.',
    'Prints the chain, the blend mode, shading model and two-sidedness that take effect, and each',
    'scalar, vector (linear colour), texture and static switch parameter with its effective value',
    '(an instance\'s override, else its parent\'s) and the level it comes from. A base material\'s',
    'defaults are those its cook keeps (CachedExpressionData); an editor material\'s those of its',
    'parameter expressions. Unversioned packages need --usmap.',
    '',
    '--json prints {"name","class","path","chain":[{"path","class","parent","parameters":[...]}],',
    '"parameters":[{"kind","name","value","from","fromPath","overrides"}],"blendMode",',
    '"shadingModel","twoSided","referencedTextures","notes"}; vectors are {"r","g","b","a"},',
    'textures object paths, switches booleans; "from" indexes "chain" (0: the asset itself).',
  ].join('\n'),
  examples: [
    'pakscope material Paks /Game/Materials/MI_Rock --usmap Game.usmap',
    'pakscope material Paks /Game/Materials/MI_Rock --json',
  ],
  options: {
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'material')) };
    const material = await withAssetPackage(session, args, opts, 'material', ({ source, model, path }) => readMaterial(source, materialExport(model, path), opts));
    if (!material) return;
    for (const n of material.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(material));
    else await printMaterial(session, material);
  },
};

function materialExport(model: PackageModel, path: string): number {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'material');
  if (found) return found.index;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no material (its exports are ${classes || 'none'})`, 'material');
}

export function parameterValueText(v: MaterialParameterValue): string {
  if (v === null) return 'None';
  if (typeof v === 'object') return `(${v.r}, ${v.g}, ${v.b}, ${v.a})`;
  return String(v);
}

async function printMaterial(session: Session, m: MaterialAsset): Promise<void> {
  const out = session.out;
  await out.line(`${m.name} (${m.class})`);
  for (const [i, level] of m.chain.entries()) await out.line(`  ${i === 0 ? 'asset ' : `parent${m.chain.length > 2 ? ` ${i}` : ''}`}  ${level.path} (${level.class})`);
  const top = m.chain[m.chain.length - 1]!;
  if (top.parent !== null) await out.line(`  parent  ${top.parent} (not read)`);
  // A material function has no blend mode or shading model of its own.
  if (!m.class.startsWith('MaterialFunction')) await out.line(`blend mode ${m.blendMode}, shading model ${m.shadingModel}${m.twoSided ? ', two-sided' : ''}`);
  for (const p of m.parameters) {
    const layer = p.association ? ` [${p.association} ${p.layerIndex ?? ''}]` : '';
    const from = p.from === 0 ? 'this asset' : m.chain[p.from]!.name;
    await out.line(`${p.kind.padEnd(7)} ${p.name}${layer} = ${parameterValueText(p.value)}  (${from})`);
  }
  if (m.referencedTextures.length > 0) await out.line(`textures: ${m.referencedTextures.join(', ')}`);
}
