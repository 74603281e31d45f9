/**
 * Batches jobs into pool tasks. A task costs a round trip (tens of microseconds on each side)
 * whatever it carries, about as much as decoding one small block, so jobs that wait are sent
 * together: each task takes the jobs that queued meanwhile, up to a byte budget shared out among
 * the free task slots. A job on a pool with an idle worker goes at once; a second task for a busy
 * worker (up to `maxTasks` in all, so a worker finds its next task waiting when it finishes one)
 * goes once a few jobs wait, as a round trip costs more than a short wait for them.
 *
 * Each job settles on its own: a job that fails rejects its caller only; when a worker dies, the
 * jobs of its task are sent again one task each, so only the job that kills it fails (a file
 * the worker had written is not written twice: its flag says so). A caller's AbortSignal rejects its
 * job at once (reads) or, for jobs with effects on disk (writes), asks the worker to stop it
 * through a shared flag and waits for its answer.
 */
import { JobFlag, reviveError, type JobValue, type PoolTask, type TaskJob, type TaskReply } from './wire.js';
import { tagJobIndex } from './block-job.js';

export interface SubmitOptions {
  signal?: AbortSignal;
  /** Stored bytes a decode job needs in the task's input buffer, in order. */
  input?: readonly Uint8Array[];
  /** The caller must wait for the worker's own answer after an abort (its job writes files). */
  settleInWorker?: boolean;
}

/** Sends one task; rejects when the worker running it failed (died, or threw outside a job). */
export type TaskRunner = (task: PoolTask, transfer: ArrayBuffer[]) => Promise<TaskReply>;

interface Pending {
  job: TaskJob;
  bytes: number;
  input: readonly Uint8Array[] | undefined;
  signal: AbortSignal | undefined;
  settleInWorker: boolean;
  /** Sent in a task of its own (a retry after a worker died). */
  alone: boolean;
  done: boolean;
  /** Once sent: the task's job flags and this job's slot. */
  sent: { flags: Int32Array; slot: number } | null;
  resolve(v: JobValue): void;
  reject(e: unknown): void;
}

/** `sent` of jobs sent without flags (no signal, no write). */
const NO_FLAGS = { flags: new Int32Array(1), slot: 0 };
/** Jobs in one task at most, whatever their size. */
const MAX_JOBS_PER_TASK = 256;

export class TaskBatcher {
  private queue: Pending[] = [];
  private head = 0;
  private queuedBytes = 0;
  private queuedJobs = 0;
  private running = 0;
  private pumpQueued = false;
  /** Signals listened to, with their jobs not settled yet. */
  private readonly watched = new WeakMap<AbortSignal, Set<Pending>>();

  /**
   * @param threads tasks sent whenever one is waiting; up to `maxTasks`, a further task (waiting at
   *   a busy worker) is only sent once `aheadJobs` jobs wait: a round trip costs about as much as a
   *   small job, so a few jobs are better sent together when the worker finishes.
   */
  constructor(private readonly run: TaskRunner, private readonly threads: number, private readonly maxTasks: number,
    private readonly budgetBytes: number, private readonly aheadJobs: number) {}

  /** Resolves with the job's value from the worker (null: the worker skipped it after an abort). */
  submit(job: TaskJob, bytes: number, opts: SubmitOptions = {}): Promise<JobValue> {
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<JobValue>((resolve, reject) => {
      const p: Pending = {
        job, bytes, input: opts.input, signal, settleInWorker: opts.settleInWorker ?? false, alone: false, done: false,
        sent: null, resolve, reject,
      };
      if (signal) this.watch(signal, p);
      this.enqueue(p);
    });
  }

  private enqueue(p: Pending, first = false): void {
    if (first) {
      this.queue.splice(this.head, 0, p);
    } else {
      this.queue.push(p);
    }
    this.queuedBytes += p.bytes;
    this.queuedJobs++;
    if (!this.pumpQueued) {
      // Jobs submitted in the same turn go out together.
      this.pumpQueued = true;
      queueMicrotask(() => {
        this.pumpQueued = false;
        this.pump();
      });
    }
  }

  private abort(p: Pending): void {
    if (p.done) return;
    if (p.sent && p.sent !== NO_FLAGS) Atomics.compareExchange(p.sent.flags, p.sent.slot, JobFlag.Pending, JobFlag.Cancelled);
    // Not sent yet (it is dropped when its turn comes), or a read whose answer no one waits for.
    if (!p.sent || !p.settleInWorker) this.settle(p, () => p.reject(p.signal!.reason));
  }

