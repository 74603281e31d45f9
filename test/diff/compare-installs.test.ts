// Comparing two builds (core/diff) on the cue58 fixtures: the same cooked packages in other
// containers compare as unchanged (IoStore: by the stored hashes, nothing decoded), the Patch
// fixture's base against base + _P lists exactly the patch container's files, and the patched
// data asset's properties differ as CUE4Parse's FixturePatchPrecedenceTests assert.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Archive, ArchiveFile } from '../../src/core/archive.js';
import { KeyRing, parseAesKeyArg } from '../../src/core/crypto/keys.js';
import { checkComparable, checkInstallPath } from '../../src/core/diff/comparable.js';
import { compareInstalls } from '../../src/core/diff/compare-installs.js';
import { diffPackage } from '../../src/core/diff/package-diff.js';
import { CompareError } from '../../src/core/errors.js';
import { Install, openInstall } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import type { BlockDecoder } from '../../src/core/workers/block-job.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';

const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { testContainerPackages: string[]; testContainerBulkPaths: string[] };
const TAGGED = (v: string): string => corpus('cue58/IoStore/Tagged', v);
const PATCH_IO = corpus('cue58/Patch/IoStore');
const PATCH_PAK = corpus('cue58/Patch/Pak');

/** A decoder that fails the test if anything is decoded. */
let decodes = 0;
const refusingDecoder: BlockDecoder = {
  decode: async () => {
    decodes++;
    throw new Error('nothing may be decoded when the stored hashes answer');
  },
};

const opened: Install[] = [];
async function open(path: string, opts: Parameters<typeof openInstall>[1] = {}): Promise<Install> {
  const i = await openInstall([path], opts);
  opened.push(i);
  return i;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((i) => i.close()));
});

/** The files a container lists on its own: what a patch container replaces. */
async function containerFiles(path: string): Promise<string[]> {
  const i = await open(path);
  return [...i.files()].map((f) => f.path).sort();
}

describe('compareInstalls', () => {
  it('IoStore/Tagged Zlib against Oodle: every file unchanged through the stored hashes, nothing decoded', async () => {
    decodes = 0;
    const [a, b] = await Promise.all([open(TAGGED('Zlib'), { decoder: refusingDecoder }), open(TAGGED('Oodle'), { decoder: refusingDecoder })]);
    await checkComparable(a, b);
    let digests = 0;
    const d = await compareInstalls(a, b, { digest: async () => { digests++; return ''; } });
    const files = manifest.testContainerPackages.length + manifest.testContainerBulkPaths.length;
    expect(d).toMatchObject({ added: [], removed: [], changed: [], moved: [], unchanged: files, unreadable: [] });
    expect(d.stats).toEqual({ byStoredHash: files, bySize: 0, byDigest: 0, filesRead: 0 });
    expect([decodes, digests]).toEqual([0, 0]);
  });

  it('Pak Oodle against Uncompressed: no stored chunk hashes, so the decoded bytes are hashed; all four equal', async () => {
    const [a, b] = await Promise.all([open(corpus('cue58/Pak/Oodle')), open(corpus('cue58/Pak/Uncompressed'))]);
    const d = await compareInstalls(a, b);
    expect(d).toMatchObject({ added: [], removed: [], changed: [], moved: [], unchanged: 4 });
    expect(d.stats).toMatchObject({ byStoredHash: 0, byDigest: 4, filesRead: 8 });
  });

  it('Patch/IoStore: the base against base + _P lists exactly the files of the _P container as changed', async () => {
    const patched = await containerFiles(`${PATCH_IO}/CUE4ParseFixtures-PatchBase_0_P.utoc`);
    const base = await containerFiles(`${PATCH_IO}/CUE4ParseFixtures-PatchBase.utoc`);
    const [a, b] = await Promise.all([open(`${PATCH_IO}/CUE4ParseFixtures-PatchBase.utoc`), open(PATCH_IO)]);
    await checkComparable(a, b);
    const d = await compareInstalls(a, b);
    expect(d.changed.map((c) => c.path)).toEqual(patched);
    expect(d).toMatchObject({ added: [], removed: [], moved: [], unchanged: base.length - patched.length });
  });

  it('Patch/Pak: the same, the .uasset and .uexp the _P pak carries', async () => {
    const patched = await containerFiles(`${PATCH_PAK}/CUE4ParseFixtures-PatchBase_0_P.pak`);
    const [a, b] = await Promise.all([open(`${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak`), open(PATCH_PAK)]);
    const d = await compareInstalls(a, b);
    expect(patched).toHaveLength(2);
    expect(d.changed.map((c) => c.path)).toEqual(patched);
    expect(d).toMatchObject({ added: [], removed: [], moved: [], unchanged: 2 });
  });

  it('a file at a new path with the same bytes is one moved entry; other new paths are added and removed; paths match ignoring case', async () => {
    const a = new Install(['old'], [bytesArchive('old.pak', { 'G/A.uasset': 'alpha', 'G/B.uasset': 'beta', 'G/C.uasset': 'gamma', 'G/Sub/E.uasset': 'e' })], []);
    const b = new Install(['new'], [bytesArchive('new.pak', { 'G/A.uasset': 'alphA', 'G/Moved/B.uasset': 'beta', 'G/D.uasset': 'delta!', 'g/SUB/e.UASSET': 'e' })], []);
    const d = await compareInstalls(a, b);
    expect(d).toMatchObject({
      added: [{ path: 'G/D.uasset', size: 6 }],
      removed: [{ path: 'G/C.uasset', size: 5 }],
      changed: [{ path: 'G/A.uasset', oldSize: 5, newSize: 5 }],
      moved: [{ oldPath: 'G/B.uasset', newPath: 'G/Moved/B.uasset' }],
      unchanged: 1,
    });
  });
});

