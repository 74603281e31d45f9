/**
 * What the window looked like when it was last closed: its bounds, whether it was maximized and
 * which panes the View menu showed, kept in window-state.json in the user-data folder. The file
 * is checked field by field (a damaged or hand-edited one costs only the fields it spoils), and a
 * window that would open off every display (a monitor unplugged since) opens centered on the
 * primary one instead.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rect } from './electron-shell.js';

export interface PaneLayout {
  /** The left pane: containers, filter, file tree. */
  sidebar: boolean;
  /** The details of the selected file above the viewer. */
  details: boolean;
}

export interface WindowState {
  /** Normal (not maximized) bounds; null: never saved, use the defaults. */
  bounds: Rect | null;
  maximized: boolean;
  panes: PaneLayout;
}

export const DEFAULT_PANES: Readonly<PaneLayout> = { sidebar: true, details: true };
export const DEFAULT_SIZE = { width: 1360, height: 860 } as const;
export const MIN_SIZE = { width: 760, height: 480 } as const;
export const STATE_FILE = 'window-state.json';

/** Bigger than any screen: a saved size past it is damage, not a preference. */
const MAX_COORD = 100_000;

export function defaultWindowState(): WindowState {
  return { bounds: null, maximized: false, panes: { ...DEFAULT_PANES } };
}

/** Reads window-state.json's text; anything missing or malformed falls back to its default. */
export function parseWindowState(text: string | null): WindowState {
  const state = defaultWindowState();
  if (text === null) return state;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return state;
  }
  if (!isRecord(data)) return state;
  state.bounds = parseRect(data['bounds']);
  if (typeof data['maximized'] === 'boolean') state.maximized = data['maximized'];
  const panes = data['panes'];
  if (isRecord(panes)) {
    if (typeof panes['sidebar'] === 'boolean') state.panes.sidebar = panes['sidebar'];
    if (typeof panes['details'] === 'boolean') state.panes.details = panes['details'];
  }
  return state;
}

export function serializeWindowState(state: WindowState): string {
  return `${JSON.stringify({ version: 1, bounds: state.bounds, maximized: state.maximized, panes: state.panes }, null, 2)}\n`;
}

function parseRect(v: unknown): Rect | null {
  if (!isRecord(v)) return null;
  const { x, y, width, height } = v;
  const coord = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= MAX_COORD;
  if (!coord(x) || !coord(y) || !coord(width) || !coord(height) || width <= 0 || height <= 0) return null;
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How much of the title bar must lie on a display for the window to count as reachable there. */
const TITLE_BAR = { height: 32, minVisibleWidth: 100, minVisibleHeight: 16 };

/**
 * Where the window opens: the saved bounds when its title bar lies on some display (shrunk to
 * fit that display), else the saved (or default) size centered on the primary display.
 * `workAreas` lists the primary display first; with none known the OS places the window.
 */
export function placeWindow(saved: Rect | null, workAreas: readonly Rect[]): { x?: number; y?: number; width: number; height: number } {
  const primary = workAreas[0];
  const size = saved ? { width: saved.width, height: saved.height } : { ...DEFAULT_SIZE };
  if (!primary) return { width: Math.max(MIN_SIZE.width, size.width), height: Math.max(MIN_SIZE.height, size.height) };
  if (saved) {
    const home = workAreas.find((area) => titleBarVisible(saved, area));
    if (home) {
      const fitted = fit(size, home);
      // Moved only as far as the shrinking needs, so a window the user put half off screen stays there.
      const x = fitted.width < saved.width ? clamp(saved.x, home.x, home.x + home.width - fitted.width) : saved.x;
      const y = fitted.height < saved.height ? clamp(saved.y, home.y, home.y + home.height - fitted.height) : saved.y;
      return { x, y, ...fitted };
    }
  }
  const fitted = fit(size, primary);
  if (!saved) return fitted; // the first start: the OS centers it
  return {
    x: primary.x + Math.round((primary.width - fitted.width) / 2),
    y: primary.y + Math.round((primary.height - fitted.height) / 2),
    ...fitted,
  };
}

function titleBarVisible(win: Rect, area: Rect): boolean {
  const w = overlap(win.x, win.x + win.width, area.x, area.x + area.width);
  const h = overlap(win.y, win.y + TITLE_BAR.height, area.y, area.y + area.height);
  return w >= Math.min(TITLE_BAR.minVisibleWidth, win.width) && h >= TITLE_BAR.minVisibleHeight;
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** The size, no bigger than the work area and no smaller than the window's minimum. */
function fit(size: { width: number; height: number }, area: Rect): { width: number; height: number } {
  return {
    width: Math.max(MIN_SIZE.width, Math.min(size.width, area.width)),
    height: Math.max(MIN_SIZE.height, Math.min(size.height, area.height)),
  };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(v, Math.max(lo, hi)));
}

/** Where the state lives; tests pass one in memory. */
export interface StateStore {
  read(): string | null;
  write(text: string): void;
}

/**
 * window-state.json in `dir`. Written synchronously on close (the app quits right after) and
 * through a temporary file, so a crash never leaves half a file. Failures are only logged: the
 * window must open and close whatever the disk does.
 */
export function fileStateStore(dir: string): StateStore {
  const file = join(dir, STATE_FILE);
  return {
    read: () => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return null;
      }
    },
    write: (text) => {
      try {
        mkdirSync(dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, text);
        renameSync(tmp, file);
      } catch (e) {
        console.warn(`PakScope could not save ${file}:`, e);
      }
    },
  };
}
