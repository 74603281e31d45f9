/**
 * The long fuzzer (`npm run fuzz [-- --seconds N --seed S --jobs J]`): mutates every corpus file
 * and writer fixture, runs each case in a child process (child.ts) under a time and memory bound,
 * and saves one recipe per new failure to test/fuzz/recipes.json (with --no-save, only reports).
 * A case that hangs, crashes its process or grows it past the memory bound is a failure too.
 * First, for --api-share of the time (15 %), hostile requests go to a browser host in this
 * process (hostile-api.ts: zip and export names, paths the user did not give, inherited field
 * names, wrong types); new failing requests are saved to test/fuzz/api-cases.json.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { FromChild, ToChild } from './child.js';
import { Rng } from './mutate.js';
import { loadRecipes, makeRecipe, saveRecipes, usesOodle, type SavedRecipe } from './recipes.js';
import { CaseEnv, type CaseFailure, type CaseResult, type CliCommand, type Recipe } from './run-case.js';
import { corpusSources, fixtureSources, type Source } from './sources.js';
import { HostileApiEnv, loadApiCases, randomApiCase, saveApiCases, type ApiCase } from './hostile-api.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    seed: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    'cli-every': { type: 'string', default: '10' },
    'no-save': { type: 'boolean', default: false },
    only: { type: 'string' },
    'memory-mb': { type: 'string', default: '512' },
    'step-ms': { type: 'string', default: '2000' },
    /** Share of the time (0 to 1) spent on hostile requests to the browser host (hostile-api.ts). */
    'api-share': { type: 'string', default: '0.15' },
    /** Run the saved recipes (those whose source contains --only, if given) under the same bounds, and report. */
    replay: { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

const seconds = Number(values.seconds);
const baseSeed = values.seed !== undefined ? Number(values.seed) : (Date.now() % 1_000_000_007);
const jobs = Math.max(1, Number(values.jobs));
const cliEvery = Math.max(1, Number(values['cli-every']));
const memoryBoundKb = Number(values['memory-mb']) * 1024;
const stepLimitMs = Number(values['step-ms']);
const CASE_LIMIT_MS = 30_000;
const CLI_LIMIT_MS = 60_000;
const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

/** One child process running cases. */
class Runner {
  private child: ChildProcess | null = null;
  private baselineKb = 0;
  private pending: { resolve: (r: Outcome) => void; timer: NodeJS.Timeout } | null = null;
  private nextId = 0;

  constructor(private readonly sources: Source[], private readonly tmp: string) {}

  private async start(): Promise<void> {
    const child = fork(CHILD, [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=1536'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('message', (m: FromChild) => {
        if (m.type === 'ready') { this.baselineKb = m.rssKb; resolve(); } else reject(new Error(`fuzz child failed to start: ${JSON.stringify(m)}`));
      });
      child.once('exit', (code) => reject(new Error(`fuzz child exited ${code} before it was ready`)));
      const init: ToChild = { type: 'init', sources: this.sources, tmp: this.tmp, stepLimitMs, cliLimitMs: CLI_LIMIT_MS };
      child.send(init);
    });
    child.removeAllListeners('exit');
    child.on('message', (m: FromChild) => {
      if (m.type !== 'result' || !this.pending) return;
      const p = this.pending;
      this.pending = null;
      clearTimeout(p.timer);
      const grewKb = m.maxRssKb - this.baselineKb;
      if (grewKb > memoryBoundKb) {
        m.result.failures.push({ step: 'process', kind: 'exception', error: `peak RSS grew by ${Math.round(grewKb / 1024)} MiB (bound ${memoryBoundKb / 1024} MiB)`, signature: 'process|memory' });
        void this.stop(); // the peak only resets with a new process
      }
      p.resolve({ result: m.result });
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (!this.pending) return;
      const p = this.pending;
      this.pending = null;
      clearTimeout(p.timer);
      const error = `the fuzz child process died (exit ${code}, signal ${signal}): a crash or an out-of-memory abort`;
      p.resolve({ result: { steps: [], failures: [{ step: 'process', kind: 'exception', error, signature: `process|died|${signal ?? code}` }] } });
    });
  }

  async run(recipe: Recipe): Promise<Outcome> {
    if (!this.child) await this.start();
    const child = this.child!;
    const limit = CASE_LIMIT_MS + (recipe.cli?.length ?? 0) * CLI_LIMIT_MS;
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        this.pending = null;
        child.kill('SIGKILL');
        this.child = null;
        resolve({ result: { steps: [], failures: [{ step: 'process', kind: 'slow', error: `the case ran over ${limit} ms (a hang)`, signature: 'process|hang' }] } });
      }, limit);
      this.pending = { resolve, timer };
      const msg: ToChild = { type: 'run', id: this.nextId++, recipe };
      child.send(msg);
    });
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c) return;
    c.disconnect();
    const t = setTimeout(() => c.kill('SIGKILL'), 5000);
    await new Promise((r) => c.once('exit', r));
    clearTimeout(t);
  }
}

