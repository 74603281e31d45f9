/**
 * MaterialReads, the material exports a conversion shares (a level .glb's meshes, whose slots'
 * instances share parents): cue58's MI_Fixture and its parent M_Fixture (CUE4Parse's
 * FixtureRenderableAssetTests.cs) are read from the install once however often they are asked
 * for, and give the same material; without it each read opens both again.
 */
import { describe, expect, it, vi } from 'vitest';
import { MaterialReads, readMaterial } from '../../../src/core/assets/material/read.js';
import { readMesh } from '../../../src/core/assets/mesh/kind.js';
import { resolveSlotMaterials } from '../../../src/core/assets/mesh/slot-materials.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus } from '../../support/corpus.js';

const MI = '/Game/Fixtures/Materials/MI_Fixture';

describe('MaterialReads', () => {
  it('opens MI_Fixture and its parent M_Fixture once for several reads, and gives the same chain', async () => {
    await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const located = vi.spyOn(packages, 'locate');
      const opened = (): string[] => located.mock.calls.map((c) => String(c[0]));
      const plain = await readMaterial({ packages, ref: MI }, undefined);
      expect(plain.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
      await readMaterial({ packages, ref: MI }, undefined);
      expect(opened().length).toBe(4); // both levels, twice

      located.mockClear();
      const reads = new MaterialReads();
      const first = await readMaterial({ packages, ref: MI }, undefined, { materialReads: reads });
      const again = await readMaterial({ packages, ref: MI }, undefined, { materialReads: reads });
      expect(opened()).toEqual([MI, '/Game/Fixtures/Materials/M_Fixture']);
      expect(again).toEqual(first);
      expect(first).toEqual(plain);

      // Two meshes' slots pointed at MI_Fixture: its chain is not opened again.
      const meshes = await Promise.all([0, 1].map(() => readMesh({ packages, ref: '/Game/Fixtures/Meshes/SM_Fixture' }, undefined)));
      located.mockClear();
      for (const mesh of meshes) {
        mesh.materials[0]!.material = `${MI}.MI_Fixture`;
        await resolveSlotMaterials(packages, mesh, { materialReads: reads });
        expect(mesh.materials[0]!.textures).toEqual({ baseColor: '/Game/Fixtures/Textures/T_BC3.T_BC3' });
      }
      expect(opened()).toEqual([]);
    });
  });
});
