/**
 * `pakscope landscape <path> [package]`: a map's terrain (core/assets/landscape): the landscape
 * actor's sizes, material and transform, each component's section and textures, the heights'
 * range and the weight layers; -o writes the stitched heightmap and weightmaps (.png), the
 * terrain mesh (.glb) or the facts (.json). The landscape actor is found through the converter
 * registry.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { convertibleExports } from '../../core/assets/index.js';
import { landscapeInfo, landscapePngs } from '../../core/assets/landscape/kind.js';
import { defaultLandscapeLod, landscapeMesh, MAX_MESH_VERTICES } from '../../core/assets/landscape/mesh.js';
import { readLandscape } from '../../core/assets/landscape/read.js';
import type { Landscape } from '../../core/assets/landscape/types.js';
import { writeGlb } from '../../core/assets/mesh/gltf/write.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, USMAP_OPTION, type Command } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { placementText } from './level.js';
import { loadMappings } from './props.js';

export const landscapeCommand: Command = {
  name: 'landscape',
  args: '<path> [package]',
  summary: 'Describe a map\'s terrain, or write its heightmap or mesh (-o)',
  description: [
    'Reads the landscape of a map package (.umap) of a package file (<path> alone) or inside the',
    'containers and folders of <path>: the Landscape (or LandscapeStreamingProxy) actor\'s',
    'component size, subsection size and count, material and transform (its scale is centimetres',
    'per quad in X and Y and the height scale in Z), each LandscapeComponent\'s section base,',
    'heightmap texture and weight layers, and the heights\' range. Heights are 16-bit: 32768 is',
    '0, one step is 1/128 of the Z scale. UE5.2+ heightmaps stored compressed by a landscape',
    'texture storage provider are decoded. A map with several landscape actors: --actor NAME',
    '(default the first). Unversioned packages need --usmap.',
    '',
    '-o FILE.png writes the heightmap of the whole landscape (its components stitched, one pixel',
    'per vertex) as 16-bit grayscale, and each weight layer as FILE_<layer>.png (8-bit gray).',
    '-o FILE.glb writes the terrain as glTF 2.0 binary (metres, Y up): one vertex per heightmap',
    'pixel (every 2^N-th with --lod N; large landscapes are thinned to 16M vertices), normals,',
    'UV 0 from 0 to 1 across the landscape (where the PNGs lie), UV 1 in quads, the landscape',
    'material as its one slot; in the actor\'s frame, its scale applied, its location and',
    'rotation not. -o FILE.json writes what --json prints.',
    '',
    '--json prints {"package","name","path","class","componentSizeQuads","subsectionSizeQuads",',
    '"numSubsections","material","transform","components":[{"name","path","sectionBaseX",',
    '"sectionBaseY","componentSizeQuads","subsectionSizeQuads","numSubsections","heightmap",',
    '"heightmapScaleBias","weightmapScaleBias","layers":[{"name","layerInfo","weightmap",',
    '"channel"}],"materialInstance"}],"width","height","originX","originY","heightRange":{"min",',
    '"max"},"localHeightRange","layers":[{"name","layerInfo"}],"notes"}: width and height in',
    'vertices, heightRange in stored 16-bit values, localHeightRange in the actor\'s units.',
  ].join('\n'),
  examples: [
    'pakscope landscape Paks /Game/Maps/Island --usmap Game.usmap',
    'pakscope landscape Paks /Game/Maps/Island -o Island.png',
    'pakscope landscape Paks /Game/Maps/Island -o Island.glb --lod 1',
  ],
  options: {
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write FILE: .png (heightmap, and FILE_<layer>.png per weight layer), .glb (the terrain mesh) or .json.' },
    lod: { type: 'string', usage: '--lod N', help: 'The .glb takes every 2^N-th vertex (default 0, all; large landscapes are thinned).' },
    actor: { type: 'string', usage: '--actor NAME', help: 'The landscape actor to read when the map has several (its export name).' },
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const out = values['out'];
    const ext = typeof out === 'string' ? extname(out).toLowerCase() : undefined;
    if (out !== undefined && (typeof out !== 'string' || !['.png', '.glb', '.json'].includes(ext!))) {
      throw new UsageError(`-o names the .png, .glb or .json file to write, not "${String(out)}"`, 'landscape');
    }
    const lodText = values['lod'];
    if (lodText !== undefined && !/^\d{1,2}$/.test(String(lodText))) throw new UsageError(`--lod takes a whole number 0 or more, not "${String(lodText)}"`, 'landscape');
    const lod = lodText !== undefined ? Number(lodText) : undefined;
    if (lod !== undefined && lod > 12) throw new UsageError(`--lod ${lod}: 0 to 12`, 'landscape');
    const actor = typeof values['actor'] === 'string' ? values['actor'] : undefined;
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'landscape')) };
    const l = await withAssetPackage(session, args, opts, 'landscape', async ({ source, model, path }) => {
      const land = await readLandscape(source, landscapeExport(model, path, actor), opts);
      if (typeof out === 'string') await write(session, land, out, ext!, lod);
      return land;
    });
    if (!l) return;
    for (const n of l.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(landscapeInfo(l)));
    else if (out === undefined) await printLandscape(session, l);
  },
};

/** The package's landscape actor (the one named `actor`, else the first), found by the registry. */
function landscapeExport(model: PackageModel, path: string, actor: string | undefined): number {
  const found = convertibleExports(model).filter((e) => e.kind.kind === 'landscape');
  const pick = actor !== undefined ? found.find((e) => e.name === actor) : found[0];
  if (pick) return pick.index;
  if (actor !== undefined && found.length > 0) throw new UsageError(`${path} has no landscape actor ${actor} (it has ${found.map((e) => e.name).join(', ')})`, 'landscape');
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no landscape (its exports are ${classes || 'none'})`, 'landscape');
}

/** The level of detail the .glb takes: --lod's, refused (exit 2) where it would keep more vertices than a mesh may have. */
export function glbLod(l: Pick<Landscape, 'width' | 'height'>, lod: number | undefined): number {
  const least = defaultLandscapeLod(l);
  if (lod !== undefined && lod < least) {
    throw new UsageError(`--lod ${lod}: ${l.width}x${l.height} heights at every ${ordinal(1 << lod)} vertex are more than ${MAX_MESH_VERTICES} vertices; use --lod ${least} or more`, 'landscape');
  }
  return lod ?? least;
}

async function write(session: Session, l: Landscape, out: string, ext: string, lod: number | undefined): Promise<void> {
  if (ext === '.json') {
    await writeFile(out, `${JSON.stringify(landscapeInfo(l), null, 2)}\n`);
    session.out.note(`wrote ${out}: ${l.name}'s facts`);
    return;
  }
  if (ext === '.glb') {
    const used = glbLod(l, lod);
    const mesh = landscapeMesh(l, { lod: used });
    const data = await writeGlb(mesh);
    await writeFile(out, data);
    const lodMesh = mesh.lods[0]!;
    session.out.note(`wrote ${out}: glTF 2.0 binary, ${lodMesh.vertexCount} vertices, ${lodMesh.indices.length / 3} triangles${used > 0 ? ` (every ${ordinal(1 << used)} vertex)` : ''}, ${data.length} bytes (${l.name})`);
    return;
  }
  let files;
  try {
    files = landscapePngs(l);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message, 'landscape');
    throw e;
  }
  const stem = out.slice(0, out.length - ext.length);
  for (const f of files) {
    const path = f.suffix === '' ? out : `${stem}${f.suffix}.png`;
    await writeFile(path, f.data);
    session.out.note(`wrote ${path}: PNG ${l.width}x${l.height}, ${f.suffix === '' ? '16-bit heightmap' : `weights of layer ${f.suffix.slice(1)}`}, ${f.data.length} bytes`);
  }
}

