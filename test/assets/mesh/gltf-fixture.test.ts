/**
 * cue58's SM_Fixture converted through the registry as `extract --format convert` does (tagged,
 * and unversioned with the usmap): a .glb the Khronos validator accepts, with the values
 * (6 vertices, 2 triangles, 2 sections, 2 UV channels, the vertices (-50,-50,0) and (50,50,20) cm,
 * socket FixtureSocket at (12.5,-25,37.5) cm) in glTF's metres and axes, and the engine's stored
 * normals agreeing with the triangles' counter-clockwise winding; SK_Fixture with its skin and
 * morph target, SKEL_Fixture as its bones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { accessorValues, parseGlb, validateGlb } from '../../support/gltf-validator.js';

const VARIANTS = {
  'Tagged Uncompressed': { path: 'cue58/IoStore/Tagged/Uncompressed', mappings: false },
  'Unversioned Zlib with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib', mappings: true },
};
const close = (actual: number[], expected: number[], digits = 5) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(a, `value ${i}`).toBeCloseTo(expected[i]!, digits));
};

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`SM_Fixture as .glb, cue58 IoStore ${variant}`, () => {
    let install: Install, packages: InstallPackages;
    const opts = () => (v.mappings ? { mappings: parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap') } : {});
    beforeAll(async () => {
      install = await openInstall([corpus(v.path)]);
      packages = new InstallPackages(install);
    });
    afterAll(async () => {
      await packages.close();
      await install.close();
    });

    const convert = async (lod?: number) => {
      const path = 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset';
      const { model } = await packages.open(path);
      const [exp] = convertibleExports(model);
      expect(exp?.kind.kind).toBe('mesh');
      return convertExport({ packages, ref: path }, exp!, undefined, { ...opts(), ...(lod !== undefined ? { lod } : {}) });
    };

    it('writes LOD 0 with the issue\'s values in metres, Y up', async () => {
      const files = await convert();
      expect(files.map((f) => [f.suffix, f.extension])).toEqual([['', 'glb']]);
      const glb = files[0]!.data;
      const { errors, report } = await validateGlb(glb);
      expect(errors).toEqual([]);
      expect(report.info).toMatchObject({ drawCallCount: 2, totalTriangleCount: 2, maxUVs: 2 });
      const gltf = parseGlb(glb);
      const prims = gltf.json.meshes[0].primitives;
      expect(prims).toHaveLength(2);
      const position = gltf.json.accessors[prims[0].attributes.POSITION];
      expect(position.count).toBe(6);
      // (-50,-50,0) cm -> (-0.5, 0, -0.5) m and (50,50,20) cm -> (0.5, 0.2, 0.5) m are the corners.
      close(position.min, [-0.5, 0, -0.5]);
      close(position.max, [0.5, 0.2, 0.5]);
      expect(gltf.json.materials.map((m: { name: string }) => m.name)).toHaveLength(2);
      const socket = gltf.json.nodes.find((n: { name: string }) => n.name === 'FixtureSocket');
      close(socket.translation, [0.125, 0.375, -0.25]);

      // Each triangle's (b - a) x (c - a) in glTF's axes points the way the engine's normals do.
      const pos = accessorValues(gltf, prims[0].attributes.POSITION);
      const nrm = accessorValues(gltf, prims[0].attributes.NORMAL);
      for (const prim of prims) {
        const [a, b, c] = accessorValues(gltf, prim.indices);
        const p = (i: number) => pos.slice(i * 3, i * 3 + 3);
        const e1 = p(b!).map((x, k) => x - p(a!)[k]!), e2 = p(c!).map((x, k) => x - p(a!)[k]!);
        const cross = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
        const dot = cross.reduce((s, x, k) => s + x * nrm[a! * 3 + k]!, 0);
        expect(dot, `triangle ${a},${b},${c}`).toBeGreaterThan(0);
      }
    });

    it('writes SK_Fixture with its skin (Root, Joint_1, Joint_2) and Morph_Fixture, and SKEL_Fixture as its bones', async () => {
      const glbOf = async (path: string) => {
        const { model } = await packages.open(path);
        const [exp] = convertibleExports(model);
        return (await convertExport({ packages, ref: path }, exp!, 'glb', opts()))[0]!.data;
      };
      const sk = await glbOf('CUE4ParseFixtures/Content/Fixtures/Meshes/SK_Fixture.uasset');
      const { errors, report } = await validateGlb(sk);
      expect(errors).toEqual([]);
      expect(report.info).toMatchObject({ hasSkins: true, hasMorphTargets: true, maxInfluences: 4 });
      const gltf = parseGlb(sk);
      const names = gltf.json.nodes.map((n: { name: string }) => n.name);
      expect(gltf.json.skins[0].joints.map((j: number) => names[j])).toEqual(['Root', 'Joint_1', 'Joint_2']);
      expect(gltf.json.nodes[names.indexOf('Root')].children).toEqual([names.indexOf('Joint_1')]);
      expect(gltf.json.meshes[0].extras.targetNames).toEqual(['Morph_Fixture']);
      const skel = await glbOf('CUE4ParseFixtures/Content/Fixtures/Animations/SKEL_Fixture.uasset');
      expect((await validateGlb(skel)).errors).toEqual([]);
      const skelJson = parseGlb(skel).json;
      expect(skelJson.meshes).toBeUndefined();
      expect(skelJson.nodes.slice(0, 3).map((n: { name: string }) => n.name)).toEqual(['Root', 'Joint_1', 'Joint_2']);
    });

    it('writes LOD 1 when asked', async () => {
      const gltf = parseGlb((await convert(1))[0]!.data);
      expect(gltf.json.accessors[gltf.json.meshes[0].primitives[0].attributes.POSITION].count).toBe(6);
      await expect(convert(2)).rejects.toThrow(/LODs 0 to 1, not 2/);
    });
  });
}
