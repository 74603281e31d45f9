/**
 * A TOC the size of a big game's (250,000 entries and blocks, a directory index of 250,000 paths):
 * parsing must take milliseconds, listing and lookups must stay fast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { parseToc } from '../../src/core/iostore/toc.js';
import { removeTempDirs, writeContainer, type WrittenContainer } from '../fixtures/toc-writer.js';

const ENTRIES = 250_000;
let w: WrittenContainer;

beforeAll(async () => {
  const files = Array.from({ length: ENTRIES }, (_, i) => ({
    path: `Game/Content/Dir${i % 500}/Sub${i % 7}/Asset_${i}.uasset`,
    bytes: Uint8Array.of(i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, 1, 2, 3, 4, 5),
  }));
  const t0 = performance.now();
  w = await writeContainer(files, { version: 8, blockSize: 65536 });
  console.log(`wrote a ${ENTRIES}-entry container (${(w.utocBytes.length / 1048576).toFixed(1)} MiB .utoc) in ${(performance.now() - t0).toFixed(0)} ms`);
}, 300_000);
afterAll(() => removeTempDirs());

describe(`a TOC with ${ENTRIES} entries`, () => {
  it('parses in milliseconds', () => {
    parseToc(w.utocBytes, 'big.utoc'); // warm up the JIT
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const toc = parseToc(w.utocBytes, 'big.utoc');
      runs.push(performance.now() - t0);
      expect(toc.header.entryCount).toBe(ENTRIES);
      expect(toc.blockOffsets.length).toBe(ENTRIES);
    }
    const best = Math.min(...runs);
    console.log(`parseToc(${ENTRIES} entries): best ${best.toFixed(1)} ms, runs ${runs.map((r) => r.toFixed(1)).join(' ')}`);
    expect(best).toBeLessThan(250);
  });

  it('opens, lists every path and finds every chunk quickly', async () => {
    const t0 = performance.now();
    const c = await openIoStoreContainer(w.utocPath);
    const files = c.files();
    const tOpen = performance.now() - t0;
    expect(files.length).toBe(ENTRIES);
    const t1 = performance.now();
    for (const e of w.entries) if (c.findChunk(e.chunkIdHex) !== e.entryIndex) throw new Error(`lookup of ${e.chunkIdHex} failed`);
    const tFind = performance.now() - t1;
    console.log(`open + directory index + files(): ${tOpen.toFixed(0)} ms; ${ENTRIES} perfect-hash lookups: ${tFind.toFixed(0)} ms`);
    expect(tOpen).toBeLessThan(3000);
    const e = w.entries[123_456]!;
    expect(files.find((f) => f.ref === e.entryIndex)!.path).toBe('Game/Content/Dir456/Sub4/Asset_123456.uasset');
    expect(Array.from(await c.readChunk(e.entryIndex))).toEqual(Array.from(e.bytes));
    await c.close();
  });
});
