/**
 * Name, import and export counts of the corpus's classic packages as test/oracle/uasset_counts.py
 * reads them: an independent reading of FPackageFileSummary (Python, written from the engine's
 * serializer, no code shared with src/), for the files whose MANIFEST.tsv line has no counts.
 * It agrees with the manifest on all 123 counts the manifest has (checked in corpus.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { corpus } from '../support/corpus.js';
import { manifest } from './manifest.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../oracle/uasset_counts.py', import.meta.url));

export interface OracleCounts { names: number; imports: number; exports: number }

const cache = new Map<string, OracleCounts>();

/** Counts by corpus-relative path ("cooked/uapi423_Items.uasset"): the oracle runs once for those not read yet. */
export function oracleCounts(wanted: readonly string[]): Map<string, OracleCounts> {
  const rels = wanted.filter((rel) => !cache.has(rel));
  if (rels.length === 0) return cache;
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: npm test installs it (scripts/ensure-test-tools.mjs)`);
  // An unversioned cooked UE5 package does not name its layout: the manifest's engine column ("UE5.4 ...") does.
  const args = rels.map((rel) => {
    const release = /^UE(5\.\d)/.exec(manifestEngine(rel))?.[1] ?? '';
    return `${corpus(rel)}=${release}`;
  });
  const out = execFileSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', timeout: 30_000 });
  for (const line of out.trim().split('\n')) {
    const o = JSON.parse(line) as { file: string; error?: string } & OracleCounts;
    const rel = rels[args.findIndex((a) => a.startsWith(`${o.file}=`))]!;
    if (o.error) throw new Error(`oracle could not read ${rel}: ${o.error}`);
    cache.set(rel, { names: o.names, imports: o.imports, exports: o.exports });
  }
  return cache;
}

function manifestEngine(rel: string): string {
  const e = manifest().get(rel);
  if (!e) throw new Error(`${rel} is not in MANIFEST.tsv`);
  return e.engine;
}
