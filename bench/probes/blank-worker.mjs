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

// A bare worker_threads Worker of transport-cost.ts's own: one message per task each way on
// parentPort, with no pool bookkeeping at all.
if (parentPort && process.env.PAKSCOPE_BLANK_PLAIN === '1') {
  parentPort.on('message', ({ id, task }) => {
    const { reply, transfer } = answer(task);
    parentPort.postMessage({ id, reply }, transfer);
  });
}
