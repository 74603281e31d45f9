/**
 * A TOC with many entries (perfect hash, directory index, one block each) reads back exactly.
 * How fast parsing and lookups are is measured by `npm run bench`, not here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { parseToc } from '../../src/core/iostore/toc.js';
import { removeTempDirs, writeContainer, type WrittenContainer } from '../fixtures/toc-writer.js';

const ENTRIES = 30_000;
let w: WrittenContainer;

beforeAll(async () => {
  const files = Array.from({ length: ENTRIES }, (_, i) => ({
    path: `Game/Content/Dir${i % 500}/Sub${i % 7}/Asset_${i}.uasset`,
    bytes: Uint8Array.of(i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, 1, 2, 3, 4, 5),
  }));
  w = await writeContainer(files, { version: 8, blockSize: 65536 });
}, 300_000);
afterAll(() => removeTempDirs());

describe(`a TOC with ${ENTRIES} entries`, () => {
  it('parses every entry and block', () => {
    const toc = parseToc(w.utocBytes, 'big.utoc');
    expect(toc.header.entryCount).toBe(ENTRIES);
    expect(toc.blockOffsets.length).toBe(ENTRIES);
  });

  it('lists every path and finds every chunk by id', async () => {
    const c = await openIoStoreContainer(w.utocPath);
    const files = c.files();
    expect(files.length).toBe(ENTRIES);
    for (const e of w.entries) if (c.findChunk(e.chunkIdHex) !== e.entryIndex) throw new Error(`lookup of ${e.chunkIdHex} failed`);
    const e = w.entries[12_345]!;
    expect(files.find((f) => f.ref === e.entryIndex)!.path).toBe('Game/Content/Dir345/Sub4/Asset_12345.uasset');
    expect(Array.from(await c.readChunk(e.entryIndex))).toEqual(Array.from(e.bytes));
    await c.close();
  });
});
