// The package index: names from paths (folder by folder, through the game path mapping), one
// package per name case-insensitively (the first path in path order wins), ids from chunk ids or
// name hashes; on a synthetic file list with the cases that matter, then on a real IoStore install.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveFile } from '../../src/core/archive.js';
import { hexWords, packageIdFromName } from '../../src/core/hash/cityhash64.js';
import { mountPathToPackageName, pluginMounts } from '../../src/core/install/game-path.js';
import { openInstall, type DirListingEntry, type FileVisit, type Install, type VfsFile } from '../../src/core/install/install.js';
import { chunkTypeValue } from '../../src/core/iostore/chunk-type.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { isUAssetFileName, isUe12FileName, withoutExtension } from '../../src/core/package/package-files.js';
import {
  PackageIndex, packageIdHighOfChunkId, packageIdLowOfChunkId, packageIdOfChunkId, type PackageKind,
} from '../../src/core/package/package-index.js';
import { corpus } from '../support/corpus.js';

/** A file of a fake install; `chunk` makes it an IoStore file of that chunk type (id from the path). */
function file(path: string, chunk?: 'ExportBundleData' | 'BulkData'): VfsFile {
  const chunkId = chunk ? packageChunkId(path) : undefined;
  const f = { path, size: 1, ref: 0, ...(chunk ? { chunkType: chunk, chunkId } : {}) } as ArchiveFile;
  return { path, size: 1, providers: [{ archive: {} as never, file: f }] };
}

/** A chunk id whose package id is the path's hash (bytes little-endian), type 1. */
function packageChunkId(path: string): string {
  const id = packageIdFromName(path);
  return `${id.match(/../g)!.reverse().join('')}00000001`;
}

/**
 * An install that only lists its files, in path order, and a folder's files (all PackageIndex.build
 * asks of it). Its IoStore files are entries of one stand-in container whose TOC holds their chunk
 * ids, as visitFiles hands the winner's archive and entry, not a file object.
 */
function fakeInstall(paths: VfsFile[]): Install {
  const sorted = [...paths].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const listDir = (dir: string): DirListingEntry[] => sorted
    .filter((f) => f.path.slice(0, Math.max(0, f.path.lastIndexOf('/'))).toLowerCase() === dir.toLowerCase())
    .map((f) => ({ name: f.path.slice(f.path.lastIndexOf('/') + 1), path: f.path, isDir: false, size: 1, fileCount: 1, file: f }));
  const version = 3;
  const chunks = sorted.filter((f) => f.providers[0]!.file.chunkId !== undefined);
  const chunkIds = new Uint8Array(12 * chunks.length);
  chunks.forEach((f, i) => {
    const w = f.providers[0]!.file;
    chunkIds.set(Buffer.from(w.chunkId!, 'hex'), 12 * i);
    chunkIds[12 * i + 11] = chunkTypeValue(version, w.chunkType!)!;
  });
  const container = Object.assign(Object.create(IoStoreContainer.prototype) as IoStoreContainer,
    { toc: { header: { version, entryCount: chunks.length }, chunkIds } });
  const visitFiles = (visit: (v: FileVisit) => void): void => {
    sorted.forEach((f, id) => {
      const slash = f.path.lastIndexOf('/');
      const chunk = chunks.indexOf(f);
      visit({ folder: slash < 0 ? '' : f.path.slice(0, slash), name: f.path.slice(slash + 1), id,
        archive: chunk < 0 ? f.providers[0]!.archive : container, ref: chunk < 0 ? 0 : chunk });
    });
  };
  return { files: () => sorted, listDir, visitFiles, filesById: () => (id: number) => sorted[id]! } as unknown as Install;
}

/** The index as PakScope built it before (a name per file through mountPathToPackageName, a Map of lowercased names). */
function reference(install: Install): [string, PackageKind, string][] {
  const files = [...install.files()];
  const plugins = pluginMounts(files.map((f) => f.path));
  const seen = new Map<string, [string, PackageKind, string]>();
  for (const f of files) {
    const w = f.providers[0]!.file;
    let d: [string | undefined, PackageKind] | undefined;
    if (w.chunkType !== undefined) d = w.chunkType === 'ExportBundleData' ? [mountPathToPackageName(f.path, plugins), 'zen'] : undefined;
    else if (isUAssetFileName(f.path)) d = [mountPathToPackageName(f.path, plugins), 'uasset'];
    else if (isUe12FileName(f.path)) d = [withoutExtension(f.path.slice(f.path.lastIndexOf('/') + 1)), 'ue12'];
    if (d?.[0] === undefined) continue;
    if (!seen.has(d[0].toLowerCase())) seen.set(d[0].toLowerCase(), [d[0], d[1], f.path]);
  }
  return [...seen.values()];
}