interface Outcome { result: CaseResult }

/** Drops mutations one at a time while the same failure still happens. */
async function minimize(runner: Runner, recipe: Recipe, signature: string): Promise<Recipe> {
  let best = recipe;
  for (let i = best.mutations.length - 1; i >= 0 && best.mutations.length > 1; i--) {
    const trial: Recipe = { ...best, mutations: best.mutations.filter((_, k) => k !== i) };
    const { result } = await runner.run(trial);
    if (result.failures.some((f) => f.signature === signature)) best = trial;
  }
  if (best.cli && !signature.startsWith('cli|')) {
    const { cli: _drop, ...noCli } = best;
    const { result } = await runner.run(noCli);
    if (result.failures.some((f) => f.signature === signature)) best = noCli;
  }
  return best;
}

/**
 * Random hostile requests to a browser host over a strict backend for `ms` milliseconds; new
 * failing cases are saved to api-cases.json (one per method and first problem).
 */
async function apiCampaign(ms: number, rng: Rng): Promise<{ cases: number; failures: ApiCase[] }> {
  if (ms <= 0) return { cases: 0, failures: [] };
  const env = await HostileApiEnv.start();
  const failures = new Map<string, ApiCase>();
  let cases = 0;
  try {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const c = randomApiCase(rng);
      cases++;
      const problems = await env.run(c);
      const key = `${c.method}|${problems[0]?.replace(/\/tmp\/\S+/g, '<path>').slice(0, 80)}`;
      if (problems.length > 0 && !failures.has(key)) {
        console.log(`\nFAIL [api] ${c.method} ${c.body.slice(0, 200)}: ${problems[0]}`);
        failures.set(key, { ...c, note: `found by the fuzzer: ${problems.join('; ').slice(0, 300)}` });
      }
    }
  } finally {
    await env.close();
  }
  if (failures.size > 0 && !values['no-save']) saveApiCases([...loadApiCases(), ...failures.values()]);
  return { cases, failures: [...failures.values()] };
}

