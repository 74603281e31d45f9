/**
 * The tree's case-insensitive name hash: names that lowercase alike hash alike, from strings and
 * from the bytes of an IoStore string table; names holding "/" or "\" are reported.
 */
import { describe, expect, it } from 'vitest';
import { directoryNameHashes, equalsIgnoringCase, equalsLowered, nameHash } from '../../src/core/install/name-hash.js';
import { parseDirectoryIndex } from '../../src/core/iostore/directory-index.js';

const NONE = 0xffffffff;

/** A raw index: one root directory holding one file per string; ANSI strings as latin1 bytes, wide ones as UTF-16. */
function indexOf(strings: { s: string; wide?: boolean }[]): Uint8Array {
  const parts: number[] = [];
  const u32 = (v: number) => { parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff); };
  const fstr = (s: string, wide = false) => {
    if (wide) {
      u32(-(s.length + 1));
      for (let i = 0; i < s.length; i++) parts.push(s.charCodeAt(i) & 0xff, s.charCodeAt(i) >> 8);
      parts.push(0, 0);
    } else {
      u32(s.length + 1);
      for (let i = 0; i < s.length; i++) parts.push(s.charCodeAt(i));
      parts.push(0);
    }
  };
  fstr('../../../');
  u32(1); [NONE, NONE, NONE, strings.length ? 0 : NONE].forEach(u32);
  u32(strings.length);
  strings.forEach((_, i) => [i, i + 1 < strings.length ? i + 1 : NONE, 0].forEach(u32));
  u32(strings.length);
  strings.forEach(({ s, wide }) => fstr(s, wide));
  return Uint8Array.from(parts);
}

describe('nameHash', () => {
  it('hashes names that lowercase alike the same, whatever their length', () => {
    const pairs = [
      ['Hero.uasset', 'HERO.UASSET'], ['a', 'A'], ['Ab', 'aB'], ['abC', 'ABc'], ['ABCD', 'abcd'], ['ABCDE', 'abcde'],
      ['Ünïcödé.uasset', 'üNÏCÖDÉ.UASSET'], ['ファイル', 'ファイル'], ['\u212Aelvin', 'kelvin'], ['ΣΟΦΙΑ', 'σοφια'],
    ];
    for (const [a, b] of pairs) {
      expect(a!.toLowerCase()).toBe(b!.toLowerCase());
      expect(nameHash(a!), `${a} / ${b}`).toBe(nameHash(b!));
    }
    // The Kelvin sign lowercases to a plain "k": one name, as toLowerCase() compares.
    expect('\u212A'.toLowerCase()).toBe('k');
  });

  it('tells different names apart and hashes a slice as the string itself', () => {
    const names = ['MF_Blend_000.uasset', 'MF_Blend_001.uasset', 'MF_Blend_000.uexp', 'MF_Blend_000.uasse', 'Maps', 'Maps/', ''];
    expect(new Set(names.map((n) => nameHash(n))).size).toBe(names.length);
    expect(nameHash('Game/Content/Hero.uasset', 13)).toBe(nameHash('hero.uasset'));
    expect(nameHash('Game/Content/Hero.uasset', 5, 12)).toBe(nameHash('CONTENT'));
  });

  it('hashes a string table from its bytes as nameHash hashes the decoded names, and reports "/" and "\\"', () => {
    const strings = [
      ...['A', 'Ab', 'Abc', 'Abcd', 'Abcde', 'MF_Blend_000.uasset', 'ZZ_top_[1]@x.UMAP'].map((s) => ({ s })),
      { s: 'Ünïcödé.uasset' }, // latin1 bytes above 0x7f
      { s: 'ファイル.uasset', wide: true },
      { s: 'Wide Ascii.uasset', wide: true },
      { s: 'x'.repeat(300) }, // longer than the short-name path
      { s: 'a/b.uasset' }, { s: 'back\\slash' }, { s: 'wide/\\both', wide: true },
    ];
    const index = parseDirectoryIndex(indexOf(strings), 'names.utoc', strings.length);
    const { hashes, slashed } = directoryNameHashes(index.strings);
    expect([...hashes]).toEqual(strings.map(({ s }) => nameHash(s)));
    expect(slashed).toEqual([
      { index: 11, slash: true, backslash: false },
      { index: 12, slash: false, backslash: true },
      { index: 13, slash: true, backslash: true },
    ]);
  });
});

describe('case-insensitive comparisons', () => {
  it('compares a slice with a lowercased name', () => {
    expect(equalsLowered('Game/CONTENT/x', 5, 12, 'content')).toBe(true);
    expect(equalsLowered('Game/CONTENT/x', 5, 12, 'contend')).toBe(false);
    expect(equalsLowered('Game/CONTENT/x', 5, 11, 'content')).toBe(false);
    expect(equalsLowered('\u212Aelvin', 0, 6, 'kelvin')).toBe(true);
    expect(equalsLowered('ÜNÏ', 0, 3, 'ünï')).toBe(true);
  });

  it('compares two names ignoring case, as toLowerCase() does', () => {
    expect(equalsIgnoringCase('Hero.uasset', 'x/HERO.UASSET', 2)).toBe(true);
    expect(equalsIgnoringCase('Hero.uasset', 'x/HERO.UASSE', 2)).toBe(false);
    expect(equalsIgnoringCase('kelvin', '\u212Aelvin')).toBe(true);
    expect(equalsIgnoringCase('ΟΔΟΣ', 'οδος')).toBe('ΟΔΟΣ'.toLowerCase() === 'οδος');
    expect(equalsIgnoringCase('ab', 'abc')).toBe(false);
  });
});
