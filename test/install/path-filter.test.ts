import { describe, expect, it } from 'vitest';
import { compilePathFilter, isGlob } from '../../src/core/install/path-filter.js';

const m = (filter: string, path: string): boolean => compilePathFilter(filter)(path.toLowerCase());

describe('path filter', () => {
  it('tells globs from substrings', () => {
    expect(isGlob('a*b')).toBe(true);
    expect(isGlob('a?')).toBe(true);
    expect(isGlob('[ab]')).toBe(true);
    expect(isGlob('Content/Maps')).toBe(false);
  });
  it('matches substrings case-insensitively anywhere in the path', () => {
    expect(m('maps/lev', 'Game/Content/Maps/Level.umap')).toBe(true);
    expect(m('MAPS', 'Game/Content/Maps/Level.umap')).toBe(true);
    expect(m('maps/x', 'Game/Content/Maps/Level.umap')).toBe(false);
  });
  it('matches a glob against the whole path or any part starting at a folder boundary', () => {
    expect(m('*.umap', 'Level.umap')).toBe(true);
    expect(m('*.umap', 'Game/Level.umap')).toBe(true);
    expect(m('*.umap', 'Game/Level.umap.txt')).toBe(false);
    expect(m('content/**/t_*', 'Game/Content/Textures/T_Rock.uasset')).toBe(true);
    expect(m('content/**/t_*', 'Game/Content/T_Rock.uasset')).toBe(true);
    expect(m('content/**/t_*', 'Game/MyContent/Textures/T_Rock.uasset')).toBe(false);
    expect(m('content/*', 'Game/Content/a/b')).toBe(false);
    expect(m('ame/*', 'Game/a')).toBe(false);
  });
  it('anchors a glob with a leading "/" at the root', () => {
    expect(m('/game/*', 'Game/a')).toBe(true);
    expect(m('/content/*', 'Game/Content/a')).toBe(false);
    expect(m('/*.umap', 'Game/Level.umap')).toBe(false);
    expect(m('/**/*.umap', 'Game/Level.umap')).toBe(true);
  });
  it('reads the glob syntax', () => {
    expect(m('**/*.umap', 'Game/Content/Level.umap')).toBe(true);
    expect(m('**/*.umap', 'Level.umap')).toBe(true);
    expect(m('game/**/level.umap', 'Game/Level.umap')).toBe(true);
    expect(m('game/**', 'Game/a/b/c')).toBe(true);
    expect(m('/game/*', 'Game/a/b')).toBe(false);
    expect(m('game/?', 'Game/a')).toBe(true);
    expect(m('game/?', 'Game/ab')).toBe(false);
    expect(m('g[a-c]me/x', 'Game/x')).toBe(true);
    expect(m('g[!a]me/x', 'Game/x')).toBe(false);
    expect(m('g[]a]me', 'g]me')).toBe(true);
    expect(m('a.b(c)+[', 'a.b(c)+[')).toBe(true);
    expect(m('a.b*', 'axb')).toBe(false);
  });
});
