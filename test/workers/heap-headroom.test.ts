import { describe, expect, it, vi } from 'vitest';
import { growthPercent, keepHeapHeadroom } from '../../src/core/workers/heap-headroom.js';

// V8's flag setter and heap size seen through a spy, so the test sees what is asked of V8.
const v8 = vi.hoisted(() => ({ flags: [] as string[], used: 22 * 2 ** 20 }));
vi.mock('node:v8', async (original) => ({
  ...(await original<typeof import('node:v8')>()),
  getHeapStatistics: () => ({ used_heap_size: v8.used }),
  setFlagsFromString: (flag: string) => { v8.flags.push(flag); },
}));

const MB = 2 ** 20;

describe('heap headroom (the main thread collector while reads stream in)', () => {
  it('asks for about 64 MB above a small heap, at most 1 + 600 %', () => {
    // The quick install opened leaves a heap of about 22 MB, the full one about 31 MB.
    expect(growthPercent(22 * MB)).toBe(291);
    expect(growthPercent(31 * MB)).toBe(207);
    expect(growthPercent(4 * MB)).toBe(600);
    expect(growthPercent(0)).toBe(600);
  });

  it("leaves a heap of 128 MB or more to V8's own growth", () => {
    expect(growthPercent(127 * MB)).toBe(51);
    expect(growthPercent(128 * MB)).toBe(0);
    expect(growthPercent(2048 * MB)).toBe(0);
  });

  it('asks V8 for the growth of the heap it has, once however often the pool starts it', () => {
    keepHeapHeadroom();
    keepHeapHeadroom();
    expect(v8.flags).toEqual(['--heap-growing-percent=291']);
  });
});
