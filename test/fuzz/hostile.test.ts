/**
 * The host's API under hostile requests (hostile-api.ts): every saved case (api-cases.json, the
 * findings of issue 25 among them) and a fixed set of seeded random ones. `npm run fuzz` runs
 * random ones for a share of its time and saves new failures to api-cases.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostileApiEnv, loadApiCases, randomApiCase } from './hostile-api.js';
import { Rng } from './mutate.js';

const SEEDED_CASES = 150;

let env: HostileApiEnv;
beforeAll(async () => { env = await HostileApiEnv.start(); });
afterAll(async () => { await env?.close(); });

describe('hostile requests to the browser host', () => {
  const saved = loadApiCases();

  it('has the saved cases of issue 25 (zip names, paths the user did not give, inherited field names)', () => {
    expect(saved.filter((c) => c.note?.startsWith('issue 25')).length).toBeGreaterThanOrEqual(10);
  });

  it.each(saved.map((c, i) => [i, c.method, c] as const))('saved case %i (%s) holds', async (_i, _m, c) => {
    expect(await env.run(c), c.body).toEqual([]);
  });

  it(`${SEEDED_CASES} seeded random cases hold`, async () => {
    const rng = new Rng(20_251_126);
    const problems: string[] = [];
    for (let i = 0; i < SEEDED_CASES; i++) {
      const c = randomApiCase(rng);
      for (const p of await env.run(c)) problems.push(`${c.method} ${c.body.slice(0, 200)}: ${p}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);
});
