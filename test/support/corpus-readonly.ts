// Global setup: hashes every corpus file before the suite and again after it. Inputs are opened
// read-only and must never change; a change fails the run.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from './corpus.js';

function snapshot(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p, `${statSync(p).mtimeMs}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(CORPUS);
  return out;
}

let before: Map<string, string>;

export function setup(): void {
  before = snapshot();
  if (before.size === 0) throw new Error(`no corpus at ${CORPUS}: the tests need ../shared beside the project`);
}

export function teardown(): void {
  const after = snapshot();
  const changed = [...before.keys()].filter((p) => after.get(p) !== before.get(p));
  const added = [...after.keys()].filter((p) => !before.has(p));
  if (changed.length || added.length) {
    // vitest reports a throw here but still exits 0, so set the exit code as well.
    process.exitCode = 1;
    throw new Error(`the test suite changed the corpus (inputs must be read-only): ${[...changed, ...added].slice(0, 10).join(', ')}`);
  }
}
