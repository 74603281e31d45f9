/**
 * The UE5.8 CUE4Parse fixtures: the same 97 packages and 14 bulk sidecars repacked as Uncompressed,
 * Zlib, Oodle, OodlePartitioned (X.ucas + X_s1..X_s4) and OodleEncrypted containers must list the
 * same files with the same bytes; the encrypted one needs the fixture key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CUE58_AES_KEY, corpus } from '../support/corpus.js';
import { whenCodecsReady } from '../../src/core/codecs/registry.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openIoStoreContainer, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';

const VARIANTS = ['Uncompressed', 'Zlib', 'Oodle', 'OodlePartitioned', 'OodleEncrypted'] as const;
const utoc = (v: string) => corpus('cue58', 'IoStore', 'Tagged', v, `CUE4ParseFixtures-Minimal-${v}-Windows.utoc`);
const keys = () => KeyRing.fromArgs([CUE58_AES_KEY]);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(() => whenCodecsReady());

describe('cue58 IoStore/Tagged variants', () => {
  const open: Record<string, IoStoreContainer> = {};
  /** variant -> path -> sha256 */
  const digests: Record<string, Map<string, string>> = {};

  beforeAll(async () => {
    for (const v of VARIANTS) open[v] = await openIoStoreContainer(utoc(v), { keys: keys() });
  });
  afterAll(async () => { for (const c of Object.values(open)) await c.close(); });

  it.each(VARIANTS)('%s: header, codecs and partitions', (v) => {
    const c = open[v]!;
    const h = c.toc.header;
    expect(c.status).toEqual({ state: 'ok' });
    expect(h.version).toBe(8);
    expect(h.entryCount).toBe(112);
    expect(h.compressedBlockEntryCount).toBe(135);
    expect(c.mountPoint).toBe('../../../CUE4ParseFixtures/Content/Fixtures/');
    const codecs = c.describe().fields.Codecs;
    expect(codecs).toBe({
      Uncompressed: 'None: 135', Zlib: 'None: 1, Zlib: 134', Oodle: 'None: 2, Oodle: 133',
      OodlePartitioned: 'None: 2, Oodle: 133', OodleEncrypted: 'None: 2, Oodle: 133',
    }[v]);
    expect(h.partitionCount).toBe(v === 'OodlePartitioned' ? 5 : 1);
    expect(h.partitionSize).toBe(v === 'OodlePartitioned' ? 262144 : Infinity);
    expect(c.describe().fields.Encryption).toBe(v === 'OodleEncrypted' ? 'AES-ECB' : 'None');
    expect(c.describe().fields.Flags).toBe({
      Uncompressed: 'Indexed', Zlib: 'Compressed, Indexed', Oodle: 'Compressed, Indexed',
      OodlePartitioned: 'Compressed, Indexed', OodleEncrypted: 'Compressed, Encrypted, Indexed',
    }[v]);
    expect(c.entriesOfType('ExportBundleData').length).toBe(97);
    expect(c.entriesOfType('BulkData').length).toBe(14);
    expect(c.entriesOfType('ContainerHeader').length).toBe(1);
  });

  it.each(VARIANTS)('%s: lists 111 files, reads and verifies every chunk', async (v) => {
    const c = open[v]!;
    const files = c.files();
    expect(files.length).toBe(111);
    const m = new Map<string, string>();
    for (const f of files) {
      const data = await c.read(f.ref);
      expect(data.length).toBe(f.size);
      m.set(f.path, sha256(data));
    }
    digests[v] = m;
    for (let i = 0; i < c.chunkCount; i++) {
      const check = await c.verifyChunk(i);
      expect(check.ok, `entry ${i}`).toBe(true);
    }
    const f = files.find((x) => x.path === 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset')!;
    expect(f.size).toBe(1721);
    expect(f.chunkId).toBe('e8620d51d9463ec000000001');
    expect(digests[v]!.get(f.path)!.slice(0, 16)).toBe('b1110fbd6227d18b');
  });

  it('all five variants hold the same files with the same bytes', () => {
    const base = digests.Uncompressed!;
    expect(base.size).toBe(111);
    for (const v of VARIANTS) expect(digests[v], v).toEqual(base);
  });

  it('the partitioned variant spreads its blocks over X.ucas and X_s1..X_s4', () => {
    const c = open.OodlePartitioned!;
    expect(c.partitionPaths.map((p) => p.split('/').pop())).toEqual([
      'CUE4ParseFixtures-Minimal-OodlePartitioned-Windows.ucas',
      ...[1, 2, 3, 4].map((i) => `CUE4ParseFixtures-Minimal-OodlePartitioned-Windows_s${i}.ucas`),
    ]);
    const used = new Set<number>();
    for (let i = 0; i < c.chunkCount; i++) for (const p of c.storage(i).partitions ?? []) used.add(p);
    expect([...used].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(c.describe().fields['Partition size']).toBe(262144);
  });

  it('the encrypted variant without a key is locked, with no files', async () => {
    const c = await openIoStoreContainer(utoc('OodleEncrypted'));
    expect(c.status.state).toBe('locked');
    expect(c.status.state === 'locked' && c.status.message).toMatch(/no AES key/);
    expect(c.files()).toEqual([]);
    expect(c.describe().fields.Entries).toBe(112);
    await expect(c.readChunk(0)).rejects.toThrow(/no AES key/);
    await c.close();
  });

  it('the encrypted variant with a wrong key is locked and says the key is wrong', async () => {
    const c = await openIoStoreContainer(utoc('OodleEncrypted'), { keys: KeyRing.fromArgs(['0x' + '42'.repeat(32)]) });
    expect(c.status.state).toBe('locked');
    expect(c.status.state === 'locked' && c.status.message).toMatch(/wrong key/);
    expect(c.files()).toEqual([]);
    await c.close();
  });

  it('skips keys bound to other GUIDs and finds the right key after a wrong one', async () => {
    const ring = KeyRing.fromArgs([
      '11111111222222223333333344444444:0x' + '42'.repeat(32),
      '0x' + '42'.repeat(32),
      CUE58_AES_KEY,
    ]);
    const c = await openIoStoreContainer(utoc('OodleEncrypted'), { keys: ring });
    expect(c.status).toEqual({ state: 'ok' });
    expect(c.files().length).toBe(111);
    await c.close();
  });
});

