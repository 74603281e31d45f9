#!/usr/bin/env node
// The CLI is bundled to out/cli by `npm run build:cli` (run by `prepare` on install).
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
const entry = fileURLToPath(new URL('../out/cli/pakscope.mjs', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('pakscope: the CLI is not built; run `npm run build:cli` in the PakScope folder\n');
  process.exit(1);
}
await import(entry);
