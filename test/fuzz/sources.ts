/**
 * What the fuzzer mutates: every corpus file a parser reads (by folder and extension), and
 * fixtures made by the project's writers (test/fixtures/toc-writer.ts, pak-writer.ts) for what
 * the corpus lacks. A source is named by text: "corpus:<path under the corpus>" or
 * "fixture:<preset>[/<file>]", so a recipe names it without holding its bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { ZenLayout } from '../../src/core/engine-versions.js';
import { CORPUS, CUE58_AES_KEY, REPAK_AES_KEY } from '../support/corpus.js';
import { compressibleBytes } from '../fixtures/test-data.js';
import { writeContainer, type TocWriterOptions, type WriterCodec } from '../fixtures/toc-writer.js';
import { writePak, type PakWriterFile, type PakWriterOptions } from '../fixtures/pak-writer.js';
import { writeUe12Package } from '../ue12/writer.js';

/** Which parsers a source goes through. */
export type SourceKind =
  | 'utoc' | 'ucas' | 'pak' | 'uasset' | 'zen' | 'container-header' | 'script-objects'
  | 'legacy-script-objects' | 'legacy-global-names' | 'legacy-global-name-hashes' | 'ue12' | 'oodle'
  | 'uexp' | 'usmap';

export interface Source {
  /** "corpus:iostore/x.utoc", "fixture:toc-v8-zlib-signed/test.ucas". */
  name: string;
  kind: SourceKind;
  /** Where the unmutated file is on disk. */
  path: string;
  /** Zen packages: the layout their engine wrote. */
  zenLayout?: ZenLayout;
  /** Cooked .uasset: the size of the .uexp beside it. */
  uexpSize?: number;
  /** Cooked .uasset (the .uexp beside it) or .uexp (the .uasset beside it): the other file of the pair. */
  pair?: string;
  /** Unversioned packages: the mappings (.usmap) their properties are read with. */
  mappings?: string;
}

/** The AES key of the writers' encrypted fixtures (32 bytes of 0x5a). */
export const FIXTURE_KEY = new Uint8Array(32).fill(0x5a);
const FIXTURE_KEY_HEX = `0x${Buffer.from(FIXTURE_KEY).toString('hex')}`;
/** Every key a source needs, as --aes-key arguments. */
export const FUZZ_AES_KEYS = [CUE58_AES_KEY, REPAK_AES_KEY, FIXTURE_KEY_HEX];

export function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

const ZEN_PREFIX_LAYOUT: Record<string, ZenLayout> = {
  zen427: ZenLayout.PackageSummary,
  zen54: ZenLayout.BulkDataMapPadding,
  zen55: ZenLayout.BulkDataMapPadding,
  zen56: ZenLayout.VerseCells,
};

/** Mappings for the unversioned packages of one game. */
const MAPPINGS_BY_PREFIX: Record<string, string> = {
  // Zstd-compressed: read where node:zlib has zstd (Node 22.15+, Electron), skipped on Node 20.
  uapi54: 'cooked/uapi54_BlankGame_Dumper-7.usmap',
};
const CUE58_MAPPINGS = 'cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap';

