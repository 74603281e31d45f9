/**
 * Runs one fuzz recipe: rebuilds the mutated bytes from the source and the mutations, then runs
 * every parser that reads that kind of file (and, when the recipe asks, the CLI in a child
 * process). A step passes when it succeeds or fails with the project's own input errors
 * (isInputError); anything else, a step over the time limit, or a worker pool that does not
 * recover is a failure.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Archive } from '../../src/core/archive.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { isInputError } from '../../src/core/errors.js';
import { PackageJsonConverter } from '../../src/core/export/package-json.js';
import { zenToPackageModel } from '../../src/core/package/zen-model.js';
import { buildDependencyGraph } from '../../src/core/graph/build-graph.js';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { parseContainerHeader } from '../../src/core/iostore/container-header.js';
import { openIoStoreContainer, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { parseToc } from '../../src/core/iostore/toc.js';
import { parseClassicPackageModel, type PackageModel } from '../../src/core/package-model.js';
import { openPakArchive, type PakArchive } from '../../src/core/pak/pak-archive.js';
import { inlineDecoder, type BlockDecoder, type BlockJob } from '../../src/core/workers/block-job.js';
import type { WorkerPool } from '../../src/core/workers/pool.js';
import { resolvePackage } from '../../src/core/zen/resolve.js';
import {
  parseLegacyScriptObjects, parseScriptObjects, scriptObjectPath, type ScriptObjects,
} from '../../src/core/zen/script-objects.js';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import { installPackageProperties } from '../../src/core/properties/open.js';
import { uassetProperties, zenProperties } from '../../src/core/properties/package.js';
import { ue12Properties } from '../../src/core/properties/ue12.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import { parseUsmap } from '../../src/core/usmap/parse.js';
import type { Usmap } from '../../src/core/usmap/types.js';
import { applyMutations, Rng, type Mutation } from './mutate.js';
import { FUZZ_AES_KEYS, SourceBytes, type Source } from './sources.js';

export const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(PROJECT, 'bin', 'pakscope.mjs');

/** `info-package` is `info <path> <package>`; cat, deps, props and info-package name a file or package of the unmutated container. */
export type CliCommand = 'ls' | 'tree' | 'info' | 'info-package' | 'verify' | 'cat' | 'deps' | 'props';

/** One regression case: never the bytes, only how to make them from a source. */
export interface Recipe {
  /** "corpus:<path>" or "fixture:<preset>/<file>". */
  source: string;
  /** Of the unmutated source; a replay on other bytes is reported, not trusted. */
  sha256: string;
  seed: number;
  mutations: Mutation[];
  /** CLI commands to run on the mutated file too. */
  cli?: CliCommand[];
  /** Decode through the worker pool instead of inline. */
  pool?: boolean;
  /** What this recipe found (and what fixed it), for people. */
  note?: string;
}

export interface StepOutcome {
  step: string;
  ms: number;
  result: 'ok' | 'input-error' | 'failure';
  error?: string;
}

export interface CaseFailure {
  step: string;
  kind: 'exception' | 'slow' | 'cli-exit' | 'cli-signal' | 'cli-timeout' | 'pool' | 'source';
  error: string;
  /** Same bug, same signature: used to save one recipe per bug. */
  signature: string;
}

export interface CaseResult { steps: StepOutcome[]; failures: CaseFailure[] }

export interface CaseEnvOptions {
  sources: readonly Source[];
  /** Scratch folder of this process; each case works in a subfolder it removes. */
  tmp: string;
  /** A parse step slower than this (plus a second per MiB of input) is a failure. */
  stepLimitMs?: number;
  /** A CLI run slower than this is killed and a failure. */
  cliLimitMs?: number;
  /** Makes the pool for `pool` recipes (created once, on first use). */
  makePool?: () => WorkerPool;
}

/** What cases share: sources, their bytes, keys, the pool. */
export class CaseEnv {
  readonly byName: Map<string, Source>;
  readonly bytes: SourceBytes;
  readonly keys = KeyRing.fromArgs(FUZZ_AES_KEYS);
  readonly stepLimitMs: number;
  readonly cliLimitMs: number;
  private poolInstance: WorkerPool | undefined;
  private readonly firstFiles = new Map<string, Promise<{ file: string | null; pkg: string | null }>>();
  private counter = 0;
  private readonly files = new Map<string, Uint8Array>();
  private readonly usmaps = new Map<string, Usmap | undefined>();

