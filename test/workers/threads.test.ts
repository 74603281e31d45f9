/**
 * The pool's threads (threads.ts) against the bundled worker: named tasks, buffers moved not
 * copied, a missing task named, idle threads stopped, and an idle pool that lets its process end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentDigest } from '../../src/core/hash/chunk-hash.js';
import { WorkerThreads } from '../../src/core/workers/threads.js';
import { ensureWorkerBundle } from './worker-bundle.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let bundle: string;
const made: WorkerThreads[] = [];
const threads = (max: number, idleMs = 60_000): WorkerThreads => {
  const t = new WorkerThreads(bundle, max, 2, idleMs, () => {});
  made.push(t);
  return t;
};

beforeAll(() => {
  bundle = ensureWorkerBundle();
});
afterAll(async () => {
  await Promise.all(made.map((t) => t.destroy()));
});

describe('worker threads', () => {
  it('run a named export, moving the buffers given (the sender\'s are detached)', async () => {
    const t = threads(1);
    const data = new Uint8Array(100_000).map((_, i) => (i * 31) & 255);
    const expected = await contentDigest(data);
    const copy = data.slice();
    await expect(t.run<string>({ data: copy }, 'digest', [copy.buffer])).resolves.toBe(expected);
    expect(copy.byteLength).toBe(0);
  });

  it('reject a task the worker file has no export for, naming it, and work on', async () => {
    const t = threads(1);
    await expect(t.run(null, 'noSuchTask')).rejects.toThrow(/no task noSuchTask in .*worker\.mjs/);
    await expect(t.run(null, 'warm')).resolves.toBeUndefined();
  });

  it('start one thread per task up to their number, and stop threads idle for longer than asked', async () => {
    const t = threads(2, 1000);
    await Promise.all([t.run(null, 'warm'), t.run(null, 'warm')]);
    expect(t.running).toBe(2);
    const until = Date.now() + 5000;
    while (t.running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(t.running).toBe(0);
    // And start again when asked.
    await t.run(null, 'warm');
    expect(t.running).toBe(1);
  });

  it('reject a task whose buffers to move were moved already, instead of waiting for ever, and work on', async () => {
    // Node drops such a message silently: the task would never be answered.
    const t = threads(1);
    const data = new Uint8Array(1000).fill(5);
    await t.run<string>({ data }, 'digest', [data.buffer]);
    expect(data.byteLength).toBe(0);
    const again = t.run<string>({ data }, 'digest', [data.buffer]);
    const late = new Promise((r) => setTimeout(() => r('still waiting'), 3000));
    await expect(Promise.race([again.then(() => 'answered', (e: Error) => e.message), late])).resolves.toMatch(/detached/);
    await expect(t.run<string>({ data: new Uint8Array(3) }, 'digest')).resolves.toBe(await contentDigest(new Uint8Array(3)));
  });

  it('reject a task whose answer names a detached buffer to move, instead of dropping the answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pakscope-threads-'));
    const file = join(dir, 'worker.mjs');
    writeFileSync(file, `const T = Symbol.for('pakscope.worker.transfer');
      export function spent() { const b = new Uint8Array(8); structuredClone(b, { transfer: [b.buffer] }); return { [T]: [b.buffer], value: b }; }
      export function fine() { const b = new Uint8Array(8).fill(1); return { [T]: [b.buffer], value: b }; }`);
    const t = new WorkerThreads(file, 1, 2, 60_000, () => {});
    made.push(t);
    const late = new Promise((r) => setTimeout(() => r('still waiting'), 3000));
    await expect(Promise.race([t.run(null, 'spent').then(() => 'answered', (e: Error) => e.message), late])).resolves.toMatch(/detached/);
    await expect(t.run<Uint8Array>(null, 'fine')).resolves.toEqual(new Uint8Array(8).fill(1));
  });

  it('keep no process alive once idle: a CLI-like run that never closes its pool ends by itself', () => {
    const script = `
      import { createWorkerPool } from ${JSON.stringify(new URL('src/core/workers/pool.ts', `file://${ROOT}/`).href)};
      import { deflateSync } from 'node:zlib';
      const pool = createWorkerPool({ threads: 2, workerFile: ${JSON.stringify(bundle)} });
      const data = deflateSync(Buffer.alloc(200000, 7));
      const [out] = await pool.decode([{ data, codec: 'Zlib', compressedSize: data.length, uncompressedSize: 200000 }]);
      console.log(out.length, out[199999]);
    `;
    const started = Date.now();
    const printed = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 30_000 }).toString();
    expect(printed.trim()).toBe('200000 7');
    // Far below the pool's 5 minutes of idle time: nothing waited for the threads to stop.
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});
