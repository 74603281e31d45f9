// `pakscope diff`: two builds of the cue58 fixtures compared as a user runs it, with the JSON
// shapes issue 23 gives, the patched package's property changes, and the refusals.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = (v: string): string => corpus('cue58/IoStore/Tagged', v);
const PATCH_PAK = corpus('cue58/Patch/Pak');
const PATCH_IO = corpus('cue58/Patch/IoStore');

/** Files of each minimal IoStore container: the manifest's packages and bulk sidecars. */
const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { testContainerPackages: string[]; testContainerBulkPaths: string[] };
const FILES = manifest.testContainerPackages.length + manifest.testContainerBulkPaths.length;

beforeAll(buildCli);

describe('pakscope diff', () => {
  it('--json: Zlib against Oodle, every file unchanged; base against base + _P, the patched files changed', async () => {
    const [same, pak] = await Promise.all([
      pakscope(['diff', TAGGED('Zlib'), TAGGED('Oodle'), '--json']),
      pakscope(['diff', `${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak`, PATCH_PAK, '--json']),
    ]);
    expect([same.code, same.stderr]).toEqual([0, '']);
    expect(JSON.parse(same.out)).toEqual({ added: [], removed: [], changed: [], moved: [], unchanged: FILES });
    // The _P pak's own listing (pakscope ls of it alone): DA_PatchTarget.uasset 937 and .uexp 194; the base's 936 and 192.
    expect([pak.code, pak.stderr]).toEqual([0, '']);
    expect(JSON.parse(pak.out)).toEqual({
      added: [],
      removed: [],
      changed: [
        { path: 'CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset', oldSize: 936, newSize: 937 },
        { path: 'CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uexp', oldSize: 192, newSize: 194 },
      ],
      moved: [],
      unchanged: 2,
    });
  });

  it('a package: {"package","changes":[{"where","old","new"}]} with Integer 100 -> 200; the text form', async () => {
    const [json, text] = await Promise.all([
      pakscope(['diff', `${PATCH_IO}/CUE4ParseFixtures-PatchBase.utoc`, PATCH_IO, '/Game/PatchFixtures/DA_PatchTarget', '--json']),
      pakscope(['diff', `${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak`, PATCH_PAK, 'DA_PatchTarget']),
    ]);
    expect(json.code).toBe(0);
    const j = JSON.parse(json.out) as { package: string; changes: { where: string; old: unknown; new: unknown }[] };
    expect(Object.keys(j)).toEqual(['package', 'changes']);
    expect(j.package).toBe('CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset');
    expect(j.changes).toContainEqual({ where: 'DA_PatchTarget.Integer', old: 100, new: 200 });
    expect(j.changes).toContainEqual({ where: 'names', old: 'Base_Target', new: null });
    expect(j.changes).toContainEqual({ where: 'names', old: null, new: 'Patch_Target' });
    expect(j.changes.every((c) => Object.keys(c).join() === 'where,old,new')).toBe(true);
    expect(text.code).toBe(0);
    expect(text.out.split('\n')).toContain('  DA_PatchTarget.Integer: 100 -> 200');
  });

  it('keys per side: --new-key opens the encrypted build, --aes-key both; without one, a clear refusal', async () => {
    const [locked, newKey, both] = await Promise.all([
      pakscope(['diff', TAGGED('Zlib'), TAGGED('OodleEncrypted'), '--json']),
      pakscope(['diff', TAGGED('Zlib'), TAGGED('OodleEncrypted'), '--new-key', CUE58_AES_KEY, '--json']),
      pakscope(['diff', TAGGED('OodleEncrypted'), TAGGED('Zlib'), '--aes-key', CUE58_AES_KEY, '--json']),
    ]);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toMatch(/^error: new: CUE4ParseFixtures-Minimal-OodleEncrypted-Windows\.utoc \(.*\) is locked: give the new build's AES key to compare its files\n$/);
    expect(JSON.parse(newKey.out)).toMatchObject({ changed: [], unchanged: FILES });
    expect(JSON.parse(both.out)).toMatchObject({ changed: [], unchanged: FILES });
    const oldKeyOnly = await pakscope(['diff', TAGGED('Zlib'), TAGGED('OodleEncrypted'), '--old-key', CUE58_AES_KEY]);
    expect(oldKeyOnly.code).toBe(2);
  });

  it('the same install twice, a file that is not an install: exit 2 and one line saying so', async () => {
    const [self, notInstall] = await Promise.all([
      pakscope(['diff', TAGGED('Zlib'), TAGGED('Zlib')]),
      pakscope(['diff', corpus('cue58/README.md'), TAGGED('Zlib')]),
    ]);
    expect([self.code, self.stderr]).toEqual([2, `error: old and new are the same install (${TAGGED('Zlib')}): nothing to compare; give two builds\n`]);
    expect(notInstall.code).toBe(2);
    expect(notInstall.stderr).toMatch(/^error: old: .*README\.md is not an install: give a game folder, a container \(\.utoc, \.pak\) or a package file\n$/);
  });
});