  constructor(private readonly opts: CaseEnvOptions) {
    this.byName = new Map(opts.sources.map((s) => [s.name, s]));
    this.bytes = new SourceBytes(this.byName);
    this.stepLimitMs = opts.stepLimitMs ?? 2000;
    this.cliLimitMs = opts.cliLimitMs ?? 60_000;
  }

  get tmp(): string { return this.opts.tmp; }

  /** An unmutated file (the other half of a pair), read once. */
  fileBytes(path: string): Uint8Array {
    let b = this.files.get(path);
    if (!b) this.files.set(path, (b = new Uint8Array(readFileSync(path))));
    return b;
  }

  /** Parsed mappings, once per file; undefined where they do not read here (Zstd on Node 20). */
  mappings(path: string | undefined): Usmap | undefined {
    if (!path) return undefined;
    if (!this.usmaps.has(path)) {
      let m: Usmap | undefined;
      try { m = parseUsmap(this.fileBytes(path), basename(path)); } catch (e) { if (!isInputError(e)) throw e; }
      this.usmaps.set(path, m);
    }
    return this.usmaps.get(path);
  }

  pool(): WorkerPool {
    if (!this.opts.makePool) throw new Error('fuzz: this environment has no worker pool');
    this.poolInstance ??= this.opts.makePool();
    return this.poolInstance;
  }

  /** Starts the pool's worker and its decoder before any timed step: a cold start is not a slow parse. */
  async warmPool(): Promise<void> {
    await this.pool().decode([goodOodleJob(this)]);
  }

  async close(): Promise<void> {
    await this.poolInstance?.destroy();
    this.poolInstance = undefined;
  }

  async caseDir(): Promise<string> {
    const d = join(this.opts.tmp, `case-${process.pid}-${this.counter++}`);
    await mkdir(d, { recursive: true });
    return d;
  }

  /** A file path and a package name the unmutated container has (for `cat`, `deps`, `props`), or null. */
  firstFile(source: Source, containerPath: string): Promise<{ file: string | null; pkg: string | null }> {
    let p = this.firstFiles.get(source.name);
    if (!p) {
      p = (async () => {
        const install = await openInstall([containerPath], { keys: this.keys });
        try {
          const first = install.files()[Symbol.iterator]().next();
          const pkg = new InstallPackages(install).index.packages().next();
          return { file: first.done ? null : first.value.path, pkg: pkg.done ? null : pkg.value.name };
        } finally {
          await install.close();
        }
      })().catch(() => ({ file: null, pkg: null }));
      this.firstFiles.set(source.name, p);
    }
    return p;
  }
}

/** Error text without numbers and paths, so one bug has one signature whatever the offsets. */
function normalize(text: string): string {
  return text.replace(/\/[^\s:'"()]+/g, '<path>').replace(/0x[0-9a-f]+/gi, 'N').replace(/\d+/g, 'N').slice(0, 120);
}

/** The first stack frame in PakScope's own sources. */
function topFrame(e: unknown): string {
  const stack = e instanceof Error ? e.stack ?? '' : '';
  const line = stack.split('\n').find((l) => l.includes('/src/core/') || l.includes('/src/cli/'));
  const m = line?.match(/\/(src\/[^:)]+):(\d+)/);
  return m ? `${m[1]}:${m[2]}` : '';
}

/** Runs steps, timing each and sorting its outcome. */
class Steps {
  readonly result: CaseResult = { steps: [], failures: [] };
  constructor(private readonly limitMs: number, private readonly prefix: string) {}

  async run<T>(step: string, fn: () => Promise<T> | T): Promise<T | undefined> {
    const t0 = performance.now();
    let value: T | undefined;
    let outcome: StepOutcome;
    try {
      value = await fn();
      outcome = { step, ms: 0, result: 'ok' };
    } catch (e) {
      if (isInputError(e)) {
        outcome = { step, ms: 0, result: 'input-error', error: (e as Error).message.slice(0, 300) };
      } else {
        const name = e instanceof Error ? e.name : typeof e;
        const message = e instanceof Error ? e.message : String(e);
        outcome = { step, ms: 0, result: 'failure', error: `${name}: ${message}`.slice(0, 500) };
        this.fail({
          step, kind: 'exception', error: `${name}: ${message}\n${e instanceof Error ? e.stack?.split('\n').slice(1, 6).join('\n') : ''}`,
          signature: `${this.prefix}|${step}|${name}|${normalize(message)}|${topFrame(e)}`,
        });
      }
    }
    outcome.ms = Math.round(performance.now() - t0);
    this.result.steps.push(outcome);
    if (outcome.ms > this.limitMs) {
      this.fail({ step, kind: 'slow', error: `${step} took ${outcome.ms} ms (limit ${this.limitMs})`, signature: `${this.prefix}|${step}|slow` });
    }
    return value;
  }

  fail(f: CaseFailure): void { this.result.failures.push(f); }
}

/** Length of a value as JSON (bigints as text): what the CLI and the app's IPC make of it. */
function jsonLength(v: unknown): number {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? undefined : x))?.length ?? 0;
}

