/**
 * Reading a landscape from its map: the ALandscape (or proxy) actor's properties
 * (ComponentSizeQuads, SubsectionSizeQuads, NumSubsections, LandscapeMaterial, TargetLayers,
 * LandscapeComponents), its root component's transform, and per ULandscapeComponent its section
 * base, its part of the heightmap texture (HeightmapScaleBias) and its weightmap layers; then the
 * heights and weights stitched into one grid of the whole landscape.
 *
 * A component's vertex (x, y) is texel (x, y) of its part of the heightmap when it has one
 * subsection; with several, each subsection's (SubsectionSizeQuads + 1) texels sit side by side,
 * its first column repeating the previous subsection's last vertex. Heights are 16-bit, R the high
 * byte and G the low one; 32768 is height 0 and one unit is 1/128 of the actor's Z scale.
 *
 * Weightmap layers come from the component's WeightmapLayerAllocations and WeightmapTextures
 * where the cook kept them; UE5 cooks keep neither, and the component's landscape material
 * instance names them instead: its Weightmap<N> texture parameters and a LayerMask_<layer>
 * colour parameter per layer, the channel the layer's weights are in.
 */
import { FormatError } from '../../errors.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { decodePixels } from '../texture/decode/index.js';
import { fileTextureSource, installTextureSource, type SourceExport, type TextureSource } from '../texture/read/package-source.js';
import { textureOf } from '../texture/read/read.js';
import { IDENTITY, ONE, ZERO, ZERO_ROTATOR, placement, type Placement, type Vec3 } from '../level/transform.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import type { Landscape, LandscapeComponentInfo, LandscapeComponentLayer, LandscapeLayer } from './types.js';

/** Actor classes this kind reads. */
export const LANDSCAPE_CLASSES = ['Landscape', 'LandscapeProxy', 'LandscapeStreamingProxy'] as const;

/** A landscape grid of more vertices than this (8193 x 8193 is the engine's largest) is corrupt data. */
export const MAX_GRID_VERTICES = 8193 * 8193;
/** ComponentSizeQuads the engine allows at most (255 quads per subsection, 2 x 2 subsections). */
const MAX_COMPONENT_QUADS = 510;

export interface LandscapeReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> {}

type Values = Readonly<Record<string, PropertyValue>>;

function valuesOf(list: readonly PropertyEntry[]): Values {
  const out: Record<string, PropertyValue> = {};
  for (const e of list) if (!(e.name in out) && !e.raw) out[e.name] = e.value;
  return out;
}

/** A struct's fields, read by property (a PropertyEntry list) or natively (an object). */
function fields(v: PropertyValue | undefined): Values | undefined {
  if (Array.isArray(v)) return v.every((e) => e !== null && typeof e === 'object' && 'name' in (e as object)) ? valuesOf(v as PropertyEntry[]) : undefined;
  return v !== null && typeof v === 'object' ? v : undefined;
}

const num = (v: PropertyValue | undefined, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: PropertyValue | undefined): string | null => (typeof v === 'string' ? v : null);

function vec(v: PropertyValue | undefined, d: Vec3): Vec3 {
  const f = fields(v);
  return f && typeof f['X'] === 'number' && typeof f['Y'] === 'number' && typeof f['Z'] === 'number' ? { x: f['X'], y: f['Y'], z: f['Z'] } : d;
}

function vec4(v: PropertyValue | undefined): [number, number, number, number] {
  const f = fields(v);
  return f ? [num(f['X'], 0), num(f['Y'], 0), num(f['Z'], 0), num(f['W'], 0)] : [0, 0, 0, 0];
}

const shortName = (path: string): string => path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':')) + 1);

