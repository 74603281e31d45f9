/**
 * cue58's landscape map (CUE4ParseFixtures/Content/Fixtures/Maps/Landscape.umap), tagged and
 * unversioned with the fixture mappings, against what CUE4Parse's FixtureWorldAssetTests.cs
 * asserts (LandscapeMapPreservesHeightAndMeshData: ComponentSizeQuads 63, SubsectionSizeQuads 63,
 * NumSubsections 1, one component at section base (0, 0), a 64x64 heightmap, material
 * M_Landscape, a mesh of one LOD with one section of material slot M_Landscape;
 * LandscapeLayerInfoPreservesRuntimeSettings: LI_Fixture's LayerName FixtureLayer), and the heights
 * against sources other than the landscape reader: the component's CachedLocalBox (the engine's
 * own bounds of the heights, in the package), an independent decode by Python of the stored
 * delta-compressed bytes compared with the exported 16-bit PNG as Pillow reads it, and the
 * weight layer against the texture reader's PNG of the weightmap.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assetKindOf, convertExport } from '../../../src/core/assets/index.js';
import { landscapePngs } from '../../../src/core/assets/landscape/kind.js';
import { landscapeMesh } from '../../../src/core/assets/landscape/mesh.js';
import { landscapeOfSource, readLandscape } from '../../../src/core/assets/landscape/read.js';
import { writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import { levelGlb } from '../../../src/core/assets/level/gltf.js';
import { readLevel } from '../../../src/core/assets/level/read.js';
import { readTexture } from '../../../src/core/assets/texture/kind.js';
import { convertTexture } from '../../../src/core/assets/texture/convert.js';
import { readBulkPayload } from '../../../src/core/assets/texture/read/bulk-data.js';
import { LANDSCAPE_STORAGE_CLASS, readLandscapeStorage } from '../../../src/core/assets/texture/read/landscape-storage.js';
import { installTextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { memoryPayload } from '../../../src/core/assets/texture/read/payload.js';
import { installPackageProperties } from '../../../src/core/properties/open.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { withInstall } from '../../properties/helpers.js';
import { accessorValues, parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const PYTHON = '/usr/bin/python3';
const MAP = '/Game/Fixtures/Maps/Landscape';
const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');
const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Zlib', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];
/** LandscapeComponent_0's CachedLocalBox in the package (`pakscope props`): Min.Z, Max.Z. */
const BOX_Z = { min: -124.90625, max: 124.953125 };