/** The model as the exporter writes it (bigints as text, image bytes left out). */
function packageJsonText(model: PackageModel): number {
  return JSON.stringify(model, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? undefined : v)).length;
}

/** Entries worth reading: the first few, the headers, packages, those whose blocks a .ucas mutation hit, and some by seed. */
function pickEntries(c: IoStoreContainer, rng: Rng, ucasOffsets: number[], partition: number): number[] {
  const n = c.chunkCount;
  const picked = new Set<number>();
  for (let i = 0; i < Math.min(2, n); i++) picked.add(i);
  for (const type of ['ContainerHeader', 'ScriptObjects', 'LoaderInitialLoadMeta', 'LoaderGlobalNames']) {
    for (const e of c.entriesOfType(type).slice(0, 1)) picked.add(e);
  }
  for (const e of c.entriesOfType('ExportBundleData').slice(0, 2)) picked.add(e);
  const toc = c.toc;
  const bs = toc.header.compressionBlockSize;
  const base = partition === 0 ? 0 : partition * toc.header.partitionSize;
  for (const off of ucasOffsets) {
    const at = base + off;
    for (let b = 0; b < toc.blockOffsets.length && picked.size < 12; b++) {
      const start = toc.blockOffsets[b]!;
      if (at < start || at >= start + toc.blockCompressedSizes[b]! + 16) continue;
      const u = b * bs;
      for (let e = 0; e < n; e++) {
        const o = toc.chunkOffsets[e]!, l = toc.chunkLengths[e]!;
        if (u < o + l && u + bs > o) { picked.add(e); break; }
      }
    }
  }
  for (let k = 0; k < 2 && n > 0; k++) picked.add(rng.int(n));
  return [...picked].slice(0, 12);
}

/** Reads are capped: a chunk or file claiming gigabytes is read in its first MiB only. */
const WHOLE_READ_LIMIT = 64 << 20;

async function exerciseContainer(s: Steps, c: IoStoreContainer, rng: Rng, ucasOffsets: number[], partition: number): Promise<void> {
  await s.run('iostore files/describe', () => { c.files(); c.describe(); });
  const entries = pickEntries(c, rng, ucasOffsets, partition);
  for (const e of entries) await s.run('iostore storage', () => c.storage(e));
  if (c.status.state === 'locked') return;
  const fileName = basename(c.path);
  let verified = 0;
  for (const e of entries) {
    const size = c.chunkSize(e);
    const type = c.chunkTypeName(e);
    const bytes = size > WHOLE_READ_LIMIT
      ? await s.run('iostore readChunkRange', () => c.readChunkRange(e, 0, 1 << 20))
      : await s.run('iostore readChunk', () => c.readChunk(e));
    if (size <= WHOLE_READ_LIMIT && verified++ < 4) await s.run('iostore verifyChunk', () => c.verifyChunk(e));
    if (!bytes) continue;
    if (type === 'ContainerHeader') await s.run('parseContainerHeader (chunk)', () => parseContainerHeader(bytes, `${fileName} (container header)`));
    if (type === 'ScriptObjects') {
      const so = await s.run('parseScriptObjects (chunk)', () => parseScriptObjects(bytes, `${fileName} (script objects)`));
      if (so) await s.run('scriptObjectPath', () => allPaths(so));
    }
  }
}

