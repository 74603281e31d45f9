/**
 * Every IoStore container in corpus/iostore: header fields as MANIFEST.tsv records them, files from
 * the directory index, chunk types, perfect-hash lookups, and every chunk whose .ucas is present
 * read and checked against its stored hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { corpus } from '../support/corpus.js';
import { whenCodecsReady } from '../../src/core/codecs/registry.js';
import { openIoStoreContainer, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { parseToc } from '../../src/core/iostore/toc.js';
import { ContainerFlags, EncryptionMethod, TocVersion } from '../../src/core/iostore/toc-version.js';

interface Expect {
  file: string;
  version: number;
  entries: number;
  blocks: number;
  flags: number;
  codecs: Record<string, number>;
  containerId: string;
  files: number;
  mountPoint: string | null;
  types: Record<string, number>;
  seeds: number;
  withoutPerfectHash: number;
  /** A file: path, size, chunk id, sha256 prefix of its bytes (when readable). */
  sample?: { path: string; size: number; chunkId: string; sha256?: string };
  ucas: boolean;
}

const CONTAINERS: Expect[] = [
  {
    file: 'ue501_tog_global.utoc', version: 5, entries: 1, blocks: 26, flags: 0, codecs: { None: 26 },
    containerId: 'ffffffffffffffff', files: 0, mountPoint: null, types: { ScriptObjects: 1 }, seeds: 1,
    withoutPerfectHash: 0, ucas: true,
  },
  {
    file: 'ue501_tog_Colliderproject-Windows.utoc', version: 5, entries: 1803, blocks: 17998, flags: 0x9,
    codecs: { None: 3989, Oodle: 14009 }, containerId: 'a7533d90054f15ab', files: 1261, mountPoint: '../../../',
    types: { ExportBundleData: 892, BulkData: 366, ShaderCode: 541, OptionalBulkData: 1, ShaderCodeLibrary: 2, ContainerHeader: 1 },
    seeds: 902, withoutPerfectHash: 0, ucas: false,
    sample: { path: 'Colliderproject/Content/CustomMouse/Colliders_logo.uasset', size: 1000438, chunkId: 'c55ad26ed1c181ea00000001' },
  },
  {
    file: 'aws_global.utoc', version: 6, entries: 1, blocks: 33, flags: 0, codecs: { None: 33 },
    containerId: 'ffffffffffffffff', files: 0, mountPoint: null, types: { ScriptObjects: 1 }, seeds: 1,
    withoutPerfectHash: 0, ucas: true,
  },
  {
    file: 'wotn_global.utoc', version: 8, entries: 1, blocks: 41, flags: 0, codecs: { None: 41 },
    containerId: 'ffffffffffffffff', files: 0, mountPoint: null, types: { ScriptObjects: 1 }, seeds: 1,
    withoutPerfectHash: 0, ucas: true,
  },
  {
    file: 'm3d_android_MODEL_3D-Android_ASTC.utoc', version: 5, entries: 573, blocks: 1089, flags: 0x9,
    codecs: { None: 351, Oodle: 738 }, containerId: 'fd25282df3fb7ee7', files: 364, mountPoint: '../../../',
    types: { ExportBundleData: 342, ShaderCode: 208, BulkData: 20, ShaderCodeLibrary: 2, ContainerHeader: 1 },
    seeds: 287, withoutPerfectHash: 0, ucas: false,
    sample: { path: 'MODEL_3D/Content/fontes/inter2/Inter-Bold_Font.uasset', size: 359, chunkId: '7999226ab6d135e100000001' },
  },
  {
    file: 'isle_pakchunk333-Windows.utoc', version: 8, entries: 2, blocks: 2, flags: 0x9, codecs: { None: 1, Oodle: 1 },
    containerId: 'ceff427a32e82508', files: 1, mountPoint: '../../../TheIsle/Content/TheIsle/Core/Session/',
    types: { ExportBundleData: 1, ContainerHeader: 1 }, seeds: 1, withoutPerfectHash: 2, ucas: true,
    sample: {
      path: 'TheIsle/Content/TheIsle/Core/Session/BP_TIGameSession.uasset', size: 7509,
      chunkId: '1ee373f8e27ebc6100000001', sha256: '4a35c5eeb6ed07ea',
    },
  },
  {
    file: 'isle_pakchunk334-Windows.utoc', version: 8, entries: 12, blocks: 13, flags: 0x9, codecs: { None: 3, Oodle: 10 },
    containerId: 'e53425a46df9b0e1', files: 11, mountPoint: '../../../TheIsle/Content/OrionLabs/',
    types: { ExportBundleData: 11, ContainerHeader: 1 }, seeds: 6, withoutPerfectHash: 0, ucas: true,
    sample: {
      path: 'TheIsle/Content/OrionLabs/Pretzel/Spawners/BP_OLAISpawner.uasset', size: 71485,
      chunkId: '64712c7a3851616a00000001', sha256: '432ecf69c09cc67f',
    },
  },
  {
    file: 'isle_pakchunk55-Windows_P.utoc', version: 6, entries: 50, blocks: 50, flags: 0x9, codecs: { None: 45, Oodle: 5 },
    containerId: '23139b99b2d938f0', files: 49, mountPoint: '../../../TheIsle/Content/TheIsle/Core/Characters/Dinosaurs/',
    types: { ExportBundleData: 49, ContainerHeader: 1 }, seeds: 25, withoutPerfectHash: 0, ucas: true,
    sample: {
      path: 'TheIsle/Content/TheIsle/Core/Characters/Dinosaurs/Allosaurus/Attributes/ATT_Allosaurus_AttackPower.uasset',
      size: 515, chunkId: '1194689b1f4e498900000001', sha256: '775411db6955d6ba',
    },
  },
  {
    file: 'isle_pakchunk999-WindowsClient_P.utoc', version: 6, entries: 13, blocks: 14, flags: 0x8, codecs: { None: 14 },
    containerId: '943e1fc4578fa48e', files: 12, mountPoint: '../../../',
    types: { ExportBundleData: 12, ContainerHeader: 1 }, seeds: 0, withoutPerfectHash: 0, ucas: true,
    sample: {
      path: 'TheIsle/Content/Mods/BP_ModLoader.uasset', size: 3473, chunkId: 'b921763709134739' + '00000001',
      sha256: '5953e7885dfb1a23',
    },
  },
];

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(() => whenCodecsReady());

