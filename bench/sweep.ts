/**
 * A user's sweep of an install: every package opened as the app opens it (openPackage, its
 * properties), each asset the converter registry offers shown through its view's method and saved
 * in every format saveConversion takes, and the whole install exported with format 'convert'.
 * Every failure is listed with what the user would see; what counts as a defect (see `Failure.kind`):
 * an error that is neither a FormatError nor the backend's plain RequestError (a crash, a raw
 * stack), a FormatError whose message lacks its file/structure/offset, an empty output, a view
 * that reports nothing. The fast test (test/app/sweep.test.ts) runs it on the small installs;
 * `npx tsx bench/sweep.ts [--all]` on the whole corpus.
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Backend } from '../src/backend/backend.js';
import { RequestError } from '../src/backend/request-error.js';
import { FormatError } from '../src/core/errors.js';
import type { ApiEvent, ExportResult } from '../src/shared/api.js';
import type { AssetRequest, ConversionFormat, PackageAsset } from '../src/shared/asset-api.js';
import { FONT_CONVERSION_FORMATS, SOUND_CONVERSION_FORMATS } from '../src/shared/asset-api.js';
import { isPackageFileName } from '../src/shared/package-api.js';

/** One install of the corpus: a folder or file, its keys and mappings. */
export interface SweepInstall {
  path: string;
  aesKeys?: string[];
  mappings?: string;
  /** Peers (CUE4Parse) read every package of it: any error on it is a defect. */
  peersReadAll?: boolean;
}

export interface Failure {
  install: string;
  /** Package path, and the step ("openPackage", "textureInfo #2", "save png #2", "export"). */
  path: string;
  step: string;
  /**
   * crash: an error that is not a FormatError/RequestError (TypeError, RangeError, ...);
   * unplaced: a FormatError (or message) without file/structure/offset;
   * refused: a FormatError/RequestError on a file peers read fine;
   * empty: an output of no bytes or a view with nothing in it.
   * expected: a FormatError/RequestError on a file no peer claims to read (listed, not a defect).
   */
  kind: 'crash' | 'unplaced' | 'refused' | 'empty' | 'expected';
  message: string;
}

export interface SweepResult {
  packages: number;
  /** Plain files with a view of their own (a .locres, AssetRegistry.bin, a .wem) that answered. */
  fileViews: number;
  assets: number;
  views: number;
  saves: number;
  failures: Failure[];
}

/** Tabs whose Save buttons call saveConversion (a level's or a composite font's files come from the export). */
const SAVING_VIEWS: ReadonlySet<string> = new Set(['texture', 'sound', 'mesh', 'animation', 'midi', 'sprite', 'landscape']);

const SAVE_FORMATS: ReadonlySet<string> = new Set<ConversionFormat>(['png', 'dds', 'hdr', 'glb', 'mid', ...SOUND_CONVERSION_FORMATS, ...FONT_CONVERSION_FORMATS]);

/** The backend method each preview tab calls (PackageView.svelte's views). */
const VIEW_METHODS: Record<string, (b: Backend, req: AssetRequest) => Promise<unknown>> = {
  texture: (b, r) => b.textureInfo(r),
  sound: (b, r) => b.soundInfo(r),
  soundcue: (b, r) => b.soundCue(r),
  mesh: (b, r) => b.meshInfo(r),
  animation: (b, r) => b.animInfo(r),
  table: (b, r) => b.assetTable(r),
  material: (b, r) => b.materialInfo(r),
  sprite: (b, r) => b.spriteInfo(r),
  midi: (b, r) => b.midiInfo(r),
  font: (b, r) => b.fontInfo(r),
  level: (b, r) => b.levelInfo(r),
  metasound: (b, r) => b.metaSoundInfo(r),
  niagara: (b, r) => b.niagaraInfo(r),
  sequence: (b, r) => b.sequenceInfo(r),
  landscape: (b, r) => b.landscapeInfo(r),
  text: (b, r) => b.assetText(r),
  script: (b, r) => b.assetText(r),
};

/** The backend method each plain file's view calls (FileViewer.svelte's views, by fileDetails' view). */
const FILE_VIEW_METHODS: Record<string, (b: Backend, installId: string, path: string) => Promise<unknown>> = {
  sound: (b, installId, path) => b.soundInfo({ installId, path }),
  localization: (b, installId, path) => b.localization({ installId, path }),
  font: (b, installId, path) => b.fontInfo({ installId, path }),
  registry: (b, installId, path) => b.assetRegistry({ installId, path }),
  soundbank: (b, installId, path) => b.soundBank({ installId, path }),
};

