/** Runs one bundled probe in a child process and returns the result it printed. */
import { spawn } from 'node:child_process';
import { probeFile, type ProbeName } from './build-probes.js';
import { RESULT_PREFIX } from './probes/probe-io.js';

export interface ProbeOptions {
  timeoutMs?: number;
  /** Extra node flags (e.g. --expose-gc). */
  nodeArgs?: string[];
  onProgress?: (line: string) => void;
}

export function runProbe<T>(name: ProbeName, args: unknown, opts: ProbeOptions = {}): Promise<T> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), probeFile(name), JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    let nl: number;
    while ((nl = err.indexOf('\n')) >= 0) {
      opts.onProgress?.(err.slice(0, nl));
      err = err.slice(nl + 1);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code === 0 && line) resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as T);
      else reject(new Error(`probe ${name} ${signal ? `was killed (${signal})` : `exited with ${code}`}${err ? `: ${err.trim()}` : ''}\n${out.slice(-2000)}`));
    });
  });
}
