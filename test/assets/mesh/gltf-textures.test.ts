/**
 * Textures in the .glb: a hand-made mesh whose slots name two cue58 textures (T_BGRA8 as base
 * colour, the BC5 normal map T_BC5), read from the IoStore install; the embedded PNGs, read back by
 * Pillow, against the source art (the normal map's green inverted: glTF's normal maps are +Y up).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMeshTextures } from '../../../src/core/assets/mesh/gltf/textures.js';
import { addStaticMesh, writeGlb } from '../../../src/core/assets/mesh/gltf/write.js';
import { Document, type Texture } from '@gltf-transform/core';
import { KeyRing } from '../../../src/core/crypto/keys.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { corpus } from '../../support/corpus.js';
import { parseGlb, validateGlb } from '../../support/gltf-validator.js';
import { channelErrors, readReferenceImages } from '../../support/reference-image.js';
import { staticFixture } from './fixtures.js';

let install: Install, packages: InstallPackages, temp: string;
beforeAll(async () => {
  install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')], { keys: new KeyRing() });
  packages = new InstallPackages(install);
  temp = await mkdtemp(join(tmpdir(), 'pakscope-glb-textures-'));
});
afterAll(async () => {
  await packages.close();
  await install.close();
  await rm(temp, { recursive: true, force: true });
});

describe('glTF textures', () => {
  it('embeds the base colour and normal map the materials name, as PNG', async () => {
    const mesh = staticFixture();
    mesh.materials[0]!.textures = { baseColor: '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8', normal: '/Game/Fixtures/Textures/T_BC5.T_BC5' };
    mesh.materials[1]!.textures = { baseColor: '/Game/Fixtures/Textures/T_Missing.T_Missing' };
    const { pngs, notes } = await readMeshTextures({ packages, ref: '/Game/Fixtures/Meshes/SM_Fixture' }, mesh);
    expect([...pngs.keys()].sort()).toEqual(['/Game/Fixtures/Textures/T_BC5.T_BC5', '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8']);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/T_Missing.*not embedded/);

    const glb = await writeGlb(mesh, { textures: pngs });
    const { errors, report } = await validateGlb(glb);
    expect(errors).toEqual([]);
    expect(report.info).toMatchObject({ hasTextures: true });
    const gltf = parseGlb(glb);
    const [matA, matB] = gltf.json.materials;
    expect(matA.pbrMetallicRoughness.baseColorTexture.index).toBe(0);
    expect(matA.normalTexture.index).toBe(1);
    expect(matB.pbrMetallicRoughness.baseColorTexture).toBeUndefined();

    const files = await Promise.all(gltf.json.images.map(async (img: { bufferView: number; mimeType: string }, i: number) => {
      expect(img.mimeType).toBe('image/png');
      const view = gltf.json.bufferViews[img.bufferView];
      const file = join(temp, `image${i}.png`);
      await writeFile(file, gltf.bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength));
      return file;
    }));
    const [base, normal, srcRgba, srcNormal] = readReferenceImages([...files, corpus('cue58/SourceTextures/rgba.png'), corpus('cue58/SourceTextures/normal.png')]);
    const e1 = channelErrors(base!.rgba, srcRgba!.rgba);
    expect(Math.max(...e1.mean)).toBeLessThanOrEqual(1);
    expect(Math.max(...e1.max)).toBeLessThanOrEqual(20);
    // The source normal map's X and Y (Z rebuilt as the BC5 PNG rule does), its green inverted.
    const expected = new Uint8Array(srcNormal!.rgba);
    for (let p = 0; p < expected.length; p += 4) {
      const x = (2 * expected[p]!) / 255 - 1, y = (2 * expected[p + 1]!) / 255 - 1;
      expected[p + 2] = Math.trunc((255 * (Math.sqrt(Math.max(0, 1 - x * x - y * y)) + 1)) / 2);
      expected[p + 1] = 255 - expected[p + 1]!;
      expected[p + 3] = 255;
    }
    const e2 = channelErrors(normal!.rgba, expected);
    expect(Math.max(...e2.mean)).toBeLessThanOrEqual(1);
    expect(Math.max(...e2.max)).toBeLessThanOrEqual(4);
  });

  it('says the textures are left out for a mesh file on its own', async () => {
    const mesh = staticFixture();
    mesh.materials[0]!.textures = { baseColor: '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8' };
    const { pngs, notes } = await readMeshTextures({ file: '/nowhere/SM_Hand.uasset' }, mesh);
    expect(pngs.size).toBe(0);
    expect(notes[0]).toMatch(/not embedded/);
  });

  it('reads and embeds a texture two meshes of one document share once (a level\'s meshes)', async () => {
    const a = staticFixture(), b = staticFixture();
    a.materials[0]!.textures = { normal: '/Game/Fixtures/Textures/T_BC5.T_BC5' };
    b.materials[0]!.textures = { baseColor: '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8', normal: '/Game/Fixtures/Textures/T_BC5.T_BC5' };
    const pngs = new Map<string, Uint8Array>();
    await readMeshTextures({ packages, ref: '/Game/Fixtures/Meshes/SM_Fixture' }, a, {}, pngs);
    const first = pngs.get('/Game/Fixtures/Textures/T_BC5.T_BC5');
    await readMeshTextures({ packages, ref: '/Game/Fixtures/Meshes/SM_Fixture' }, b, {}, pngs);
    expect([...pngs.keys()].sort()).toEqual(['/Game/Fixtures/Textures/T_BC5.T_BC5', '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8']);
    expect(pngs.get('/Game/Fixtures/Textures/T_BC5.T_BC5')).toBe(first); // not decoded again

    const doc = new Document();
    doc.createBuffer();
    const made = new Map<string, Texture>();
    addStaticMesh(doc, a, 0, pngs, made);
    addStaticMesh(doc, b, 0, pngs, made);
    expect(doc.getRoot().listTextures()).toHaveLength(2);
  });
});