/** What a failure is, from the error the backend threw. */
export function classify(e: unknown, peersReadAll: boolean): { kind: Failure['kind']; message: string } {
  const err = e instanceof Error ? e : new Error(String(e));
  const message = err instanceof FormatError || err instanceof RequestError ? err.message : `${err.name}: ${err.message}\n${(err.stack ?? '').split('\n').slice(1, 4).join('\n')}`;
  if (err instanceof FormatError) {
    const placed = err.file !== '' && err.structure !== '' && Number.isFinite(err.offset) && err.offset >= 0;
    if (!placed) return { kind: 'unplaced', message };
    return { kind: peersReadAll ? 'refused' : 'expected', message };
  }
  // A file the install names but the disk lacks (a .utoc without its .ucas): the system error's plain
  // message; a defect only where peers read the whole install (then the app looked in the wrong place).
  if ((err as { code?: unknown }).code === 'ENOENT') return { kind: peersReadAll ? 'refused' : 'expected', message: err.message };
  if (err instanceof RequestError) {
    // A request error wraps what the user sees; one that is a parse failure should still say where.
    return { kind: peersReadAll ? 'refused' : 'expected', message };
  }
  return { kind: 'crash', message };
}

/** A view's answer says something: an object with at least one non-empty field. */
function saysSomething(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'object') return true;
  return Object.values(v as Record<string, unknown>).some((x) => x !== null && x !== undefined && x !== '' && !(Array.isArray(x) && x.length === 0));
}

async function listFiles(b: Backend, installId: string, path = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await b.listDir({ installId, path })) {
    if (e.isDir) out.push(...await listFiles(b, installId, e.path));
    else out.push(e.path);
  }
  return out;
}