const n3 = (v: number): string => String(Math.round(v * 1000) / 1000);

async function printLandscape(session: Session, l: Landscape): Promise<void> {
  const out = session.out;
  await out.line(`${l.package} (${l.class} ${l.name})`);
  await out.line(`  ${l.components.length} component${l.components.length === 1 ? '' : 's'} of ${l.componentSizeQuads} quads (${l.numSubsections}x${l.numSubsections} subsection${l.numSubsections === 1 ? '' : 's'} of ${l.subsectionSizeQuads}), ${l.width}x${l.height} vertices`);
  await out.line(`  material ${l.material ?? 'None'}`);
  await out.line(`  transform ${placementText(l.transform)}`);
  const s = l.transform.scale;
  await out.line(`  ${n3(s.x)} x ${n3(s.y)} cm per quad, ${n3((l.width - 1) * s.x)} x ${n3((l.height - 1) * s.y)} cm in all`);
  if (l.heightRange && l.localHeightRange) {
    await out.line(`  heights ${l.heightRange.min} to ${l.heightRange.max} (${n3(l.localHeightRange.min * s.z)} to ${n3(l.localHeightRange.max * s.z)} cm)`);
  }
  for (const layer of l.layers) await out.line(`  layer ${layer.name}  ${layer.layerInfo ?? '(no layer info)'}`);
  for (const c of l.components) {
    const hm = c.heightmap ? c.heightmap.slice(c.heightmap.lastIndexOf('.') + 1) : 'None';
    await out.line(`  ${c.name}  section (${c.sectionBaseX}, ${c.sectionBaseY})  heightmap ${hm} at (${n3(c.heightmapScaleBias[2])}, ${n3(c.heightmapScaleBias[3])})${c.layers.length > 0 ? `  layers ${c.layers.map((x) => `${x.name} (${x.weightmap.slice(x.weightmap.lastIndexOf('.') + 1)} ${'RGBA'[x.channel]})`).join(', ')}` : ''}`);
  }
}

const ordinal = (n: number): string => `${n}${n % 10 === 2 && n % 100 !== 12 ? 'nd' : 'th'}`;
