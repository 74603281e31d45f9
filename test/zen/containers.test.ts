import { beforeAll, describe, expect, it } from 'vitest';
import { parseContainerHeader, findStoreEntry, ContainerHeaderVersion, type ContainerHeader } from '../../src/core/iostore/container-header.js';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import { parseScriptObjects, type ScriptObjects } from '../../src/core/zen/script-objects.js';
import { resolvePackage } from '../../src/core/zen/resolve.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { ZenLayout, zenLayoutFor, enginesFor, EngineVersion } from '../../src/core/engine-versions.js';
import { corpus } from '../support/corpus.js';
import { readMiniChunk, readMiniToc, type MiniToc } from './mini-utoc.js';

const hex = (v: bigint): string => v.toString(16).padStart(16, '0');

interface Loaded { toc: MiniToc; header: ContainerHeader; layout: ZenLayout; packages: Map<string, ZenPackage> }

/** Every Zen package of an uncompressed container, read straight from the .ucas by the .utoc offsets. */
function loadContainer(base: string, onlyUncompressed = false): Loaded {
  const toc = readMiniToc(corpus(`${base}.utoc`));
  const ucas = corpus(`${base}.ucas`);
  const header = parseContainerHeader(readMiniChunk(toc, ucas, toc.chunks.find((c) => c.type === 6)!), base);
  const layout = zenLayoutFor({ containerHeaderVersion: header.version, tocVersion: toc.version });
  const packages = new Map<string, ZenPackage>();
  for (const chunk of toc.chunks.filter((c) => c.type === 1)) {
    let bytes: Uint8Array;
    try {
      bytes = readMiniChunk(toc, ucas, chunk);
    } catch (e) {
      if (onlyUncompressed) continue; // an Oodle block: the codecs are another module's job
      throw e;
    }
    const id = hex(chunk.id);
    const pkg = parseZenPackage(bytes, `${base}.ucas#${id}`, { layout, storeEntry: findStoreEntry(header, id) });
    packages.set(id, pkg);
  }
  return { toc, header, layout, packages };
}

function loadScriptObjects(base: string): ScriptObjects {
  const toc = readMiniToc(corpus(`${base}.utoc`));
  return parseScriptObjects(readMiniChunk(toc, corpus(`${base}.ucas`), toc.chunks[0]!), base);
}

/** The checks every package of a real container must pass. */
function expectConsistent(c: Loaded): void {
  for (const [id, pkg] of c.packages) {
    // The chunk id the engine gave the package is the hash of the name we read from it.
    expect(pkg.packageId, pkg.name).toBe(id);
    expect(pkg.warnings, pkg.name).toEqual([]);
    const entry = findStoreEntry(c.header, id)!;
    // UE5.3+: the store entry's imports are exactly the imported package names, hashed.
    expect(pkg.importedPackageIds, pkg.name).toEqual(entry.importedPackages);
    expect(pkg.hasPackageTag, pkg.name).toBe(true);
    expect(pkg.exportDataEnd, pkg.name).toBe(pkg.chunkSize - 4);
  }
}

