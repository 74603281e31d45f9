/**
 * The one windowing rule of the app's virtualized lists (tree, tables, hex, properties): rows of
 * a fixed height, only those in view (plus some overscan) in the DOM.
 */

/** The rows [first, last) to draw for a viewport scrolled to `scrollTop`, `height` pixels tall. */
export function rowWindow(scrollTop: number, height: number, count: number, rowHeight: number, overscan: number): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first, last };
}

/** Scrolls `viewport` just enough to show row `index`. */
export function revealRow(viewport: HTMLElement | undefined, index: number, rowHeight: number): void {
  if (!viewport || index < 0) return;
  const top = index * rowHeight;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + rowHeight > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + rowHeight - viewport.clientHeight;
}
