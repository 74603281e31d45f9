// A stand-in for the pool's worker (src/core/workers/worker.ts) that answers every read job with
// a fresh zeroed output of the plan's size, read and decoded from nothing: bench/transport-cost.ts
// measures with it what the way to and from a worker costs, apart from the work done there.
import { parentPort } from 'node:worker_threads';

/** wire.ts's TRANSFER: the buffers of the answer to move. */
const TRANSFER = Symbol.for('pakscope.worker.transfer');

function answer(task) {
  const replies = [];
  const transfer = [];
  for (const job of task.jobs) {
    const out = new Uint8Array(job.plan.size);
    transfer.push(out.buffer);
    replies.push({ ok: true, value: out });
  }
  return { reply: { replies }, transfer };
}

/** The pool's entry, as worker.ts's runTask. */
export default async function runTask(task) {
  await null;
  const { reply, transfer } = answer(task);
  return { [TRANSFER]: transfer, value: reply };
}

export function warm() {}

// A request ring of transport-cost.ts's own: reads come as [id, size] pairs in shared memory
// (ring[0] the count written, ring[1] 1 while this thread waits for more), this thread is woken
// with Atomics.notify only when it waits, and answers all the reads it found in one message.
if (parentPort && process.env.PAKSCOPE_BLANK_RING === '1') {
  let ring = null;
  let done = 0;
  const drain = () => {
    for (;;) {
      const written = Atomics.load(ring, 0);
      if (written === done) break;
      const ids = [];
      const outs = [];
      for (; done < written; done++) {
        const at = 2 + 2 * (done % ((ring.length - 2) / 2));
        ids.push(ring[at]);
        outs.push(new Uint8Array(ring[at + 1]));
      }
      parentPort.postMessage({ ids, outs }, outs.map((o) => o.buffer));
    }
    Atomics.store(ring, 1, 1);
    // A read written after the last look but before the flag was set is not missed: look again.
    if (Atomics.load(ring, 0) !== done) { Atomics.store(ring, 1, 0); return drain(); }
    const wait = Atomics.waitAsync(ring, 0, done);
    const again = () => { Atomics.store(ring, 1, 0); drain(); };
    if (wait.async) wait.value.then(again);
    else queueMicrotask(again);
  };
  // A listener that stays keeps this thread's loop alive (Atomics.waitAsync alone does not).
  parentPort.on('message', (r) => { ring = r; drain(); });
}

// A bare worker_threads Worker of transport-cost.ts's own: one message per task each way on
// parentPort, with no pool bookkeeping at all.
if (parentPort && process.env.PAKSCOPE_BLANK_PLAIN === '1') {
  parentPort.on('message', ({ id, task }) => {
    const { reply, transfer } = answer(task);
    parentPort.postMessage({ id, reply }, transfer);
  });
}
