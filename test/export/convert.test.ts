/** extractFiles with format 'convert' through the worker pool: progress counts every selected file, a cancel stops it cleanly, a zip holds the PNGs. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFiles, type ExportProgress } from '../../src/core/export/index.js';
import { openInstall } from '../../src/core/install/install.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { ensureWorkerBundle } from '../workers/worker-bundle.js';

ensureWorkerBundle();
const pool = createWorkerPool({ threads: 2 });
afterAll(async () => {
  await pool.destroy();
  await removeTempDirs();
});

const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';

describe("extractFiles, format 'convert'", () => {
  it('decodes in the pool, reports progress up to every selected file, and writes a zip of PNGs', async () => {
    const install = await openInstall([corpus('cue58/IoStore/Tagged/Zlib')], { decoder: pool });
    try {
      const progress: ExportProgress[] = [];
      const zip = join(await makeTempDir(), 'textures.zip');
      const s = await extractFiles(install, { paths: [TEXTURES] }, { zip, format: 'convert', pool, onProgress: (p) => progress.push(p) });
      expect([s.failed, s.skipped, s.cancelled]).toEqual([[], [], false]);
      const names = Object.keys(unzipSync(new Uint8Array(await readFile(zip))));
      expect(names).toHaveLength(s.files);
      expect(names).toContain(`${TEXTURES}/T_Cube_5.png`);
      expect(names.every((n) => n.endsWith('.png'))).toBe(true);
      const last = progress[progress.length - 1]!;
      // 21 texture packages and the 3 .ubulk files beside them
      expect([last.filesDone, last.filesTotal]).toEqual([24, 24]);
      expect(s.files).toBe(43);
    } finally {
      await install.close();
    }
  });

  it('a cancel stops it: cancelled, nothing half-written', async () => {
    const install = await openInstall([corpus('cue58/IoStore/Tagged/Zlib')], { decoder: pool });
    try {
      const abort = new AbortController();
      const out = join(await makeTempDir(), 'out');
      const s = await extractFiles(install, { paths: [TEXTURES] }, {
        out, format: 'convert', pool, signal: abort.signal, progressIntervalMs: 0,
        onProgress: (p) => { if (p.filesDone >= 2) abort.abort(); },
      });
      expect(s.cancelled).toBe(true);
      expect(s.files).toBeLessThan(43);
    } finally {
      await install.close();
    }
  });
});
