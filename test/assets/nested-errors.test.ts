/**
 * A FormatError nested in another reads once: the file, the structure path (outer > inner), the
 * innermost byte offset, its detail, then what the outer reader could not do because of it; not
 * the file twice and an outer "at byte 0". Damaged copies of corpus packages, written to a temp
 * folder (the corpus is read, never written): the bytes changed are named from the files' own
 * hex, so the offsets the messages give are known without the readers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMaterial } from '../../src/core/assets/material/read.js';
import { readMesh } from '../../src/core/assets/mesh/kind.js';
import { readTable } from '../../src/core/assets/table/read.js';
import { FormatError } from '../../src/core/errors.js';
import { parseUsmap } from '../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../support/corpus.js';
import { withI32 } from '../support/format-error.js';
import { mutateBytes, seededRandom } from '../support/seeded-mutation.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-nested-errors-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** `name`'s .uasset as the corpus has it and its .uexp as `damage` makes it, in the temp folder; the .uasset path. */
function damaged(name: string, damage: (uexp: Uint8Array) => Uint8Array): string {
  const base = join(temp, name.replace(/^\w+?_/, ''));
  writeFileSync(`${base}.uasset`, readFileSync(corpus(`cooked/${name}.uasset`)));
  writeFileSync(`${base}.uexp`, damage(new Uint8Array(readFileSync(corpus(`cooked/${name}.uexp`)))));
  return `${base}.uasset`;
}

async function rejection(p: Promise<unknown>): Promise<FormatError> {
  const e = await p.then(() => new Error('it read'), (x: unknown) => x);
  if (!(e instanceof FormatError)) throw e;
  return e;
}

const i32At = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getInt32(at, true);

describe('nested format errors read once', () => {
  it('a property value (MI_BlueCube\'s Parent, unversioned): export > property, at the value\'s byte', async () => {
    const uexp = loadCorpus('cooked/uapi54_MI_BlueCube.uexp');
    // Bytes 14..18 of the .uexp are fe ff ff ff: Parent, the package index -2 (its second import).
    expect(i32At(uexp, 14)).toBe(-2);
    const path = damaged('uapi54_MI_BlueCube', (b) => withI32(b, 14, 0x7fffffff));
    const mappings = parseUsmap(loadCorpus('cooked/uapi54_BlankGame_Dumper-7.usmap'), 'BlankGame');
    const e = await rejection(readMaterial({ file: path }, undefined, { mappings }));
    const uexpPath = path.replace(/uasset$/, 'uexp');
    expect([e.file, e.structure, e.offset]).toEqual([uexpPath, 'export 0 "MI_BlueCube" properties > property "Parent" (ObjectProperty)', 14]);
    expect(e.message).toBe(`${uexpPath}: export 0 "MI_BlueCube" properties > property "Parent" (ObjectProperty) at byte 14: ` +
      'object index 2147483647 is outside the import and export maps; the property stream stops there, so the material cannot be read');
  });

  it('native data (Items\' string table entry count): the table > its native structure, in the .uexp that holds it', async () => {
    const uexp = loadCorpus('cooked/uapi423_Items.uexp');
    // Bytes 22..26 are 8d 01 00 00: the 397 entries (MANIFEST: "Items (StringTable): namespace Items, 397 entries").
    expect(i32At(uexp, 22)).toBe(397);
    const path = damaged('uapi423_Items', (b) => withI32(b, 22, 0x7fffffff));
    const e = await rejection(readTable({ file: path }, undefined));
    const uexpPath = path.replace(/uasset$/, 'uexp');
    expect(e.message).toMatch(new RegExp(`^${escape(uexpPath)}: StringTable "Items" > string table at byte 22: ` +
      'string table entry count 2147483647 needs at least \\d+ bytes but only \\d+ remain$'));
    // Once: the file, and one byte offset.
    expect(e.message.split(uexpPath).length - 1).toBe(1);
    expect(e.message.match(/at byte/g)).toEqual(['at byte']);
  });

  it('a cut .uexp (SM_Cube, seeded damage): the export, at its first byte, then why the mesh is not read', async () => {
    // Seed 4 cuts the .uexp to 223 bytes, before SM_Cube's export data: its serial offset 4371
    // less the 1639-byte .uasset is byte 2732 of the .uexp.
    let cut = 0;
    const path = damaged('retoc55_SM_Cube', (b) => { const m = mutateBytes(b, seededRandom(4), 400); cut = m.length; return m; });
    expect(cut).toBe(223);
    const e = await rejection(readMesh({ file: path }, undefined));
    const uexpPath = path.replace(/uasset$/, 'uexp');
    expect(e.message).toBe(`${uexpPath}: export 2 "SM_Cube" properties at byte 2732: the export's 7059 bytes are not in the data given ` +
      '(a missing .uexp?); the property stream stops there, so the mesh data cannot be found');
  });

  it('FormatError.within nests a recorded error and an error alike, and again', () => {
    const inner = new FormatError('a.uexp', 'export 1 "X" properties > property "P" (IntProperty)', 40, 'needs 4 bytes but only 1 remain');
    expect(inner.detail).toBe('needs 4 bytes but only 1 remain');
    const twice = FormatError.within('World', FormatError.within('Level "L"', inner.data()), 'the level cannot be read');
    expect(twice.message).toBe('a.uexp: World > Level "L" > export 1 "X" properties > property "P" (IntProperty) at byte 40: needs 4 bytes but only 1 remain; the level cannot be read');
    expect([twice.file, twice.offset]).toEqual(['a.uexp', 40]);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