const tmp = mkdtempSync(join(tmpdir(), 'pakscope-landscape-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(VARIANTS)('cue58 %s', (label, root, usmap) => {
  const opts = usmap ? { mappings: usmap } : {};
  const slug = label.replace(/\W+/g, '_');

  it('the actor and its component: the sizes, section base, heightmap, material and layer CUE4Parse asserts', async () => {
    await withInstall(corpus(root), async (packages) => {
      const l = await readLandscape({ packages, ref: MAP }, undefined, opts);
      expect(l.notes).toEqual([]);
      expect(l.class).toBe('Landscape');
      expect([l.componentSizeQuads, l.subsectionSizeQuads, l.numSubsections]).toEqual([63, 63, 1]);
      expect(l.material).toBe('/Game/Fixtures/Landscape/M_Landscape.M_Landscape');
      expect(l.components).toHaveLength(1);
      const c = l.components[0]!;
      expect([c.sectionBaseX, c.sectionBaseY, c.componentSizeQuads, c.subsectionSizeQuads, c.numSubsections]).toEqual([0, 0, 63, 63, 1]);
      expect(c.heightmap).toMatch(/:PersistentLevel\.Landscape_0\.Heightmap_0$/);
      expect([l.width, l.height]).toEqual([64, 64]);
      expect(l.transform.scale).toEqual({ x: 1, y: 1, z: 1 });

      // The heightmap texture itself, through the texture reader: 64x64.
      const opened = await packages.open(MAP);
      const hmIndex = opened.model.exports.findIndex((e) => e.name === 'Heightmap_0');
      const hm = await readTexture({ packages, ref: MAP }, hmIndex, opts);
      expect([hm.width, hm.height, hm.pixelFormat]).toEqual([64, 64, 'PF_B8G8R8A8']);
      expect(hm.mips.map((m) => m.width)).toEqual([64, 32, 16, 8, 4, 2, 1]);

      // The layer: FixtureLayer, with LI_Fixture, whose LayerName says FixtureLayer.
      expect(l.layers).toEqual([{ name: 'FixtureLayer', layerInfo: '/Game/Fixtures/Landscape/LI_Fixture.LI_Fixture' }]);
      expect(c.layers).toEqual([{ name: 'FixtureLayer', layerInfo: '/Game/Fixtures/Landscape/LI_Fixture.LI_Fixture', weightmap: expect.stringMatching(/Weightmap_0$/), channel: 0 }]);
      const li = (await installPackageProperties(packages, '/Game/Fixtures/Landscape/LI_Fixture', opts)).properties.exports.find((e) => e.name === 'LI_Fixture')!;
      expect(li.properties.find((p) => p.name === 'LayerName')?.value).toBe('FixtureLayer');
    });
  });

  it('heights: the range the engine\'s CachedLocalBox gives, and Python\'s decode of the stored bytes equals the exported 16-bit PNG', async () => {
    await withInstall(corpus(root), async (packages) => {
      const l = await readLandscape({ packages, ref: MAP }, undefined, opts);
      const comp = (await installPackageProperties(packages, MAP, opts)).properties.exports.find((e) => e.class === 'LandscapeComponent')!;
      const box = comp.properties.find((p) => p.name === 'CachedLocalBox')!.value as unknown as { Min: { Z: number }; Max: { Z: number } };
      expect({ min: box.Min.Z, max: box.Max.Z }).toEqual(BOX_Z);
      expect(l.localHeightRange).toEqual(BOX_Z);

      const png = join(tmp, `${slug}.png`);
      writeFileSync(png, landscapePngs(l)[0]!.data);
      // The stored bytes of mip 0, as they are in the package (not decoded by PakScope).
      const src = await installTextureSource(packages, MAP, opts);
      const factory = src.exports.find((e) => e.class === LANDSCAPE_STORAGE_CLASS)!;
      const storage = readLandscapeStorage(factory, src);
      expect(storage.mips[0]).toMatchObject({ width: 64, height: 64, compressed: true });
      expect([storage.boundaryCountX, storage.boundaryCountY]).toEqual([0, 0]);
      const raw = await readBulkPayload(storage.mips[0]!.bulk, { ...src.files, inline: memoryPayload(factory.file, factory.bytes) }, 'mip 0');
      const rawPath = join(tmp, `${slug}.bin`);
      writeFileSync(rawPath, raw);
      const script = [
        'import sys', 'from PIL import Image',
        'raw = open(sys.argv[1], "rb").read()',
        'h, out = 32768, []',
        'for i in range(64 * 64):',
        '    h = (h + (raw[2 * i] << 8 | raw[2 * i + 1])) & 0xffff',
        '    out.append(h)',
        'im = Image.open(sys.argv[2])',
        'png = list(im.getdata())',
        'ihdr = open(sys.argv[2], "rb").read()[24:26]',
        'print(ihdr[0], ihdr[1], im.size[0], im.size[1], sum(1 for a, b in zip(out, png) if a == b), min(out), max(out))',
      ].join('\n');
      // 16-bit (depth 16) grayscale (colour type 0), 64x64, every height equal, the box's range.
      const result = execFileSync(PYTHON, ['-c', script, rawPath, png], { encoding: 'utf8' }).trim();
      expect(result.split(' ').map(Number)).toEqual([16, 0, 64, 64, 4096, BOX_Z.min * 128 + 32768, BOX_Z.max * 128 + 32768]);
    });
  });

  it('the weight layer is channel R of Weightmap_0 as the texture reader writes it (offset by the half-texel bias)', async () => {
    await withInstall(corpus(root), async (packages) => {
      const l = await readLandscape({ packages, ref: MAP }, undefined, opts);
      const files = landscapePngs(l);
      expect(files.map((f) => f.suffix)).toEqual(['', '_FixtureLayer']);
      const layerPng = join(tmp, `${slug}_layer.png`);
      writeFileSync(layerPng, files[1]!.data);
      const opened = await packages.open(MAP);
      const wmIndex = opened.model.exports.findIndex((e) => e.name === 'Weightmap_0');
      const wm = await convertTexture(await readTexture({ packages, ref: MAP }, wmIndex, opts), 'png');
      const wmPng = join(tmp, `${slug}_wm.png`);
      writeFileSync(wmPng, wm[0]!.data);
      const script = [
        'import sys', 'from PIL import Image',
        'a = Image.open(sys.argv[1]); b = Image.open(sys.argv[2]).convert("RGBA")',
        'print(a.mode, a.size, sum(1 for y in range(64) for x in range(64) if a.getpixel((x, y)) == b.getpixel((x, y))[0]), a.getextrema())',
      ].join('\n');
      expect(execFileSync(PYTHON, ['-c', script, layerPng, wmPng], { encoding: 'utf8' }).trim()).toBe('L (64, 64) 4096 (0, 255)');
    });
  });

  it('the terrain mesh: one LOD of 64x64 vertices, one section of every triangle with slot M_Landscape, a valid .glb spanning the heights', async () => {
    await withInstall(corpus(root), async (packages) => {
      const l = await readLandscape({ packages, ref: MAP }, undefined, opts);
      const mesh = landscapeMesh(l);
      expect(mesh.lods).toHaveLength(1);
      const lod = mesh.lods[0]!;
      expect(lod.vertexCount).toBe(64 * 64);
      expect(lod.indices.length % 3).toBe(0);
      expect(lod.indices.length / 3).toBe(63 * 63 * 2);
      expect(mesh.materials.map((m) => m.name)).toEqual(['M_Landscape']);
      expect(lod.sections).toEqual([{ materialIndex: 0, firstIndex: 0, triangles: lod.indices.length / 3 }]);

      const glb = await writeGlb(mesh);
      const { errors } = await validateGlb(glb);
      expect(errors).toEqual([]);
      const g = parseGlb(glb);
      const prim = g.json.meshes[0].primitives[0];
      expect(Object.keys(prim.attributes).sort()).toEqual(['NORMAL', 'POSITION', 'TEXCOORD_0', 'TEXCOORD_1']);
      expect(g.json.materials[prim.material].name).toBe('M_Landscape');
      const pos = g.json.accessors[prim.attributes.POSITION];
      // glTF Y is the engine's Z in metres: the box's heights (scale 1).
      expect(pos.min[1]).toBeCloseTo(BOX_Z.min * 0.01, 6);
      expect(pos.max[1]).toBeCloseTo(BOX_Z.max * 0.01, 6);
      expect([pos.min[0], pos.max[0], pos.min[2], pos.max[2]]).toEqual([0, 0.63, 0, 0.63].map((v) => expect.closeTo(v, 6)));
      // Normals point up (glTF +Y) everywhere on a heightfield.
      const normals = accessorValues(g, prim.attributes.NORMAL);
      for (let i = 1; i < normals.length; i += 3) expect(normals[i]!).toBeGreaterThan(0);
    });
  });

  it('the registry reads the Landscape actor and converts it to .png, .glb and .json', async () => {
    await withInstall(corpus(root), async (packages) => {
      const opened = await packages.open(MAP);
      const index = opened.model.exports.findIndex((e) => assetKindOf(e.class)?.kind === 'landscape');
      expect(opened.model.exports[index]?.name).toBe('Landscape_0');
      const kind = assetKindOf('Landscape')!;
      const pngs = await convertExport({ packages, ref: MAP }, { index, kind }, 'png', opts);
      expect(pngs.map((f) => f.suffix)).toEqual(['', '_FixtureLayer']);
      const [glb] = await convertExport({ packages, ref: MAP }, { index, kind }, 'glb', opts);
      expect((await validateGlb(glb!.data)).errors).toEqual([]);
      const [json] = await convertExport({ packages, ref: MAP }, { index, kind }, 'json', opts);
      const info = JSON.parse(new TextDecoder().decode(json!.data));
      expect(info).toMatchObject({ componentSizeQuads: 63, width: 64, height: 64, localHeightRange: BOX_Z });
      expect(info.heights).toBeUndefined();
    });
  });
});