describe('Zen packages in real containers', () => {
  it('reads every package of The Isle mod container (UE5.4, utoc v6, header v3, uncompressed)', () => {
    const c = loadContainer('iostore/isle_pakchunk999-WindowsClient_P');
    expect(c.header.version).toBe(ContainerHeaderVersion.NoExportInfo);
    expect(c.toc.version).toBe(6);
    expect(c.layout).toBe(ZenLayout.BulkDataMapPadding);
    expect(c.packages.size).toBe(12);
    expectConsistent(c);
    const names = [...c.packages.values()].map((p) => p.name);
    expect(names).toContain('/Game/TheIsle/Core/Characters/Dinosaurs/Tyrannosaurus/Attributes/ATT_Tyrannosaurus_AttackPower');
    const att = [...c.packages.values()].find((p) => p.name.endsWith('ATT_Allosaurus_Weight'))!;
    expect(att.names.length).toBe(2);
    expect(att.imports.length).toBe(3);
    expect(att.exports.length).toBe(1);
  });

  it('reads the uncompressed packages of the older Isle container', () => {
    const c = loadContainer('iostore/isle_pakchunk55-Windows_P', true);
    expect(c.layout).toBe(ZenLayout.BulkDataMapPadding);
    expect(c.packages.size).toBe(44);
    expectConsistent(c);
  });

  describe('UE5.8 fixtures (CUE4Parse, versioned packages)', () => {
    let c: Loaded;
    let so: ScriptObjects;
    beforeAll(() => {
      c = loadContainer('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows');
      so = loadScriptObjects('cue58/IoStore/Tagged/global');
    });

    it('reads all 97 packages with their versioning info', () => {
      expect(c.header.version).toBe(ContainerHeaderVersion.SoftPackageReferencesOffset);
      expect(c.toc.version).toBe(8);
      // 5.8 writes the same .utoc and container header versions as 5.6/5.7, and the same layout.
      expect(enginesFor({ tocVersion: 8, containerHeaderVersion: c.header.version }).map((r) => r.engine))
        .toEqual([EngineVersion.UE5_6, EngineVersion.UE5_7, EngineVersion.UE5_8]);
      expect(c.layout).toBe(ZenLayout.VerseCells);
      expect(c.packages.size).toBe(97);
      expectConsistent(c);
      const all = [...c.packages.values()];
      for (const p of all) {
        expect(p.versioning).toMatchObject({ zenVersion: 3, fileVersionUE4: 522, fileVersionUE5: 1018, licenseeVersion: 0 });
      }
      expect(all.reduce((s, p) => s + p.names.length, 0)).toBe(3416);
      expect(all.reduce((s, p) => s + p.exports.length, 0)).toBe(642);
      expect(all.reduce((s, p) => s + p.imports.length, 0)).toBe(727);
      expect(all.reduce((s, p) => s + p.bulkData.length, 0)).toBe(82);
      const da = all.find((p) => p.name === '/Game/Fixtures/Properties/DA_AllProperties')!;
      expect(da.versioning!.customVersions.length).toBeGreaterThan(0);
      expect(da.versioning!.customVersions[0]!.guid).toMatch(/^[0-9A-F]{32}$/);
    });

    it('resolves imports across the container and to /Script objects', () => {
      const pkgs = c.packages;
      let unresolved = 0;
      let crossPackage = 0;
      for (const p of pkgs.values()) {
        const r = resolvePackage(p, { scriptObjects: so, importedPackages: pkgs });
        for (const i of r.imports) {
          if (!i.resolved) unresolved++;
          else if (i.kind === 'package') crossPackage++;
        }
      }
      // Only imports of /Engine content (not in these fixtures) stay unresolved.
      expect(unresolved).toBe(13);
      expect(crossPackage).toBe(50);

      const child = [...pkgs.values()].find((p) => p.name === '/Game/Fixtures/Blueprints/BP_ComponentsChild')!;
      const r = resolvePackage(child, { scriptObjects: so, importedPackages: pkgs });
      expect(r.exports[0]).toMatchObject({
        path: '/Game/Fixtures/Blueprints/BP_ComponentsChild.BP_ComponentsChild_C',
        className: 'BlueprintGeneratedClass',
        classPath: '/Script/Engine.BlueprintGeneratedClass',
        superPath: '/Game/Fixtures/Blueprints/BP_Components.BP_Components_C',
        templatePath: '/Script/Engine.Default__BlueprintGeneratedClass',
      });
      expect(r.exports[1]).toMatchObject({
        path: '/Game/Fixtures/Blueprints/BP_ComponentsChild.Default__BP_ComponentsChild_C',
        classPath: '/Game/Fixtures/Blueprints/BP_ComponentsChild.BP_ComponentsChild_C',
        templatePath: '/Game/Fixtures/Blueprints/BP_Components.Default__BP_Components_C',
      });
      expect(r.imports.find((i) => i.path.endsWith(':FixtureMesh_GEN_VARIABLE'))).toMatchObject({
        path: '/Game/Fixtures/Blueprints/BP_Components.BP_Components_C:FixtureMesh_GEN_VARIABLE',
        classPath: '/Script/Engine.StaticMeshComponent',
        packageName: '/Game/Fixtures/Blueprints/BP_Components',
        resolved: true,
      });

      const nav = [...pkgs.values()].find((p) => p.name === '/Game/Fixtures/Maps/Navigation')!;
      const navR = resolvePackage(nav, { scriptObjects: so, importedPackages: pkgs });
      // Actors in a level: ':' after the top-level World's child, '.' below.
      expect(navR.exports.map((e) => e.path)).toContain('/Game/Fixtures/Maps/Navigation.Navigation:PersistentLevel.NavigationFloorBrush');
      expect(navR.imports.filter((i) => i.kind === 'package').map((i) => i.path)).toEqual(['/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture']);
    });
  });
});