async function runExport(b: Backend, installId: string, destination: string): Promise<ExportResult> {
  let result: ExportResult | undefined;
  const off = b.onEvent((e: ApiEvent) => {
    if (e.type === 'export-done') result = e.result;
  });
  try {
    const started = await b.startExport({ installId, paths: [''], destination, format: 'convert', output: 'folder', conflict: 'skip' });
    const t0 = Date.now();
    while (!result || result.exportId !== started.exportId) {
      if (Date.now() - t0 > 120_000) throw new Error('export did not finish in 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    return result;
  } finally {
    off();
  }
}

/** Sweeps one install (see the file comment); `filter` keeps the packages whose path includes it. */
export async function sweepInstall(inst: SweepInstall, opts: { filter?: string; exportAll?: boolean } = {}): Promise<SweepResult> {
  const configDir = await mkdtemp(join(tmpdir(), 'pakscope-sweep-'));
  const out = join(configDir, 'out');
  await mkdir(out);
  const backend = new Backend({
    configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null },
    info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true,
  });
  const res: SweepResult = { packages: 0, fileViews: 0, assets: 0, views: 0, saves: 0, failures: [] };
  const peers = inst.peersReadAll ?? false;
  const fail = (path: string, step: string, e: unknown): void => {
    res.failures.push({ install: inst.path, path, step, ...classify(e, peers) });
  };
  try {
    let installId: string;
    try {
      installId = (await backend.openInstall({ path: inst.path, aesKeys: inst.aesKeys, confirmed: true })).id;
    } catch (e) {
      fail(inst.path, 'openInstall', e);
      return res;
    }
    if (inst.mappings) await backend.setMappings({ installId, path: inst.mappings, confirmed: true });
    const all = await listFiles(backend, installId);
    const files = all.filter((p) => isPackageFileName(p.slice(p.lastIndexOf('/') + 1).toLowerCase()));
    for (const path of all) {
      if (files.includes(path) || (opts.filter && !path.includes(opts.filter))) continue;
      try {
        const view = (await backend.fileDetails({ installId, path })).view;
        if (!view) continue;
        const method = FILE_VIEW_METHODS[view];
        if (!method) {
          res.failures.push({ install: inst.path, path, step: view, kind: 'empty', message: `no backend method for the "${view}" file view` });
          continue;
        }
        const v = await method(backend, installId, path);
        res.fileViews++;
        if (!saysSomething(v)) res.failures.push({ install: inst.path, path, step: view, kind: 'empty', message: 'the view answered nothing' });
      } catch (e) {
        fail(path, 'file view', e);
      }
    }
    let n = 0;
    for (const path of files) {
      if (opts.filter && !path.includes(opts.filter)) continue;
      res.packages++;
      let assets: PackageAsset[];
      try {
        const view = await backend.openPackage({ installId, path });
        assets = view.assets;
        if (view.model.exports.length === 0 && view.totals.exports === 0) res.failures.push({ install: inst.path, path, step: 'openPackage', kind: 'empty', message: 'no exports' });
      } catch (e) {
        fail(path, 'openPackage', e);
        continue;
      }
      try {
        await backend.packageProperties({ installId, path });
      } catch (e) {
        fail(path, 'packageProperties', e);
      }
      for (const a of assets) {
        res.assets++;
        const req: AssetRequest = { installId, path, exportIndex: a.exportIndex };
        const method = VIEW_METHODS[a.view];
        const where = `${a.view} #${a.exportIndex} ${a.name} (${a.class})`;
        // What the tab offers: the view's own list where it narrows the kind's (a DXT texture has no .hdr).
        let offered = a.converts;
        if (!method) {
          res.failures.push({ install: inst.path, path, step: where, kind: 'empty', message: `no backend method for the "${a.view}" view` });
        } else {
          try {
            const v = await method(backend, req);
            res.views++;
            const narrowed = (v as { converts?: unknown }).converts;
            if (Array.isArray(narrowed)) offered = narrowed as string[];
            if (!saysSomething(v)) res.failures.push({ install: inst.path, path, step: where, kind: 'empty', message: 'the view answered nothing' });
          } catch (e) {
            fail(path, where, e);
          }
        }
        for (const format of offered) {
          if (!SAVING_VIEWS.has(a.view) || !SAVE_FORMATS.has(format)) continue; // json, csv, ...: the export below writes them
          const destination = join(out, `${n++}.${format}`);
          try {
            const saved = await backend.saveConversion({ ...req, format: format as ConversionFormat, destination, conflict: 'overwrite' });
            res.saves++;
            const size = (await stat(saved.path)).size;
            if (size === 0) res.failures.push({ install: inst.path, path, step: `save ${format} #${a.exportIndex}`, kind: 'empty', message: 'wrote 0 bytes' });
          } catch (e) {
            fail(path, `save ${format} #${a.exportIndex} ${a.name}`, e);
          }
        }
      }
    }
    if (opts.exportAll !== false) {
      try {
        const ex = await runExport(backend, installId, join(out, 'export'));
        for (const f of ex.failed) {
          // The export records messages only: one that names no byte offset is unplaced.
          const kind: Failure['kind'] = /at byte \d+| does not exist$/.test(f.error) ? (peers ? 'refused' : 'expected') : (peers ? 'refused' : 'unplaced');
          res.failures.push({ install: inst.path, path: f.path, step: 'export convert', kind, message: f.error });
        }
      } catch (e) {
        fail(inst.path, 'export convert', e);
      }
    }
  } finally {
    await backend.close();
    await rm(configDir, { recursive: true, force: true });
  }
  return res;
}

const CORPUS = new URL('../../shared/corpus/', import.meta.url).pathname;
const CUE58_KEY = '0x435545345061727365466978747572654145534b657930313233343536373839';
const REPAK_KEY = 'lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=';
const c = (p: string): string => join(CORPUS, p);

/** The installs of the fast test: cue58's Zlib installs and the small loose files. */
export const FAST_INSTALLS: SweepInstall[] = [
  { path: c('cue58/IoStore/Tagged/Zlib'), peersReadAll: true },
  { path: c('cue58/IoStore/Unversioned/Zlib'), mappings: c('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), peersReadAll: true },
  { path: c('legacy') },
  { path: c('cue58/Pak/Uncompressed'), aesKeys: [CUE58_KEY], peersReadAll: true },
];

/** Every install of the corpus (MANIFEST.tsv's keys). */
export const ALL_INSTALLS: SweepInstall[] = [
  ...['Uncompressed', 'Zlib', 'Oodle', 'OodleEncrypted', 'OodlePartitioned'].map((v) => ({ path: c(`cue58/IoStore/Tagged/${v}`), aesKeys: [CUE58_KEY], peersReadAll: true })),
  { path: c('cue58/IoStore/Unversioned/Zlib'), mappings: c('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), peersReadAll: true },
  ...['Uncompressed', 'Zlib', 'Oodle', 'OodleEncrypted'].map((v) => ({ path: c(`cue58/LegacyPak/Tagged/${v}`), aesKeys: [CUE58_KEY], peersReadAll: true })),
  { path: c('cue58/LegacyPak/Unversioned/Zlib'), mappings: c('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), peersReadAll: true },
  { path: c('cue58/Pak/Uncompressed'), aesKeys: [CUE58_KEY], peersReadAll: true },
  { path: c('cue58/Pak/Oodle'), aesKeys: [CUE58_KEY], peersReadAll: true },
  { path: c('cue58/Patch/IoStore'), aesKeys: [CUE58_KEY], peersReadAll: true },
  { path: c('cue58/Patch/Pak'), aesKeys: [CUE58_KEY], peersReadAll: true },
  { path: c('cue58/AndroidPak'), aesKeys: [CUE58_KEY], peersReadAll: true },
  { path: c('legacy') },
  { path: c('cooked') },
  { path: c('uncooked') },
  { path: c('pak'), aesKeys: [REPAK_KEY] },
  { path: c('iostore') },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const all = args.includes('--all');
  const only = args.find((a) => a.startsWith('--only='))?.slice(7);
  const installs = (all ? ALL_INSTALLS : FAST_INSTALLS).filter((i) => !only || i.path.includes(only));
  const byKind = new Map<string, number>();
  for (const inst of installs) {
    const t0 = Date.now();
    const r = await sweepInstall(inst);
    console.log(`\n== ${inst.path.slice(CORPUS.length)}: ${r.packages} packages, ${r.fileViews} file views, ${r.assets} assets, ${r.views} views, ${r.saves} saves, ${r.failures.length} failures (${Date.now() - t0} ms)`);
    for (const f of r.failures) {
      byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
      console.log(`  [${f.kind}] ${f.path} · ${f.step}\n      ${f.message.replace(/\n/g, '\n      ')}`);
    }
  }
  console.log(`\nfailures by kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) await main();
