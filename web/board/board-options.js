// The check every board mode makes of the option names a page wrote, in JS (issue 37: words at
// the edge, so the engine's wasm carries no strings): a name that is no option is refused with
// the one it is closest to, an `onNAME` that names no event with the events, and SortableJS's
// names with what to use instead. Each mode passes its own tables; the board's own are below,
// with the check of its values (the engine's module takes them as numbers). docs/board.md.

/** The event an `onNAME` key names (lowercased), or null for any other key. */
export function eventOf(key) {
  return key.startsWith('on') && key.length > 2 ? key.slice(2).toLowerCase() : null;
}

/** Why `key` is refused, or null when it is one of `allowed` or an `on` + one of `events`.
 * `sortableJS`: [names, hint] pairs, SortableJS's names the mode does not take. */
export function optionProblem(key, allowed, events, sortableJS) {
  if (allowed.includes(key)) return null;
  const event = eventOf(key);
  if (event && events.includes(event)) return null;
  const hint = sortableJS.find(([names]) => names.includes(key))?.[1];
  if (hint) return `SortableJS's name, not the board's: ${hint}`;
  if (event) return `not an event${suggestion(event, events, 'on')}; the events are ${events.join(', ')}`;
  return `not an option${suggestion(key, allowed)} (docs/board.md lists them)`;
}

/** " (did you mean NAME?)" for the name nearest a misspelt one, or ''. Compared without case. */
export function suggestion(name, names, prefix = '') {
  const lower = name.toLowerCase();
  let best = null, bestDistance = Infinity;
  for (const candidate of names) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d <= Math.max(2, Math.floor(lower.length / 3)) && d < lower.length && d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best == null ? '' : ` (did you mean ${prefix}${best}?)`;
}

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    let previous = row[0];
    row[0] = i + 1;
    for (let j = 0; j < b.length; j++) {
      const above = row[j + 1];
      row[j + 1] = Math.min(row[j + 1] + 1, row[j] + 1, previous + (a[i] === b[j] ? 0 : 1));
      previous = above;
    }
  }
  return row[b.length];
}

/** A short description of an element for error messages: `div.slot#kitchen`. */
export function describe(el) {
  if (!el) return '(none)';
  let text = el.tagName.toLowerCase();
  if (el.id) text += '#' + el.id;
  for (const c of el.classList) if (!c.startsWith('board-')) text += '.' + c;
  if (el.dataset.id) text += `[data-id="${el.dataset.id}"]`;
  return text;
}

// MARK: The board's options (locations and shortcuts)

/** Options the board's page code reads itself; the engine's are ENGINE_OPTIONS. */
const PAGE_OPTIONS = ['items', 'slots', 'handle', 'filter', 'placement', 'persist', 'persistKey', 'accepts', 'status',
  'touch', 'autoScroll', 'announcements'];
/**
 * The engine's options in web/board/BoardWeb.swift's `board_option` key order, each with its
 * kind: a list of choices (sent as the index), 'n' a number not below 0, 'b' a boolean.
 */
const ENGINE_OPTIONS = [['strategy', ['nearest-center', 'largest-overlap', 'pointer-within', 'all-intersecting']],
  ['maxDistance', 'n'], ['snapDuration', 'n'], ['returnDuration', 'n'], ['swap', 'b'], ['hysteresis', 'n'],
  ['snapInside', 'b'], ['dropOnHover', 'b'], ['reducedMotion', 'b'], ['activationDistance', 'n'],
  ['contentDraggable', 'b'], ['curve', ['linear', 'ease-in-out', 'spring']], ['grid', 'n']];
/** The engine's key of option `name` (its place in ENGINE_OPTIONS), for a value the page sets itself. */
export const engineKey = (name) => ENGINE_OPTIONS.findIndex(([k]) => k === name);
const MODES = ['locations', 'shortcuts'];
const BOARD_OPTIONS = ['mode', ...ENGINE_OPTIONS.map(([k]) => k), 'strings', ...PAGE_OPTIONS];
/** The events a board page can listen to, also as `onNAME` options. */
export const BOARD_EVENTS = ['pickup', 'hover', 'drop', 'return', 'redo', 'swap', 'cancel', 'assign', 'change', 'status', 'place',
  'error'];
