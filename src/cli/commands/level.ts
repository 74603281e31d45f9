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
import { readLevelWithCells } from '../../core/assets/level/cells.js';
import { readLevel } from '../../core/assets/level/read.js';
import type { LevelAsset, LevelComponent, LinearColor, Placement, Vec3 } from '../../core/assets/level/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, USMAP_OPTION, type Command } from '../command.js';
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
    'World Partition maps: --cells prints the runtime hash (its class, each grid with its',
    'partition, cell size, loading range and colour), the data layers (name, type, load filter,',
    'colour) and every cell (its grid, level, spatial or always loaded, data layers, content and',
    'cell bounds, the generated package its actors are cooked into) instead of the actors.',
    '--all-cells reads each cell\'s package too and lists (or writes to the .glb) the map\'s actors',
    'and every cell\'s together, each cell\'s actors marked with their cell.',
    '',
    '--json prints {"package","world","persistentLevel","partitioned","actors":[{"name","path",',
    '"class","rootComponent","parentActor","components":[{"name","path","class","attachParent",',
    '"attachSocket","relative","world","staticMesh","materials","instances":{"count",',
    '"transforms","customDataFloats","customData"},"light"}]}],"streamingLevels":[{"name",',
    '"class","worldAsset","package","transform"}],"cells":[{"name","spatiallyLoaded","grid",',
    '"package","worldAsset","contentBounds","cellBounds","dataLayers"}],"partition":{"cooked",',
    '"runtimeHash":{"class","grids","streamingData"},"dataLayers"},"counts","notes"}; a transform is {"location":{x,y,z},',
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
    'pakscope level Paks /Game/Maps/OpenWorld --cells',
    'pakscope level Paks /Game/Maps/OpenWorld --all-cells -o OpenWorld.glb',
  ],
  options: {
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
    cells: { type: 'boolean', usage: '--cells', help: 'World Partition: print the runtime hash, grids, data layers and cells instead of the actors.' },
    'all-cells': { type: 'boolean', usage: '--all-cells', help: 'World Partition: merge every cell package\'s actors into the map\'s.' },
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the level to FILE as glTF 2.0 binary (.glb), its static meshes placed.' },
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'level')) };
    const out = values['out'];
    if (typeof out === 'string' && !/\.glb$/i.test(out)) throw new UsageError(`-o writes a .glb, not ${out}`, 'level');
    const level = await withAssetPackage(session, args, opts, 'level', async ({ source, model, path }) => {
      const index = worldExport(model, path);
      let l: LevelAsset;
      if (values['all-cells'] === true) {
        if (!('packages' in source)) throw new UsageError('--all-cells reads the cells\' packages: give the containers or folder and the map\'s package', 'level');
        l = await readLevelWithCells(source.packages, source.ref, index, opts);
      } else l = await readLevel(source, index, opts);
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
    else if (values['cells'] === true) await printPartition(session, level);
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
  if (l.mergedCells) await out.line(`with the actors of ${l.mergedCells.length} of ${l.cells.length} cells`);
  await out.line(`${c.actors} actors, ${c.components} components, ${c.meshComponents} mesh components of ${c.meshes} meshes, ${c.instances} instances, ${c.lights} lights`);
  for (const a of l.actors) {
    const parent = a.parentActor ? `  attached to ${a.parentActor.slice(a.parentActor.lastIndexOf('.') + 1)}` : '';
    await out.line(`${a.name} (${a.class})${a.label ? ` "${a.label}"` : ''}${parent}${a.cell ? `  cell ${a.cell}` : ''}`);
    const names = new Map(a.components.map((x) => [x.path, x.name]));
    const root = a.components.find((x) => x.path === a.rootComponent);
    for (const comp of root ? [root, ...a.components.filter((x) => x !== root)] : a.components) {
      await out.line(componentLine(comp, '  ', comp.attachParent ? names.get(comp.attachParent) ?? comp.attachParent : undefined));
    }
  }
  for (const s of l.streamingLevels) await out.line(`streaming ${s.name} (${s.class})  ${s.package ?? s.worldAsset ?? 'None'}  ${placementText(s.transform)}`);
  for (const cell of l.cells) await out.line(`cell ${cell.name}${cell.grid ? ` [${cell.grid}]` : ''}${cell.spatiallyLoaded ? ' spatial' : ''}  ${cell.package ?? 'None'}`);
}

/** A colour as stored: FLinearColor floats or FColor bytes. */
const colorText = (c: LinearColor | undefined): string => (c ? `  colour (${num(c.r)}, ${num(c.g)}, ${num(c.b)}, ${num(c.a)})` : '');
const boxText = (b: { min: Vec3; max: Vec3 }): string => `${vec(b.min)}..${vec(b.max)}`;

/** " (cells measure X x Y)": the grid's cells' bounds, where they hold them, for a grid with the default cell size. */
function measured(l: LevelAsset, grid: string): string {
  const sizes = new Set(l.cells.filter((c) => c.grid === grid && c.cellBounds).map((c) => `${num(c.cellBounds!.max.x - c.cellBounds!.min.x)} x ${num(c.cellBounds!.max.y - c.cellBounds!.min.y)}`));
  return sizes.size ? ` (cells measure ${[...sizes].join(', ')})` : '';
}

/** --cells: World Partition's runtime hash, grids, data layers and cells. */
async function printPartition(session: Session, l: LevelAsset): Promise<void> {
  const out = session.out;
  const p = l.partition;
  await out.line(`${l.package} (World ${l.world}${l.partitioned ? ', World Partition' : ''})`);
  if (!p) {
    await out.line(`no World Partition: ${l.cells.length} cells`);
  } else {
    await out.line(`World Partition ${p.path.slice(p.path.lastIndexOf('.') + 1)}${p.cooked === null ? '' : p.cooked ? ' (cooked)' : ' (not cooked)'}`);
    const h = p.runtimeHash;
    if (!h) await out.line('runtime hash: none');
    else {
      await out.line(`runtime hash ${h.class}: ${h.grids.length} grids, ${h.streamingData.length} streaming data`);
      for (const g of h.grids) {
        const parts = [`grid ${g.name} (${g.class})`];
        if (g.partition !== g.name) parts.push(`partition ${g.partition}`);
        parts.push(g.spatiallyLoaded ? 'spatial' : 'always loaded');
        parts.push(`cell size ${g.cellSize ?? `default${measured(l, g.name)}`}`);
        const range = g.loadingRange ?? h.streamingData.find((d) => d.name === g.name)?.loadingRange;
        parts.push(`loading range ${range ?? 'default'}`);
        if (g.hlodIndex !== undefined) parts.push(`HLOD ${g.hlodIndex}`);
        if (g.clientOnlyVisible) parts.push('client only');
        await out.line(`  ${parts.join('  ')}${colorText(g.debugColor)}`);
      }
      for (const d of h.streamingData) await out.line(`  streaming ${d.name}  loading range ${d.loadingRange ?? 'default'}  ${d.spatialCells.length} spatial cells, ${d.nonSpatialCells.length} always loaded`);
    }
    for (const d of p.dataLayers) await out.line(`data layer ${d.name} (${d.class})  ${d.asset ?? 'private'}  type ${d.type ?? '?'}  load filter ${d.loadFilter ?? '?'}${colorText(d.debugColor)}`);
  }
  for (const c of l.cells) {
    const parts = [`cell ${c.name}`, c.grid ? `grid ${c.grid}` : 'no grid'];
    if (c.hierarchicalLevel !== undefined) parts.push(`level ${c.hierarchicalLevel}`);
    parts.push(c.spatiallyLoaded ? 'spatial' : 'always loaded');
    if (c.dataLayers.length) parts.push(`data layers ${c.dataLayers.join(', ')}`);
    if (c.cellBounds) parts.push(`cell ${boxText(c.cellBounds)}`);
    if (c.contentBounds) parts.push(`content ${boxText(c.contentBounds)}`);
    parts.push(c.package ?? 'no package');
    await out.line(parts.join('  '));
  }
}
