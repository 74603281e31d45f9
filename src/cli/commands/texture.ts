/**
 * `pakscope texture <path> [package]`: a texture's facts, and its image written as PNG, DDS or
 * Radiance .hdr (-o). The package's texture export is found through the converter registry
 * (core/assets), the texture read by the cooked texture reader and written by the texture kind's
 * converters, as `extract --format convert` and the app do.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { convertibleExports, type ConvertibleExport } from '../../core/assets/index.js';
import { convertTexture, TEXTURE_CONVERSIONS } from '../../core/assets/texture/convert.js';
import { firstPresentMip } from '../../core/assets/texture/image.js';
import { readTexture } from '../../core/assets/texture/kind.js';
import type { Texture, TextureInfo } from '../../core/assets/texture/types.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command, type OptionValues, USMAP_OPTION } from '../command.js';
import { formatSize, plural } from '../../shared/format.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

/** What `--json` prints. */
export interface TextureJson {
  class: string;
  pixelFormat: string;
  width: number;
  height: number;
  depth: number;
  slices: number;
  cube: boolean;
  virtual: boolean;
  srgb: boolean;
  mips: { width: number; height: number; depth: number; bytes: number }[];
}

export const textureCommand: Command = {
  name: 'texture',
  args: '<path> [package]',
  summary: 'Describe a texture, or write it as .png, .dds or .hdr (-o)',
  description: [
    'Reads the texture of a package file (<path> alone: .uasset with its .uexp and .ubulk beside',
    'it) or of a package inside the containers and folders of <path> (named as info names it):',
    'Texture2D, TextureCube, Texture2DArray, TextureCubeArray, VolumeTexture, virtual textures and',
    'UDIM sets and the other texture classes. Without -o it prints the pixel format, size, slices',
    'and every stored mip. Unversioned packages need --usmap FILE, as props does.',
    '',
    '-o FILE.png writes one image: mip --mip N (default 0, the largest) and slice --slice N',
    '(default 0; cube faces +X -X +Y -Y +Z -Z, array layers, volume depth). The PNG holds the',
    'values as stored, 8-bit: single-channel formats as grayscale, two-channel normal maps (BC5,',
    'EAC RG11, ASTC normal maps) as X, Y and the rebuilt Z, HDR formats clamped to [0, 1].',
    '-o FILE.dds writes every stored mip from --mip N on as stored (DX10 header where needed),',
    'also for pixel formats PakScope cannot decode; -o FILE.hdr the floats of an HDR format',
    '(BC6H, FloatRGBA ...) as Radiance RGBE. A texture that cannot be read or decoded (an unknown',
    'pixel format, a mip that runs short, a missing .ubulk) exits 2 with the reason.',
    '',
    '--json prints {"class","pixelFormat","width","height","depth","slices","cube","virtual",',
    '"srgb","mips":[{"width","height","depth","bytes"}]}: pixelFormat is the engine\'s name',
    '(PF_DXT1), slices counts the 2D images of a mip (6 for a cube, 6 x N for a cube array, the',
    'layers of an array, the depth of a volume), mips lists every stored mip, largest first.',
  ].join('\n'),
  examples: [
    'pakscope texture Paks /Game/Textures/T_Rock -o T_Rock.png',
    'pakscope texture Paks /Game/Textures/T_Sky --slice 2 -o T_Sky_2.png --usmap Game.usmap',
    'pakscope texture Content/Textures/T_Rock.uasset --json',
  ],
  options: {
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the texture to FILE: .png (one image), .dds (every mip) or .hdr.' },
    mip: { type: 'string', usage: '--mip N', help: 'The mip to write (0 is the largest; default 0).' },
    slice: { type: 'string', usage: '--slice N', help: 'The slice to write as .png or .hdr: cube face, array layer or volume depth (default 0).' },
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const target = outputOf(values);
    const mip = indexOption(values, 'mip');
    const slice = indexOption(values, 'slice');
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'texture')) };
    const texture = await withAssetPackage(session, args, opts, 'texture', async ({ source, model, path }) => {
      const t = await readTexture(source, textureExport(model, path).index, opts);
      if (target) await write(session, t, target, { ...opts, ...(mip !== undefined ? { mip } : {}), slice: slice ?? 0 });
      return t;
    });
    if (!texture) return;
    for (const n of texture.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(textureJson(texture)));
    else if (!target) await printFacts(session, texture);
  },
};

