// Finding the global script objects: UE5's ScriptObjects chunk, UE4's LoaderInitialLoadMeta +
// LoaderGlobalNames in a global container (written here from the retoc 4.27 chunks), and a
// global.utoc beside the install or one folder up.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkTypeValue } from '../../src/core/iostore/chunk-type.js';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { findScriptObjects, globalContainersNear } from '../../src/core/package/script-objects.js';
import { scriptObjectPath } from '../../src/core/zen/script-objects.js';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';

afterAll(removeTempDirs);

describe('findScriptObjects', () => {
  it('reads a UE4.27 global container: initial load meta, global names and their hashes', async () => {
    const dir = await makeTempDir();
    // A given chunk id is stored as it is: its last byte is the chunk type.
    const chunk = async (file: string, chunkType: string, index: number) => ({
      bytes: new Uint8Array(await readFile(corpus(`headers/${file}`))),
      chunkId: Uint8Array.of(index, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, chunkTypeValue(3, chunkType)!),
    });
    // TOC version 3 (UE4.27): UE4 chunk type numbers, no directory index in a global container.
    const written = await writeContainer([
      await chunk('retoc427_LoaderGlobalNames.bin', 'LoaderGlobalNames', 1),
      await chunk('retoc427_LoaderGlobalNameHashes.bin', 'LoaderGlobalNameHashes', 2),
      await chunk('retoc427_LoaderInitialLoadMeta.bin', 'LoaderInitialLoadMeta', 3),
    ], { version: 3, dir, name: 'global', directoryIndex: false });
    const global = await openIoStoreContainer(written.utocPath);
    try {
      const { found, problems } = await findScriptObjects([global]);
      expect(problems).toEqual([]);
      expect(found!.container).toBe(written.utocPath);
      expect(found!.opened).toBeUndefined(); // part of the install: not opened here
      expect(found!.objects.objects.length).toBe(23393);
      expect(scriptObjectPath(found!.objects, found!.objects.byIndex.get('407cde1a593e47cf')!)).toBe('/Script/Engine.StaticMesh');
    } finally {
      await global.close();
    }
  });

  it('opens the global.utoc one folder above the containers when the install has none', async () => {
    const pakchunk = await openIoStoreContainer(corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc'));
    try {
      const { found } = await findScriptObjects([pakchunk]);
      expect(found!.container).toBe(corpus('cue58/IoStore/Tagged/global.utoc'));
      expect(found!.objects.objects.length).toBe(36979);
      await found!.opened!.close();
    } finally {
      await pakchunk.close();
    }
  });

  it('reports nothing found for containers with no global near them', async () => {
    const isle = await openIoStoreContainer(corpus('iostore/isle_pakchunk999-WindowsClient_P.utoc'));
    try {
      expect(await findScriptObjects([isle])).toEqual({ problems: [] });
    } finally {
      await isle.close();
    }
  });
});

describe('globalContainersNear', () => {
  it('looks beside each container and one folder up, nearest first, once each', async () => {
    expect(await globalContainersNear([
      corpus('cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc'),
      corpus('cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc'),
    ])).toEqual([corpus('cue58/IoStore/Tagged/global.utoc')]);
    expect(await globalContainersNear([corpus('cue58/IoStore/Tagged/global.utoc')])).toEqual([corpus('cue58/IoStore/Tagged/global.utoc')]);
    // Two folders up is not searched.
    expect(await globalContainersNear([join(corpus('cue58/IoStore/Tagged/Zlib'), 'sub', 'x.utoc')])).toEqual([]);
  });
});
