// --usmap is one OptionSpec (command.ts's USMAP_OPTION): a command spells out its own only where its help says more.
import { describe, expect, it } from 'vitest';
import { USMAP_OPTION } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/run.js';

describe('--usmap', () => {
  it('is USMAP_OPTION wherever a command would repeat its words', () => {
    const withUsmap = COMMANDS.filter((c) => c.options?.['usmap']);
    expect(withUsmap.length).toBeGreaterThan(10);
    const copies = withUsmap.filter((c) => c.options!['usmap'] !== USMAP_OPTION && c.options!['usmap']!.help === USMAP_OPTION.help).map((c) => c.name);
    expect(copies).toEqual([]);
    for (const c of withUsmap) expect(c.options!['usmap']!.usage, c.name).toBe('--usmap FILE');
  });
});
