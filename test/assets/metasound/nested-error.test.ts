/**
 * An effect asset whose property stream stops: the error reads once (the file once, the export's
 * path, one byte offset, the stream's detail, then what the effect reader cannot do), as
 * FormatError.within gives it, not the file again "at byte 0" around the inner message.
 * cue58's MS_Source (a tagged Zen package, as `pakscope cat` writes it) with its first property
 * tag's name damaged, in a temp folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMetaSound } from '../../../src/core/assets/metasound/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { corpus } from '../../support/corpus.js';
import { withInstall } from '../../properties/helpers.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-effect-nested-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function rejection(p: Promise<unknown>): Promise<FormatError> {
  const e = await p.then(() => new Error('it read'), (x: unknown) => x);
  if (!(e instanceof FormatError)) throw e;
  return e;
}

describe('an effect asset whose properties stop reads its error once', () => {
  for (const [name, read, what] of [
    ['MS_Source', (file: string) => readMetaSound({ file }, undefined), 'MetaSound'],
  ] as const) {
    it(`${name}: the stream's file, path and offset, then "the ${what} cannot be read"`, async () => {
      const bytes = await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
        const loc = packages.locate(`/Game/Fixtures/Effects/${name}`);
        return loc.archive.read(loc.ref);
      });
      // UE5's FZenPackageSummary: bHasVersioningInfo (u32), then HeaderSize (u32); the export data follows the header.
      const headerSize = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
      expect(headerSize).toBeLessThan(bytes.length);
      const path = join(temp, `${name}.uasset`);
      // MS_Source is export 0, its data the first after the header: its first property tag's
      // name index (i32) made one no name map has.
      const b = bytes.slice();
      new DataView(b.buffer, b.byteOffset).setInt32(headerSize, 0x7fffffff, true);
      writeFileSync(path, b);
      const e = await rejection(read(path));
      expect(e.file).toBe(path);
      expect(e.message.split(path).length - 1).toBe(1);
      expect(e.message.match(/at byte/g)).toEqual(['at byte']);
      expect(e.offset).toBeGreaterThanOrEqual(headerSize);
      expect(e.offset).toBeLessThan(headerSize + 4);
      expect(e.structure).toBe('export 0 "MS_Source" properties');
      expect(e.message).toMatch(new RegExp(`; the property stream stops there, so the ${what} cannot be read$`));
    });
  }
});
