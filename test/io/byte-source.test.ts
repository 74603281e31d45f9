import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FileByteSource } from '../../src/core/io/byte-source.js';
import { corpus } from '../support/corpus.js';

describe('FileByteSource', () => {
  const path = corpus('oodle', 'xml.kraken');
  const whole = readFileSync(path);

  it('gives the same bytes as the file through a small block cache, across block edges', async () => {
    const src = await FileByteSource.open(path, { blockSize: 4096, cacheBytes: 16384 });
    try {
      expect(src.size).toBe(484282);
      for (const [off, len] of [[0, 4], [4090, 20], [8191, 1], [100000, 9000], [484282 - 7, 7], [12345, 70000]] as const) {
        expect(Buffer.from(await src.read(off, len))).toEqual(whole.subarray(off, off + len));
      }
      const all = await src.read(0, src.size);
      expect(createHash('sha256').update(all).digest('hex')).toBe('af3b00ad19f8d649fce56027c01abc19c4021fb763aefa2d6ce4be51e1bf0cf8');
    } finally {
      await src.close();
    }
  });

  it('refuses reads past the end with the file name and offset', async () => {
    const src = await FileByteSource.open(path);
    try {
      await expect(src.read(484280, 8, 'compression block')).rejects.toThrow(/xml\.kraken: compression block at byte 484280: 8 bytes past the end/);
    } finally {
      await src.close();
    }
  });
});
