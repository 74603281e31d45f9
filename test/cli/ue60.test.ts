// UE6.0 recognised: no UE6.0 file is in the corpus, so the cue58 (UE5.8.1) packages are written
// into containers as UE6.0 writes them (CUE4Parse's GAME_UE6_0: .utoc version 10
// ContainerEncryptionMethod, .pak version 15 EncryptionMethod; packages saved as 5.8 saves them),
// with the writers of test/fixtures.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall } from '../../src/core/install/install.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { TocVersion } from '../../src/core/iostore/toc-version.js';
import { PakVersion } from '../../src/core/pak/version.js';
import { writePak } from '../fixtures/pak-writer.js';
import { makeTempDir, removeTempDirs, writeContainer, type WriterFile } from '../fixtures/toc-writer.js';
import { corpus } from '../support/corpus.js';
import { buildCli, pakscope } from './run-cli.js';

const MOUNT = '../../../CUE4ParseFixtures/Content/Fixtures/';
const PREFIX = /^CUE4ParseFixtures\/Content\/Fixtures\//;
let ioStoreDir: string;
let pakDir: string;

/** Every chunk of the cue58 Uncompressed container, at its path, in a .utoc of version 10. */
async function writeUe60IoStore(): Promise<string> {
  const install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')]);
  try {
    const c = install.archives[0] as IoStoreContainer;
    const paths = new Map(c.files().map((f) => [f.ref, f.path]));
    const files: WriterFile[] = [];
    for (let i = 0; i < c.chunkCount; i++) {
      const path = paths.get(i);
      const chunkId = c.toc.chunkIds.slice(i * 12, i * 12 + 12);
      files.push({ ...(path !== undefined ? { path: path.replace(PREFIX, '') } : {}), bytes: await c.readChunk(i), chunkId });
    }
    const dir = await makeTempDir();
    await writeContainer(files, { version: TocVersion.ContainerEncryptionMethod, dir, name: 'UE60-Windows', mountPoint: MOUNT, containerId: BigInt(`0x${c.toc.header.containerId}`) });
    return dir;
  } finally {
    await install.close();
  }
}

/** The cue58 legacy pak's files in a .pak of version 15. */
async function writeUe60Pak(): Promise<string> {
  const install = await openInstall([corpus('cue58/LegacyPak/Tagged/Uncompressed')]);
  try {
    const files = await Promise.all([...install.files()].map(async (f) => ({
      name: f.path.replace(PREFIX, ''),
      data: await f.providers[0]!.archive.read(f.providers[0]!.file.ref),
    })));
    const dir = await makeTempDir();
    const pak = writePak(files, { version: PakVersion.EncryptionMethod, mountPoint: MOUNT, pakchunkIndex: 0 });
    await writeFile(join(dir, 'UE60-Windows.pak'), pak.bytes);
    return dir;
  } finally {
    await install.close();
  }
}

beforeAll(async () => {
  buildCli();
  [ioStoreDir, pakDir] = await Promise.all([writeUe60IoStore(), writeUe60Pak()]);
});
afterAll(removeTempDirs);

interface Info { format: string; name: string; version: { engine: string | null } }
const engineOf = async (args: string[]): Promise<string | null> => {
  const r = await pakscope(['info', ...args, '--json']);
  // The written IoStore container has no global.utoc beside it: its /Script imports stay hashes.
  expect(r.stderr.replace(/^warning: .*no global container.*\n/m, '')).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.out) as Info).version.engine;
};

describe('UE6.0', () => {
  it('is the engine of a package in a UE6.0 IoStore container (.utoc version 10)', async () => {
    expect(await engineOf([ioStoreDir, '/Game/Fixtures/Textures/T_BC7'])).toBe('6.0');
    // The same package in its UE5.8 container stays 5.6-5.8 (the .utoc version 8 of 5.6 to 5.8).
    expect(await engineOf([corpus('cue58/IoStore/Tagged/Uncompressed'), '/Game/Fixtures/Textures/T_BC7'])).toBe('5.6-5.8');
  });

  it('is the engine of a .uasset in a UE6.0 .pak (version 15), whose object versions are 5.8\'s', async () => {
    expect(await engineOf([pakDir, '/Game/Fixtures/Properties/DA_AllProperties'])).toBe('6.0');
    expect(await engineOf([corpus('cue58/LegacyPak/Tagged/Uncompressed'), '/Game/Fixtures/Properties/DA_AllProperties'])).toBe('5.7-5.8');
  });

  it('is accepted by --engine', async () => {
    expect(await engineOf([corpus('cue58/IoStore/Tagged/Uncompressed'), '/Game/Fixtures/Textures/T_BC7', '--engine', '6.0'])).toBe('6.0');
    const help = await pakscope(['info', '--help']);
    expect(help.out).toContain('IoStore packages: 4.25 to 6.0');
  });
});
