// Issue 25, finding 6: a system error is said in PakScope's words ("the folder ... does not
// exist"), not Node's ("ENOENT: no such file or directory, open '...'"), with exit 2.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSystemError } from '../../src/core/system-error.js';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

beforeAll(buildCli);
afterAll(removeTempDirs);

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';

describe('system errors in the CLI', () => {
  it('names the missing folder of an output file, and the file that is not a folder', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'a-file'), 'x');
    const cases = await Promise.all([
      pakscope(['thumbnail', corpus('uncooked/uapi427_TestMaterial.uasset'), '-o', join(dir, 'missing/dir/t.png')]),
      pakscope(['extract', UNCOMPRESSED, '--filter', AC_FIXTURE, '--out', '/dev/null/x']),
      pakscope(['extract', UNCOMPRESSED, '--filter', AC_FIXTURE, '--out', join(dir, 'a-file', 'x')]),
    ]);
    for (const r of cases) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\bE[A-Z]{3,}\b|lstat|open '|no such file or directory/);
    }
    expect(cases[0]!.stderr).toBe(`error: the folder ${join(dir, 'missing')} does not exist (for ${join(dir, 'missing/dir/t.png')})\n`);
    expect(cases[1]!.stderr).toBe('error: /dev/null is not a folder (in /dev/null/x)\n');
    expect(cases[2]!.stderr).toBe(`error: ${join(dir, 'a-file')} is not a folder (in ${join(dir, 'a-file', 'x')})\n`);
  });

  it('leaves errors that are not about a path alone', () => {
    expect(describeSystemError(new Error('plain'))).toBeNull();
    expect(describeSystemError(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }))).toBeNull();
    expect(describeSystemError(Object.assign(new Error('x'), { code: 'ENOSPC', path: '/out/a.bin', syscall: 'write' }))).toBe('the disk is full (writing /out/a.bin)');
  });
});