const CLI_COMMANDS: CliCommand[] = ['ls', 'tree', 'info', 'info-package', 'verify', 'cat', 'deps', 'props'];

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'pakscope-fuzz-'));
  const started = Date.now();
  const deadline = started + seconds * 1000;
  try {
    const sources = [...corpusSources(), ...await fixtureSources(join(tmp, 'fixtures'))];
    // --only narrows what is mutated; every source stays known (splices, the pool's good block).
    const targets = sources.filter((s) => !values.only || s.name.includes(values.only));
    const env = new CaseEnv({ sources, tmp });
    const saved = loadRecipes();
    const known = new Set(saved.map((r) => r.signature));
    const found = new Map<string, { failure: CaseFailure; recipe: Recipe; count: number }>();
    const stats = { cases: 0, steps: 0, inputErrors: 0, cliRuns: 0, poolCases: 0, failures: 0 };
    const rng = new Rng(baseSeed);
    if (values.replay) {
      const runner = new Runner(sources, tmp);
      let bad = 0;
      for (const r of saved.filter((x) => !values.only || x.source.includes(values.only))) {
        const { result } = await runner.run(r);
        bad += result.failures.length ? 1 : 0;
        console.log(`${result.failures.length ? 'FAIL' : 'ok  '} ${r.source} seed ${r.seed}: ${result.steps.map((x) => `${x.step}=${x.result}/${x.ms}ms`).join(', ')}`);
        for (const f of result.failures) console.log(`     [${f.kind}] ${f.error.split('\n')[0]}`);
      }
      await runner.stop();
      process.exitCode = bad > 0 ? 1 : 0;
      return;
    }
    console.log(`fuzz: ${targets.length} sources, seed ${baseSeed}, ${seconds} s, ${jobs} job(s)`);
    const api = await apiCampaign(Math.round(seconds * 1000 * Math.min(1, Math.max(0, Number(values['api-share'])))), new Rng(baseSeed ^ 0x5a5a5a5a));

    const runners = Array.from({ length: jobs }, () => new Runner(sources, tmp));
    let caseIndex = 0;
    let lastReport = Date.now();

    const loop = async (runner: Runner): Promise<void> => {
      while (Date.now() < deadline) {
        const index = caseIndex++;
        const source = targets[rng.int(targets.length)]!;
        const container = source.kind === 'utoc' || source.kind === 'ucas' || source.kind === 'pak';
        const cli = container && index % cliEvery === 0
          ? CLI_COMMANDS.filter(() => rng.chance(0.3)).slice(0, 2) : [];
        const pool = usesOodle(source) && rng.chance(0.5);
        const recipe = makeRecipe(env, source, (baseSeed + index * 7919) >>> 0, { cli, pool });
        const { result } = await runner.run(recipe);
        stats.cases++;
        stats.steps += result.steps.length;
        stats.inputErrors += result.steps.filter((s) => s.result === 'input-error').length;
        stats.cliRuns += result.steps.filter((s) => s.step.startsWith('cli ')).length;
        if (pool) stats.poolCases++;
        for (const f of result.failures) {
          stats.failures++;
          const seen = found.get(f.signature);
          if (seen) { seen.count++; continue; }
          console.log(`\nFAIL [${f.kind}] ${source.name} seed ${recipe.seed}: ${f.error.split('\n')[0]}`);
          found.set(f.signature, { failure: f, recipe, count: 1 });
        }
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now();
          console.log(`fuzz: ${stats.cases} cases, ${stats.steps} steps (${stats.inputErrors} input errors), ${stats.cliRuns} CLI runs, ${found.size} distinct failures, ${Math.round((deadline - Date.now()) / 1000)} s left`);
        }
      }
    };
    await Promise.all(runners.map(loop));

    // Save one minimized recipe per new failure.
    const newOnes: SavedRecipe[] = [];
    const minimizer = runners[0]!;
    for (const [signature, { failure, recipe, count }] of found) {
      if (known.has(signature)) continue;
      const small = failure.signature === 'process|hang' ? recipe : await minimize(minimizer, recipe, signature);
      newOnes.push({ ...small, signature, note: `found by the fuzzer (${count}x): [${failure.step}] ${failure.error.split('\n')[0]!.slice(0, 300)}` });
    }
    await Promise.all(runners.map((r) => r.stop()));
    // Read again: the file may have changed while the fuzzer ran.
    if (newOnes.length > 0 && !values['no-save']) saveRecipes([...loadRecipes(), ...newOnes]);

    const secondsRun = Math.round((Date.now() - started) / 1000);
    console.log(`\nfuzz done in ${secondsRun} s: ${stats.cases} cases, ${stats.steps} parser/CLI steps, ${stats.inputErrors} rejected as bad input, ` +
      `${stats.cliRuns} CLI runs, ${stats.poolCases} through the worker pool; ${found.size} distinct failure(s), ${newOnes.length} new` +
      `${newOnes.length && !values['no-save'] ? ' (saved to test/fuzz/recipes.json)' : ''}`);
    for (const [signature, { failure, count }] of found) console.log(`  ${count}x ${signature}\n     ${failure.error.split('\n').slice(0, 3).join('\n     ')}`);
    console.log(`hostile API requests: ${api.cases} cases, ${api.failures.length} failing${api.failures.length && !values['no-save'] ? ' (saved to test/fuzz/api-cases.json)' : ''}`);
    for (const f of api.failures.slice(0, 10)) console.log(`  ${f.method} ${f.body.slice(0, 200)}\n     ${f.note}`);
    process.exitCode = found.size > 0 || api.failures.length > 0 ? 1 : 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
