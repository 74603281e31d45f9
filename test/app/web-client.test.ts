/** The browser page's quiet retry schedule when the host stops (issue 24, 8). */
import { describe, expect, it } from 'vitest';
import { nextRetryDelay, RETRY_FIRST_MS, RETRY_MAX_MS } from '../../src/renderer/src/lib/web-client.js';

describe('nextRetryDelay', () => {
  it('waits 2 s first, then twice as long each time, never more than 30 s', () => {
    const waits: number[] = [];
    let d = 0;
    for (let i = 0; i < 7; i++) waits.push((d = nextRetryDelay(d)));
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect([RETRY_FIRST_MS, RETRY_MAX_MS]).toEqual([2_000, 30_000]);
  });
});
