/**
 * Making recipes from seeds, and the saved regression recipes (test/fuzz/recipes.json): one per
 * bug the fuzzer found, replayed by the test command. They hold source names, hashes, mutations
 * and seeds, never file bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateMutations, Rng, type GenerateOptions, type SpliceCandidate } from './mutate.js';
import type { CaseEnv, CliCommand, Recipe } from './run-case.js';
import type { Source, SourceKind } from './sources.js';

export const RECIPES_FILE = fileURLToPath(new URL('./recipes.json', import.meta.url));

export interface SavedRecipe extends Recipe {
  /** The failure it reproduced when found (signature of CaseFailure). */
  signature: string;
}

export function loadRecipes(file = RECIPES_FILE): SavedRecipe[] {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SavedRecipe[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/** One recipe per line of JSON keeps the file diffable. */
export function saveRecipes(recipes: readonly SavedRecipe[], file = RECIPES_FILE): void {
  writeFileSync(file, `[\n${recipes.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`);
}

/** Which kinds may splice from which: containers from their own kind, packages from packages. */
const SPLICE_GROUP: Record<SourceKind, string> = {
  utoc: 'utoc', ucas: 'ucas', pak: 'pak', uasset: 'package', zen: 'package', ue12: 'package',
  'container-header': 'header', 'script-objects': 'header', 'legacy-script-objects': 'header', 'legacy-global-names': 'header', 'legacy-global-name-hashes': 'header',
  oodle: 'oodle', uexp: 'uexp', usmap: 'usmap',
};

/** Where mutations land more often: headers, footers, indexes. */
function hotRanges(kind: SourceKind, length: number): [number, number][] {
  switch (kind) {
    case 'utoc': return [[0, 144], [144, Math.min(length, 4096)]];
    case 'pak': return [[Math.max(0, length - 256), length], [Math.max(0, length - 8192), length]];
    case 'uasset': case 'ue12': return [[0, Math.min(length, 1024)]];
    case 'zen': case 'container-header': case 'script-objects': case 'usmap': return [[0, Math.min(length, 512)]];
    case 'oodle': return [[0, Math.min(length, 64)]];
    default: return [];
  }
}

/** Up to three other sources of the same group to splice from (small ones first: cheap). */
function spliceCandidates(env: CaseEnv, source: Source, rng: Rng): SpliceCandidate[] {
  const group = SPLICE_GROUP[source.kind];
  const others = [...env.byName.values()].filter((s) => s.name !== source.name && SPLICE_GROUP[s.kind] === group);
  const out: SpliceCandidate[] = [];
  for (let k = 0; k < 2 && others.length > 0; k++) {
    const o = rng.pick(others);
    const { bytes, sha256 } = env.bytes.get(o.name);
    out.push({ name: o.name, sha256, bytes });
  }
  return out;
}

export interface MakeRecipeOptions {
  cli?: CliCommand[];
  pool?: boolean;
}

/** The recipe seed `seed` makes for `source`. */
export function makeRecipe(env: CaseEnv, source: Source, seed: number, opts: MakeRecipeOptions = {}): Recipe {
  const { bytes, sha256 } = env.bytes.get(source.name);
  const rng = new Rng(seed);
  const gen: GenerateOptions = {
    spliceFrom: spliceCandidates(env, source, rng),
    utoc: source.kind === 'utoc',
    hotRanges: hotRanges(source.kind, bytes.length),
  };
  const mutations = generateMutations(rng, bytes, gen);
  return {
    source: source.name, sha256, seed, mutations,
    ...(opts.cli?.length ? { cli: opts.cli } : {}),
    ...(opts.pool ? { pool: true } : {}),
  };
}

/** Whether decoding this source's blocks is Oodle work (so worth running through the pool). */
export function usesOodle(source: Source): boolean {
  return source.kind === 'oodle' || (/oodle/i.test(source.name) && (source.kind === 'utoc' || source.kind === 'ucas' || source.kind === 'pak'));
}
