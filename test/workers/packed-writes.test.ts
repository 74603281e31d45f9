/** A write job packed for a worker and taken apart again is the same files, plans and names. */
import { describe, expect, it } from 'vitest';
import { addPlanBlock, type BlockPlan } from '../../src/core/workers/block-plan.js';
import type { PlannedWrite } from '../../src/core/workers/file-write.js';
import { packWrites, unpackWrite } from '../../src/core/workers/packed-writes.js';

function plan(file: string, codecs: string[], blocks: number, extra: Partial<BlockPlan> = {}): BlockPlan {
  const table: number[] = [];
  for (let b = 0; b < blocks; b++) {
    addPlanBlock(table, { file: 0, offset: 1000 * b + 7, stored: 900 + b, compressed: 890 + b, uncompressed: 65536, codec: b % codecs.length,
      encrypted: extra.key !== undefined, iv: b, ctrBlock: 3 * b, at: 65536 * b, skip: 0, take: 65536 });
  }
  return { files: [file], codecs, size: 65536 * blocks, blocks: table, ...extra };
}

describe('packed write jobs', () => {
  it('give back every plan and name, sharing the lists they have in common', () => {
    const codecs = ['None', 'Zlib'];
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const files: PlannedWrite[] = [
      { plan: plan('/paks/a.ucas', codecs, 3), to: { temp: '/out/.t1', target: '/out/A.uasset', checkTarget: false } },
      { plan: plan('/paks/a.ucas', codecs, 1), to: { temp: '/out/.t2', target: '/out/B.ubulk', checkTarget: true } },
      { plan: plan('/paks/b.pak', ['Oodle'], 2, { key, ctrIvs: Uint8Array.from({ length: 24 }, (_, i) => 100 + i) }), to: { temp: '/out/.t3', target: '/out/C.bin', checkTarget: false } },
      { plan: plan('/paks/b.pak', ['Oodle'], 1, { key: key.slice() }), to: { temp: '/out/.t4', target: '/out/D.bin', checkTarget: true } },
    ];
    const packed = packWrites(files);
    expect(packed.count).toBe(4);
    expect(packed.fileLists).toEqual([['/paks/a.ucas'], ['/paks/b.pak']]);
    expect(packed.codecLists).toEqual([codecs, ['Oodle']]);
    expect(packed.keys).toHaveLength(1); // equal keys are sent once
    expect(packed.blocks.length).toBe(7 * 12);
    for (const [i, f] of files.entries()) {
      const back = unpackWrite(packed, i);
      expect({ target: back.to.target, temp: back.to.temp, checkTarget: back.to.checkTarget }).toEqual(f.to);
      expect([...back.plan.blocks]).toEqual(f.plan.blocks);
      expect(back.plan.files).toEqual(f.plan.files);
      expect(back.plan.codecs).toEqual(f.plan.codecs);
      expect(back.plan.size).toBe(f.plan.size);
      expect(back.plan.key && [...back.plan.key]).toEqual(f.plan.key && [...f.plan.key]);
      expect(back.plan.ctrIvs && [...back.plan.ctrIvs]).toEqual(f.plan.ctrIvs && [...f.plan.ctrIvs]);
    }
  });
});
