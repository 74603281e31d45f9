/** Back/forward history and the package tabs' order rules (the renderer's plain-data parts). */
import { describe, expect, it } from 'vitest';
import { NavHistory } from '../../src/renderer/src/lib/nav-history.js';
import { cycle, neighbourAfterClose, newTab } from '../../src/renderer/src/lib/package-tabs.js';

describe('NavHistory', () => {
  const history = () => new NavHistory<string>((a, b) => a === b);

  it('goes back and forward through the places visited', () => {
    const h = history();
    for (const p of ['a', 'b', 'c']) h.visit(p);
    expect(h.canForward).toBe(false);
    expect(h.back()).toBe('b');
    expect(h.back()).toBe('a');
    expect(h.canBack).toBe(false);
    expect(h.back()).toBeUndefined();
    expect(h.forward()).toBe('b');
    expect(h.current).toBe('b');
  });

  it('drops the places ahead when going somewhere new, and records a repeat once', () => {
    const h = history();
    for (const p of ['a', 'b', 'c']) h.visit(p);
    h.back();
    h.back();
    h.visit('d');
    h.visit('d');
    expect(h.canForward).toBe(false);
    expect(h.back()).toBe('a');
    expect(h.back()).toBeUndefined();
  });

  it('keeps at most its limit of places', () => {
    const h = new NavHistory<number>((a, b) => a === b, 3);
    for (let i = 0; i < 10; i++) h.visit(i);
    expect([h.back(), h.back(), h.back()]).toEqual([8, 7, undefined]);
  });
});

describe('package tabs', () => {
  const tabs = [newTab('i', 'A.uasset', 'summary'), newTab('i', 'B.uasset', 'names'), newTab('i', 'C.uasset', 'hex')];
  const [a, b, c] = tabs.map((t) => t.id) as [number, number, number];

  it('shows the next tab when one closes, else the one before, else the file view', () => {
    expect(neighbourAfterClose(tabs, b)).toBe(c);
    expect(neighbourAfterClose(tabs, c)).toBe(b);
    expect(neighbourAfterClose(tabs.slice(0, 1), a)).toBeNull();
  });

  it('cycles from the file view through the tabs and round', () => {
    expect(cycle(tabs, null, 1)).toBe(a);
    expect(cycle(tabs, c, 1)).toBeNull();
    expect(cycle(tabs, null, -1)).toBe(c);
    expect(cycle(tabs, a, -1)).toBeNull();
  });
});