describe('cue58 global.utoc', () => {
  it('opens without a directory index and its ScriptObjects chunk verifies', async () => {
    const c = await openIoStoreContainer(corpus('cue58', 'IoStore', 'Tagged', 'global.utoc'));
    expect(c.status).toEqual({ state: 'ok' });
    expect(c.toc.header.version).toBe(8);
    expect(c.toc.directoryIndex).toBeNull();
    expect(c.files()).toEqual([]);
    expect(c.chunkCount).toBe(1);
    expect(c.chunkTypeName(0)).toBe('ScriptObjects');
    expect(c.toc.header.compressedBlockEntryCount).toBe(37);
    const data = await c.readChunk(0);
    expect(data.length).toBe(c.toc.chunkLengths[0]);
    expect(data.length).toBeGreaterThan(36 * 65536);
    const check = await c.verifyChunk(0);
    expect(check).toMatchObject({ ok: true, algorithm: 'BLAKE3' });
    expect(c.findChunk(c.chunkIdHex(0))).toBe(0);
    await c.close();
  });
});

describe('cue58 through the worker pool', () => {
  it('the Oodle and encrypted variants read the same bytes in worker threads as inline', async () => {
    const pool = createWorkerPool({ threads: 2 });
    try {
      for (const v of ['Oodle', 'OodleEncrypted', 'Zlib']) {
        const inline = await openIoStoreContainer(utoc(v), { keys: keys() });
        const pooled = await openIoStoreContainer(utoc(v), { keys: keys(), decoder: pool });
        const refs = inline.files().map((f) => f.ref).sort((a, b) => inline.chunkSize(b) - inline.chunkSize(a));
        expect(inline.chunkSize(refs[0]!)).toBeGreaterThan(5 * 65536); // several blocks in one call
        for (const ref of refs) {
          expect(sha256(await pooled.readChunk(ref))).toBe(sha256(await inline.readChunk(ref)));
          expect((await pooled.verifyChunk(ref)).ok).toBe(true);
        }
        await inline.close();
        await pooled.close();
      }
    } finally {
      await pool.destroy();
    }
  });
});