/** SortableJS's names the board does not take, each with the board's way to do it. */
const BOARD_SORTABLEJS = [
  [['ghostClass', 'chosenClass', 'dragClass', 'fallbackClass'],
    'style .board-lifted (the held item), .board-ghost (a shortcut\'s copy), [data-board-over] (where it lands)'],
  [['draggable'], 'use items (a CSS selector)'],
  [['onStart', 'onChoose'], 'use onpickup'],
  [['onEnd', 'onUnchoose'], 'use ondrop (and oncancel)'],
  [['onAdd', 'onRemove', 'onUpdate', 'onSort'], 'use onchange (detail.state)'],
  [['onMove'], 'use onhover, or accepts to refuse a place'],
  [['delay', 'delayOnTouchOnly', 'touchStartThreshold'], 'use touch: {delay, tolerance}'],
  [['disabled'], 'call destroy(), and board() to start again'],
  [['scroll', 'scrollSensitivity', 'scrollSpeed', 'bubbleScroll'], 'use autoScroll (true or false)'],
  [['store', 'dataIdAttr'], 'ids are data-id; use persist: \'localStorage\', or state() and restore()'],
  [['easing'], 'use curve'],
  [['forceFallback', 'fallbackOnBody', 'fallbackTolerance', 'fallbackOffset'], 'the board draws the held item itself'],
  [['preventOnFilter', 'onFilter'], 'a press on what filter names is the page\'s own'],
];
const isElement = (v) => typeof Element !== 'undefined' && v instanceof Element;
/** A value's kind as JSON would write it ("found a number"); a function, an element or NaN is "an object". */
const typeName = (v) => (v == null ? 'null' : typeof v === 'boolean' ? 'a boolean'
  : typeof v === 'number' && Number.isFinite(v) ? 'a number' : typeof v === 'string' ? 'a string'
    : Array.isArray(v) ? 'an array' : 'an object');
/** A value's kind in the page's words: a function, an element (div#x), NaN. */
const described = (v) => (typeof v === 'function' ? 'a function' : isElement(v) ? `an element (${describe(v)})`
  : typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeName(v));
/** An object of members (not an array, a function or an element). */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !isElement(v);
/** The keys JSON would write (an undefined member is none). */
const keys = (o) => Object.keys(o).filter((k) => o[k] !== undefined);
/** A number as a message writes it: up to 6 decimals. */
const decimal = (d) => String(Math.round(d * 1e6) / 1e6);

/** Each check throws a problem (`path: message`) that the option's loop collects. */
class Problem { constructor(path, message) { this.text = `${path}: ${message}`; } }
const fail = (path, message) => { throw new Problem(path, message); };
const number = (v, path) => {
  if (typeof v === 'number' && !Number.isFinite(v)) fail(path, `expected a finite number, found ${String(v)}`);
  if (typeof v !== 'number') fail(path, `expected a number, found ${described(v)}`);
  if (v < 0) fail(path, `must not be negative (found ${decimal(v)})`);
  return v;
};
const string = (v, path) => (typeof v === 'string' ? v : fail(path, `expected a string, found ${typeName(v)}`));
const choice = (v, path, choices) => {
  const k = choices.indexOf(string(v, path));
  return k >= 0 ? k : fail(path, `unknown value "${v}"; expected one of: ${choices.join(', ')}`);
};
const bool = (v, path) => (typeof v === 'boolean' ? v : fail(path, `expected true or false, found ${typeName(v)}`));
const selector = (v, path) => {
  if (typeof v !== 'string') fail(path, `expected a CSS selector, found ${described(v)}`);
  if (!v) fail(path, 'expected a CSS selector, found an empty string');
};
const fn = (v, path, hint) => {
  if (typeof v !== 'function') fail(path, `expected a function${hint ? ` ${hint}` : ''}, found ${described(v)}`);
};