describe.each(CONTAINERS)('corpus/iostore/$file', (e) => {
  let c: IoStoreContainer;
  beforeAll(async () => { c = await openIoStoreContainer(corpus('iostore', e.file)); });
  afterAll(() => c?.close());

  it('has the header MANIFEST.tsv records', () => {
    const h = c.toc.header;
    expect(h.version).toBe(e.version);
    expect(h.headerSize).toBe(144);
    expect(h.entryCount).toBe(e.entries);
    expect(h.compressedBlockEntryCount).toBe(e.blocks);
    expect(h.compressionBlockSize).toBe(65536);
    expect(h.containerFlags).toBe(e.flags);
    expect(h.partitionCount).toBe(1);
    expect(h.partitionSize).toBe(Infinity);
    expect(h.containerId).toBe(e.containerId);
    expect(h.encryptionKeyGuid).toBe('0'.repeat(32));
    expect(h.encryptionMethod).toBe(EncryptionMethod.None);
    expect(h.perfectHashSeedsCount).toBe(e.seeds);
    expect(c.toc.chunksWithoutPerfectHash.length).toBe(e.withoutPerfectHash);
    expect(c.toc.trailingBytes).toBe(0);
    expect(c.toc.metaHashSize).toBe(e.version >= TocVersion.ReplaceIoChunkHashWithIoHash ? 20 : 32);
    const d = c.describe().fields;
    expect(d.Entries).toBe(e.entries);
    expect(d['Compressed blocks']).toBe(e.blocks);
    expect(d.Codecs).toBe(Object.entries(e.codecs).map(([k, n]) => `${k}: ${n}`).join(', '));
    expect(d['Container id']).toBe(e.containerId);
    expect(d.Encryption).toBe('None');
    expect(d.Signed).toBe(false);
    expect(d.Partitions).toBe(1);
  });

  it('lists the directory index files and chunk types', () => {
    const files = c.files();
    expect(files.length).toBe(e.files);
    expect(c.mountPoint).toBe(e.mountPoint ?? '');
    expect(c.describe().fields.Files).toBe(e.files);
    const types: Record<string, number> = {};
    for (let i = 0; i < c.chunkCount; i++) types[c.chunkTypeName(i)] = (types[c.chunkTypeName(i)] ?? 0) + 1;
    expect(types).toEqual(e.types);
    expect(c.entriesOfType('ContainerHeader').length).toBe(e.types.ContainerHeader ?? 0);
    // Every listed path is unique, relative and uses "/".
    expect(new Set(files.map((f) => f.path)).size).toBe(files.length);
    for (const f of files) {
      expect(f.path.startsWith('/') || f.path.startsWith('../') || f.path.includes('\\')).toBe(false);
      expect(f.size).toBe(c.toc.chunkLengths[f.ref]);
      expect(f.chunkId).toMatch(/^[0-9a-f]{24}$/);
    }
    if (e.sample) {
      const f = files.find((x) => x.path === e.sample!.path)!;
      expect(f).toBeDefined();
      expect(f.size).toBe(e.sample.size);
      expect(f.chunkId).toBe(e.sample.chunkId);
      expect(f.chunkType).toBe('ExportBundleData');
    }
  });

  it('finds every chunk by its id (perfect hash or map)', () => {
    for (let i = 0; i < c.chunkCount; i++) expect(c.findChunk(c.chunkIdHex(i))).toBe(i);
    expect(c.findChunk('00'.repeat(12))).toBeUndefined();
  });

  if (e.ucas) it('reads and verifies every chunk', async () => {
    expect(c.status).toEqual({ state: 'ok' });
    for (let i = 0; i < c.chunkCount; i++) {
      const check = await c.verifyChunk(i);
      expect(check.ok, `entry ${i}: ${JSON.stringify(check)}`).toBe(true);
      expect(check.algorithm).toBe('BLAKE3');
    }
    if (e.sample?.sha256) {
      const f = c.files().find((x) => x.path === e.sample!.path)!;
      expect(sha256(await c.read(f.ref)).slice(0, 16)).toBe(e.sample.sha256);
    }
  });

  else it('lists without its .ucas, with a warning, and reading names the missing file', async () => {
    expect(c.status.state).toBe('warning');
    expect(c.status.state === 'warning' && c.status.message).toContain(e.file.replace('.utoc', '.ucas'));
    await expect(c.readChunk(0)).rejects.toThrow(e.file.replace('.utoc', '.ucas'));
  });
});

