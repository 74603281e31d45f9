/**
 * The fuzzer's worker process: runs the recipes the driver sends, one at a time, and answers
 * with the outcome and its peak memory. The driver kills it when a case hangs or grows past the
 * memory bound, and starts another; a crash here ends only this process.
 */
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { CaseEnv, runCase, type CaseResult, type Recipe } from './run-case.js';
import type { Source } from './sources.js';

export type ToChild =
  | { type: 'init'; sources: Source[]; tmp: string; stepLimitMs: number; cliLimitMs: number }
  | { type: 'run'; id: number; recipe: Recipe };

export type FromChild =
  | { type: 'ready'; rssKb: number }
  | { type: 'init-failed'; error: string }
  | { type: 'result'; id: number; result: CaseResult; maxRssKb: number };

let env: CaseEnv | undefined;
/** Errors no step caught (a floating promise that rejected): failures of the case running. */
const stray: string[] = [];
process.on('unhandledRejection', (e) => { stray.push(`unhandled rejection: ${(e as Error)?.stack ?? String(e)}`); });
process.on('uncaughtException', (e) => { stray.push(`uncaught exception: ${e.stack ?? String(e)}`); });
/** Recipes run one at a time: a case may not overlap the next. */
let queue: Promise<void> = Promise.resolve();

process.on('message', (m: ToChild) => {
  queue = queue.then(async () => {
    if (m.type === 'init') {
      env = new CaseEnv({
        sources: m.sources, tmp: m.tmp, stepLimitMs: m.stepLimitMs, cliLimitMs: m.cliLimitMs,
        makePool: () => createWorkerPool({ threads: 1 }),
      });
      try {
        await env.warmPool();
      } catch (e) {
        send({ type: 'init-failed', error: (e as Error).stack ?? String(e) });
        return;
      }
      send({ type: 'ready', rssKb: process.resourceUsage().maxRSS });
      return;
    }
    const result = await runCase(env!, m.recipe);
    // Give a stray rejection of this case a turn to surface before answering.
    await new Promise((r) => setTimeout(r, 0));
    for (const error of stray.splice(0)) {
      result.failures.push({ step: 'process', kind: 'exception', error, signature: `process|${error.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 100)}` });
    }
    send({ type: 'result', id: m.id, result, maxRssKb: process.resourceUsage().maxRSS });
  });
});

process.on('disconnect', () => {
  void env?.close().finally(() => process.exit(0));
});

function send(m: FromChild): void {
  process.send!(m);
}
