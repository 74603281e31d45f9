// The README's command-line section shows exactly what `pakscope --help` prints (as repak does).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { buildCli, pakscope, ROOT } from './run-cli.js';

beforeAll(buildCli);

it('README shows the real pakscope --help', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = /<!-- cli-help:start -->([\s\S]*?)<!-- cli-help:end -->/.exec(readme)?.[1];
  expect(section, 'README.md has no cli-help section').toBeDefined();
  const shown = /```text\n([\s\S]*?)\n```/.exec(section!)?.[1];
  expect(shown, 'the cli-help section has no ```text block').toBeDefined();
  const help = await pakscope(['--help']);
  expect(help.code).toBe(0);
  expect(shown).toBe(help.out.replace(/\n$/, ''));
});
