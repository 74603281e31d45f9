// Sounds decode in the worker pool (the app's and the CLI's path): the wasm Opus and Vorbis
// decoders load in a worker thread and give the same PCM as on this thread; a payload that does
// not decode comes back as its FormatError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSound, readSound } from '../../../src/core/assets/sound/kind.js';
import { FormatError } from '../../../src/core/errors.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { createWorkerPool, type WorkerPool } from '../../../src/core/workers/pool.js';
import { corpus } from '../../support/corpus.js';
import { ensureWorkerBundle } from '../../workers/worker-bundle.js';

let pool: WorkerPool;
let install: Install;
let packages: InstallPackages;
beforeAll(async () => {
  pool = createWorkerPool({ threads: 2, workerFile: ensureWorkerBundle() });
  install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc')]);
  packages = new InstallPackages(install);
}, 120_000);
afterAll(async () => {
  await packages.close();
  await install.close();
  await pool.destroy();
});

describe('decodeSound in the worker pool', () => {
  for (const name of ['SW_Format_Opus', 'SW_Format_PlatformSpecific', 'SW_Format_ADPCM']) {
    it(`${name}: the same PCM as on this thread`, async () => {
      const sound = await readSound({ packages, ref: `/Game/Fixtures/Audio/${name}` }, undefined);
      const here = await decodeSound(sound);
      const there = await decodeSound(sound, undefined, pool);
      expect(there.sampleRate).toBe(48_000);
      expect(there.channels).toBe(1);
      expect(there.samples.length).toBe(here.samples.length);
      expect(Buffer.from(there.samples.buffer).equals(Buffer.from(here.samples.buffer, here.samples.byteOffset, here.samples.byteLength))).toBe(true);
    });
  }

  it('a payload that does not decode: its FormatError, and the pool goes on', async () => {
    const info = { name: 'bad', format: 'OPUS', sampleRate: 48_000, channels: 1, samples: 0 };
    const bad = new TextEncoder().encode('UEOPUS\0\0 this is not a header');
    await expect(pool.decodeSound(info, bad)).rejects.toThrow(FormatError);
    const sound = await readSound({ packages, ref: '/Game/Fixtures/Audio/SW_Format_Opus' }, undefined);
    expect((await decodeSound(sound, undefined, pool)).samples.length).toBe(96_000);
  });
});