  /**
   * One listener per signal for all its jobs (an export sends thousands under one signal, and
   * adding a listener costs more than the rest of a job's bookkeeping).
   */
  private watch(signal: AbortSignal, p: Pending): void {
    let jobs = this.watched.get(signal);
    if (!jobs) {
      const set = new Set<Pending>();
      jobs = set;
      this.watched.set(signal, set);
      signal.addEventListener('abort', () => {
        this.watched.delete(signal);
        for (const job of set) this.abort(job);
      }, { once: true });
    }
    jobs.add(p);
  }

  private settle(p: Pending, fn: () => void): void {
    if (p.done) return;
    p.done = true;
    if (p.signal) this.watched.get(p.signal)?.delete(p);
    fn();
  }

  private pump(): void {
    while (this.running < this.maxTasks) {
      if (this.running >= this.threads && this.queuedJobs < this.aheadJobs && this.queuedBytes < this.budgetBytes) break;
      const batch = this.take();
      if (batch.length === 0) break;
      this.send(batch);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** The next task's jobs: the waiting bytes shared out among the free task slots, within the budget. */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const slots = Math.max(1, (this.running < this.threads ? this.threads : this.maxTasks) - this.running);
    const share = Math.min(this.budgetBytes, Math.ceil(this.queuedBytes / slots));
    let bytes = 0;
    while (this.head < this.queue.length && batch.length < MAX_JOBS_PER_TASK) {
      const p = this.queue[this.head]!;
      if (p.done) {
        this.dequeue();
        continue;
      }
      if (batch.length > 0 && (p.alone || batch[0]!.alone || bytes + p.bytes > share)) break;
      this.dequeue();
      batch.push(p);
      bytes += p.bytes;
    }
    return batch;
  }

  private dequeue(): void {
    this.queuedBytes -= this.queue[this.head]!.bytes;
    this.queuedJobs--;
    this.queue[this.head++] = undefined as unknown as Pending;
  }

  private send(batch: Pending[]): void {
    // Flags only when some job can be cancelled or writes a file.
    const flags = batch.some((p) => p.signal || p.job.kind === 'write') ? new Int32Array(new SharedArrayBuffer(4 * batch.length)) : undefined;
    const task: PoolTask = { jobs: batch.map((p) => p.job), ...(flags ? { flags } : {}) };
    const transfer: ArrayBuffer[] = [];
    const inputBytes = batch.reduce((n, p) => n + (p.input ? p.input.reduce((m, d) => m + d.length, 0) : 0), 0);
    if (inputBytes > 0) {
      // One fresh buffer holds every decode job's stored bytes, so only those bytes cross, once.
      const input = new ArrayBuffer(inputBytes);
      const bytes = new Uint8Array(input);
      let pos = 0;
      for (const p of batch) {
        const data = p.input;
        if (!data || p.job.kind !== 'decode') continue;
        p.job = {
          kind: 'decode',
          blocks: p.job.blocks.map((w, i) => {
            const start = pos;
            bytes.set(data[i]!, start);
            pos += data[i]!.length;
            return { ...w, start, length: data[i]!.length };
          }),
        };
      }
      task.jobs = batch.map((p) => p.job);
      task.input = input;
      transfer.push(input);
    }
    if (flags) batch.forEach((p, slot) => { p.sent = { flags, slot }; });
    else batch.forEach((p) => { p.sent = NO_FLAGS; });
    this.running++;
    this.run(task, transfer).then(
      (reply) => {
        this.running--;
        for (let i = 0; i < batch.length; i++) this.answer(batch[i]!, reply.replies[i]);
        this.pump();
      },
      (e: unknown) => {
        this.running--;
        this.workerFailed(batch, e);
        this.pump();
      },
    );
  }

  private answer(p: Pending, r: TaskReply['replies'][number] | undefined): void {
    if (!r) {
      this.settle(p, () => p.reject(new Error('block decoder worker failed: no answer for a job')));
    } else if (r.ok) {
      this.settle(p, () => p.resolve(r.value));
    } else {
      this.settle(p, () => p.reject(tagJobIndex(reviveError(r.error), r.index)));
    }
  }

  /** The worker died (or the task could not be sent): a lone job fails, the others go again alone. */
  private workerFailed(batch: Pending[], e: unknown): void {
    const live = batch.filter((p) => !p.done);
    if (batch.length === 1) {
      for (const p of live) {
        this.settle(p, () => {
          if (p.signal?.aborted) p.reject(p.signal.reason);
          else p.reject(new Error(`block decoder worker failed: ${(e as Error)?.message ?? e}`));
        });
      }
      return;
    }
    for (const p of live.reverse()) {
      // A write job goes again as it is: its files' flags tell the worker which are done already.
      p.sent = null;
      p.alone = true;
      this.enqueue(p, true);
    }
  }
}
