/**
 * How soon a long streamed sound starts playing: a 10-minute synthetic sound (bench/sound-writer.ts,
 * PCM and Opus), the time from asking to a WAV of its first 10 s (decodeSoundStart + writeWav,
 * what the sound view plays first), on this thread and in a warm worker pool, beside the time of
 * the whole decode. Target: under 300 ms. `npx tsx bench/sound-start.ts`
 */
import { decodeSound } from '../src/core/assets/sound/kind.js';
import { decodeSoundStart } from '../src/core/assets/sound/progressive.js';
import { writeWav } from '../src/core/assets/sound/wav.js';
import { createWorkerPool } from '../src/core/workers/pool.js';
import { opusStreamedSound, pcmStreamedSound } from './sound-writer.js';

const MINUTES = 10;
const pool = createWorkerPool({ threads: 2 });
await pool.warm();
for (const sound of [pcmStreamedSound(MINUTES * 60), opusStreamedSound(MINUTES * 60)]) {
  const rows: string[] = [];
  for (const [where, p] of [['this thread', undefined], ['worker pool', pool]] as const) {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      const start = await decodeSoundStart(sound, { seconds: 10, ...(p ? { pool: p } : {}) });
      writeWav(start.pcm);
      times.push(performance.now() - t);
    }
    rows.push(`${where} ${Math.min(...times).toFixed(0)} ms`);
  }
  const t = performance.now();
  await decodeSound(sound, undefined, pool);
  const whole = performance.now() - t;
  console.log(`${sound.format} ${MINUTES} min, ${sound.chunks} chunks: start (first 10 s) ${rows.join(', ')}; whole decode ${(whole / 1000).toFixed(2)} s; target < 300 ms`);
}
await pool.destroy();
