/**
 * `pakscope level <path> [package]`: what a map (.umap) places (core/assets/level): its actors
 * with their components, where each is (its relative transform composed up the attach chain),
 * the static meshes and instances they place, the sublevels it streams and its World Partition
 * cells. The package's World export is found through the converter registry.
 */
import { writeFile } from 'node:fs/promises';
import { convertibleExports } from '../../core/assets/index.js';
import { levelGlb } from '../../core/assets/level/gltf.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { readLevel } from '../../core/assets/level/read.js';
import type { LevelAsset, LevelComponent, Placement } from '../../core/assets/level/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const levelCommand: Command = {
  name: 'level',
  args: '<path> [package]',
  summary: 'Print what a map places: actors, components, meshes, sublevels',
  description: [
    'Reads the World of a map package (.umap) of a package file (<path> alone) or inside the',
    'containers and folders of <path>: its persistent level\'s actors, each with its class, its',
    'components (the root first) and where each component is: its relative location, rotation',
    'and scale (the engine\'s defaults where absent) and those composed up its attach parents',
    '(through the socket a component is attached to, where its parent\'s static mesh is in the',
    'install: the socket\'s offset is read from the mesh). Static mesh components show their',
    'mesh and material overrides, instanced ones their instance count,',
    'lights their intensity and colour. Then the streaming levels the World names (the sublevel',
    'and its transform) and World Partition\'s runtime cells with the packages they load.',
    'Attach loops, missing exports and properties of the wrong type are notes on stderr.',
    'Unversioned packages need --usmap.',
    '',
    '--json prints {"package","world","persistentLevel","partitioned","actors":[{"name","path",',
    '"class","rootComponent","parentActor","components":[{"name","path","class","attachParent",',
    '"attachSocket","relative","world","staticMesh","materials","instances":{"count",',
    '"transforms","customDataFloats","customData"},"light"}]}],"streamingLevels":[{"name",',
    '"class","worldAsset","package","transform"}],"cells":[{"name","spatiallyLoaded","grid",',
    '"package","worldAsset"}],"counts","notes"}; a transform is {"location":{x,y,z},',
    '"rotation":{pitch,yaw,roll},"quat":{x,y,z,w},"scale":{x,y,z}} in centimetres and degrees.',
    '',
    '-o FILE.glb writes the level as glTF 2.0 binary: every static mesh component at its world',
    'transform, instances as child nodes, each mesh (LOD 0, read through the install) written once,',
    'and each landscape\'s terrain at its actor\'s place (pakscope landscape writes it alone).',
  ].join('\n'),
  examples: [
    'pakscope level Paks /Game/Maps/Entry --usmap Game.usmap',
    'pakscope level Paks /Game/Maps/Entry --json',
    'pakscope level Paks /Game/Maps/Entry -o Entry.glb',
  ],
  options: {
    usmap: { type: 'string', usage: '--usmap FILE', help: 'Mappings (.usmap) to read unversioned packages with.' },
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the level to FILE as glTF 2.0 binary (.glb), its static meshes placed.' },
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'level')) };
    const out = values['out'];
    if (typeof out === 'string' && !/\.glb$/i.test(out)) throw new UsageError(`-o writes a .glb, not ${out}`, 'level');
    const level = await withAssetPackage(session, args, opts, 'level', async ({ source, model, path }) => {
      const l = await readLevel(source, worldExport(model, path), opts);
      if (typeof out === 'string') {
        const glb = await levelGlb(source, l, opts);
        if (glb.note) session.out.note(`note: ${glb.note}`);
        await writeFile(out, glb.data);
        session.out.note(`wrote ${out}: glTF 2.0 binary, ${l.counts.meshComponents} mesh components of ${l.counts.meshes} meshes, ${l.counts.instances} instances, ${glb.data.length} bytes`);
      }
      return l;
    });
    if (!level) return;
    for (const n of level.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(level));
    else await printLevel(session, level);
  },
};

function worldExport(model: PackageModel, path: string): number {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'level');
  if (found) return found.index;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no World (its exports are ${classes || 'none'})`, 'level');
}

const num = (v: number): string => String(Math.round(v * 1000) / 1000);
const vec = (v: { x: number; y: number; z: number }): string => `(${num(v.x)}, ${num(v.y)}, ${num(v.z)})`;

/** "at (x, y, z) rot (p, y, r) scale (x, y, z)", leaving out an identity rotation and unit scale. */
export function placementText(p: Placement): string {
  const r = p.rotation;
  const rot = r.pitch || r.yaw || r.roll ? ` rot (${num(r.pitch)}, ${num(r.yaw)}, ${num(r.roll)})` : '';
  const s = p.scale;
  const scale = s.x !== 1 || s.y !== 1 || s.z !== 1 ? ` scale ${vec(s)}` : '';
  return `at ${vec(p.location)}${rot}${scale}`;
}

function componentLine(c: LevelComponent, indent: string, parentName: string | undefined): string {
  const parts = [`${indent}${c.name} (${c.class})`];
  if (parentName) parts.push(`under ${parentName}${c.attachSocket ? ` socket ${c.attachSocket}` : ''}`);
  parts.push(`relative ${placementText(c.relative)}`);
  if (c.attachParent) parts.push(`world ${placementText(c.world)}`);
  if (c.staticMesh !== undefined) parts.push(`mesh ${c.staticMesh ?? 'None'}`);
  if (c.materials?.some((m) => m)) parts.push(`materials ${c.materials.map((m) => m ?? '-').join(', ')}`);
  if (c.instances) parts.push(`${c.instances.count} instances`);
  if (c.light) parts.push(`light${c.light.intensity !== undefined ? ` intensity ${c.light.intensity}` : ''}${c.light.color ? ` colour (${c.light.color.r}, ${c.light.color.g}, ${c.light.color.b})` : ''}`);
  return parts.join('  ');
}

async function printLevel(session: Session, l: LevelAsset): Promise<void> {
  const out = session.out;
  const c = l.counts;
  await out.line(`${l.package} (World ${l.world}${l.partitioned ? ', World Partition' : ''})`);
  await out.line(`${c.actors} actors, ${c.components} components, ${c.meshComponents} mesh components of ${c.meshes} meshes, ${c.instances} instances, ${c.lights} lights`);
  for (const a of l.actors) {
    const parent = a.parentActor ? `  attached to ${a.parentActor.slice(a.parentActor.lastIndexOf('.') + 1)}` : '';
    await out.line(`${a.name} (${a.class})${a.label ? ` "${a.label}"` : ''}${parent}`);
    const names = new Map(a.components.map((x) => [x.path, x.name]));
    const root = a.components.find((x) => x.path === a.rootComponent);
    for (const comp of root ? [root, ...a.components.filter((x) => x !== root)] : a.components) {
      await out.line(componentLine(comp, '  ', comp.attachParent ? names.get(comp.attachParent) ?? comp.attachParent : undefined));
    }
  }
  for (const s of l.streamingLevels) await out.line(`streaming ${s.name} (${s.class})  ${s.package ?? s.worldAsset ?? 'None'}  ${placementText(s.transform)}`);
  for (const cell of l.cells) await out.line(`cell ${cell.name}${cell.grid ? ` [${cell.grid}]` : ''}${cell.spatiallyLoaded ? ' spatial' : ''}  ${cell.package ?? 'None'}`);
}
