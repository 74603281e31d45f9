/**
 * Hostile and damaged .utoc files: every one must fail fast with a FormatError that names the
 * file, the structure and the byte offset; none may allocate by a hostile count, crash or hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corpus } from '../support/corpus.js';
import { FormatError } from '../../src/core/errors.js';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { parseToc, TOC_HEADER_SIZE } from '../../src/core/iostore/toc.js';
import { makeTempDir, removeTempDirs, writeContainer, type WrittenContainer } from '../fixtures/toc-writer.js';
import { compressibleBytes } from '../fixtures/test-data.js';

afterAll(() => removeTempDirs());

function expectFormatError(fn: () => unknown, structure: string | RegExp, offset?: number): FormatError {
  let err: unknown;
  try { fn(); } catch (e) { err = e; }
  expect(err, 'should throw').toBeInstanceOf(FormatError);
  const e = err as FormatError;
  if (typeof structure === 'string') expect(e.structure).toBe(structure);
  else expect(e.structure).toMatch(structure);
  if (offset !== undefined) expect(e.offset).toBe(offset);
  expect(e.message).toContain(e.file);
  expect(e.message).toContain(`${e.structure} at byte ${e.offset}`);
  return e;
}

function patched(bytes: Uint8Array, edit: (dv: DataView, b: Uint8Array) => void): Uint8Array {
  const b = bytes.slice();
  edit(new DataView(b.buffer), b);
  return b;
}

let real: Uint8Array;
let w: WrittenContainer;
let wCtr: WrittenContainer;

beforeAll(async () => {
  real = new Uint8Array(await readFile(corpus('iostore', 'isle_pakchunk334-Windows.utoc')));
  const files = Array.from({ length: 10 }, (_, i) => ({ path: `Game/Content/Dir${i % 3}/F${i}.uasset`, bytes: compressibleBytes(6000 + i, i) }));
  w = await writeContainer(files, { version: 8, blockSize: 4096, codec: 'Zlib', signed: true, overflow: [1] });
  wCtr = await writeContainer(files, {
    version: 10, blockSize: 4096, codec: 'Zlib', encryption: { key: new Uint8Array(32).fill(7), method: 'ctr' },
  });
});

describe('truncated .utoc', () => {
  it.each(['real v8 (isle_pakchunk334)', 'written v8 signed with overflow', 'written v10 AES-CTR'])('%s fails at every length', (which) => {
    const bytes = which.startsWith('real') ? real : which.includes('CTR') ? wCtr.utocBytes : w.utocBytes;
    const structures = new Set<string>();
    for (let len = 0; len < bytes.length; len++) {
      const e = expectFormatError(() => parseToc(bytes.subarray(0, len), 'cut.utoc'), /./);
      expect(e.file).toBe('cut.utoc');
      expect(e.offset).toBeLessThanOrEqual(len);
      structures.add(e.structure);
    }
    // Each structure in turn is the one found cut short.
    expect(structures).toContain('utoc header');
    expect(structures).toContain('chunk ids');
    expect(structures).toContain('chunk metas');
    expect(structures).toContain(which.startsWith('real') ? 'directory index' : 'compression blocks');
    if (which.includes('signed')) expect(structures).toContain('signatures');
    if (which.includes('CTR')) expect(structures).toContain('encryption IVs');
  });

  it('a truncated file on disk fails to open with a FormatError naming it', async () => {
    const dir = await makeTempDir();
    const p = join(dir, 'cut.utoc');
    await writeFile(p, real.subarray(0, 700));
    await expect(openIoStoreContainer(p)).rejects.toThrow(FormatError);
    await expect(openIoStoreContainer(p)).rejects.toThrow(/cut\.utoc: .* at byte \d+/);
  });
});

describe('hostile header fields', () => {
  it('bad magic, version, header size and block entry size', () => {
    expectFormatError(() => parseToc(patched(real, (_, b) => { b[0] = 0x41; }), 'x.utoc'), 'utoc header', 0);
    expectFormatError(() => parseToc(patched(real, (_, b) => { b[16] = 0; }), 'x.utoc'), 'utoc header', 16);
    const e = expectFormatError(() => parseToc(patched(real, (_, b) => { b[16] = 11; }), 'x.utoc'), 'utoc header', 16);
    expect(e.message).toMatch(/version 11/);
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(20, 160, true)), 'x.utoc'), 'utoc header', 20);
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(32, 16, true)), 'x.utoc'), 'utoc header', 32);
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(44, 0, true)), 'x.utoc'), 'utoc header', 44);
  });

  it.each([
    ['entry count', 24, 'chunk ids'],
    ['block count', 28, 'compression blocks'],
    ['seed count', 84, 'perfect hash seeds'],
    ['without-perfect-hash count', 96, 'chunks without perfect hash'],
    ['directory index size', 48, 'directory index'],
  ])('a huge %s fails fast, before allocating', (_what, at, structure) => {
    for (const v of [0xffffffff, 0x7fffffff, 0x10000000]) {
      const e = expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(at, v, true)), 'x.utoc'), structure);
      expect(e.message).toMatch(/needs|outside|remain/);
    }
  });

  it('a huge method-name count or length fails in the header', () => {
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(36, 0xffffffff, true)), 'x.utoc'), 'utoc header', 36);
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(40, 0xffffffff, true)), 'x.utoc'), 'utoc header', 40);
    expectFormatError(() => parseToc(patched(real, (dv) => dv.setUint32(36, 200, true)), 'x.utoc'), 'compression method names');
  });

  it('a huge signature size fails in the signatures', () => {
    const sigAt = w.utocBytes.length - (/* metas */ 10 * 24) - (readDirSize(w.utocBytes)) - (32 * 2 + w.blockCount * 20) - 4;
    expect(new DataView(w.utocBytes.buffer, w.utocBytes.byteOffset).getInt32(sigAt, true)).toBe(32);
    for (const v of [0x7fffffff, -5]) {
      expectFormatError(() => parseToc(patched(w.utocBytes, (dv) => dv.setInt32(sigAt, v, true)), 'x.utoc'), 'signatures', sigAt);
    }
  });

  it('v10: an IV count that does not fit the blocks, or a huge one, fails', () => {
    expectFormatError(() => parseToc(patched(wCtr.utocBytes, (dv) => dv.setUint32(104, wCtr.blockCount, true)), 'x.utoc'), 'utoc header', 104);
    expectFormatError(() => parseToc(patched(wCtr.utocBytes, (dv) => dv.setUint32(104, 0xffffffff, true)), 'x.utoc'), 'utoc header', 104);
    expectFormatError(() => parseToc(patched(wCtr.utocBytes, (_, b) => { b[81] = 7; }), 'x.utoc'), 'utoc header', 81);
  });

  it('partitions of size 0 fail', () => {
    const bad = patched(real, (dv) => { dv.setUint32(52, 3, true); dv.setBigUint64(88, 0n, true); });
    expectFormatError(() => parseToc(bad, 'x.utoc'), 'utoc header', 88);
  });
});

