import { describe, expect, it } from 'vitest';
import { growthPercent, keepHeapHeadroom } from '../../src/core/workers/heap-headroom.js';

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

  it('sets the flag on this Node without throwing, once', () => {
    expect(() => { keepHeapHeadroom(); keepHeapHeadroom(); }).not.toThrow();
  });
});