function allPaths(so: ScriptObjects): void {
  for (let i = 0; i < so.objects.length; i++) scriptObjectPath(so, i);
}

async function exercisePak(s: Steps, p: PakArchive): Promise<void> {
  await s.run('pak files/describe', () => { p.files(); p.describe(); void p.deletedPaths; });
  const files = p.files().slice(0, 8);
  for (const f of files) await s.run('pak storage', () => p.storage(f.ref));
  if (p.status.state === 'locked') return;
  for (const f of files) {
    if (f.size > WHOLE_READ_LIMIT) await s.run('pak readRange', () => p.readRange(f.ref, 0, 1 << 20));
    else await s.run('pak read', () => p.read(f.ref));
    const read = s.result.steps.at(-1)!;
    const check = await s.run('pak verify', () => p.verify(f.ref));
    // Size fields that disagree: what a read refuses, verify must not call ok (issue 25, 2).
    if (read.result === 'input-error' && check?.ok === true && !/key|encrypted/i.test(read.error ?? '')) {
      s.fail({
        step: 'pak verify', kind: 'exception', signature: 'pak|verify ok where read refuses',
        error: `verify says ok for ${f.path}, which the read refuses: ${read.error}`,
      });
    }
  }
}

/**
 * Nothing vanishes from the merged tree: every path a container lists is found by the install
 * in its own spelling, and a container listing paths that differ only by case has them counted
 * as case copies (the engine's case-blind lookup: one wins, the others are overridden; issue 25, 3).
 */
function checkNothingVanishes(s: Steps, install: Install): void {
  const copies = new Set(install.caseCopies().map((f) => f.path.toLowerCase()));
  for (const a of install.archives) {
    const seen = new Map<string, string>();
    for (const f of a.files().slice(0, 4000)) {
      const path = f.path.replace(/^\/+/, '');
      if (!install.file(path)) {
        s.fail({ step: 'install paths', kind: 'exception', signature: 'install|path vanished', error: `${a.path} lists ${path}, which the install does not find` });
        return;
      }
      const lower = path.toLowerCase();
      const other = seen.get(lower);
      if (other !== undefined && other !== path && install.file(path)!.providers[0]!.archive === a && !copies.has(lower)) {
        s.fail({ step: 'install paths', kind: 'exception', signature: 'install|case copies unreported', error: `${a.path} lists ${other} and ${path}; no case copy is reported` });
        return;
      }
      seen.set(lower, path);
    }
  }
}

/** The install over the case folder: open, walk the tree, read a few files, convert a few packages. */
async function exerciseInstall(s: Steps, dir: string, keys: KeyRing, decoder: BlockDecoder, mappings: Usmap | undefined): Promise<void> {
  const install: Install | undefined = await s.run('openInstall', () => openInstall([dir], { keys, decoder }));
  if (!install) return;
  try {
    await s.run('install paths', () => checkNothingVanishes(s, install));
    await s.run('install listDir walk', () => {
      const queue = [''];
      let seen = 0;
      while (queue.length > 0 && seen < 5000) {
        for (const e of install.listDir(queue.shift()!)) {
          seen++;
          if (e.isDir) queue.push(e.path);
        }
      }
      for (const _ of install.files()) seen++;
    });
    // The package view and the dependency graph: imports, outer chains and dependency walks.
    const packages = new InstallPackages(install);
    const indexed = await s.run('package index', () => [...packages.index.packages()].slice(0, 3));
    for (const p of indexed ?? []) {
      const opened = await s.run('open package', () => packages.open(p.id));
      if (opened) await s.run('package model JSON', () => packageJsonText(opened.model));
      if (opened) await s.run('package properties', async () => jsonLength((await installPackageProperties(packages, p.id, { mappings })).properties));
    }
    const graph = await s.run('buildDependencyGraph', () => buildDependencyGraph(install, { index: packages.index }));
    if (graph) {
      await s.run('dependency walks', () => {
        graph.counts();
        const top = graph.mostReferenced(3).map((x) => x.id);
        const ids = [...top, ...(indexed ?? []).map((p) => p.id)];
        for (const id of ids) {
          graph.dependencies(id, Infinity);
          graph.referencers(id, Infinity);
          graph.shortestPath(id, ids[0]!);
        }
      });
    }
    const converter = new PackageJsonConverter(install);
    let read = 0, converted = 0;
    for (const f of install.files()) {
      if (read >= 4) break;
      const { archive, file } = f.providers[0]!;
      if (archive.status.state === 'locked' || file.size > WHOLE_READ_LIMIT) continue;
      read++;
      const bytes = await s.run('install read', () => archive.read(file.ref));
      if (!bytes) continue;
      const item = { path: f.path, size: f.size, archive: archive as Archive, ref: file.ref, ...(file.chunkType ? { chunkType: file.chunkType } : {}) };
      if (converted < 2 && converter.isPackage(item, bytes.subarray(0, 16))) {
        converted++;
        await s.run('package json (install)', () => converter.convert(item, bytes));
      }
    }
  } finally {
    await install.close();
  }
}

