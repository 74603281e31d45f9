// The pool runs the bundled worker (out/cli/worker.mjs), not the TypeScript sources: build it when
// it is missing or older than the sources it bundles (`npm test` builds it first anyway).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WORKER_BUNDLE = join(ROOT, 'out/cli/worker.mjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.ts')) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

export function ensureWorkerBundle(): string {
  let built = 0;
  try { built = statSync(WORKER_BUNDLE).mtimeMs; } catch { /* not built */ }
  if (built < newestSource(join(ROOT, 'src/core'))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT, stdio: 'pipe' });
  }
  return WORKER_BUNDLE;
}
