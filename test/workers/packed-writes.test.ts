/** A write job packed for a worker and taken apart again is the same files, plans and names. */
import { describe, expect, it } from 'vitest';
import { addPlanBlock, type BlockPlan } from '../../src/core/workers/block-plan.js';
import type { PlannedWrite } from '../../src/core/workers/file-write.js';
import { packedBytes, packWrites, unpackWrite, WriteJobBuilder } from '../../src/core/workers/packed-writes.js';

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

  it('are built block by block as they are planned, and a file given up part-way leaves nothing behind', () => {
    const job = new WriteJobBuilder();
    const files = ['/paks/a.ucas'];
    const codecs = ['None', 'Zlib'];
    const key = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
    job.file(files, codecs, 100, undefined, { temp: '/out/.t1', target: '/out/Ä.uasset', checkTarget: true });
    job.block(0, 10, 20, 20, 100, 1, 0, 0, 0, 0, 0, 100);
    // Given up after a block and its IV: dropped whole.
    job.file(files, codecs, 50, key, { temp: '/out/.t2', target: '/out/dropped', checkTarget: false });
    job.block(0, 30, 16, 9, 50, 1, 1, 0, 0, 0, 0, 50);
    job.addIvs(new Uint8Array(12).fill(9));
    job.dropFile();
    job.file(files, codecs, 70, key, { temp: '/out/.t3', target: '/out/C.bin', checkTarget: false });
    job.block(0, 40, 16, 10, 64, 1, 1, 0, 0, 0, 0, 64);
    job.addIvs(new Uint8Array(12).fill(1));
    job.block(0, 56, 16, 5, 6, 1, 1, 1, 0, 64, 0, 6);
    job.addIvs(new Uint8Array(12).fill(2));
    expect(job.files).toBe(2);
    const packed = job.build();
    expect(packed.count).toBe(2);
    expect(packedBytes(packed)).toBe(170);
    expect(packed.blocks.length).toBe(3 * 12);
    expect(packed.ivs.length).toBe(24);
    const [a, c] = [unpackWrite(packed, 0), unpackWrite(packed, 1)];
    expect([a.to.target, a.to.temp, a.to.checkTarget]).toEqual(['/out/Ä.uasset', '/out/.t1', true]);
    expect([...a.plan.blocks]).toEqual([0, 10, 20, 20, 100, 1, 0, 0, 0, 0, 0, 100]);
    expect(a.plan.key).toBeUndefined();
    expect(a.plan.ctrIvs).toBeUndefined();
    expect([c.to.target, c.to.temp, c.to.checkTarget]).toEqual(['/out/C.bin', '/out/.t3', false]);
    expect([...c.plan.blocks]).toEqual([0, 40, 16, 10, 64, 1, 1, 0, 0, 0, 0, 64, 0, 56, 16, 5, 6, 1, 1, 1, 0, 64, 0, 6]);
    expect([...c.plan.key!]).toEqual([...key]);
    expect([...c.plan.ctrIvs!]).toEqual([...new Uint8Array(12).fill(1), ...new Uint8Array(12).fill(2)]);
    expect(c.plan.size).toBe(70);
    // The packed job is one SharedArrayBuffer, however many files.
    expect(packed.heads.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(packed.names.buffer).toBe(packed.heads.buffer);
  });

  it('grow past their first tables', () => {
    const job = new WriteJobBuilder();
    const long = 'x'.repeat(3000);
    for (let i = 0; i < 100; i++) {
      job.file(['/p.ucas'], ['Zlib'], i, undefined, { temp: `/o/.t${i}`, target: `/o/${long}${i}`, checkTarget: false });
      for (let b = 0; b < 3; b++) job.block(0, i * 1000 + b, 1, 1, 1, 0, 0, b, 0, b, 0, 1);
    }
    const packed = job.build();
    expect(packed.count).toBe(100);
    expect(job.sizes().length).toBe(100);
    expect(job.sizes()[57]).toBe(57);
    expect(unpackWrite(packed, 99).to.target).toBe(`/o/${long}99`);
    expect(unpackWrite(packed, 57).plan.blocks[1]).toBe(57000);
    expect(unpackWrite(packed, 57).plan.blocks.length).toBe(36);
  });

  it('pack split targets with each folder once, and give back the joined paths', () => {
    const job = new WriteJobBuilder();
    const split = (dirPrefix: string, name: string, tempPrefix: string, tempNumber: number) =>
      ({ dirPrefix, name, tempPrefix, tempNumber, checkTarget: false, target: dirPrefix + name, temp: `${dirPrefix}${tempPrefix}${tempNumber}.partial` });
    const targets = [split('/out/a/', 'x.uasset', '.p-', 1), split('/out/a/', 'y.uasset', '.p-', 2), split('/out/b/', 'z.uasset', '.q-', 3),
      split('/out/a/', 'w.uasset', '.p-', 40000), { target: '/elsewhere/v.bin', temp: '/elsewhere/v.tmp', checkTarget: true }];
    for (const to of targets) {
      job.file(['/p.ucas'], ['Zlib'], 1, undefined, to);
      job.block(0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1);
    }
    const packed = job.build();
    expect(packed.dirs).toEqual(['/out/a/', '/out/b/', '']);
    // Only the names and the one whole temporary path are in the names: temporary names are numbers.
    expect(Buffer.from(packed.names).toString('utf8')).toBe('x.uassety.uassetz.uassetw.uasset/elsewhere/v.bin/elsewhere/v.tmp');
    expect(packed.tempPrefixes).toEqual(['.p-', '.q-']);
    for (const [i, to] of targets.entries()) {
      const back = unpackWrite(packed, i).to;
      expect([back.target, back.temp, back.checkTarget]).toEqual([to.target, to.temp, to.checkTarget]);
    }
  });
});
