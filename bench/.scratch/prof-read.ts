import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
const path = process.argv[2]!;
const pool = createWorkerPool({ threads: 1, workerFile: '/work/main/out/cli/worker.mjs' });
const c = await openIoStoreContainer(path, { decoder: pool });
const refs = c.files().filter((f) => f.chunkType === 'BulkData').map((f) => f.ref);
for (let i = refs.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [refs[i], refs[j]] = [refs[j]!, refs[i]!]; }
const pick = refs.slice(0, 600);
for (let pass = 0; pass < 3; pass++) {
  let next = 0; let bytes = 0; const t0 = performance.now(); const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 4 }, async () => { while (next < pick.length) bytes += (await c.readChunk(pick[next++]!)).length; }));
  const cpu = process.cpuUsage(c0);
  console.log(`pass ${pass}: ${(bytes / 2 ** 20 / ((performance.now() - t0) / 1000)).toFixed(0)} MiB/s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s for ${(bytes / 2 ** 20).toFixed(0)} MiB`);
}
await pool.destroy();