describe('diffPackage', () => {
  it('the patched data asset: Integer 100 -> 200 and the other patched values, names and the resized export', async () => {
    for (const [base, folder] of [[`${PATCH_IO}/CUE4ParseFixtures-PatchBase.utoc`, PATCH_IO], [`${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak`, PATCH_PAK]] as const) {
      const [a, b] = await Promise.all([open(base), open(folder)]);
      const [pa, pb] = [new InstallPackages(a), new InstallPackages(b)];
      const d = await diffPackage({ packages: pa }, { packages: pb }, 'DA_PatchTarget');
      await Promise.all([pa.close(), pb.close()]);
      expect(d.package).toBe('CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset');
      const props = d.changes.filter((c) => c.where.startsWith('DA_PatchTarget.'));
      // FixturePatchPrecedenceTests.AssertTarget: base (0x11111111, "Base version", 100, "Base payload"), patch (0x22222222, ...).
      expect(props).toEqual(expect.arrayContaining([
        { where: 'DA_PatchTarget.Integer', old: 100, new: 200 },
        { where: 'DA_PatchTarget.BaseMarker', old: 0x11111111, new: 0x22222222 },
        { where: 'DA_PatchTarget.BaseString', old: 'Base version', new: 'Patch version' },
        { where: 'DA_PatchTarget.String', old: 'Base payload', new: 'Patch payload' },
      ]));
      expect(d.changes.filter((c) => c.where === 'exports').map((c) => (c.new as { name: string }).name)).toEqual(['DA_PatchTarget']);
    }
  });
});

describe('what cannot be compared: a clear answer', () => {
  it('the same install twice', async () => {
    const [a, b] = await Promise.all([open(TAGGED('Zlib')), open(TAGGED('Zlib'))]);
    await expect(checkComparable(a, b)).rejects.toThrow(new CompareError(`old and new are the same install (${TAGGED('Zlib')}): nothing to compare; give two builds`));
  });

  it('a locked container (no key for one side), and the same with its key', async () => {
    const [a, b] = await Promise.all([open(TAGGED('Zlib')), open(TAGGED('OodleEncrypted'))]);
    await expect(checkComparable(a, b)).rejects.toThrow(/^new: CUE4ParseFixtures-Minimal-OodleEncrypted-Windows\.utoc \(encrypted .*no AES key given for it\) is locked: give the new build's AES key/);
    const unlocked = await open(TAGGED('OodleEncrypted'), { keys: new KeyRing([parseAesKeyArg(CUE58_AES_KEY)]) });
    await checkComparable(a, unlocked);
    expect((await compareInstalls(a, unlocked)).unchanged).toBe(manifest.testContainerPackages.length + manifest.testContainerBulkPaths.length);
  });

  it('a file that is not an install, a folder without containers or packages', async () => {
    await expect(checkInstallPath(corpus('cue58/README.md'), 'old')).rejects.toThrow(/^old: .*README\.md is not an install/);
    const [a, b] = await Promise.all([open(corpus('cue58/Mappings')), open(TAGGED('Zlib'))]);
    await expect(checkComparable(a, b)).rejects.toThrow(/^old: .*Mappings holds no containers or packages: not an install$/);
  });
});

/** A pak-like archive whose files hold the given text. */
function bytesArchive(path: string, files: Record<string, string>): Archive {
  const entries = Object.entries(files).map(([p, text]) => ({ p, bytes: new TextEncoder().encode(text) }));
  const list: ArchiveFile[] = entries.map((e, ref) => ({ path: e.p, size: e.bytes.length, ref }));
  return {
    kind: 'pak', path, name: path.replace(/\.pak$/, ''), mountPoint: '', status: { state: 'ok' },
    files: () => list,
    read: async (ref) => entries[ref]!.bytes,
    storage: (ref) => ({ offset: 0, size: list[ref]!.size, compressedSize: list[ref]!.size, codecs: { None: 1 }, encrypted: false }),
    verify: async () => null,
    describe: () => ({ kind: 'pak', path, fields: {} }),
    close: async () => undefined,
  };
}
