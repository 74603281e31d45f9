/**
 * The worker pool's threads: plain worker_threads Workers, each running the handlers the worker
 * file exports (worker.ts: its default export takes the batched tasks, named ones hash, decodeImage
 * and the rest). One message per task each way, nothing else: no per-task resource, timer or
 * histogram, and no second wake-up signal beside the message. (This replaces piscina, whose
 * bookkeeping cost about 3 µs of this thread's CPU and 2 of a worker's per 64 KiB block read,
 * 40 % of what the way to a worker and back costs; bench/transport-cost.ts, bench/README.md.)
 *
 * A task goes to an idle thread first; else to a new thread while there are fewer than `max`;
 * else to the least busy thread with fewer than `perThread` tasks (one running, the next waiting
 * in its port); else it waits here for room. A thread that dies (an uncaught error, a crashed
 * decoder that exits it) rejects the tasks it had, and the next task starts a new one. Threads
 * idle for `idleMs` stop; a thread is unref'd while it has no task, so an idle pool never keeps
 * the process alive, and a busy one does until its answers are in.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TRANSFER } from './wire.js';

/**
 * What each thread runs, an ES module given as a data: URL (so no flag of the process, such as
 * --input-type, changes how it is read): imports the worker file (an ES module, or CommonJS whose
 * exports come as its default) and answers each { id, name, task } with { id, ok, value } or
 * { id, ok: false, error }, moving the buffers a handler names with TRANSFER (wire.ts moved()),
 * the empty ones left out as send() leaves them out (a detached one would drop the answer).
 */
const BOOT = `
import { parentPort, workerData } from 'node:worker_threads';
const TRANSFER = Symbol.for(${JSON.stringify(TRANSFER.description)});
const loaded = import(workerData.url);
const handler = (mod, name) => {
  if (typeof mod[name] === 'function') return mod[name];
  const cjs = mod.default;
  return cjs !== null && typeof cjs === 'object' && typeof cjs[name] === 'function' ? cjs[name] : undefined;
};
const answer = (reply, transfer) => {
  try { parentPort.postMessage(reply, transfer); }
  catch (e) { parentPort.postMessage({ id: reply.id, ok: false, error: new Error(e && e.message || String(e)) }); }
};
parentPort.on('message', async (m) => {
  let reply, transfer;
  try {
    const fn = handler(await loaded, m.name);
    if (!fn) throw new Error('no task ' + m.name + ' in ' + workerData.file);
    let value = await fn(m.task);
    if (value !== null && typeof value === 'object' && TRANSFER in value) { transfer = value[TRANSFER].filter((b) => b.byteLength > 0); value = value.value; }
    reply = { id: m.id, ok: true, value };
  } catch (error) {
    reply = { id: m.id, ok: false, error };
  }
  answer(reply, transfer);
});
`;
const BOOT_URL = new URL(`data:text/javascript,${encodeURIComponent(BOOT)}`);

interface Queued {
  task: unknown;
  name: string;
  transfer: readonly ArrayBuffer[];
  resolve(value: unknown): void;
  reject(e: unknown): void;
}

interface Thread {
  worker: Worker;
  tasks: Map<number, Queued>;
  idleSince: number;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: unknown };

export class WorkerThreads {
  private readonly all: Thread[] = [];
  private waiting: Queued[] = [];
  private nextId = 0;
  private sweep: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  /** `onError`: an uncaught error of a thread (its tasks are rejected with it too). */
  constructor(private readonly file: string, private readonly max: number, private readonly perThread: number,
    private readonly idleMs: number, private readonly onError: (e: unknown) => void) {}

  /** Threads started and not stopped (idle ones included). */
  get running(): number {
    return this.all.length;
  }

  /** Runs the worker file's export `name` on `task` in a thread; `transfer` is moved there. */
  run<T>(task: unknown, name = 'default', transfer: readonly ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<T>((resolve, reject) => {
      const q: Queued = { task, name, transfer, resolve: resolve as (v: unknown) => void, reject };
      const thread = this.waiting.length === 0 ? this.pick() : null;
      if (thread) this.send(thread, q);
      else this.waiting.push(q);
    });
  }

  /** Stops every thread; tasks not answered yet are rejected. */
  async destroy(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const q of waiting) q.reject(new Error('the worker pool was closed'));
    await Promise.all(this.all.map((t) => t.worker.terminate()));
  }

  private pick(): Thread | null {
    let best: Thread | null = null;
    for (const t of this.all) {
      const busy = t.tasks.size;
      if (busy === 0) return t;
      if (busy < this.perThread && (best === null || busy < best.tasks.size)) best = t;
    }
    return this.all.length < this.max ? this.start() : best;
  }

  private start(): Thread {
    const worker = new Worker(BOOT_URL, { workerData: { file: this.file, url: pathToFileURL(this.file).href } });
    worker.unref();
    const t: Thread = { worker, tasks: new Map(), idleSince: Date.now() };
    worker.on('message', (m: Answer) => this.answer(t, m));
    worker.on('error', (e) => {
      this.onError(e);
      this.lost(t, e);
    });
    worker.on('exit', (code) => this.lost(t, new Error(`worker thread exited with code ${code}`)));
    this.all.push(t);
    if (!this.sweep) {
      this.sweep = setInterval(() => this.stopIdle(), Math.max(1000, this.idleMs / 4));
      this.sweep.unref();
    }
    return t;
  }

  private send(t: Thread, q: Queued): void {
    const id = this.nextId++;
    if (t.tasks.size === 0) t.worker.ref();
    t.tasks.set(id, q);
    try {
      // Node drops a message whose transfer list holds a detached buffer without a word, and its
      // task would wait for ever (keeping the process alive): a detached buffer has no bytes, so
      // empty ones are left out of the list, and cloning a view of a detached one throws here.
      const transfer = q.transfer.some((b) => b.byteLength === 0) ? q.transfer.filter((b) => b.byteLength > 0) : q.transfer;
      t.worker.postMessage({ id, name: q.name, task: q.task }, transfer as ArrayBuffer[]);
    } catch (e) {
      // Not cloneable (or a buffer already moved): this task fails, the thread is fine.
      this.done(t, id);
      q.reject(e);
    }
  }

  private answer(t: Thread, m: Answer): void {
    const q = t.tasks.get(m.id);
    if (!q) return;
    this.done(t, m.id);
    if (m.ok) q.resolve(m.value);
    else q.reject(m.error);
    this.drain();
  }

  private done(t: Thread, id: number): void {
    t.tasks.delete(id);
    if (t.tasks.size === 0) {
      t.worker.unref();
      t.idleSince = Date.now();
    }
  }

  /** Tasks that waited for room, to threads that have it now. */
  private drain(): void {
    while (this.waiting.length > 0 && !this.closed) {
      const t = this.pick();
      if (!t) return;
      this.send(t, this.waiting.shift()!);
    }
  }

  /** A thread that died: its tasks fail, the others carry on (a new thread starts when needed). */
  private lost(t: Thread, e: unknown): void {
    const i = this.all.indexOf(t);
    if (i >= 0) this.all.splice(i, 1);
    const tasks = [...t.tasks.values()];
    t.tasks.clear();
    for (const q of tasks) q.reject(e);
    this.drain();
  }

  private stopIdle(): void {
    const now = Date.now();
    for (const t of [...this.all]) {
      if (t.tasks.size === 0 && now - t.idleSince >= this.idleMs) {
        this.all.splice(this.all.indexOf(t), 1);
        void t.worker.terminate();
      }
    }
    if (this.all.length === 0 && this.sweep) {
      clearInterval(this.sweep);
      this.sweep = undefined;
    }
  }
}