/** Opens the map as the texture reader does: every export's bytes and properties, and the payload files. */
function openSource(source: AssetSource, opts: LandscapeReadOptions): Promise<TextureSource> {
  const o = {
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  return 'file' in source ? fileTextureSource(source.file, o) : installTextureSource(source.packages, source.ref, o);
}

/** Export `exportIndex` of `source` (or its first landscape actor) as a landscape, heights and weights stitched. */
export async function readLandscape(source: AssetSource, exportIndex: number | undefined, opts: LandscapeReadOptions = {}): Promise<Landscape> {
  const src = await openSource(source, opts);
  opts.signal?.throwIfAborted();
  return landscapeOfSource(src, exportIndex, opts.signal);
}

export const isLandscapeClass = (cls: string): boolean => (LANDSCAPE_CLASSES as readonly string[]).includes(cls);

/**
 * The landscape actors of `source` at object paths `paths`, from one opening of the package (a
 * level placing its terrains); a path that is no landscape actor of it is left out.
 */
export async function readLandscapes(source: AssetSource, paths: readonly string[], opts: LandscapeReadOptions = {}): Promise<Landscape[]> {
  const src = await openSource(source, opts);
  const out: Landscape[] = [];
  for (const path of paths) {
    const index = src.exports.findIndex((e) => e.path === path && isLandscapeClass(e.class));
    if (index >= 0) out.push(await landscapeOfSource(src, index, opts.signal));
  }
  return out;
}

/** The landscape of an opened package (see readLandscape). */
export async function landscapeOfSource(src: TextureSource, exportIndex: number | undefined, signal?: AbortSignal): Promise<Landscape> {
  const exports = src.exports;
  const actor = exportIndex !== undefined ? exports[exportIndex] : exports.find((e) => isLandscapeClass(e.class));
  if (!actor) {
    if (exportIndex !== undefined) throw new FormatError(src.path, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(src.path, 'export map', 0, 'no landscape actor (Landscape, LandscapeStreamingProxy) among its exports');
  }
  if (!isLandscapeClass(actor.class)) throw new FormatError(src.path, `export ${actor.index} "${actor.name}"`, actor.base, `a ${actor.class}, not a landscape actor`);
  if (actor.properties.encoding === 'unversioned' && actor.properties.properties.length === 0 && (actor.properties.notes ?? []).some((n) => n.includes('mappings'))) {
    throw new FormatError(src.path, `export ${actor.index} "${actor.name}"`, actor.base, 'the package is unversioned: the game\'s mappings (.usmap) are needed to read its landscape');
  }
  const notes: string[] = [...src.warnings];
  const byPath = new Map<string, SourceExport>();
  for (const e of exports) if (e.path) byPath.set(e.path, e);
  const exportOf = (path: string | null): SourceExport | undefined => (path ? byPath.get(path) : undefined);

  const v = valuesOf(actor.properties.properties);
  if (actor.properties.error) notes.push(`${actor.name}: its properties stop early: ${actor.properties.error}`);
  const componentSizeQuads = num(v['ComponentSizeQuads'], 0);
  const subsectionSizeQuads = num(v['SubsectionSizeQuads'], 0);
  const numSubsections = num(v['NumSubsections'], 1);

  // TargetLayers: layer name -> its layer info (UE5); older cooks name the infos only in the allocations.
  const layerInfos = new Map<string, string | null>();
  const target = v['TargetLayers'];
  if (Array.isArray(target)) {
    for (const pair of target) {
      const p = fields(pair as PropertyValue);
      const key = p ? str(p['key'] ?? null) : null;
      if (key) layerInfos.set(key, str(fields(p!['value'])?.['LayerInfoObj'] ?? null));
    }
  }

  const root = exportOf(str(v['RootComponent'] ?? null));
  const rv = root ? valuesOf(root.properties.properties) : {};
  const rot = fields(rv['RelativeRotation']);
  const transform: Placement = root
    ? placement(vec(rv['RelativeLocation'], ZERO),
      rot ? { pitch: num(rot['Pitch'], 0), yaw: num(rot['Yaw'], 0), roll: num(rot['Roll'], 0) } : ZERO_ROTATOR,
      vec(rv['RelativeScale3D'], ONE))
    : IDENTITY;
  if (!root) notes.push('the actor has no root component in the package: its transform is the identity');

  const listed = v['LandscapeComponents'];
  const componentExports: SourceExport[] = [];
  if (Array.isArray(listed)) {
    for (const p of listed) {
      const e = exportOf(str(p as PropertyValue));
      if (e) componentExports.push(e);
      else if (typeof p === 'string') notes.push(`component ${p} is not among the package's exports`);
    }
  } else {
    // No list (a proxy that keeps none): the components inside the actor.
    for (const e of exports) if (e.class === 'LandscapeComponent' && e.path && actor.path && e.path.startsWith(`${actor.path}.`)) componentExports.push(e);
  }

  const components = componentExports.map((e) => readComponent(e, exportOf, layerInfos, notes, { componentSizeQuads, subsectionSizeQuads, numSubsections }));
  const layers: LandscapeLayer[] = [];
  for (const c of components) for (const l of c.layers) if (!layers.some((x) => x.name === l.name)) layers.push({ name: l.name, layerInfo: l.layerInfo });

  // The grid: every component's quads, from the smallest section base to the largest.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const c of components) {
    minX = Math.min(minX, c.sectionBaseX); minY = Math.min(minY, c.sectionBaseY);
    maxX = Math.max(maxX, c.sectionBaseX + c.componentSizeQuads); maxY = Math.max(maxY, c.sectionBaseY + c.componentSizeQuads);
  }
  const width = components.length > 0 ? maxX - minX + 1 : 0;
  const height = components.length > 0 ? maxY - minY + 1 : 0;
  if (width * height > MAX_GRID_VERTICES) {
    throw new FormatError(src.path, `${actor.class} "${actor.name}" components`, actor.base, `their section bases span ${width}x${height} vertices, more than a landscape has`);
  }
  const heights = new Uint16Array(width * height);
  const covered = new Uint8Array(width * height);
  const weights = layers.map(() => new Uint8Array(width * height));

  const decoded = new Map<string, { width: number; height: number; rgba: Uint8Array } | null>();
  const image = async (path: string, what: string): Promise<{ width: number; height: number; rgba: Uint8Array } | null> => {
    const known = decoded.get(path);
    if (known !== undefined) return known;
    let out: { width: number; height: number; rgba: Uint8Array } | null = null;
    const e = exportOf(path);
    if (!e) notes.push(`${what} ${path} is not among the package's exports`);
    else {
      try {
        const tex = textureOf(src, { exportIndex: exports.indexOf(e) });
        const mip = await tex.readMip(0, signal);
        out = decodePixels(tex.pixelFormat, mip, tex.mips[0]!.width, tex.mips[0]!.height);
      } catch (err) {
        if (err instanceof Error && err.name === 'AbortError') throw err;
        notes.push(`${what} ${e.name} does not read: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    decoded.set(path, out);
    return out;
  };

  for (const c of components) {
    signal?.throwIfAborted();
    const ox = c.sectionBaseX - minX, oy = c.sectionBaseY - minY;
    const verts = c.componentSizeQuads + 1;
    const subVerts = c.subsectionSizeQuads + 1;
    const texel = (vx: number, vy: number): [number, number] => [subsectionTexel(vx, subVerts), subsectionTexel(vy, subVerts)];
    const hm = c.heightmap ? await image(c.heightmap, 'heightmap') : null;
    if (!c.heightmap) notes.push(`${c.name} names no heightmap texture`);
    if (hm) {
      const bx = texelStart(hm.width, c.heightmapScaleBias[2]), by = texelStart(hm.height, c.heightmapScaleBias[3]);
      const [lastX, lastY] = texel(verts - 1, verts - 1);
      if (bx < 0 || by < 0 || bx + lastX >= hm.width || by + lastY >= hm.height) {
        notes.push(`${c.name}: its part of the heightmap (from ${bx}, ${by}, ${lastX + 1}x${lastY + 1} texels) runs past the ${hm.width}x${hm.height} texture`);
      } else {
        for (let vy = 0; vy < verts; vy++) {
          for (let vx = 0; vx < verts; vx++) {
            const [tx, ty] = texel(vx, vy);
            const p = ((by + ty) * hm.width + bx + tx) * 4;
            const g = (oy + vy) * width + ox + vx;
            heights[g] = (hm.rgba[p]! << 8) | hm.rgba[p + 1]!;
            covered[g] = 1;
          }
        }
      }
    }
    for (const l of c.layers) {
      const wm = await image(l.weightmap, `weightmap of layer ${l.name}`);
      const out = weights[layers.findIndex((x) => x.name === l.name)]!;
      if (!wm) continue;
      const bx = texelStart(wm.width, c.weightmapScaleBias[2]), by = texelStart(wm.height, c.weightmapScaleBias[3]);
      const [lastX, lastY] = texel(verts - 1, verts - 1);
      if (bx < 0 || by < 0 || bx + lastX >= wm.width || by + lastY >= wm.height) {
        notes.push(`${c.name}: its part of weightmap ${shortName(l.weightmap)} runs past the ${wm.width}x${wm.height} texture`);
        continue;
      }
      for (let vy = 0; vy < verts; vy++) {
        for (let vx = 0; vx < verts; vx++) {
          const [tx, ty] = texel(vx, vy);
          out[(oy + vy) * width + ox + vx] = wm.rgba[((by + ty) * wm.width + bx + tx) * 4 + l.channel]!;
        }
      }
    }
  }

  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < heights.length; i++) {
    if (!covered[i]) continue;
    lo = Math.min(lo, heights[i]!);
    hi = Math.max(hi, heights[i]!);
  }
  const range = lo <= hi ? { min: lo, max: hi } : null;
  return {
    package: src.packageName,
    name: actor.name,
    path: actor.path ?? `${src.packageName}.${actor.name}`,
    class: actor.class,
    componentSizeQuads, subsectionSizeQuads, numSubsections,
    material: str(v['LandscapeMaterial'] ?? null),
    transform,
    components,
    width, height,
    originX: components.length > 0 ? minX : 0,
    originY: components.length > 0 ? minY : 0,
    heightRange: range,
    localHeightRange: range ? { min: (range.min - 32768) / 128, max: (range.max - 32768) / 128 } : null,
    layers,
    notes,
    heights, covered, weights,
  };
}

/** The first texel of a component's part of a texture: the scale-bias offset times its size, whole texels (weightmaps add half a texel, to sample texel centres). */
const texelStart = (size: number, bias: number): number => Math.floor(size * bias + 1e-6);

/**
 * A component vertex's texel along one axis: subsections of `subVerts` texels side by side, each
 * starting with a copy of the previous one's last vertex (LandscapeDataAccess's VertexXYToTexelXY).
 */
function subsectionTexel(v: number, subVerts: number): number {
  if (v === 0 || subVerts < 2) return v;
  const sub = Math.floor((v - 1) / (subVerts - 1));
  return sub * subVerts + ((v - 1) % (subVerts - 1)) + 1;
}

interface ActorSizes { componentSizeQuads: number; subsectionSizeQuads: number; numSubsections: number }

function readComponent(e: SourceExport, exportOf: (p: string | null) => SourceExport | undefined, layerInfos: Map<string, string | null>, notes: string[], actor: ActorSizes): LandscapeComponentInfo {
  const v = valuesOf(e.properties.properties);
  if (e.properties.error) notes.push(`${e.name}: its properties stop early: ${e.properties.error}`);
  let componentSizeQuads = num(v['ComponentSizeQuads'], actor.componentSizeQuads);
  let subsectionSizeQuads = num(v['SubsectionSizeQuads'], actor.subsectionSizeQuads);
  let numSubsections = num(v['NumSubsections'], actor.numSubsections);
  if (!Number.isInteger(componentSizeQuads) || componentSizeQuads < 1 || componentSizeQuads > MAX_COMPONENT_QUADS
    || !Number.isInteger(numSubsections) || numSubsections < 1 || numSubsections > 2
    || subsectionSizeQuads * numSubsections !== componentSizeQuads) {
    throw new FormatError(e.file, `LandscapeComponent "${e.name}"`, e.base,
      `${componentSizeQuads} quads in ${numSubsections} subsection(s) of ${subsectionSizeQuads}: not a landscape component's sizes`);
  }
  const materials = v['MaterialInstances'];
  const materialInstance = Array.isArray(materials) ? str((materials[0] ?? null) as PropertyValue) : null;
  const info: LandscapeComponentInfo = {
    name: e.name,
    path: e.path ?? e.name,
    sectionBaseX: num(v['SectionBaseX'], 0),
    sectionBaseY: num(v['SectionBaseY'], 0),
    componentSizeQuads, subsectionSizeQuads, numSubsections,
    heightmap: str(v['HeightmapTexture'] ?? null),
    heightmapScaleBias: vec4(v['HeightmapScaleBias']),
    weightmapScaleBias: vec4(v['WeightmapScaleBias']),
    layers: [],
    materialInstance,
  };
  const sectionAbs = Math.max(Math.abs(info.sectionBaseX), Math.abs(info.sectionBaseY));
  if (!Number.isInteger(info.sectionBaseX) || !Number.isInteger(info.sectionBaseY) || sectionAbs > 1 << 20) {
    throw new FormatError(e.file, `LandscapeComponent "${e.name}"`, e.base, `section base (${info.sectionBaseX}, ${info.sectionBaseY}) is not a grid position`);
  }
  info.layers = componentLayers(e, v, exportOf, layerInfos, notes, materialInstance);
  return info;
}

function componentLayers(e: SourceExport, v: Values, exportOf: (p: string | null) => SourceExport | undefined, layerInfos: Map<string, string | null>, notes: string[], materialInstance: string | null): LandscapeComponentLayer[] {
  const out: LandscapeComponentLayer[] = [];
  const allocations = v['WeightmapLayerAllocations'];
  const textures = v['WeightmapTextures'];
  if (Array.isArray(allocations) && allocations.length > 0 && Array.isArray(textures)) {
    for (const a of allocations) {
      const f = fields(a as PropertyValue);
      if (!f) continue;
      const layerInfo = str(f['LayerInfo'] ?? null);
      const texture = str((textures[num(f['WeightmapTextureIndex'], -1)] ?? null) as PropertyValue);
      const channel = num(f['WeightmapTextureChannel'], -1);
      if (!texture || channel < 0 || channel > 3) {
        notes.push(`${e.name}: a layer allocation names texture ${num(f['WeightmapTextureIndex'], -1)} of ${textures.length}, channel ${channel}: skipped`);
        continue;
      }
      const name = [...layerInfos].find(([, info]) => info === layerInfo)?.[0] ?? (layerInfo ? shortName(layerInfo).replace(/^LI_/, '') : 'None');
      out.push({ name, layerInfo, weightmap: texture, channel });
    }
    return out;
  }
  // UE5: the material instance's Weightmap<N> textures and LayerMask_<layer> channels.
  const mi = exportOf(materialInstance);
  if (!mi) return out;
  const mv = valuesOf(mi.properties.properties);
  const weightmaps: string[] = [];
  for (const t of Array.isArray(mv['TextureParameterValues']) ? mv['TextureParameterValues'] : []) {
    const f = fields(t as PropertyValue);
    const name = str(fields(f?.['ParameterInfo'])?.['Name'] ?? null);
    const m = name ? /^Weightmap(\d+)$/.exec(name) : null;
    const tex = str(f?.['ParameterValue'] ?? null);
    if (m && tex) weightmaps[Number(m[1])] = tex;
  }
  const present = weightmaps.filter((w) => w !== undefined);
  for (const p of Array.isArray(mv['VectorParameterValues']) ? mv['VectorParameterValues'] : []) {
    const f = fields(p as PropertyValue);
    const name = str(fields(f?.['ParameterInfo'])?.['Name'] ?? null);
    const m = name ? /^LayerMask_(.+)$/.exec(name) : null;
    if (!m) continue;
    const c = fields(f?.['ParameterValue']);
    const mask = c ? [num(c['R'], 0), num(c['G'], 0), num(c['B'], 0), num(c['A'], 0)] : [];
    const channel = mask.indexOf(Math.max(...mask));
    if (channel < 0 || mask[channel]! <= 0) continue;
    if (present.length !== 1) {
      notes.push(`${e.name}: layer ${m[1]} is in channel ${'RGBA'[channel]} of one of ${present.length} weightmaps, and the cook does not say which: left out`);
      continue;
    }
    out.push({ name: m[1]!, layerInfo: layerInfos.get(m[1]!) ?? null, weightmap: present[0]!, channel });
  }
  return out;
}