export function textureJson(t: TextureInfo): TextureJson {
  return {
    class: t.class, pixelFormat: t.pixelFormat, width: t.width, height: t.height, depth: t.depth, slices: t.slices,
    cube: t.cube, virtual: t.virtual, srgb: t.srgb,
    mips: t.mips.map((m) => ({ width: m.width, height: m.height, depth: m.depth, bytes: m.bytes })),
  };
}

/** The package's texture export, found by the registry (the first export the texture kind converts). */
function textureExport(model: PackageModel, path: string): ConvertibleExport {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'texture');
  if (found) return found;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no texture (its exports are ${classes || 'none'})`, 'texture');
}

function outputOf(values: OptionValues): { path: string; extension: string } | undefined {
  const out = values['out'];
  if (out === undefined) return undefined;
  if (typeof out !== 'string' || out === '' || out === '-') throw new UsageError('-o FILE names the .png, .dds or .hdr file to write', 'texture');
  const extension = extname(out).slice(1).toLowerCase();
  if (!(TEXTURE_CONVERSIONS as readonly string[]).includes(extension)) {
    throw new UsageError(`-o names a .png, .dds or .hdr file, not "${out}"`, 'texture');
  }
  return { path: out, extension };
}

function indexOption(values: OptionValues, name: 'mip' | 'slice'): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const text = String(v);
  if (!/^\d{1,9}$/.test(text)) throw new UsageError(`--${name} takes a whole number 0 or more, not "${text}"`, 'texture');
  return Number(text);
}

async function write(session: Session, texture: Texture, target: { path: string; extension: string }, opts: ConvertOptions): Promise<void> {
  let files;
  try {
    files = await convertTexture(texture, target.extension, target.extension === 'dds' ? { ...opts, slice: undefined } : opts);
  } catch (e) {
    // A mip or slice that is not there, a .hdr of an LDR format: the command line asked for it.
    if (e instanceof RangeError) throw new UsageError(e.message, 'texture');
    throw e;
  }
  const file = files[0]!;
  await writeFile(target.path, file.data);
  const mip = opts.mip ?? firstPresentMip(texture);
  const m = texture.mips[mip]!;
  const what = target.extension === 'dds'
    ? `${plural(texture.mips.length - mip, 'mip')} from ${m.width}x${m.height}`
    : `${m.width}x${m.height}, mip ${mip}${texture.slices > 1 ? `, slice ${opts.slice ?? 0}` : ''}`;
  session.out.note(`wrote ${target.path}: ${target.extension.toUpperCase()} ${what}, ${file.data.length} bytes (${texture.name}, ${texture.pixelFormat})`);
}

async function printFacts(session: Session, t: Texture): Promise<void> {
  const out = session.out;
  const shape = t.cube ? `cube${t.slices > 6 ? ` array of ${t.slices / 6}` : ''}` : t.depth > 1 ? `volume, depth ${t.depth}` : t.slices > 1 ? `array of ${t.slices}` : '2D';
  await out.line(`${t.name} (${t.class})`);
  await out.line(`  ${t.pixelFormat}, ${t.width}x${t.height}, ${shape}${t.virtual ? ', virtual' : ''}, ${t.srgb ? 'sRGB' : 'linear'}, ${plural(t.mips.length, 'mip')}`);
  if (t.compressionSettings) await out.line(`  compression settings ${t.compressionSettings}`);
  if (t.lodGroup) await out.line(`  LOD group ${t.lodGroup}`);
  for (const [i, m] of t.mips.entries()) {
    const size = `${m.width}x${m.height}${m.depth > 1 ? `x${m.depth}` : ''}`;
    await out.line(`  mip ${i}: ${size}, ${formatSize(m.bytes)}, ${m.location}${m.missing ? ` (missing: ${m.missing})` : ''}`);
  }
}