describe('hostile body fields', () => {
  const blocksAt = (bytes: Uint8Array) => {
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    const n = dv.getUint32(24, true);
    return TOC_HEADER_SIZE + n * 22 + (dv.getUint32(84, true) + dv.getUint32(96, true)) * 4;
  };

  it('an out-of-range compression method index names the block entry', () => {
    const at = blocksAt(real) + 3 * 12 + 11; // block 3's method byte
    const e = expectFormatError(() => parseToc(patched(real, (_, b) => { b[at] = 2; }), 'x.utoc'), 'compression blocks', at);
    expect(e.message).toMatch(/block 3 uses method index 2/);
  });

  it('a chunk whose offset lies past the blocks names the offset entry', () => {
    const at = TOC_HEADER_SIZE + 12 * 12 + 4 * 10; // entry 4's offset/length
    const bad = patched(real, (_, b) => { b[at] = 0x01; }); // offset += 2^32
    const e = expectFormatError(() => parseToc(bad, 'x.utoc'), 'chunk offsets', at);
    expect(e.message).toMatch(/entry 4/);
    const longer = patched(real, (_, b) => { b[at + 5] = 0x7f; }); // a 500 GiB length
    expectFormatError(() => parseToc(longer, 'x.utoc'), 'chunk offsets', at);
  });

  it('an overflow entry index past the entries fails', () => {
    const at = TOC_HEADER_SIZE + 10 * 22 + w.perfectHashSeeds.length * 4;
    expectFormatError(() => parseToc(patched(w.utocBytes, (dv) => dv.setInt32(at, 99, true)), 'x.utoc'), 'chunks without perfect hash', at);
  });

  it('a block past the end of the .ucas fails to read with a FormatError naming the .ucas', async () => {
    const dir = await makeTempDir();
    const bytes = patched(w.utocBytes, (_, b) => { b[blocksAt(w.utocBytes) + 4] = 0x02; }); // block 0 offset += 8 GiB
    await writeFile(join(dir, 'far.utoc'), bytes);
    await writeFile(join(dir, 'far.ucas'), await readFile(w.ucasPaths[0]!));
    const c = await openIoStoreContainer(join(dir, 'far.utoc'));
    const first = c.files().find((f) => c.storage(f.ref).offset === 0)!;
    await expect(c.readChunk(first.ref)).rejects.toThrow(FormatError);
    await expect(c.readChunk(first.ref)).rejects.toThrow(/far\.ucas.*at byte 8589934592/);
    await c.close();
  });

  it('a block that decodes short fails instead of returning garbage', async () => {
    const dir = await makeTempDir();
    const at = blocksAt(real);
    const src = corpus('iostore', 'isle_pakchunk334-Windows');
    // Entry 0's chunk is one stored block; shrink its stored size to 10 bytes.
    const bytes = new Uint8Array(await readFile(`${src}.utoc`));
    const toc = parseToc(bytes, 'x');
    const e0 = [...toc.blockMethods.keys()].find((b) => toc.blockMethods[b] === 0 && toc.blockUncompressedSizes[b]! > 100)!;
    const bad = patched(bytes, (_, b) => { b[at + e0 * 12 + 5] = 10; b[at + e0 * 12 + 6] = 0; b[at + e0 * 12 + 7] = 0; });
    await writeFile(join(dir, 'short.utoc'), bad);
    await writeFile(join(dir, 'short.ucas'), await readFile(`${src}.ucas`));
    const c = await openIoStoreContainer(join(dir, 'short.utoc'));
    const entry = [...Array(c.chunkCount).keys()].find((i) => Math.floor(c.toc.chunkOffsets[i]! / 65536) === e0)!;
    await expect(c.readChunk(entry)).rejects.toThrow(/compression blocks at byte \d+: block \d+ holds 10 bytes/);
    await c.close();
  });
});