const FILES = [
  file('Game/Content/Maps/A.umap'),
  file('Game/Content/Maps/a.uasset'), // /Game/Maps/a: the same name but for case, a later path: left out
  file('Game/Content/Maps/A.B.uasset'), // /Game/Maps/A.B: only the last extension goes
  file('Game/Content/Maps/Sub/C.uasset'), // a subfolder's files come between the folder's own
  file('Game/Content/Maps/Z.uasset'),
  file('Game/Content/Content/Deep/D.uasset'), // only the first Content folder is the mount's
  file('Game/Content/Maps/.uasset'), // no name before the extension: not a package file
  file('Game/Content/Maps/notes.txt'),
  file('Other/Content/Maps/A.uasset'), // /Game/Maps/A again from another project: left out
  file('Game/Config/DefaultGame.uasset'), // outside any Content folder
  file('Content/Top.uasset'), // nothing above Content to name the mount
  file('Engine/Content/Fonts/Roboto.uasset'),
  file('Game/Plugins/Interchange/Runtime/Interchange.uplugin'),
  file('Game/Plugins/Interchange/Runtime/Content/Pipelines/P.uasset'), // /Interchange/... by the .uplugin
  file('Game/Plugins/GameFeatures/Bar/Content/B.uasset'), // /Bar/B by the folder
  file('Game/Plugins/Two/A.uplugin'),
  file('Game/Plugins/Two/B.uplugin'), // of two descriptors, the last in path order names the mount
  file('Game/Plugins/Two/Content/T.uasset'),
  file('Game/Content/Zen/Z1.uasset', 'ExportBundleData'),
  file('Game/Content/Zen/Z1.ubulk', 'BulkData'),
  file('Game/Content/Zen/Z2.umap', 'ExportBundleData'),
  file('Game/Content/Ünï/Ça.uasset'),
  file('Game/Content/ünï/ça.umap'), // the same name lowercased (beyond ASCII): left out
  file('Game/Content/K/key.umap'),
  file('Game/Content/K/\u212Aey.uasset'), // KELVIN SIGN lowercases to "k": the same name, a later path
  file('System/Botpack.u'),
  file('Maps/DM-Deck16.unr'),
];

