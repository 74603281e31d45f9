// UE1/2 text buffers: the UnrealScript source a compiled .u keeps in each class's ScriptText,
// checked against the source it was compiled from (UELib's Test/upk/TestUC1/Classes/*.uc, built
// with UT99's ucc: MANIFEST.tsv) and against the package's own tables.
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport, convertibleExports } from '../../src/core/assets/index.js';
import { readTextBuffer } from '../../src/core/assets/script/read.js';
import { ue12ToPackageModel } from '../../src/core/ue12/model.js';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import { corpus, loadCorpus } from '../support/corpus.js';

const open = (rel: string) => {
  const bytes = loadCorpus(rel);
  return { bytes, pkg: parseUe12Package(bytes, rel) };
};
const lf = (t: string): string => t.replace(/\r\n/g, '\n');

describe('UE1/2 ScriptText', () => {
  it('is the class\'s source as ucc compiled it (UELib TestUC1 Labels.uc: 2,261 characters)', () => {
    const { bytes, pkg } = open('legacy/uelib_TestUC1.u');
    const i = pkg.exports.findIndex((e) => e.objectName === 'ScriptText' && pkg.exports[e.outerIndex - 1]?.objectName === 'Labels');
    expect(i).toBeGreaterThanOrEqual(0);
    const t = readTextBuffer(pkg, bytes, i);
    expect(t).toMatchObject({ name: 'ScriptText', outer: 'Labels', fileName: 'Labels.uc', language: 'unrealscript' });
    // ucc keeps the file with CRLF line ends and one more line end than the repository's copy.
    const source = lf(t.text).replace(/\n$/, '');
    expect(source).toHaveLength(2261);
    expect(source.startsWith('class Labels extends Object;\n\n// We use the assert statement, i.e. "assert (condition);" here as a code filler.\n')).toBe(true);
    expect(source.endsWith('function TestDoUntilLoop()\n{\n\tdo\n\t{\n\t\tassert (true);\n\t} until (true);\n}')).toBe(true);
  });

  it('declares the class its ScriptText belongs to, with the super class the export table gives', () => {
    const { bytes, pkg } = open('legacy/ut99_EnergySword.u');
    const i = pkg.exports.findIndex((e) => e.className === 'TextBuffer');
    const t = readTextBuffer(pkg, bytes, i);
    const cls = pkg.exports.find((e) => e.objectName === t.outer && e.classIndex === 0)!;
    expect(cls.superPath).toMatch(/TournamentWeapon$/);
    expect(lf(t.text)).toMatch(/^class EnergySword extends TournamentWeapon;$/m);
  });

  it('is converted through the registry, one .uc per class', async () => {
    expect(assetKindOf('TextBuffer')).toMatchObject({ kind: 'script', view: 'text', converts: ['uc', 'txt'] });
    const { bytes, pkg } = open('legacy/uelib_TestUC1.u');
    const exports = convertibleExports(ue12ToPackageModel(pkg));
    // One ScriptText per class of the package (the classes are its exports without a class).
    const classes = pkg.exports.filter((e) => e.classIndex === 0).map((e) => e.objectName).sort();
    expect(exports.map((e) => pkg.exports[pkg.exports[e.index]!.outerIndex - 1]!.objectName).sort()).toEqual(classes);
    const labels = exports.find((e) => pkg.exports[pkg.exports[e.index]!.outerIndex - 1]!.objectName === 'Labels')!;
    const [file] = await convertExport({ file: corpus('legacy/uelib_TestUC1.u') }, labels, undefined);
    expect(file).toMatchObject({ name: 'Classes/Labels', extension: 'uc', suffix: '' });
    expect(lf(new TextDecoder().decode(file!.data))).toHaveLength(2262);
  });

  it('fails with a FormatError naming the file and the offset for a cut buffer', () => {
    const { bytes, pkg } = open('legacy/ut99_EnergySword.u');
    const i = pkg.exports.findIndex((e) => e.className === 'TextBuffer');
    const e = pkg.exports[i]!;
    const cut = bytes.slice(0, e.serialOffset + 20);
    expect(() => readTextBuffer(pkg, cut, i)).toThrow(/ut99_EnergySword\.u: text buffer "ScriptText" at byte \d+/);
  });
});