/** The .utoc, .ucas partitions and .pak stub of a container: names in `dir` sharing its stem. */
async function companions(path: string): Promise<string[]> {
  const name = basename(path);
  const stem = name.replace(/(_s\d+)?\.(utoc|ucas|pak)$/i, '');
  const all = await readdir(dirname(path));
  return all.filter((f) => f !== name && (f.startsWith(`${stem}.`) || /^_s\d+\.ucas$/i.test(f.slice(stem.length)) && f.startsWith(stem)))
    .filter((f) => /\.(utoc|ucas|pak)$/i.test(f))
    .map((f) => join(dirname(path), f));
}

/** The bytes a recipe makes; throws when its source is unknown. */
export function mutatedBytes(env: CaseEnv, recipe: Recipe): { bytes: Uint8Array; shaMatches: boolean } {
  const { bytes, sha256 } = env.bytes.get(recipe.source);
  const out = applyMutations(bytes, recipe.mutations, (name) => env.bytes.get(name).bytes);
  return { bytes: out, shaMatches: sha256 === recipe.sha256 };
}

/** The whole case; a failure of the harness itself is reported as one too, never thrown. */
export async function runCase(env: CaseEnv, recipe: Recipe): Promise<CaseResult> {
  const source = env.byName.get(recipe.source);
  // Generous: the limit per step grows by a second per MiB of input (a 3.6 MB container header
  // takes about a second on a busy two-core machine); a hang or a quadratic blow-up still shows.
  const size = source ? env.bytes.get(source.name).bytes.length : 0;
  const s = new Steps(env.stepLimitMs + Math.ceil(size / (1 << 20)) * 1000, source?.kind ?? '?');
  try {
    await runSteps(env, recipe, s);
  } catch (e) {
    s.fail({ step: 'harness', kind: 'exception', error: `the fuzz harness failed: ${(e as Error).stack ?? String(e)}`, signature: `harness|${normalize(String(e))}` });
  }
  return s.result;
}

