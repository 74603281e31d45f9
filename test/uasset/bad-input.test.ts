// Bad input: truncation at every length, impossible counts and offsets, cyclic outers, other
// engines' packages. Each must fail fast with a FormatError naming file, structure and offset.
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/core/errors.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { loadCorpus } from '../support/corpus.js';
import { formatError, withI32 } from '../support/format-error.js';

const load = loadCorpus;

describe('truncated headers', () => {
  it('fails at every length short of the header, with a FormatError inside the bytes given', () => {
    const bytes = load('uncooked/uapi427_TestSoundClass.uasset');
    const header = parseUAsset(bytes, 'x').summary.totalHeaderSize;
    for (let n = 0; n < header; n++) {
      const e = formatError(() => parseUAsset(bytes.subarray(0, n), 'cut.uasset'));
      expect(e.file).toBe('cut.uasset');
      expect(e.structure.length).toBeGreaterThan(0);
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(n);
      expect(e.message).toMatch(/^cut\.uasset: .+ at byte \d+: /);
    }
  });

  it('names the truncation when the summary is whole but the rest is not', () => {
    const bytes = load('uncooked/uapi427_TestSoundClass.uasset');
    const e = formatError(() => parseUAsset(bytes.subarray(0, 900), 'cut.uasset'));
    expect(e.structure).toBe('package summary');
    expect(e.message).toContain('TotalHeaderSize is 1041 but the file has only 900 bytes');
  });

  it('reports export data cut off after the header as issues, not garbage', () => {
    const bytes = load('uncooked/uapi427_TestSoundClass.uasset');
    const pkg = parseUAsset(bytes.subarray(0, 1100), 'cut.uasset');
    expect(pkg.exports).toHaveLength(2);
    expect(pkg.issues.map((i) => i.detail).join()).toMatch(/data 1\d+\+\d+ is outside the export data \(1041\.\.1100\)/);
  });

  it('fails at every length of an unversioned cooked header, trying every layout each time', () => {
    const bytes = load('cooked/retoc56_SM_Cube.uasset');
    for (let n = 0; n < bytes.length; n++) {
      const e = formatError(() => parseUAsset(bytes.subarray(0, n), 'cut.uasset', { uexpSize: 6807 }));
      expect(e.offset).toBeLessThanOrEqual(n);
    }
  });

  it('fails fast at sampled lengths of the largest unversioned header', () => {
    const bytes = load('cooked/retoc427_TestModUI.uasset');
    for (let n = 0; n < bytes.length; n += 97) formatError(() => parseUAsset(bytes.subarray(0, n), 'cut.uasset'));
  });
});

describe('impossible counts and offsets', () => {
  const bytes = load('uncooked/uapi427_TestActorBP.uasset');
  const f = parseUAsset(bytes, 'x').summary.fieldOffsets;

  const cases: [string, number, number, string, RegExp][] = [
    ['negative name count', f.nameCount!, -1, 'name map', /name map count -1 is negative/],
    ['huge name count', f.nameCount!, 0x7fffffff, 'name map', /name map count 2147483647 needs at least/],
    ['huge import count', f.importCount!, 100000000, 'import map', /import map count 100000000 needs at least/],
    ['negative export count', f.exportCount!, -5, 'export map', /export map count -5 is negative/],
    ['export offset past the end', f.exportOffset!, 10000000, 'export map', /export map offset 10000000 is outside/],
    ['name offset 0 with names', f.nameOffset!, 0, 'name map', /name map offset 0 is outside/],
    ['huge generation count', f.generations!, 0x10000000, 'package summary', /generation count 268435456 needs at least/],
    ['negative custom version count', f.customVersions!, -3, 'package summary', /custom version count -3 is negative/],
    ['compressed chunks', f.compressedChunks!, 1, 'package summary', /package-level compression/],
  ];
  for (const [what, at, value, structure, message] of cases) {
    it(`${what}: FormatError at the field`, () => {
      const e = formatError(() => parseUAsset(withI32(bytes, at, value), 'bad.uasset'));
      expect(e.structure).toBe(structure);
      expect(e.offset).toBe(at);
      expect(e.message).toMatch(message);
    });
  }

  it('a name index outside the name map', () => {
    const pkg = parseUAsset(bytes, 'x');
    const imp = pkg.imports[3]!;
    const e = formatError(() => parseUAsset(withI32(bytes, imp.offset + 8, 5000), 'bad.uasset'));
    expect(e.structure).toBe('import map');
    expect(e.offset).toBe(imp.offset + 8);
    expect(e.message).toContain('name index 5000 is outside the name map (106 names)');
  });

  it('a class index outside the import map', () => {
    const pkg = parseUAsset(bytes, 'x');
    const exp = pkg.exports[2]!;
    const e = formatError(() => parseUAsset(withI32(bytes, exp.offset, -500), 'bad.uasset'));
    expect(e.structure).toBe('export map');
    expect(e.offset).toBe(exp.offset);
    expect(e.message).toContain('class index -500 points past the 18 imports');
  });

  it('a thumbnail pointing outside the header is an issue, the rest still reads', () => {
    const pkg = parseUAsset(bytes, 'x');
    // The first thumbnail entry's offset field is the table's last 4 bytes before the second entry; patch via the table.
    const table = pkg.summary.thumbnailTableOffset;
    const firstOffsetAt = table + 4 + (4 + 'Blueprint'.length + 1) + (4 + 'TestActorBP'.length + 1);
    const bad = parseUAsset(withI32(bytes, firstOffsetAt, 0x7ffffff0), 'bad.uasset');
    expect(bad.thumbnails).toEqual([]);
    expect(bad.issues).toEqual([expect.objectContaining({ structure: 'thumbnail table', offset: firstOffsetAt })]);
    expect(bad.exports).toHaveLength(14);
  });
});