describe('hostile directory index', () => {
  it('a damaged index inside a .utoc fails to open with "directory index" and the file offset', async () => {
    const dir = await makeTempDir();
    const toc = parseToc(real, 'x');
    const at = toc.directoryIndexOffset;
    // The directory count right after the mount point FString.
    const mountLen = new DataView(real.buffer, real.byteOffset).getInt32(at, true);
    const countAt = at + 4 + mountLen;
    await writeFile(join(dir, 'dir.utoc'), patched(real, (dv) => dv.setInt32(countAt, 0x7ffffff0, true)));
    const err = await openIoStoreContainer(join(dir, 'dir.utoc')).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.structure).toMatch(/^directory index/);
    expect(err.offset).toBe(countAt);
    expect(err.message).toContain('dir.utoc');
  });

  it('a cyclic index inside a .utoc fails to open instead of hanging', async () => {
    const dir = await makeTempDir();
    const toc = parseToc(real, 'x');
    const at = toc.directoryIndexOffset;
    const mountLen = new DataView(real.buffer, real.byteOffset).getInt32(at, true);
    const rootAt = at + 4 + mountLen + 4; // directory 0, after the count
    // The root's next sibling points back at the root.
    await writeFile(join(dir, 'cycle.utoc'), patched(real, (dv) => dv.setUint32(rootAt + 8, 0, true)));
    const err = await openIoStoreContainer(join(dir, 'cycle.utoc')).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toMatch(/cycle\.utoc: directory index: directory entries at byte \d+: directory 0's next sibling 0 was already visited/);
    expect(err.offset).toBe(rootAt + 8);
  });
});

function readDirSize(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(48, true);
}
