/**
 * The deterministic part of the fuzzer: every saved regression recipe (test/fuzz/recipes.json),
 * a fixed set of seeded mutations of every corpus file and writer fixture through every parser,
 * a handful through the CLI, and mutated Oodle data through the worker pool. A parser may accept
 * a mutated file or reject it with the project's input errors; nothing else passes.
 * `npm run fuzz` is the long, random version of this.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { Rng } from './mutate.js';
import { loadRecipes, makeRecipe } from './recipes.js';
import { CaseEnv, PROJECT, runCase, type CaseResult, type Recipe } from './run-case.js';
import { corpusSources, fixtureSources, type Source, type SourceKind } from './sources.js';

/** Seeded cases over the parsers in-process, spread over every kind of file. */
const SEEDED_CASES = 120;
const BASE_SEED = 20_240_601;

let tmp: string;
let sources: Source[];
let env: CaseEnv;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pakscope-fuzz-test-'));
  sources = [...corpusSources(), ...await fixtureSources(join(tmp, 'fixtures'))];
  // Generous step limit: the whole suite shares two cores. A hang still shows as a timeout.
  env = new CaseEnv({ sources, tmp, stepLimitMs: 10_000, cliLimitMs: 30_000, makePool: () => createWorkerPool({ threads: 1 }) });
});

afterAll(async () => {
  await env?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * `n` sources taken round-robin over the kinds (each kind's sources in order, at most twice
 * each), so every parser gets cases however many files of its kind the corpus has.
 */
function spreadOverKinds(all: readonly Source[], n: number): Source[] {
  const byKind = new Map<SourceKind, Source[]>();
  for (const s of all) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
  const lists = [...byKind.values()];
  const out: Source[] = [];
  for (let round = 0; out.length < n; round++) {
    let added = false;
    for (const list of lists) {
      if (round < list.length * 2 && out.length < n) { out.push(list[round % list.length]!); added = true; }
    }
    if (!added) break;
  }
  return out;
}

function describeFailures(recipe: Recipe, r: CaseResult): string {
  return r.failures.map((f) => `${recipe.source} seed ${recipe.seed} ${JSON.stringify(recipe.mutations)}: [${f.step}] ${f.error}`).join('\n');
}

describe('saved fuzz recipes', () => {
  const recipes = loadRecipes();

  it('are recipes, not bytes: every one names a known source, its hash and mutations', () => {
    for (const r of recipes) {
      expect(r.source).toMatch(/^(corpus|fixture):/);
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
      // A hostile fixture may be the case by itself; a corpus file needs mutations to be one.
      expect(Array.isArray(r.mutations) && (r.mutations.length > 0 || r.source.startsWith('fixture:')), r.source).toBe(true);
      expect(env.byName.has(r.source), r.source).toBe(true);
      // A corpus file is fixed: a different hash means the recipe would test other bytes.
      if (r.source.startsWith('corpus:')) expect(env.bytes.get(r.source).sha256, r.source).toBe(r.sha256);
    }
  });

  it.each(recipes.map((r, i) => [i, r.source, r] as const))('recipe %i (%s) runs clean', async (_i, _s, recipe) => {
    const r = await runCase(env, recipe);
    expect(r.steps.length).toBeGreaterThan(0);
    expect(r.failures, describeFailures(recipe, r)).toEqual([]);
    // Tighter than the seeded cases' limit: these are the inputs that were slow (65534 partitions took 5-9 s).
    const slowest = r.steps.filter((x) => !x.step.startsWith('cli ')).reduce((a, b) => (b.ms > a.ms ? b : a));
    expect(slowest.ms, `${slowest.step} of ${recipe.source}`).toBeLessThan(3000);
  });
});

describe('seeded mutations of every source', () => {
  it(`${SEEDED_CASES} cases through every parser, in process`, async () => {
    const failures: string[] = [];
    const byKind = new Map<SourceKind, { cases: number; rejected: number }>();
    let steps = 0;
    const picks = spreadOverKinds(sources, SEEDED_CASES);
    for (const [i, source] of picks.entries()) {
      const recipe = makeRecipe(env, source, BASE_SEED + i);
      const r = await runCase(env, recipe);
      steps += r.steps.length;
      const k = byKind.get(source.kind) ?? { cases: 0, rejected: 0 };
      k.cases++;
      if (r.steps.some((s) => s.result === 'input-error')) k.rejected++;
      byKind.set(source.kind, k);
      if (r.failures.length) failures.push(describeFailures(recipe, r));
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // The mutations reach the parsers: every kind of file saw cases, and most kinds had some rejected.
    expect([...byKind.keys()].sort()).toEqual([
      'container-header', 'legacy-global-name-hashes', 'legacy-global-names', 'legacy-script-objects', 'oodle', 'pak',
      'script-objects', 'uasset', 'ucas', 'ue12', 'uexp', 'usmap', 'utoc', 'zen',
    ]);
    for (const kind of ['utoc', 'pak', 'uasset', 'zen', 'ue12'] as const) expect(byKind.get(kind)!.rejected, kind).toBeGreaterThan(0);
    expect(steps).toBeGreaterThan(SEEDED_CASES * 2);
  });
});

describe('mutated containers through the CLI', () => {
  const picks: [string, Recipe['cli']][] = [
    ['corpus:iostore/isle_pakchunk334-Windows.utoc', ['ls', 'cat']],
    ['corpus:cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.ucas', ['verify']],
    ['corpus:pak/repak_pack_v11_compress_encrypt_encryptindex.pak', ['cat']],
  ];
  it.each(picks)('%s: %j exit 0 or 2, never by a signal or an uncaught exception', async (name, cli) => {
    expect(existsSync(join(PROJECT, 'out', 'cli', 'pakscope.mjs')), 'the CLI is built (npm test builds it)').toBe(true);
    const source = env.byName.get(name)!;
    expect(source, name).toBeDefined();
    const recipe = makeRecipe(env, source, BASE_SEED + 77, { cli });
    const r = await runCase(env, recipe);
    const cliSteps = r.steps.filter((s) => s.step.startsWith('cli '));
    expect(cliSteps.map((s) => s.step)).toEqual(cli!.map((c) => `cli ${c}`));
    expect(r.failures, describeFailures(recipe, r)).toEqual([]);
  });
});

describe('mutated Oodle data through the worker pool', () => {
  it('a corrupt block fails only its job; the pool decodes a good block after each case', async () => {
    const oodle = sources.filter((s) => s.kind === 'oodle' || /Oodle-Windows\.(utoc|ucas)$/.test(s.name));
    const rng = new Rng(BASE_SEED);
    let rejected = 0;
    const failures: string[] = [];
    for (let i = 0; i < 12; i++) {
      const source = oodle[i % oodle.length]!;
      // Byte sets and flips in the first bytes of a stream are what trap the decoder.
      const recipe = makeRecipe(env, source, BASE_SEED + 500 + rng.int(1000), { pool: true });
      const r = await runCase(env, recipe);
      expect(r.steps.some((s) => s.step === 'pool recovers')).toBe(true);
      if (r.steps.some((s) => s.result === 'input-error')) rejected++;
      if (r.failures.length) failures.push(describeFailures(recipe, r));
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(rejected).toBeGreaterThan(0);
  });
});