describe('PackageIndex on a synthetic install', () => {
  const install = fakeInstall(FILES);
  const index = PackageIndex.build(install);
  const listed = (ix: PackageIndex): [string, PackageKind, string][] => [...ix.packages()].map((p) => [p.name, p.kind, p.file.path]);

  it('names every package file as the path mapping does, once per name, in path order', () => {
    expect(listed(index)).toEqual(reference(install));
    expect(listed(index)).toEqual([
      ['/Engine/Fonts/Roboto', 'uasset', 'Engine/Content/Fonts/Roboto.uasset'],
      ['/Game/Content/Deep/D', 'uasset', 'Game/Content/Content/Deep/D.uasset'],
      ['/Game/K/key', 'uasset', 'Game/Content/K/key.umap'],
      ['/Game/Maps/A.B', 'uasset', 'Game/Content/Maps/A.B.uasset'],
      ['/Game/Maps/A', 'uasset', 'Game/Content/Maps/A.umap'],
      ['/Game/Maps/Sub/C', 'uasset', 'Game/Content/Maps/Sub/C.uasset'],
      ['/Game/Maps/Z', 'uasset', 'Game/Content/Maps/Z.uasset'],
      ['/Game/Zen/Z1', 'zen', 'Game/Content/Zen/Z1.uasset'],
      ['/Game/Zen/Z2', 'zen', 'Game/Content/Zen/Z2.umap'],
      ['/Game/Ünï/Ça', 'uasset', 'Game/Content/Ünï/Ça.uasset'],
      ['/Bar/B', 'uasset', 'Game/Plugins/GameFeatures/Bar/Content/B.uasset'],
      ['/Interchange/Pipelines/P', 'uasset', 'Game/Plugins/Interchange/Runtime/Content/Pipelines/P.uasset'],
      ['/B/T', 'uasset', 'Game/Plugins/Two/Content/T.uasset'],
      ['DM-Deck16', 'ue12', 'Maps/DM-Deck16.unr'],
      ['Botpack', 'ue12', 'System/Botpack.u'],
    ]);
    expect(index.size).toBe(15);
  });

  it('finds packages by name whatever the case (as toLowerCase compares), by file and by id', () => {
    expect(index.byPackageName('/game/maps/a')!.file.path).toBe('Game/Content/Maps/A.umap');
    expect(index.byPackageName('/GAME/ÜNÏ/ÇA')!.name).toBe('/Game/Ünï/Ça');
    expect(index.byPackageName('/Game/K/\u212AEY')!.name).toBe('/Game/K/key');
    expect(index.byPackageName('botpack')!.kind).toBe('ue12');
    expect(index.byPackageName('/Game/Maps/Nope')).toBeUndefined();
    const byPath = (p: string): VfsFile => FILES.find((f) => f.path === p)!;
    expect(index.ofFile(byPath('Game/Content/Maps/Sub/C.uasset'))!.name).toBe('/Game/Maps/Sub/C');
    expect(index.ofFile(byPath('Game/Content/Maps/a.uasset'))).toBeUndefined(); // its name went to A.umap
    expect(index.ofFile(byPath('Game/Content/Zen/Z1.ubulk'))).toBeUndefined();
    // An IoStore package's id is its chunk id's; a classic one's the hash of its name.
    const z1 = index.byPackageName('/Game/Zen/Z1')!;
    expect(z1.id).toBe(packageIdFromName('Game/Content/Zen/Z1.uasset'));
    expect(index.byPackageId(z1.id.toUpperCase())).toBe(z1);
    expect(index.byPackageName('/Game/Maps/Z')!.id).toBe(packageIdFromName('/Game/Maps/Z'));
    expect(index.nameOf(packageIdFromName('/game/maps/z'))).toBe('/Game/Maps/Z');
  });

  it('answers for package i without making its object, and refuses an i it does not have', () => {
    const i = [...index.packages()].findIndex((p) => p.name === '/Game/Zen/Z2');
    const z2 = packageIdFromName('Game/Content/Zen/Z2.umap');
    expect([index.nameAt(i), index.kindAt(i), index.idHighAt(i), index.idLowAt(i)]).toEqual(['/Game/Zen/Z2', 'zen', parseInt(z2.slice(0, 8), 16), parseInt(z2.slice(8), 16)]);
    expect(index.at(i)).toBe(index.at(i));
    expect(index.at(i).id).toBe(z2);
    // A classic package's words are its name's hash.
    const roboto = packageIdFromName('/Engine/Fonts/Roboto');
    expect([index.kindAt(0), index.idHighAt(0), index.idLowAt(0)]).toEqual(['uasset', parseInt(roboto.slice(0, 8), 16), parseInt(roboto.slice(8), 16)]);
    expect(() => index.nameAt(15)).toThrow(RangeError);
    expect(() => index.at(-1)).toThrow(RangeError);
  });

  it('builds the same index in steps (buildAsync) over more files than one step takes', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => file(`Game/Content/F${(i % 17_000) % 300}/P${i % 17_000}.${i < 17_000 ? 'uasset' : 'umap'}`));
    const big = fakeInstall(many);
    const stepped = await PackageIndex.buildAsync(big);
    expect(stepped.size).toBe(17_000); // the .umap copies of P0..P2999 are left out
    const text = (rows: [string, PackageKind, string][]): string => rows.join('\n');
    expect(text(listed(stepped))).toBe(text(listed(PackageIndex.build(big))));
    expect(text(listed(stepped))).toBe(text(reference(big)));
  });
});

describe('package ids of chunk ids', () => {
  it('reads the first 8 bytes little-endian, as a string or as its two words', () => {
    const chunkId = '0123456789abcdef00000001';
    expect(packageIdOfChunkId(chunkId)).toBe('efcdab8967452301');
    expect(packageIdHighOfChunkId(chunkId)).toBe(0xefcdab89);
    expect(packageIdLowOfChunkId(chunkId)).toBe(0x67452301);
    expect(packageIdHighOfChunkId('FFEEDDCCBBAA998800000002')).toBe(0x8899aabb);
  });
});

describe('PackageIndex on cue58 (IoStore)', () => {
  let install: Install;
  beforeAll(async () => { install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')]); });
  afterAll(async () => { await install.close(); });

  it('holds every ExportBundleData file under its path\'s name and its chunk\'s package id', () => {
    const index = PackageIndex.build(install);
    expect(index.size).toBe(97);
    expect([...index.packages()].map((p) => [p.name, p.kind, p.file.path])).toEqual(reference(install));
    for (let i = 0; i < index.size; i++) {
      const p = index.at(i);
      expect(p.id).toBe(packageIdOfChunkId(p.file.providers[0]!.file.chunkId!));
      expect(p.id).toBe(packageIdFromName(p.name)); // cooked from these names
      expect(hexWords(index.idHighAt(i), index.idLowAt(i))).toBe(p.id);
    }
    expect(index.byPackageName('/game/fixtures/properties/da_allproperties')!.id).toBe('cdb15c9250e9af86');
  });
});
