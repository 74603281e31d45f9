/** The Sequence view's timeline span (renderer lib/sequence.ts) over many sections: their bounds, not a RangeError. */
import { describe, expect, it } from 'vitest';
import { timelineSpan } from '../../src/renderer/src/lib/sequence.js';
import type { SequenceAsset } from '../../src/shared/api.js';

const at = (seconds: number) => ({ seconds });

describe('timelineSpan', () => {
  it('spans 100,000 sections (200,000 bounds) from the first start to the last end', () => {
    const n = 100_000;
    const sections = Array.from({ length: n }, (_, i) => ({ range: { start: at(i), end: at(i + 0.5) } }));
    const s = { playbackRange: { start: null, end: null }, tracks: [{ sections }], bindings: [] } as unknown as SequenceAsset;
    expect(timelineSpan(s)).toEqual({ start: 0, end: n - 0.5 });
  });
});
