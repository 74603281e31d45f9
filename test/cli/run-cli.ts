// Runs the built CLI (bin/pakscope.mjs -> out/cli/pakscope.mjs) as a user would.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/pakscope.mjs', import.meta.url));

/**
 * Builds out/cli unless it is newer than every source file: `npm test` has just built it, and two
 * test files rebuilding at once could run a half-written bundle.
 */
export function buildCli(): void {
  const bundle = join(ROOT, 'out/cli/pakscope.mjs');
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const sources = [join(ROOT, 'package.json'), join(ROOT, 'scripts/build-cli.mjs'), ...listFiles(join(ROOT, 'src'))];
  if (sources.every((f) => statSync(f).mtimeMs < built)) return;
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []);
}

export interface CliResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** stdout as text. */
  out: string;
}

export function pakscope(args: string[], opts: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out);
      resolve({ code, stdout, out: stdout.toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Starts the CLI and closes its stdout after the first bytes, as `| head -c 1` does. */
export function pakscopeClosingStdout(args: string[]): Promise<{ code: number | null; stderr: string; received: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let received = 0;
    const err: Buffer[] = [];
    child.stdout.once('data', (b: Buffer) => {
      received = b.length;
      child.stdout.destroy();
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8'), received }));
  });
}