/**
 * The board's options (`board()`'s, or `setOptions`'s `changing` ones) checked: every wrong
 * one in `problems` (`maxDistance: expected a number, found a string`), SortableJS's names with
 * the board's way; otherwise the engine's as numbers, `values` of [key, value] in
 * `ENGINE_OPTIONS` order, and the `mode` index. `phrases`: the names `strings` and
 * `announcements` take beside the page's own (`pageStrings`). docs/board.md lists them.
 */
export function boardOptions(given, changing, phrases, pageStrings) {
  const problems = [], values = [];
  if (!isObject(given)) return { problems: [`expected an object of options, found ${described(given)}`], values };
  if (!changing) for (const k of ['items', 'slots']) if (given[k] == null) problems.push(`missing required option "${k}" (a CSS selector)`);
  for (const k of keys(given)) {
    const v = given[k];
    try {
      if (changing && ['mode', 'items', 'slots'].includes(k)) fail(k, 'cannot change while the board runs; make a new board');
      const event = eventOf(k);
      if (event && BOARD_EVENTS.includes(event)) fn(v, k);
      const problem = optionProblem(k, BOARD_OPTIONS, BOARD_EVENTS, BOARD_SORTABLEJS);
      if (problem) fail(k, problem);
      if (v === null) continue; // as if not given
      checkValue(k, v, phrases, pageStrings, values);
    } catch (e) {
      if (!(e instanceof Problem)) throw e;
      problems.push(e.text);
    }
  }
  return { problems, values, mode: Math.max(0, MODES.indexOf(given.mode)) };
}

/** Checks option `k`'s value `v`, adding the engine's to `values`. */
function checkValue(k, v, phrases, pageStrings, values) {
  const engine = ENGINE_OPTIONS.findIndex(([name]) => name === k);
  if (engine >= 0) {
    const kind = ENGINE_OPTIONS[engine][1];
    const value = kind === 'n' ? number(v, k) : kind === 'b' ? +bool(v, k) : choice(v, k, kind);
    values.push([engine, value]);
  } else if (k === 'filter' && typeof v === 'function') {
    fail(k, 'expected a CSS selector, found a function (SortableJS\'s function form is not taken)');
  } else if (['items', 'slots', 'handle', 'filter'].includes(k) || (k === 'status' && !isElement(v))) {
    selector(v, k);
  } else if (k === 'mode') {
    choice(v, k, MODES);
  } else if (k === 'placement') {
    choice(v, k, ['move', 'event']);
  } else if (k === 'persist' && v !== false && v !== 'localStorage') {
    fail(k, `expected "localStorage" or false, found ${typeof v === 'string' ? `"${v}"` : described(v)}`);
  } else if (k === 'persistKey' && !string(v, k)) {
    fail(k, 'must not be empty');
  } else if (k === 'accepts') {
    fn(v, k, '(item, slot) => boolean; use data-accepts for tags');
  } else if (k === 'touch') {
    if (!isObject(v)) fail(k, `expected {delay, tolerance}, found ${described(v)}`);
    for (const m of keys(v)) {
      if (!['delay', 'tolerance'].includes(m)) {
        fail(`touch.${m}`, `not an option of touch${suggestion(m, ['delay', 'tolerance'])}; it takes delay (ms) and tolerance (px)`);
      }
      if (v[m] !== null) number(v[m], `touch.${m}`);
    }
  } else if (k === 'autoScroll') {
    bool(v, k);
  } else if (k === 'announcements') {
    if (!isObject(v)) fail(k, `expected an object of functions, found ${described(v)}`);
    const names = [...phrases, 'onDragStart', 'onDragOver', 'onDragEnd', 'onDragCancel'];
    for (const m of keys(v)) {
      if (!names.includes(m)) fail(`${k}.${m}`, `not an announcement${suggestion(m, names)} (docs/board.md lists them)`);
      fn(v[m], `${k}.${m}`, '(event) => string');
    }
  } else if (k === 'strings') {
    if (!isObject(v)) fail(k, `expected an object, found ${described(v)}`);
    const names = [...phrases, 'undoHint', ...pageStrings];
    for (const m of keys(v)) {
      if (!names.includes(m)) fail(`${k}.${m}`, `not a string the board says${suggestion(m, names)} (docs/board.md lists them)`);
      string(v[m], `${k}.${m}`);
    }
  }
}