describe('cyclic outers', () => {
  const bytes = load('uncooked/uapi427_TestActorBP.uasset');
  const pkg = parseUAsset(bytes, 'x');
  // UE4.14+ export entries: class, super, template, outer (FPackageIndex each) first.
  const outerAt = (i: number): number => pkg.exports[i]!.offset + 12;

  it('an export that is its own outer', () => {
    const e = formatError(() => parseUAsset(withI32(bytes, outerAt(4), 5), 'cycle.uasset'));
    expect(e.structure).toBe('export map');
    expect(e.offset).toBe(pkg.exports[4]!.offset);
    expect(e.message).toContain('export 4 "K2Node_Event_0": the outer chain loops back to it');
  });

  it('two exports each other\'s outer', () => {
    const twice = withI32(withI32(bytes, outerAt(2), 4), outerAt(3), 3);
    const e = formatError(() => parseUAsset(twice, 'cycle.uasset'));
    expect(e.structure).toBe('export map');
    expect(e.message).toMatch(/export [23] "(EventGraph|UserConstructionScript)": the outer chain loops back/);
  });

  it('an import cycle through an export and back', () => {
    const imp = pkg.imports[6]!; // /Script/Engine.Actor
    const viaExport = withI32(withI32(bytes, imp.offset + 16, 3), outerAt(2), -7);
    const e = formatError(() => parseUAsset(viaExport, 'cycle.uasset'));
    expect(e.message).toContain('the outer chain loops back');
  });

  it('a cycle in an unversioned cooked package fails the same way (every layout)', () => {
    const cooked = load('cooked/retoc56_BP_ThirdPersonCharacter.uasset');
    const p = parseUAsset(cooked, 'x', { uexpSize: 10895 });
    const e = formatError(() => parseUAsset(withI32(cooked, p.exports[2]!.offset + 12, 3), 'cycle.uasset', { uexpSize: 10895 }));
    expect(e.structure).toBe('export map');
    expect(e.message).toContain('the outer chain loops back to it');
  });

  it('a long chain resolves without recursion', () => {
    // Every export's outer is the previous one: a 14-deep chain.
    let chain = bytes;
    for (let i = 1; i < 14; i++) chain = withI32(chain, outerAt(i), i);
    const p = parseUAsset(chain, 'chain.uasset');
    expect(p.exports[13]!.path.split(/[.:]/)).toHaveLength(2 + 13);
  });
});

describe('other engines and other files', () => {
  it('reports a UE3 package as not supported yet', () => {
    const e = formatError(() => parseUAsset(load('legacy/uelib_TestUC3.u'), 'TestUC3.u'));
    expect(e.message).toBe('TestUC3.u: package summary at byte 4: file version 868 (licensee 0) makes this an Unreal Engine 3 package: UE3 packages are not supported yet');
  });

  it('sends a UE1/2 package to the UE1/2 reader', () => {
    const e = formatError(() => parseUAsset(load('legacy/ut2004_OUGamePack.u'), 'OUGamePack.u'));
    expect(e.message).toContain('file version 128 (licensee 29) makes this an Unreal Engine 1/2 package');
  });

  it('rejects other files at the tag', () => {
    expect(formatError(() => parseUAsset(load('cooked/retoc56_SM_Cube.uexp'), 'a.uexp')).message).toContain('not the package tag');
    expect(formatError(() => parseUAsset(new Uint8Array([0x9e, 0x2a, 0x83, 0xc1, 0xf9, 0xff, 0xff, 0xff]), 'be.uasset')).message).toContain('big-endian');
  });

  it('rejects versions it cannot know', () => {
    const bytes = load('uncooked/uapi427_TestSoundClass.uasset');
    expect(formatError(() => parseUAsset(withI32(bytes, 4, -10), 'x')).message).toContain('LegacyFileVersion -10 is newer than any known');
    expect(formatError(() => parseUAsset(withI32(bytes, 12, 200), 'x')).message).toContain('UE4 version 200 is older than the oldest loadable');
  });

  it('survives random bytes behind a valid start', () => {
    const start = load('cooked/retoc56_SM_Cube.uasset').subarray(0, 40);
    let seed = 12345;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    let rejected = 0;
    for (let i = 0; i < 200; i++) {
      const bytes = new Uint8Array(2000);
      bytes.set(start);
      for (let j = start.length; j < bytes.length; j++) bytes[j] = rand();
      try {
        parseUAsset(bytes, 'noise.uasset');
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        rejected++;
      }
    }
    // Noise past the first 40 bytes is no package: the summary's counts and offsets, read from it,
    // cannot all fit 2000 bytes. A parser that accepted some would be missing a check.
    expect(rejected).toBe(200);
  });
});
