/**
 * .locres files: both of the cue58 Pak (en and de, every entry as CUE4Parse's FixturePakTests.cs
 * asserts them), each older version built here byte by byte from the format's layout, and bad
 * input (counts and offsets past the end of the file).
 */
import { describe, expect, it } from 'vitest';
import { gatherCultures, readInstallLocres } from '../../../src/core/assets/locres/install.js';
import { LocresVersion, parseLocres } from '../../../src/core/assets/locres/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { openInstall } from '../../../src/core/install/install.js';
import { corpus } from '../../support/corpus.js';

const NS = 'CUE4ParseFixtures.Tests';
const EN_PAYLOAD = Array(96).fill('Deterministic localization payload for compression coverage. ').join('').trimEnd();
const DE_PAYLOAD = Array(96).fill('Deterministische Lokalisierungsnutzlast für die Kompressionsprüfung. ').join('').trimEnd();

describe.each(['Uncompressed', 'Oodle'])('the .locres files of the cue58 %s pak', (variant) => {
  it('reads en and de: every entry of the namespace, with its source hash', async () => {
    const install = await openInstall([corpus(`cue58/Pak/${variant}`)]);
    try {
      const files = await readInstallLocres(install);
      expect(files.map((f) => [f.culture, f.error, f.locres?.version])).toEqual([
        ['de', undefined, LocresVersion.OptimizedCityHash64Utf16], ['en', undefined, LocresVersion.OptimizedCityHash64Utf16],
      ]);
      for (const f of files) {
        const entries = f.locres!.entries.filter((e) => e.namespace === NS);
        expect(entries).toHaveLength(5);
        for (const e of entries) expect(e.sourceHash).not.toBe(0);
      }
      const cultures = gatherCultures(files);
      expect(cultures['en']![NS]).toEqual({
        CityGreeting: 'Greetings from Frankfurt', Unicode: 'Unicode source text – 日本語 – Ω – 🚀',
        SharedFirst: 'First shared source', SharedSecond: 'Second shared source', CompressionPayload: EN_PAYLOAD,
      });
      expect(cultures['de']![NS]).toEqual({
        CityGreeting: 'Grüße aus Frankfurt', Unicode: 'Unicode-Übersetzung – 日本語 – Ω – 🚀',
        SharedFirst: 'Gemeinsam verwendete Übersetzung', SharedSecond: 'Gemeinsam verwendete Übersetzung', CompressionPayload: DE_PAYLOAD,
      });
      expect((await readInstallLocres(install, 'DE')).map((f) => f.culture)).toEqual(['de']);
    } finally {
      await install.close();
    }
  });
});

// ---- files built from the layout ---------------------------------------------------------------

class Writer {
  private parts: number[] = [];
  get length(): number { return this.parts.length; }
  u8(v: number): this { this.parts.push(v & 255); return this; }
  u32(v: number): this { for (let i = 0; i < 4; i++) this.parts.push((v >>> (8 * i)) & 255); return this; }
  i64(v: number): this { this.u32(v); return this.u32(0); }
  /** ASCII when every char is, UTF-16 (negative length) otherwise; with the terminating NUL. */
  fstring(s: string): this {
    if (/^[\x00-\x7f]*$/.test(s)) {
      this.u32(s.length + 1);
      for (const c of s) this.parts.push(c.charCodeAt(0));
      this.parts.push(0);
    } else {
      this.u32(-(s.length + 1));
      for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); this.parts.push(c & 255, c >> 8); }
      this.parts.push(0, 0);
    }
    return this;
  }
  patchI64(at: number, v: number): void { for (let i = 0; i < 4; i++) this.parts[at + i] = (v >>> (8 * i)) & 255; }
  bytes(): Uint8Array { return new Uint8Array(this.parts); }
}

const MAGIC = [0x7574140e, 0xfc034a67, 0x9d90154a, 0x1b7f37c3];
const ENTRIES: [string, string, string][] = [['Menu', 'Start', 'Start game'], ['Menu', 'Quit', 'Beenden – 終了'], ['', 'Bare', 'no namespace']];

function build(version: LocresVersion): Uint8Array {
  const w = new Writer();
  const texts = [...new Set(ENTRIES.map((e) => e[2]))];
  let offsetAt = -1;
  if (version !== LocresVersion.Legacy) {
    for (const m of MAGIC) w.u32(m);
    w.u8(version);
    offsetAt = w.length;
    w.i64(0);
  }
  if (version >= LocresVersion.OptimizedCrc32) w.u32(ENTRIES.length);
  const namespaces = [...new Set(ENTRIES.map((e) => e[0]))];
  w.u32(namespaces.length);
  for (const ns of namespaces) {
    if (version >= LocresVersion.OptimizedCrc32) w.u32(0x1234);
    w.fstring(ns);
    const keys = ENTRIES.filter((e) => e[0] === ns);
    w.u32(keys.length);
    for (const [, key, text] of keys) {
      if (version >= LocresVersion.OptimizedCrc32) w.u32(0x5678);
      w.fstring(key).u32(0xabcdef);
      if (version >= LocresVersion.Compact) w.u32(texts.indexOf(text));
      else w.fstring(text);
    }
  }
  if (version >= LocresVersion.Compact) {
    w.patchI64(offsetAt, w.length);
    w.u32(texts.length);
    for (const t of texts) {
      w.fstring(t);
      if (version >= LocresVersion.OptimizedCrc32) w.u32(1);
    }
  }
  return w.bytes();
}

describe('every .locres version', () => {
  it.each([LocresVersion.Legacy, LocresVersion.Compact, LocresVersion.OptimizedCrc32, LocresVersion.OptimizedCityHash64Utf16])('reads version %s, ASCII and UTF-16 strings', (version) => {
    const l = parseLocres(build(version), 'Game.locres');
    expect(l.version).toBe(version);
    expect(l.entries.map((e) => [e.namespace, e.key, e.text, e.sourceHash])).toEqual(ENTRIES.map(([ns, key, text]) => [ns, key, text, 0xabcdef]));
  });

  it('a count or offset past the end of the file is a FormatError naming it, never a crash', () => {
    const good = build(LocresVersion.OptimizedCrc32);
    const badOffset = good.slice();
    badOffset[17] = 0xff; badOffset[18] = 0xff; // the string array offset
    expect(() => parseLocres(badOffset, 'bad.locres')).toThrow(/string array offset \d+ is outside the file/);
    const badCount = build(LocresVersion.Legacy);
    badCount[0] = 0xff; badCount[1] = 0xff; badCount[2] = 0xff; badCount[3] = 0x0f;
    expect(() => parseLocres(badCount, 'bad.locres')).toThrow(/namespace count \d+ needs at least/);
    for (let cut = 0; cut < good.length; cut += 7) {
      try {
        parseLocres(good.subarray(0, cut), 'cut.locres');
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
      }
    }
    const newer = good.slice();
    newer[16] = 9;
    expect(() => parseLocres(newer, 'new.locres')).toThrow(/locres version 9 is newer/);
  });
});
