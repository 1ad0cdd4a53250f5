// DOM input in the numbers the Swift modules take: key codes, pointer kinds, and wheel
// deltas in the scene's units. Shared by the demo page and the viewer.

export const POINTER_KINDS = { mouse: 0, touch: 1, pen: 2 };

const KEYS = {
  Tab: 1, ' ': 2, Enter: 3, Escape: 4, Backspace: 5, Delete: 6,
  ArrowLeft: 7, ArrowRight: 8, ArrowUp: 9, ArrowDown: 10, '+': 11, '-': 12,
};

/** The module's number for `e.key` (docs/web.md), or −1 for a key it never binds. */
export function keyCode(e) {
  if (e.key in KEYS) return KEYS[e.key];
  const f = /^F(\d{1,2})$/.exec(e.key);
  if (f) return 100 + Number(f[1]);
  if ([...e.key].length === 1) return 1000 + e.key.toLowerCase().codePointAt(0);
  return -1;
}

/** Shift 1, Control or Command 2, Alt 4. */
export const modifiers = (e) => (e.shiftKey ? 1 : 0) | (e.ctrlKey || e.metaKey ? 2 : 0) | (e.altKey ? 4 : 0);

/**
 * A wheel event as `{dx, dy, precise}`: notched wheels in notches, touchpads and smooth
 * wheels in pixels; positive dy scrolls up (the DOM's positive deltaY scrolls down).
 */
export function wheelDelta(e) {
  const lines = e.deltaMode === 1, pages = e.deltaMode === 2;
  const scale = pages ? 3 : 1;
  // Chromium reports a notched wheel as 100 px per notch in pixel mode: treat exact
  // multiples of 100 px with no sideways part as notches.
  const notched = lines || pages || (e.deltaX === 0 && e.deltaY !== 0 && Math.abs(e.deltaY) % 100 === 0);
  const unit = notched && !lines && !pages ? 100 : 1;
  return { dx: e.deltaX / unit * scale, dy: -e.deltaY / unit * scale, precise: !notched };
}
