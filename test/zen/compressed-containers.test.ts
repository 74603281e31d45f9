// Zen packages read through the real IoStore reader (src/core/iostore/container.ts), so
// Oodle, Zlib, partitioned and encrypted containers are covered too.
import { describe, expect, it } from 'vitest';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { parseContainerHeader, findStoreEntry, ContainerHeaderVersion } from '../../src/core/iostore/container-header.js';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { ZenLayout, zenLayoutFor } from '../../src/core/engine-versions.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { CUE58_AES_KEY, corpus } from '../support/corpus.js';

/** The container reader's chunk id text is the id's bytes; package ids print the u64 value. */
const packageIdOf = (chunkIdHex: string): string => chunkIdHex.slice(0, 16).match(/../g)!.reverse().join('');

async function readPackages(utoc: string, keys?: KeyRing): Promise<{ version: ContainerHeaderVersion; layout: ZenLayout; packages: ZenPackage[] }> {
  const c = await openIoStoreContainer(corpus(utoc), { keys });
  try {
    const header = parseContainerHeader(await c.readChunk(c.entriesOfType('ContainerHeader')[0]!), utoc);
    const layout = zenLayoutFor({ containerHeaderVersion: header.version, tocVersion: c.toc.header.version });
    const packages: ZenPackage[] = [];
    for (const entry of c.entriesOfType('ExportBundleData')) {
      const id = packageIdOf(c.chunkIdHex(entry));
      const pkg = parseZenPackage(await c.readChunk(entry), `${utoc}#${id}`, { layout, storeEntry: findStoreEntry(header, id) });
      expect(pkg.packageId, pkg.name).toBe(id);
      expect(pkg.importedPackageIds, pkg.name).toEqual(findStoreEntry(header, id)!.importedPackages);
      expect(pkg.warnings, pkg.name).toEqual([]);
      expect(pkg.exportDataEnd, pkg.name).toBe(pkg.chunkSize - 4);
      packages.push(pkg);
    }
    return { version: header.version, layout, packages };
  } finally {
    await c.close();
  }
}

describe('Zen packages in compressed containers', () => {
  it('reads The Isle\'s UE5.6/5.7-layout packages (Oodle, header v5)', async () => {
    const a = await readPackages('iostore/isle_pakchunk333-Windows.utoc');
    expect(a.version).toBe(ContainerHeaderVersion.SoftPackageReferencesOffset);
    expect(a.layout).toBe(ZenLayout.VerseCells);
    expect(a.packages.map((p) => p.name)).toEqual(['/Game/TheIsle/Core/Session/BP_TIGameSession']);
    const b = await readPackages('iostore/isle_pakchunk334-Windows.utoc');
    expect(b.packages.length).toBe(11);
    expect(b.packages.map((p) => p.name)).toContain('/Game/OrionLabs/Kadin/BP_KMod_Loader');
  });

  it('reads the same 97 UE5.8 packages from Oodle, Zlib, partitioned and encrypted containers', async () => {
    const names: string[][] = [];
    for (const [utoc, keys] of [
      ['cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc', undefined],
      ['cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', undefined],
      ['cue58/IoStore/Tagged/OodlePartitioned/CUE4ParseFixtures-Minimal-OodlePartitioned-Windows.utoc', undefined],
      ['cue58/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc', KeyRing.fromArgs([CUE58_AES_KEY])],
    ] as const) {
      const r = await readPackages(utoc, keys);
      expect(r.layout, utoc).toBe(ZenLayout.VerseCells);
      expect(r.packages.length, utoc).toBe(97);
      expect(r.packages.every((p) => p.versioning?.fileVersionUE5 === 1018), utoc).toBe(true);
      names.push(r.packages.map((p) => `${p.name}:${p.exports.length}:${p.names.length}`).sort());
    }
    for (const n of names) expect(n).toEqual(names[0]);
  });
});