/** The kind of a corpus file, or null when no parser of PakScope reads it. */
function corpusKind(rel: string): SourceKind | null {
  const name = basename(rel);
  const lower = name.toLowerCase();
  if (lower.endsWith('.utoc')) return 'utoc';
  if (lower.endsWith('.ucas')) return 'ucas';
  if (lower.endsWith('.pak')) return 'pak';
  if (rel.startsWith('oodle/') && /\.(kraken|mermaid|selkie|leviathan)$/.test(lower)) return 'oodle';
  if (rel.startsWith('legacy/')) return 'ue12';
  if (rel.startsWith('headers/')) {
    if (lower.includes('containerheader')) return 'container-header';
    if (lower.includes('scriptobjects')) return 'script-objects';
    if (lower.includes('initialloadmeta')) return 'legacy-script-objects';
    if (lower.endsWith('loaderglobalnames.bin')) return 'legacy-global-names';
    if (lower.endsWith('loaderglobalnamehashes.bin')) return 'legacy-global-name-hashes';
    return null;
  }
  if (lower.endsWith('.uzenasset') || (rel.startsWith('cooked/zen') && lower.endsWith('.uasset'))) return 'zen';
  if (lower.endsWith('.usmap')) return 'usmap';
  if (lower.endsWith('.uexp')) return 'uexp';
  if (/\.(uasset|umap)$/.test(lower)) return 'uasset';
  return null;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Every corpus file a parser reads, sorted by path (the order seeds refer to). */
export function corpusSources(): Source[] {
  const out: Source[] = [];
  for (const path of listFiles(CORPUS)) {
    const rel = relative(CORPUS, path).split('\\').join('/');
    const kind = corpusKind(rel);
    if (!kind) continue;
    const s: Source = { name: `corpus:${rel}`, kind, path };
    if (kind === 'zen') {
      const prefix = basename(rel).split('_')[0]!;
      s.zenLayout = ZEN_PREFIX_LAYOUT[prefix] ?? ZenLayout.VerseCells;
    }
    if (kind === 'uasset') {
      const uexp = path.replace(/\.(uasset|umap)$/i, '.uexp');
      if (existsSync(uexp)) { s.uexpSize = statSync(uexp).size; s.pair = uexp; }
    }
    if (kind === 'uexp') {
      const header = ['.uasset', '.umap'].map((e) => path.replace(/\.uexp$/i, e)).find((p) => existsSync(p));
      if (!header) continue;
      s.pair = header;
    }
    const mappings = MAPPINGS_BY_PREFIX[basename(rel).split('_')[0]!];
    if (mappings && (kind === 'uasset' || kind === 'uexp' || kind === 'zen')) s.mappings = join(CORPUS, mappings);
    if (rel.startsWith('cue58/') && (kind === 'utoc' || kind === 'ucas' || kind === 'pak')) s.mappings = join(CORPUS, CUE58_MAPPINGS);
    out.push(s);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const files = (n: number, seed: number, size = 5000): { path: string; bytes: Uint8Array }[] =>
  Array.from({ length: n }, (_, i) => ({ path: `Game/Content/D${i % 3}/Sub${i % 2}/F${i}.uasset`, bytes: compressibleBytes(size + 97 * i, seed + i) }));

const mixedCodec = (f: number, b: number): WriterCodec => (['Zlib', 'None', 'LZ4', 'Gzip'] as const)[(f + b) % 4]!;

/** Container presets: TOC versions, codecs, partitions, signatures, encryption (AES-CTR IVs are random: left out). */
const TOC_PRESETS: Record<string, () => { files: ReturnType<typeof files>; opts: TocWriterOptions }> = {
  'toc-v1-none': () => ({ files: files(4, 1), opts: { version: 1, codec: 'None', blockSize: 4096 } }),
  'toc-v3-zlib-partitions': () => ({ files: files(6, 2, 30000), opts: { version: 3, codec: 'Zlib', blockSize: 4096, partitionSize: 8192, directoryIndex: true } }),
  'toc-v5-lz4-overflow': () => ({ files: files(8, 3), opts: { version: 5, codec: 'LZ4', blockSize: 4096, overflow: [1, 4] } }),
  'toc-v6-gzip-ondemand': () => ({ files: files(5, 4), opts: { version: 6, codec: 'Gzip', blockSize: 4096, onDemand: true } }),
  'toc-v8-mixed-signed': () => ({ files: files(9, 5, 7000), opts: { version: 8, codec: mixedCodec, blockSize: 4096, signed: true, overflow: [2] } }),
  'toc-v10-zlib-ecb': () => ({ files: files(6, 6), opts: { version: 10, codec: 'Zlib', blockSize: 4096, encryption: { key: FIXTURE_KEY, method: 'ecb' } } }),
};

const pakFiles = (n: number, seed: number, size = 3000): { name: string; data: Uint8Array }[] =>
  Array.from({ length: n }, (_, i) => ({ name: `D${i % 3}/S${i % 2}/f${i}.txt`, data: compressibleBytes(size + 131 * i, seed + i) }));

/** One path in four spellings that differ only by case, with different bytes, and a plain file. */
const caseCopies = (seed: number): PakWriterFile[] => [
  ...['Case/File.txt', 'case/file.txt', 'CASE/FILE.TXT', 'Case/file.TXT'].map((name, i) => ({ name, data: compressibleBytes(3000 + 977 * i, seed + i) })),
  { name: 'Other/plain.txt', data: compressibleBytes(2000, seed + 9) },
];

const PAK_PRESETS: Record<string, () => { files: PakWriterFile[]; opts: PakWriterOptions }> = {
  'pak-v1': () => ({ files: pakFiles(4, 11), opts: { version: 1 } }),
  'pak-v3-zlib-blocks': () => ({ files: pakFiles(5, 12, 9000), opts: { version: 3, compress: true, blockSize: 2048 } }),
  'pak-v6-deleted': () => ({ files: [...pakFiles(4, 13), { name: 'D0/gone.txt', data: new Uint8Array(0), deleted: true }], opts: { version: 6, compress: true } }),
  'pak-v8b-encrypted-index': () => ({ files: pakFiles(5, 14), opts: { version: 8, compress: true, encrypt: true, encryptIndex: true, key: FIXTURE_KEY } }),
  'pak-v10-gzip': () => ({ files: pakFiles(6, 15), opts: { version: 10, codec: 'Gzip', compress: true, blockSize: 2048 } }),
  'pak-v11-pruned': () => ({ files: pakFiles(6, 16), opts: { version: 11, compress: true, fullDirectoryIndex: false } }),
  'pak-v13-flat-utf16': () => ({ files: pakFiles(5, 17), opts: { version: 13, flatDirectoryIndex: true, utf16Names: true } }),
  // Paths that differ only by case (issue 25, 3): one wins as in the engine, the others stay visible.
  'pak-v3-case-copies': () => ({ files: caseCopies(19), opts: { version: 3, compress: true, blockSize: 2048 } }),
  'pak-v11-case-copies': () => ({ files: caseCopies(20), opts: { version: 11 } }),
  'pak-v15-ctr': () => ({ files: pakFiles(5, 18, 6000), opts: { version: 15, compress: true, encrypt: true, encryptIndex: true, key: FIXTURE_KEY, encryptionMethod: 'AES-CTR', blockSize: 2048 } }),
};

/** UE1/2 packages from test/ue12/writer.ts. */
const UE12_PRESETS: Record<string, () => Uint8Array> = {
  'ue12-small': () => writeUe12Package({
    version: 69,
    names: [{ name: 'Core' }, { name: 'Class' }, { name: 'Package' }, { name: 'Thing' }, { name: 'Sub' }],
    imports: [{ classPackage: 0, className: 2, outer: 0, objectName: 0 }, { classPackage: 0, className: 1, outer: -1, objectName: 1 }],
    exports: [
      { classIndex: -2, superIndex: 0, outer: 0, objectName: 3, data: [1, 2, 3, 4] },
      { classIndex: -2, superIndex: 0, outer: 1, objectName: 4, data: [5, 6] },
    ],
  }),
  // Hostile on purpose: 2000 exports, each the outer of the next, all named by one 250-character name.
  'ue12-deep-outer-chain': () => writeUe12Package({
    version: 69,
    names: [{ name: 'a'.repeat(250) }, { name: 'Core' }, { name: 'Class' }],
    imports: [],
    exports: Array.from({ length: 2000 }, (_, i) => ({ classIndex: 0, superIndex: 0, outer: i, objectName: 0 })),
  }),
};

/** Writes every fixture under `dir` (once per process) and returns them as sources. */
export async function fixtureSources(dir: string): Promise<Source[]> {
  const out: Source[] = [];
  for (const [preset, make] of Object.entries(TOC_PRESETS)) {
    const { files: fs, opts } = make();
    const d = join(dir, preset);
    await mkdir(d, { recursive: true });
    const w = await writeContainer(fs, { ...opts, dir: d, name: 'test' });
    out.push({ name: `fixture:${preset}/test.utoc`, kind: 'utoc', path: w.utocPath });
    for (const p of w.ucasPaths) out.push({ name: `fixture:${preset}/${basename(p)}`, kind: 'ucas', path: p });
  }
  for (const [preset, make] of Object.entries(PAK_PRESETS)) {
    const { files: fs, opts } = make();
    const d = join(dir, preset);
    await mkdir(d, { recursive: true });
    const path = join(d, 'test.pak');
    await writeFile(path, writePak(fs, opts).bytes);
    out.push({ name: `fixture:${preset}/test.pak`, kind: 'pak', path });
  }
  for (const [preset, make] of Object.entries(UE12_PRESETS)) {
    const d = join(dir, preset);
    await mkdir(d, { recursive: true });
    const path = join(d, 'test.u');
    await writeFile(path, make());
    out.push({ name: `fixture:${preset}/test.u`, kind: 'ue12', path });
  }
  return out;
}

/** Bytes of sources, read once. */
export class SourceBytes {
  private readonly cache = new Map<string, { bytes: Uint8Array; sha256: string }>();
  constructor(private readonly byName: ReadonlyMap<string, Source>) {}
  get(name: string): { bytes: Uint8Array; sha256: string } {
    let got = this.cache.get(name);
    if (!got) {
      const s = this.byName.get(name);
      if (!s) throw new Error(`fuzz: no source named ${name}`);
      const bytes = new Uint8Array(readFileSync(s.path));
      got = { bytes, sha256: sha256(bytes) };
      this.cache.set(name, got);
    }
    return got;
  }
}