async function runSteps(env: CaseEnv, recipe: Recipe, s: Steps): Promise<void> {
  const source = env.byName.get(recipe.source);
  if (!source) {
    s.fail({ step: 'source', kind: 'source', error: `no source ${recipe.source}`, signature: `source|${recipe.source}` });
    return;
  }
  const { bytes } = mutatedBytes(env, recipe);
  const rng = new Rng(recipe.seed ^ 0x9e3779b9);
  const name = basename(source.path);
  const decoder: BlockDecoder = recipe.pool ? env.pool() : inlineDecoder;

  switch (source.kind) {
    case 'uasset':
    case 'ue12': {
      const opts = source.uexpSize !== undefined ? { uexpSize: source.uexpSize } : {};
      const model = await s.run(`parseClassicPackageModel (${source.kind})`, () => parseClassicPackageModel(bytes, name, opts));
      // What `--format json` and the app's package view do with it.
      if (model) await s.run('package model JSON', () => packageJsonText(model));
      if (!model) break;
      if (source.kind === 'ue12') {
        await s.run('ue12Properties', () => jsonLength(ue12Properties(parseUe12Package(bytes, name), bytes)));
      } else {
        const uexp = source.pair ? env.fileBytes(source.pair) : undefined;
        const mappings = env.mappings(source.mappings);
        await s.run('uassetProperties', () => jsonLength(uassetProperties(parseUAsset(bytes, name, opts), bytes, uexp, { mappings })));
      }
      break;
    }
    case 'uexp': {
      // The export data of a cooked pair: the .uasset is read as it is, the properties from the mutated .uexp.
      const header = env.fileBytes(source.pair!);
      const pkg = await s.run('parseUAsset (pair)', () => parseUAsset(header, basename(source.pair!), { uexpSize: bytes.length }));
      const mappings = env.mappings(source.mappings);
      if (pkg) await s.run('uassetProperties (uexp)', () => jsonLength(uassetProperties(pkg, header, bytes, { mappings })));
      break;
    }
    case 'usmap':
      await s.run('parseUsmap', () => parseUsmap(bytes, name));
      break;
    case 'zen': {
      const pkg = await s.run('parseZenPackage', () => parseZenPackage(bytes, name, { layout: source.zenLayout! }));
      const resolved = pkg && await s.run('resolvePackage', () => resolvePackage(pkg));
      if (pkg && resolved) {
        await s.run('package model JSON', () => packageJsonText(zenToPackageModel(pkg, resolved)));
        const mappings = env.mappings(source.mappings);
        await s.run('zenProperties', () => jsonLength(zenProperties(pkg, bytes, resolved, { mappings })));
      }
      break;
    }
    case 'container-header':
      await s.run('parseContainerHeader', () => parseContainerHeader(bytes, name));
      break;
    case 'script-objects': {
      const so = await s.run('parseScriptObjects', () => parseScriptObjects(bytes, name));
      if (so) await s.run('scriptObjectPath', () => allPaths(so));
      break;
    }
    case 'legacy-script-objects':
    case 'legacy-global-names':
    case 'legacy-global-name-hashes': {
      const other = (n: string): Uint8Array => env.bytes.get(`corpus:headers/${n}`).bytes;
      const meta = source.kind === 'legacy-script-objects' ? bytes : other('retoc427_LoaderInitialLoadMeta.bin');
      const names = source.kind === 'legacy-global-names' ? bytes : other('retoc427_LoaderGlobalNames.bin');
      const hashes = source.kind === 'legacy-global-name-hashes' ? bytes : other('retoc427_LoaderGlobalNameHashes.bin');
      const so = await s.run('parseLegacyScriptObjects', () => parseLegacyScriptObjects(meta, names, name, { globalNameHashes: hashes }));
      if (so) await s.run('scriptObjectPath', () => allPaths(so));
      break;
    }
    case 'oodle': {
      const size = bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : 0;
      const job = { data: bytes.subarray(4), codec: 'Oodle', compressedSize: Math.max(0, bytes.length - 4), uncompressedSize: size };
      await s.run(recipe.pool ? 'oodle decode (pool)' : 'oodle decode', () => decoder.decode([job]));
      break;
    }
    case 'utoc':
    case 'ucas':
    case 'pak':
      await containerCase(env, s, source, recipe, bytes, rng, decoder);
      break;
  }
  if (recipe.pool) await checkPoolRecovers(env, s);
}