it('an unversioned map without mappings: a FormatError that says the mappings are needed', async () => {
  await withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), async (packages) => {
    await expect(readLandscape({ packages, ref: MAP }, undefined)).rejects.toThrow(/mappings \(\.usmap\) are needed/);
  });
});

it('a truncated storage factory leaves the heights out with a note naming it, not a crash', async () => {
  await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
    const src = await installTextureSource(packages, MAP, {});
    const factory = src.exports.find((e) => e.class === LANDSCAPE_STORAGE_CLASS)!;
    factory.bytes = factory.bytes.subarray(0, factory.properties.propertyStart + factory.properties.propertyBytes + 30);
    const l = await landscapeOfSource(src, undefined);
    expect(l.notes.join('\n')).toMatch(/Heightmap_0 does not read: .*LandscapeTextureStorageProviderFactory_0.*/);
    expect(l.heightRange).toBeNull();
    expect(landscapeMesh(l).lods[0]!.indices.length).toBe(0);
  });
});

it('the level .glb of the map places the terrain: a node Landscape_0 with the 4096-vertex mesh and its material', async () => {
  await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
    const level = await readLevel({ packages, ref: MAP }, undefined);
    const file = await levelGlb({ packages, ref: MAP }, level);
    expect((await validateGlb(file.data)).errors).toEqual([]);
    const g = parseGlb(file.data);
    const node = g.json.nodes.find((n: { name: string }) => n.name === 'Landscape_0');
    expect(node.mesh).toBeDefined();
    const prim = g.json.meshes[node.mesh].primitives[0];
    expect(g.json.accessors[prim.attributes.POSITION].count).toBe(4096);
    expect(g.json.materials[prim.material].name).toBe('M_Landscape');
  });
});