describe('corpus/iostore details', () => {
  it('isle_pakchunk333 keeps both chunks in the overflow list (seed -3) and still finds them', async () => {
    const c = await openIoStoreContainer(corpus('iostore', 'isle_pakchunk333-Windows.utoc'));
    expect([...c.toc.perfectHashSeeds]).toEqual([-3]);
    expect([...c.toc.chunksWithoutPerfectHash]).toEqual([0, 1]);
    expect(c.findChunk('1ee373f8e27ebc6100000001')).toBe(0);
    expect(c.chunkTypeName(1)).toBe('ContainerHeader');
    expect(c.findChunk(c.chunkIdHex(1))).toBe(1);
    await c.close();
  });

  it('storage() reports blocks, codecs and the stored hash', async () => {
    const c = await openIoStoreContainer(corpus('iostore', 'isle_pakchunk334-Windows.utoc'));
    const f = c.files().find((x) => x.path.endsWith('BP_OLAISpawner.uasset'))!;
    const s = c.storage(f.ref);
    expect(s.size).toBe(71485);
    expect(s.offset % 65536).toBe(0);
    expect(s.codecs).toEqual({ Oodle: 2 });
    expect(s.compressedSize).toBeLessThan(s.size);
    expect(s.compressedSize).toBeGreaterThan(1000);
    expect(s.encrypted).toBe(false);
    expect(s.partitions).toEqual([0]);
    const check = await c.verifyChunk(f.ref);
    expect(s.storedHash).toBe(check.expected);
    await c.close();
  });

  it('readChunkRange reads only the covering blocks and matches the whole chunk', async () => {
    const c = await openIoStoreContainer(corpus('iostore', 'isle_pakchunk334-Windows.utoc'));
    const f = c.files().find((x) => x.path.endsWith('BP_OLAISpawner.uasset'))!;
    const whole = await c.readChunk(f.ref);
    for (const [off, len] of [[0, 16], [65530, 12], [65536, 100], [71000, 10000], [80000, 5]] as const) {
      const part = await c.readChunkRange(f.ref, off, len);
      expect(Buffer.from(part).equals(Buffer.from(whole.subarray(off, off + len)))).toBe(true);
    }
    // Zen package summaries start with the header size; cooked UE5.3+ chunks end with the package tag.
    expect(whole.subarray(whole.length - 4)).toEqual(Uint8Array.of(0xc1, 0x83, 0x2a, 0x9e));
    await c.close();
  });

  it('parses the 377 KB Colliderproject TOC (1803 entries, 17998 blocks)', async () => {
    const bytes = new Uint8Array(await readFile(corpus('iostore', 'ue501_tog_Colliderproject-Windows.utoc')));
    const toc = parseToc(bytes, 'ue501_tog_Colliderproject-Windows.utoc');
    expect(toc.blockMethods.filter((m) => m === 1).length).toBe(14009);
    expect(toc.header.containerFlags & ContainerFlags.Indexed).toBeTruthy();
    expect(toc.directoryIndex!.length).toBe(58888);
  });
});