async function containerCase(env: CaseEnv, s: Steps, source: Source, recipe: Recipe, bytes: Uint8Array, rng: Rng, decoder: BlockDecoder): Promise<void> {
  const dir = await env.caseDir();
  try {
    const name = basename(source.path);
    await writeFile(join(dir, name), bytes);
    for (const c of await companions(source.path)) await symlink(c, join(dir, basename(c)));
    const stem = name.replace(/(_s\d+)?\.(utoc|ucas|pak)$/i, '');
    const main = join(dir, source.kind === 'pak' ? name : `${stem}.utoc`);
    const partition = Number(/_s(\d+)\.ucas$/i.exec(name)?.[1] ?? 0);
    const ucasOffsets = source.kind === 'ucas'
      ? recipe.mutations.map((m) => (m.kind === 'truncate' ? m.length : m.kind === 'splice' ? m.at : m.offset)) : [];

    if (source.kind === 'utoc') await s.run('parseToc', () => parseToc(bytes, name));
    if (source.kind === 'pak') {
      const p = await s.run('openPakArchive', () => openPakArchive(main, { keys: env.keys, decoder }));
      if (p) {
        try { await exercisePak(s, p); } finally { await p.close(); }
      }
    } else {
      const c = await s.run('openIoStoreContainer', () => openIoStoreContainer(main, { keys: env.keys, decoder }));
      if (c) {
        try { await exerciseContainer(s, c, rng, ucasOffsets, partition); } finally { await c.close(); }
      }
    }
    await exerciseInstall(s, dir, env.keys, decoder, env.mappings(source.mappings));
    if (recipe.cli?.length) {
      const original = join(dirname(source.path), basename(main));
      for (const cmd of recipe.cli) await runCliStep(env, s, source, cmd, main, original);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A system failure (exit 1 allowed): out of disk, I/O error, too many open files. */
const SYSTEM_FAILURE = /\b(ENOSPC|EIO|EMFILE|ENFILE|ENOMEM|EPIPE)\b/;

async function runCliStep(env: CaseEnv, s: Steps, source: Source, cmd: CliCommand, path: string, original: string): Promise<void> {
  const args = [cmd === 'info-package' ? 'info' : cmd, path];
  if (cmd === 'cat' || cmd === 'deps' || cmd === 'props' || cmd === 'info-package') {
    const { file, pkg } = await env.firstFile(source, original);
    const ref = cmd === 'cat' ? file : pkg;
    if (!ref) return;
    args.push(ref);
  }
  for (const k of FUZZ_AES_KEYS) args.push('--aes-key', k);
  const step = `cli ${cmd}`;
  const t0 = performance.now();
  const r = await runNode([CLI, ...args], env.cliLimitMs);
  const ms = Math.round(performance.now() - t0);
  const tail = r.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  let failure: CaseFailure | undefined;
  if (r.timedOut) failure = { step, kind: 'cli-timeout', error: `pakscope ${cmd} ran over ${env.cliLimitMs} ms`, signature: `cli|${cmd}|timeout` };
  else if (r.signal) failure = { step, kind: 'cli-signal', error: `pakscope ${cmd} died by ${r.signal}: ${tail}`, signature: `cli|${cmd}|signal|${r.signal}` };
  else if (r.code !== 0 && r.code !== 2 && !(r.code === 1 && SYSTEM_FAILURE.test(r.stderr))) {
    failure = { step, kind: 'cli-exit', error: `pakscope ${cmd} exited ${r.code}: ${tail}`, signature: `cli|${cmd}|exit ${r.code}|${normalize(tail)}` };
  }
  s.result.steps.push({ step, ms, result: failure ? 'failure' : r.code === 0 ? 'ok' : 'input-error', ...(failure ? { error: failure.error } : {}) });
  if (failure) s.fail(failure);
}

export function runNode(args: string[], limitMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => { if (stderr.length < 20000) stderr += d; });
    // verify reports a chunk's failure on stdout: keep its "failed:" lines with stderr.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      for (const line of d.split('\n')) if (/^\s*failed:/.test(line) && stderr.length < 20000) stderr += `${line.trim()}\n`;
    });
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, limitMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal: timedOut ? null : signal, stderr, timedOut });
    });
  });
}

/** After a pool case: a good Oodle block must still decode (a crashed worker ends only its job). */
function goodOodleJob(env: CaseEnv): BlockJob {
  const good = env.bytes.get('corpus:oodle/xml.kraken').bytes;
  const size = new DataView(good.buffer, good.byteOffset, 4).getUint32(0, true);
  return { data: good.subarray(4), codec: 'Oodle', compressedSize: good.length - 4, uncompressedSize: size };
}

async function checkPoolRecovers(env: CaseEnv, s: Steps): Promise<void> {
  const job = goodOodleJob(env);
  const size = job.uncompressedSize;
  const t0 = performance.now();
  try {
    const [out] = await env.pool().decode([job]);
    if (out?.length !== size) throw new Error(`decoded ${out?.length} bytes, not ${size}`);
    s.result.steps.push({ step: 'pool recovers', ms: Math.round(performance.now() - t0), result: 'ok' });
  } catch (e) {
    const error = `the pool did not decode a good block after the case: ${(e as Error).message}`;
    s.result.steps.push({ step: 'pool recovers', ms: Math.round(performance.now() - t0), result: 'failure', error });
    s.fail({ step: 'pool recovers', kind: 'pool', error, signature: 'pool|recover' });
  }
}
