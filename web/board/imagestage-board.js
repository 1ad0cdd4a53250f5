// ImageStage's board on a page's own elements: the Stage engine (Swift, in
// imagestage-board.wasm) decides targets, hover, snapping, animation, swaps, undo and the
// keyboard moves; this file only measures the DOM, feeds input in, and applies what the
// engine answers as CSS `translate` (never the page's own `transform`). docs/board.md.
//
//   import { board } from './imagestage-board.js';
//   const b = board('#grid', { items: 'img.photo', slots: '.cell', mode: 'locations' });
//   b.on('drop', (e) => console.log(e.itemId, 'on', e.slotId));

import { instantiate } from './wasm.js';
import { storedText, store, keepAside } from './storage.js';
import { SortableBoard } from './board-sortable.js';
import { boardOptions, describe, engineKey, BOARD_EVENTS as EVENTS } from './board-options.js';

/** ImageStage's version (VERSION), e.g. for a bug report. */
export { version } from './version.js';

const WASM = new URL('imagestage-board.wasm', import.meta.url);

// Every option's name, type and range is checked by board-options.js's boardOptions, which
// names the option in its error; the engine's cross as numbers (board_option).
/** Strings the page shows itself (the engine's phrases are the rest of `strings`). */
const PAGE_STRINGS = {
  draggable: 'draggable',
  instructions: 'Press Space or Enter to pick up. Arrow keys move between slots; Space drops; Escape cancels.',
  copyInstructions: 'Press Delete to remove it.',
};
/**
 * What the engine says, in English, in Stage's `Phrase` order: an announcement or the status
 * arrives as a phrase's index with numeric arguments (BoardWeb.swift's `putSentence`), and
 * this table, under the page's `strings`, makes the words (docs/board.md, "Announcements").
 * Tests/StageTests/PhrasesTests.swift holds it to Swift's table, name for name.
 */
const PHRASES = {
  focused: 'Focused {item}.',
  itemInSlot: '{item}, in {slot}',
  pickedUp: 'Picked up {item}. Use the arrow keys to move, Space to drop, Escape to cancel.',
  cancelled: 'Movement cancelled. {item} returned.',
  cancelledHome: 'Movement cancelled. {item} returned to {slot}.',
  noneLeft: 'No location to the left.',
  noneRight: 'No location to the right.',
  noneAbove: 'No location above.',
  noneBelow: 'No location below.',
  over: '{item} is over {slot}.',
  overSwaps: '{item} is over {slot}. Dropping swaps it with {other}.',
  droppedNowhere: '{item} was dropped on no location and returned.',
  dropped: '{item} was dropped on {slot}.',
  nothingToUndo: 'Nothing to undo.',
  nothingToRedo: 'Nothing to redo.',
  undid: 'Undid {change}.',
  redid: 'Redid {change}.',
  moveOf: 'move of {item}',
  swapOf: 'swap of {item} and {other}',
  assignmentOf: 'assignment of {item}',
  movedOf: 'move of {item}',
  changesTo: 'changes to {item}',
  and: ' and ',
  taken: '{slot} is taken: {item} went back.',
  takenHome: '{slot} is taken: {item} went back to {other}.',
  moved: 'Moved {item} to {slot}.',
  nothingToRemove: 'Nothing to remove.',
  removed: 'Removed {item} from {slot}.{undo}',
  swapped: 'Swapped {item} with {other}, now in {slot}.',
  swappedNoSlot: 'Swapped {item} with {other}, now in its place.',
  clearedOne: 'Cleared 1 slot.{undo}',
  cleared: 'Cleared {count} slots.{undo}',
  replaced: 'Replaced {other} with {item} in {slot}.{undo}',
  location: 'location #{id}',
  current: '{slot}',
  slotStatus: '{slot}: {item}',
  empty: 'empty',
};
const PHRASE_NAMES = Object.keys(PHRASES);
/** dnd-kit's names in `announcements`: each covers the phrases of one moment of a drag. */
const MOMENTS = {
  onDragStart: ['pickedUp'],
  onDragOver: ['over', 'overSwaps', 'noneLeft', 'noneRight', 'noneAbove', 'noneBelow'],
  onDragEnd: ['dropped', 'droppedNowhere', 'swapped', 'swappedNoSlot', 'moved', 'taken', 'takenHome', 'replaced'],
  onDragCancel: ['cancelled', 'cancelledHome'],
};
/** `template` with each `{name}` of `values` filled in; an unknown name stays as written, so a typo shows. */
// Own names only: `{constructor}` stays as written (as Stage's Phrases.fill leaves it), not Object's.
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(values, k) ? values[k] : m));
/** Event codes as web/board/BoardWeb.swift's `EventCode` numbers them. */
const EVENT_TYPES = ['pickup', 'hover', 'drop', 'return', 'redo', 'assign', 'swap', 'cancel', 'announce', 'status'];
/** Controls inside an item that keep working: a press on one never starts a drag. */
const CONTROLS = 'input, textarea, select, option, button, a[href], label, summary, audio[controls], video[controls],'
  + ' [contenteditable]:not([contenteditable="false"])';
/** Attributes this file may add to the page's elements; destroy() takes back the ones it added. */
const ADDED = ['tabindex', 'role', 'aria-roledescription', 'aria-describedby', 'aria-label', 'data-board-item'];
/** The board running on each container: a second board() on one is refused. */
const boards = new WeakMap();
/** The top layer (`popover`): a held item is shown above everything, outside any overflow clip. */
const topLayer = typeof HTMLElement !== 'undefined' && 'showPopover' in HTMLElement.prototype;
/** Key numbers as web/BoardWeb.swift takes them (Stage's Key.allCases order). */
const KEY = { Tab: 0, ' ': 1, Enter: 2, Escape: 3, ArrowLeft: 4, ArrowRight: 5, ArrowUp: 6, ArrowDown: 7 };
const UNDO = 8, REDO = 9;
const now = () => performance.now() / 1000;
const utf8 = new TextEncoder();
/** Set-up's phases as User Timing marks (DevTools' Performance panel; bench/web/setup.py prints them). */
const mark = (phase) => performance.mark(`imagestage-board:${phase}`);

let styled = false;
/**
 * The few rules the component needs; `:where()` keeps them weaker than any page rule. None
 * changes an item at rest: a declaration on every item (`cursor`, `user-select`,
 * `touch-action`) had the browser restyle and repaint all of them at set-up, most of its
 * time at 1000 items. The hovered item alone shows the grab cursor and takes no text
 * selection; a held drag's container has none (`.board-dragging`). Touch needs no
 * `touch-action`: a touch drag starts after a hold and cancels its touchmoves from then
 * (#listen), and the browser reads `touch-action` when a touch starts, before any press.
 */
function addStyle() {
  if (styled) return;
  styled = true;
  const rules = `
:where([data-board-item]:hover) { cursor: grab; user-select: none; -webkit-user-select: none; }
:where([data-board-item]) { -webkit-touch-callout: none; }
:where([data-board-item]:hover) :where(input, textarea, [contenteditable]:not([contenteditable="false"])) {
  user-select: text; -webkit-user-select: text; cursor: auto; }
:where([data-board-item]:hover) :where(button, select, a[href], label, summary) { cursor: auto; }
:where([data-board-item].board-lifted) { cursor: grabbing; z-index: 1000; }
:where([data-board-over]) { outline: 3px dashed currentColor; outline-offset: -3px; }
:where([data-board-refuses]) { opacity: 0.45; cursor: no-drop; }
:where([data-board-item], .board-ghost):popover-open { inset: auto; margin: 0; border: none; padding: 0; color: inherit;
  background-color: transparent; overflow: visible; }
:where(.board-dragging, .board-dragging *) { user-select: none; -webkit-user-select: none; }
:where(.board-ghost) { opacity: 0.85; box-shadow: 0 8px 24px rgb(0 0 0 / 0.3); }
.board-live { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; border: 0; padding: 0; }
@media (prefers-reduced-motion: no-preference) { :where(.board-ghost) { transition: opacity 0.1s; } }`;
  // A constructed stylesheet where the browser has them: a page's Content-Security-Policy
  // governs <style> elements (it would need 'unsafe-inline'), not the CSSOM.
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(rules);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.dataset.imagestageBoard = '';
  style.textContent = rules;
  document.head.append(style);
}

/** Whether `el` has no role of its own (a `<div>`, a `<span>`, a custom element): the board may give it one. */
const generic = (el) => /^(DIV|SPAN)$|-/.test(el.tagName);

/** Whether `text` parses as a CSS selector. */
function isSelector(text) {
  try {
    document.createDocumentFragment().querySelector(text);
    return true;
  } catch {
    return false;
  }
}

/** One Error for every problem found (each `option: what is wrong`), so a page fixes them in one go. */
function failure(problems) {
  return new Error(`ImageStage board: ${problems.length > 1 ? `${problems.length} problems:\n- ${problems.join('\n- ')}` : problems[0]}`);
}

/** What JSON calls a value's kind, for a message ("found a number"). */
const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object'
  : typeof v === 'boolean' ? 'a boolean' : `a ${typeof v}`);

/**
 * A state line (`state()`'s, or an older one) read for the engine as indices: `placements`,
 * each named item's slot (−1 none), and `contents`, each named slot's item (−1 none); ids the
 * page no longer has are dropped (a changed page keeps what still fits). A mistake is thrown
 * as a message naming its field after `source` (`restore(): items[2].slot: …`).
 */
function readState(text, source, itemIds, slotIds) {
  const fail = (path, message) => { throw new Error(`${source}: ${path ? `${path}: ` : ''}${message}`); };
  // A name or value from the text, shown at most 80 characters long: a stored board's 10 MB key
  // would otherwise be a 10 MB message.
  const clip = (t) => (t.length > 80 ? `${t.slice(0, 80)}… (${t.length} characters)` : t);
  let state;
  try { state = JSON.parse(text); } catch (e) { fail('', `invalid JSON: ${e.message}`); }
  const object = (v, path, allowed) => {
    if (kind(v) !== 'an object') fail(path, `expected an object, found ${kind(v)}`);
    for (const k of Object.keys(v)) {
      if (!allowed.includes(k)) fail(path ? `${path}.${clip(k)}` : clip(k), `unknown key; expected one of: ${allowed.join(', ')}`);
    }
  };
  const array = (v, path) => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) fail(path, `expected an array, found ${kind(v)}`);
    return v;
  };
  // An id as state() writes it, a string, or as the app may, an integer.
  const id = (v, path) => {
    if (typeof v === 'string' && v) return v;
    if (typeof v === 'string') fail(path, 'an id must not be empty');
    if (Number.isInteger(v)) return String(v);
    return fail(path, v === undefined || v === null ? 'missing required key "id"' : `expected a string or integer id, found ${kind(v)}`);
  };
  object(state, '', ['type', 'version', 'items', 'slots']);
  // "{}" is no state: it would put nothing anywhere and say nothing.
  if (state.items == null && state.slots == null) fail('', 'missing "items" and "slots": not a board state (state() writes both)');
  if (state.type != null && state.type !== 'state') {
    fail('type', typeof state.type === 'string' ? `expected "state", found "${clip(state.type)}"` : `expected a string, found ${kind(state.type)}`);
  }
  const items = new Map(itemIds.map((v, i) => [v, i])), slots = new Map(slotIds.map((v, s) => [v, s]));
  const placements = [], contents = [];
  array(state.items, 'items').forEach((r, k) => {
    const path = `items[${k}]`;
    object(r, path, ['id', 'slot', 'center']);
    const i = items.get(id(r.id, `${path}.id`));
    const slot = r.slot == null ? null : id(r.slot, `${path}.slot`);
    // An item the page no longer has is dropped; one whose slot is gone stays where the page put it.
    if (i === undefined || (slot !== null && !slots.has(slot))) return;
    placements.push(i, slot === null ? -1 : slots.get(slot));
  });
  array(state.slots, 'slots').forEach((r, k) => {
    const path = `slots[${k}]`;
    object(r, path, ['id', 'content']);
    const s = slots.get(id(r.id, `${path}.id`));
    const content = r.content == null ? null : id(r.content, `${path}.content`);
    if (s === undefined || (content !== null && !items.has(content))) return;
    contents.push(s, content === null ? -1 : items.get(content));
  });
  return { placements, contents };
}

/** The board: `board(container, options)`; `ready` settles when the engine runs. */
export function board(container, options = {}) {
  // Sortable lists (SortableJS's behaviour) are their own class over the same module.
  if (options?.mode === 'sortable') return new SortableBoard(container, options);
  return new Board(container, options);
}

export class Board {
  constructor(container, options = {}) {
    this.given = container; // what the page passed, for the error when it finds nothing
    try {
      this.container = typeof container === 'string' ? document.querySelector(container) : container;
    } catch {
      this.container = null; // not a selector: #check says so
    }
    this.options = { ...options };
    this.listeners = new Map();
    this.items = [];
    this.slots = [];
    this.destroyed = false;
    this.pending = new Map(); // touch presses waiting for their hold
    this.pointers = new Map(); // pointer id → last client position, for presses that reached the engine
    this.dragging = new Set(); // pointers whose press became a drag (their click is not the page's)
    this.floating = new Map(); // item index → its top-layer state while held or animating
    this.added = new Map(); // element → the attributes this file added to it, and their values
    this.unstyled = new Set(); // items that had no style attribute
    this.ready = this.#start();
    // A page that forgets `await b.ready` still hears of a failure: it is logged.
    this.ready.catch(() => {});
  }

  // MARK: Public API

  /** Calls `fn(detail)` for event `name` (docs/board.md); chainable. */
  on(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name).add(fn);
    return this;
  }

  off(name, fn) {
    this.listeners.get(name)?.delete(fn);
    return this;
  }

  /** The state line: which slot each item sits on and what each slot shows (the app's). */
  state() {
    if (!this.wasm) return null;
    // Written here from the engine's numbers (the wasm has no JSON writer), as the app writes it.
    const { slots, contents } = this.#placement();
    const n = new Float64Array(this.x.memory.buffer, this.x.board_numbers(), this.x.board_rests());
    return JSON.stringify({ type: 'state',
      items: this.itemIds.map((id, i) => ({ id, slot: this.slotIds[slots[i]] ?? null, center: [n[2 * i], n[2 * i + 1]] })),
      slots: this.slotIds.map((id, s) => ({ id, content: this.itemIds[contents[s]] ?? null })) });
  }

  /** Restores a state line; throws an Error naming the field when it does not read. */
  restore(text) {
    if (!this.wasm) throw new Error('ImageStage board: restore(): the board is not ready yet (await b.ready)');
    const error = this.#restore(text, 'restore()');
    if (error) throw new Error(`ImageStage board: ${error}`);
    this.#changed();
  }

  undo() { this.#guard(() => this.#key(UNDO))(); }
  redo() { this.#guard(() => this.#key(REDO))(); }
  canUndo() { return !!(this.x?.board_history() & 1); }
  canRedo() { return !!(this.x?.board_history() & 2); }

  /** Changes engine options while the board runs (`reducedMotion`, `maxDistance`, …). */
  setOptions(changes) {
    if (!this.x) throw new Error('ImageStage board: setOptions: the board is not running (await b.ready first)');
    // Every change is checked (names, types, ranges) before any is applied.
    const { problems, values } = boardOptions(changes, true, PHRASE_NAMES, Object.keys(PAGE_STRINGS));
    if (problems.length) throw failure(problems);
    this.x.board_options(-1);
    for (const [k, v] of values) this.x.board_option(k, v);
    const error = this.wasm.out(this.x.board_set_options());
    if (error) throw failure([error]);
    if (typeof changes.status === 'string') this.#findStatus(changes.status);
    Object.assign(this.options, changes);
    this.#readPageOptions();
    return this;
  }

  /** Measures the page again (the component does so itself on resize and DOM changes). */
  refresh() {
    if (this.x) this.#measure();
    return this;
  }

  /** Stops: listeners, observers, ghosts and the live region go; the page's elements stay. */
  destroy() {
    this.destroyed = true;
    this.abort?.abort();
    for (const press of this.pending.values()) clearTimeout(press.timer);
    cancelAnimationFrame(this.measureRequest);
    this.resizeObserver?.disconnect();
    this.mutationObserver?.disconnect();
    cancelAnimationFrame(this.frameRequest);
    for (const g of this.ghosts?.values() ?? []) g.remove();
    this.live?.remove();
    this.instructions?.remove();
    this.copyInstructions?.remove();
    this.items.forEach((el, i) => this.#unlift(i));
    for (const el of this.slots) {
      delete el.dataset.boardOver;
      delete el.dataset.boardRefuses;
    }
    // The page's elements as it made them: only what this file added is taken back (not a
    // value the page has set since).
    for (const [el, attributes] of this.added) for (const [a, v] of attributes) if (el.getAttribute(a) === v) el.removeAttribute(a);
    for (const el of this.unstyled) if (!el.style.length) el.removeAttribute('style');
    this.added.clear();
    this.container?.classList.remove('board-dragging');
    if (boards.get(this.container) === this) boards.delete(this.container);
    this.wasm = this.x = null;
  }

  // MARK: Start

  async #start() {
    mark('start');
    await null; // errors are reported after the page's own `on('error', …)` calls
    try {
      const problems = this.#check();
      mark('checked');
      // The module is fetched and compiled (off the main thread) while the DOM is read below.
      const loading = instantiate(WASM);
      loading.catch(() => {}); // a DOM error first is the one reported
      this.#addLiveRegion();
      const description = this.#describe();
      // After #describe's box reads: an element added before them has the browser lay the
      // whole page out again for the first read.
      document.body.append(this.live, this.instructions, this.copyInstructions);
      mark('described');
      this.wasm = await loading;
      this.x = this.wasm.exports;
      mark('wasm');
      if (this.destroyed) return this;
      this.#send(description, problems, false); // #reconcileAll below measures
      mark('created');
      this.#listen();
      mark('listening');
      if (this.options.persist === 'localStorage') this.#load();
      // The boxes #describe read are still the page's unless an item moved: no second layout.
      this.#reconcileAll(this.measured, true);
      this.lastKey = this.#placementKey(); // `change` fires only when a later placement differs
      mark('ready');
      return this;
    } catch (e) {
      console.error(e.message);
      this.#emit('error', { message: e.message });
      // Nothing stays behind: no live region, no listeners, no attributes.
      if (!this.destroyed) this.destroy();
      throw e;
    }
  }

  /**
   * What needs the DOM, before the module loads: the container (an error at once) and the
   * selectors (their problems, returned to be reported with the engine's, all at once).
   */
  #check() {
    const o = this.options, problems = [];
    if (!(this.container instanceof Element)) {
      const g = this.given;
      throw new Error(`ImageStage board: container: ${typeof g === 'string' ? `"${g}" ${this.container === null && isSelector(g)
        ? 'matches nothing on the page' : 'is not a valid selector'}` : `expected an element or a CSS selector, found ${g === null ? 'null' : typeof g}`}`);
    }
    const running = boards.get(this.container);
    if (running && !running.destroyed) {
      // Two boards on one element would each answer every pointer: every event twice.
      throw new Error(`ImageStage board: container: ${describe(this.container)} already has a board;`
        + ' call destroy() on that one first, or keep using it');
    }
    boards.set(this.container, this);
    for (const k of Object.keys(o)) {
      if (k.startsWith('on') && EVENTS.includes(k.slice(2).toLowerCase()) && typeof o[k] === 'function') {
        this.on(k.slice(2).toLowerCase(), o[k]);
      }
    }
    // An empty list is a board too (items come later); slots that match nothing are a mistake.
    for (const k of ['items', 'slots', 'handle', 'filter']) {
      if (typeof o[k] !== 'string' || !o[k]) continue; // the engine's check names a wrong type
      if (!isSelector(o[k])) problems.push(`${k}: "${o[k]}" is not a valid selector`);
      else if (k === 'slots' && !this.container.querySelector(o[k])) {
        problems.push(`${k}: "${o[k]}" matches nothing inside ${describe(this.container)}`);
      }
    }
    if (typeof o.status === 'string' && o.status) {
      try { this.#findStatus(o.status); } catch (e) { problems.push(e.message.replace('ImageStage board: ', '')); }
    }
    this.#readPageOptions();
    return problems;
  }

  /** The status option's element, or an error naming the selector that finds none. */
  #findStatus(selector) {
    let el;
    try { el = document.querySelector(selector); } catch { throw new Error(`ImageStage board: status: "${selector}" is not a valid selector`); }
    if (!el) throw new Error(`ImageStage board: status: "${selector}" matches nothing on the page`);
    return el;
  }

  /** The options this file applies itself, as they are now (at the start, after setOptions). */
  #readPageOptions() {
    const o = this.options;
    this.placement = o.placement ?? 'move';
    this.mode = o.mode ?? 'locations';
    this.touch = { delay: 200, tolerance: 6, ...(o.touch || {}) };
    this.strings = { ...PAGE_STRINGS, ...(o.strings || {}) };
    // What an item's name leaves out of its text (#itemName).
    const handle = typeof o.handle === 'string' && isSelector(o.handle) ? `, ${o.handle}` : '';
    this.unnamed = `${CONTROLS}, [aria-hidden="true"], script, style, template${handle}`;
  }

  /** Sets attribute `name` on `el` unless the page gave one; remembered for destroy(). */
  #add(el, name, value) {
    if (el.hasAttribute(name)) return;
    el.setAttribute(name, value);
    let added = this.added.get(el);
    if (!added) this.added.set(el, (added = new Map()));
    added.set(name, value);
  }

  /** Finds the page's items and slots and hands the engine their boxes. */
  #create() { this.#send(this.#describe()); }

  /**
   * Finds the page's items and slots, reads their boxes (kept in `measured`), then marks them
   * (attributes, roles, names): the description the engine starts from, as JSON text.
   */
  #describe() {
    const o = this.options;
    // The board's own copies, placeholders and ghosts left out by the query itself (no JS per element).
    const all = (sel) => (isSelector(sel)
      ? [...this.container.querySelectorAll(`:is(${sel}):not([data-board-copy], [data-board-placeholder], .board-ghost)`)] : []);
    this.items = all(o.items);
    this.slots = all(o.slots);
    // getAttribute, not dataset: each element's dataset is an object the browser makes on first use.
    const data = (el, name) => el.getAttribute(`data-${name}`);
    this.itemIds = this.items.map((el, i) => data(el, 'id') || String(i + 1));
    this.slotIds = this.slots.map((el, i) => data(el, 'id') || String(i + 1));
    const homes = new Map(this.home?.map((h) => [h.el, h]));
    this.home = this.items.map((el) => homes.get(el) ?? { el, parent: el.parentNode, next: el.nextSibling });
    this.offsets = this.items.map(() => null);
    this.ghosts = this.ghosts ?? new Map();
    this.over = new Set();
    const f = this.#frame();
    // In a closed dialog, a display:none tab or a closed <details>, nothing has a size yet:
    // the engine waits, and the ResizeObserver measures when the container is shown.
    const hidden = this.container.getClientRects().length === 0;
    // Every box is read before any attribute is written: a read after a write makes the
    // browser lay the page out again, once per item (most of the set-up time at 1000 items).
    const slotRects = this.slots.map((el) => this.#rect(el, f, null));
    const itemRects = this.items.map((el) => this.#rect(el, f, null));
    // inSlot: the slot whose element holds each item (−1 none), for #measure.
    this.measured = { f, slotRects, itemRects, inSlot: [] };
    if (!this.x) mark('read'); // at the start, not in a rebuild
    addStyle(); // after the reads: its rules would have the browser work out every item's style first
    const slotIndex = new Map(this.slots.map((el, s) => [el, s]));
    const slotById = new Map(this.slotIds.map((id, s) => [id, s])), itemById = new Map(this.itemIds.map((id, i) => [id, i]));
    // One query each for the container, not one an item: most boards have no images or copies.
    this.withImages = !!this.container.querySelector('img');
    const copies = new Map();
    for (const c of this.container.querySelectorAll('[data-board-copy]')) if (!copies.has(c.parentElement)) copies.set(c.parentElement, c);
    const items = this.items.map((el, i) => {
      this.#add(el, 'data-board-item', '');
      if (el.tagName === 'IMG') this.#add(el, 'draggable', 'false');
      else if (this.withImages) for (const img of el.querySelectorAll('img')) this.#add(img, 'draggable', 'false');
      // No style attribute of the page's: the one the drags leave behind (empty) goes at destroy().
      if (!el.hasAttribute('style')) this.unstyled.add(el);
      const name = this.#itemName(el, i);
      this.#label(el, name);
      const slotEl = el.parentElement?.closest(o.slots);
      let s = slotEl ? (slotIndex.get(slotEl) ?? -1) : -1;
      this.measured.inSlot[i] = s;
      if (s < 0 || this.mode !== 'locations') s = data(el, 'slot') ? (slotById.get(data(el, 'slot')) ?? -1) : -1;
      const tags = data(el, 'tags');
      return { id: this.itemIds[i], name, slot: s, tags: tags ? tags.split(/\s+/).filter(Boolean) : [] };
    });
    const slots = this.slots.map((el, s) => {
      const accepts = data(el, 'accepts'), capacity = data(el, 'capacity');
      const slot = { id: this.slotIds[s], name: data(el, 'name') || el.getAttribute('aria-label') || null, content: -1,
        accepts: accepts ? accepts.split(/\s+/).filter(Boolean) : null, capacity: capacity ? Number(capacity) : 1 };
      const copy = copies.get(el);
      if (copy) slot.content = itemById.get(data(copy, 'board-copy')) ?? -1;
      if (generic(el)) this.#add(el, 'role', 'group'); // a <ul> stays a list, and its <li> list items
      if (!el.hasAttribute('aria-labelledby')) this.#add(el, 'aria-label', slot.name || fill(this.strings.location ?? PHRASES.location, { id: slot.id }));
      return slot;
    });
    if (o.accepts) this.#acceptsByFunction(items, slots);
    const given = { ...o };
    if (o.reducedMotion === undefined) given.reducedMotion = this.#prefersReducedMotion();
    // Checked here; the engine's cross as numbers (#send).
    const options = boardOptions(given, false, PHRASE_NAMES, Object.keys(PAGE_STRINGS));
    return { options, hidden, width: Math.max(1, f.width), height: Math.max(1, f.height), slots, items, slotRects, itemRects };
  }

  /**
   * Starts the engine on `description` (#describe's), packed as board_create takes it
   * (web/board/BoardWeb.swift): strings as UTF-8 one after another, records of integers,
   * frames and capacities as doubles. Throws the page's and the engine's problems together.
   */
  #send(description, problems = [], measure = true) {
    const { options, hidden, width, height, slots, items, slotRects, itemRects } = description;
    const nS = slots.length, nI = items.length;
    // The names announcements read (#words): the engine speaks in indices.
    this.itemNames = items.map((i) => i.name);
    this.slotNames = slots.map((sl) => sl.name);
    const texts = [], refs = [], records = [];
    const text = (t) => {
      if (t === null || t === undefined) { records.push(0, -1); return; }
      refs.push(records.length); // its offset and length in bytes, filled in below
      records.push(0, 0);
      texts.push(String(t));
    };
    const list = (l) => {
      records.push(l ? l.length : -1);
      for (const t of l || []) text(t);
    };
    for (const s of slots) { text(s.id); text(s.name); records.push(s.content); list(s.accepts); }
    for (const i of items) { text(i.id); text(i.name); records.push(i.slot); list(i.tags); }
    // All texts into one buffer with encodeInto: three bytes a UTF-16 code unit at most.
    let total = 0;
    for (const t of texts) total += t.length;
    const bytes = new Uint8Array(3 * total), ints = new Int32Array(records);
    let at = 0;
    texts.forEach((t, k) => {
      const written = utf8.encodeInto(t, bytes.subarray(at)).written;
      ints[refs[k]] = at;
      ints[refs[k] + 1] = written;
      at += written;
    });
    const frames = new Float64Array(4 * (nS + nI) + nS + 1);
    slotRects.forEach((r, s) => frames.set(r, 4 * s));
    itemRects.forEach((r, i) => frames.set(r, 4 * (nS + i)));
    slots.forEach((s, j) => { frames[4 * (nS + nI) + j] = s.capacity; });
    // The options' problems after the page's own (selectors); the engine is not started with them.
    problems = [...problems, ...options.problems];
    const box = problems.length ? null : this.#boxProblem(slotRects, itemRects, slots, hidden);
    if (box) problems = [this.#nameElements(box)];
    if (problems.length) throw failure(problems);
    const w = this.wasm;
    this.x.board_options(options.mode);
    for (const [k, v] of options.values) this.x.board_option(k, v);
    const error = w.out(w.withBytes(bytes.subarray(0, at), (ps, ns) =>
      w.withBytes(new Uint8Array(ints.buffer), (pr) => w.withBytes(new Uint8Array(frames.buffer), (pf) =>
        this.x.board_create(ps, ns, pr, ints.length, pf, nS, nI, width, height, hidden ? 1 : 0)))));
    if (error) throw failure([this.#nameElements(error)]);
    if (measure) this.#measure();
  }

  /**
   * The first box or capacity the engine would refuse, in words (`slots[3].frame: has zero
   * size (0×40 px)`), or null: the module refuses them without a message.
   */
  #boxProblem(slotRects, itemRects, slots, hidden) {
    const px = (n) => String(Math.round(n * 1e6) / 1e6);
    for (const [kind, rects] of [['slots', slotRects], ['items', itemRects]]) {
      for (const [k, [, , w, h]] of rects.entries()) {
        if (!(w >= 0 && h >= 0)) return `${kind}[${k}].frame: width and height must not be negative`;
        if (kind === 'slots' && !hidden && !(w > 0 && h > 0)) return `${kind}[${k}].frame: has zero size (${px(w)}×${px(h)} px)`;
        const c = kind === 'slots' && slots[k].capacity;
        if (c !== false && !(Number.isInteger(c) && c < 1e9)) return `${kind}[${k}].capacity: expected an integer, found ${px(c)}`;
        if (c !== false && c < 1) return `${kind}[${k}].capacity: must be at least 1`;
      }
    }
    return null;
  }

  /** `slots[3].frame: …` reads `slots[3] (div.cell#kitchen): …`: the page finds its element. */
  #nameElements(error) {
    return error.replace(/^(slots|items)\[(\d+)\](\.frame)?/, (m, kind, n) => {
      const el = (kind === 'slots' ? this.slots : this.items)[Number(n)];
      return `${kind}[${n}] (${describe(el)})`;
    });
  }

  /** A page's `accepts(item, slot)` as the engine's tags: each item tagged by its index. */
  #acceptsByFunction(items, slots) {
    items.forEach((item, i) => { item.tags = [...(item.tags || []), `#${i}`]; });
    slots.forEach((slot, s) => {
      const accepted = [];
      this.items.forEach((el, i) => { if (this.options.accepts(el, this.slots[s])) accepted.push(`#${i}`); });
      if (accepted.length < items.length) slot.accepts = accepted;
    });
  }

  #prefersReducedMotion() { return matchMedia('(prefers-reduced-motion: reduce)').matches; }

  /**
   * What an item is called: its `aria-label`, `alt` or image's `alt`, else its own text
   * without its controls' (a card's "Done" button), its handle's or hidden text; a text
   * that is only symbols (a "⠿" grip) names nothing, and a card titled by its input is
   * called by that input's value; else its id.
   */
  #itemName(el, i) {
    // The children's texts joined by spaces, walked by sibling links: spreading, mapping and
    // joining each element's childNodes was a quarter of set-up's DOM work at 1000 items.
    const text = (n) => {
      let out = null;
      for (let c = n.firstChild; c; c = c.nextSibling) {
        const part = c.nodeType === 3 ? c.data : c.nodeType === 1 && !c.matches(this.unnamed) ? text(c) : '';
        out = out === null ? part : `${out} ${part}`;
      }
      return out ?? '';
    };
    const given = el.getAttribute('aria-label') || el.getAttribute('alt') || (this.withImages && el.querySelector?.('img[alt]')?.alt);
    if (given) return given;
    const own = text(el).replace(/\s+/g, ' ').trim();
    return (/[\p{L}\p{N}]/u.test(own) ? own : el.querySelector('input:not([type]), input[type=text], textarea')?.value.trim())
      || this.itemIds[i];
  }

  /**
   * Roles and names for items, unless the page gave its own. An element with a role of its
   * own (an `<li>`, an `<img>`, a row) keeps it and is described as draggable; a plain
   * `<div>` or `<span>` becomes a button. The name is set where its text would say otherwise.
   */
  #label(el, name) {
    if (el.tabIndex < 0) this.#add(el, 'tabindex', '0');
    if (generic(el)) this.#add(el, 'role', 'button');
    this.#add(el, 'aria-roledescription', this.strings.draggable);
    this.#add(el, 'aria-describedby', this.instructions.id);
    if (el.tagName !== 'IMG' && !el.hasAttribute('aria-labelledby') && name !== el.textContent.replace(/\s+/g, ' ').trim()) {
      this.#add(el, 'aria-label', name);
    }
  }

  #addLiveRegion() {
    const n = (Board.count = (Board.count || 0) + 1);
    this.live = document.createElement('div');
    this.live.className = 'board-live';
    this.live.id = `board-live-${n}`;
    this.live.setAttribute('role', 'status');
    this.live.setAttribute('aria-live', 'assertive');
    this.live.setAttribute('aria-atomic', 'true');
    this.instructions = document.createElement('div');
    this.instructions.className = 'board-live';
    this.instructions.id = `board-instructions-${n}`;
    this.instructions.textContent = this.strings.instructions;
    this.copyInstructions = document.createElement('div');
    this.copyInstructions.className = 'board-live';
    this.copyInstructions.id = `board-copy-instructions-${n}`;
    this.copyInstructions.textContent = this.strings.copyInstructions;
  }

  // MARK: Measuring

  /** The container's box: board coordinates are its content's CSS pixels, scroll and scale undone. */
  #frame() {
    const c = this.container;
    const r = c.getBoundingClientRect();
    const sx = c.offsetWidth ? r.width / c.offsetWidth : 1;
    const sy = c.offsetHeight ? r.height / c.offsetHeight : 1;
    return {
      left: r.left + c.clientLeft * sx, top: r.top + c.clientTop * sy, sx: sx || 1, sy: sy || 1,
      scrollLeft: c.scrollLeft, scrollTop: c.scrollTop, width: c.scrollWidth, height: c.scrollHeight,
      box: [c.offsetWidth, c.offsetHeight],
    };
  }

  /** An element's box in board coordinates, without the translate this file applied. */
  #rect(el, f, offset) {
    const r = el.getBoundingClientRect();
    const x = (r.left - f.left) / f.sx + f.scrollLeft - (offset ? offset[0] : 0);
    const y = (r.top - f.top) / f.sy + f.scrollTop - (offset ? offset[1] : 0);
    return [x, y, r.width / f.sx, r.height / f.sy];
  }

  #toBoard(clientX, clientY, f = this.frameNow) {
    return [(clientX - f.left) / f.sx + f.scrollLeft, (clientY - f.top) / f.sy + f.scrollTop];
  }

  /** Measures every slot and item and tells the engine (after a resize, a reflow, a DOM change). */
  #measure(measured = null) {
    const f = (this.frameNow = measured?.f ?? this.#frame());
    const nS = this.slots.length, nI = this.items.length;
    const frames = new Float64Array(4 * (nS + nI));
    this.slots.forEach((el, s) => frames.set(measured?.slotRects[s] ?? this.#rect(el, f, null), 4 * s));
    const placement = this.#placement();
    this.rest = this.items.map((el, i) => {
      // A held item's place in the page is its placeholder (it is in the top layer itself).
      const place = this.floating.get(i)?.placeholder ?? el;
      const r = (place === el && !this.offsets[i] && measured?.itemRects[i]) || this.#rect(place, f, place === el ? this.offsets[i] : null);
      const s = placement.slots[i];
      // An item sitting in its slot's element tells the engine where the CSS puts it there
      // (snaps end there); one not there yet shows where its own place is, not the slot.
      const inSlot = s >= 0 && (place === el && measured ? measured.inSlot[i] === s
        : place.parentElement?.closest(this.options.slots) === this.slots[s]);
      if (s >= 0 && this.mode === 'locations' && !inSlot) frames.set([NaN, NaN, r[2], r[3]], 4 * (nS + i));
      else frames.set(r, 4 * (nS + i));
      return [r[0] + r[2] / 2, r[1] + r[3] / 2];
    });
    const bytes = new Uint8Array(frames.buffer);
    const answer = this.wasm.withBytes(bytes, (p, n) => this.x.board_layout(p, nS, nI, f.width, f.height, now()));
    this.#apply(this.#read(answer));
  }

  #measureSoon() {
    if (this.measureRequest) return;
    this.measureRequest = requestAnimationFrame(this.#guard(() => {
      this.measureRequest = 0;
      if (this.x && !this.destroyed) this.#measure();
    }));
  }

  // MARK: Input

  #listen() {
    this.abort = new AbortController();
    const opts = { signal: this.abort.signal };
    const on = (target, type, fn, o = opts) => target.addEventListener(type, this.#guard(fn), o);
    const c = this.container;
    on(c, 'pointerdown', (e) => this.#down(e));
    on(window, 'pointermove', (e) => this.#move(e));
    on(window, 'pointerup', (e) => this.#up(e, 2));
    on(window, 'pointercancel', (e) => this.#up(e, 3));
    // Once a touch drag holds, the page must not scroll under it.
    on(c, 'touchmove', (e) => { if (this.pointers.size && e.cancelable) e.preventDefault(); },
      { passive: false, signal: this.abort.signal });
    on(c, 'contextmenu', (e) => { if (this.pending.size || this.pointers.size) e.preventDefault(); });
    on(c, 'dragstart', (e) => { if (e.target.closest?.('[data-board-item]')) e.preventDefault(); });
    on(c, 'keydown', (e) => this.#keydown(e));
    // Escape cancels a mouse or touch drag wherever the focus is (it stays on <body> for a
    // mouse), before a modal <dialog> around the board takes it as its own.
    on(window, 'keydown', (e) => {
      if (e.key !== 'Escape' || !this.pointers.size) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.#cancelPointers();
    }, { capture: true, signal: this.abort.signal });
    on(window, 'click', (e) => {
      // The click that ends a drag is not the page's: a button the drag began on stays unpressed.
      if (!this.swallowClick) return;
      this.swallowClick = false;
      e.preventDefault();
      e.stopImmediatePropagation();
    }, { capture: true, signal: this.abort.signal });
    on(c, 'focusin', (e) => {
      const i = this.items.indexOf(e.target);
      if (i >= 0) this.x.board_focus(i);
    });
    on(window, 'blur', () => this.#answer(this.x.board_cancel_all(now())));
    on(window, 'resize', () => this.#measureSoon());
    // Scrolling an ancestor moves the board under a held pointer: the engine hears it moved.
    on(document, 'scroll', (e) => this.#scrolled(e), { capture: true, passive: true, signal: this.abort.signal });
    on(matchMedia('(prefers-reduced-motion: reduce)'), 'change', (e) => {
      if (this.options.reducedMotion === undefined) {
        this.x.board_options(-1);
        this.x.board_option(engineKey('reducedMotion'), e.matches ? 1 : 0);
        this.x.board_set_options();
      }
    });
    // An observer reports every element's size once, a frame after it starts observing: if
    // each is the size set-up measured, nothing moved, and the first frame measures nothing.
    let expected = this.measured && this.#sizes(this.measured);
    this.resizeObserver = new ResizeObserver(this.#guard((entries) => {
      const same = expected && entries.every((e) => {
        const b = e.borderBoxSize?.[0], size = expected.get(e.target);
        return b && size && Math.abs(b.inlineSize - size[0]) <= size[2] && Math.abs(b.blockSize - size[1]) <= size[2];
      });
      expected = null;
      if (!same) this.#measureSoon();
    }));
    this.#observeSizes();
    this.mutationObserver = new MutationObserver(this.#guard((records) => this.#mutated(records)));
    // Run-time changes to what slots accept or items carry are followed too.
    this.mutationObserver.observe(c, { childList: true, subtree: true, attributes: true,
      attributeFilter: ['data-accepts', 'data-tags', 'data-capacity'] });
  }

  /**
   * `fn`, stopping the board cleanly if it throws: a trap in the module (or a bug here) must
   * not leave items half-moved or keep failing on every event. The page's elements stay
   * where they are, and nothing stored is touched.
   */
  #guard(fn) {
    return (...args) => {
      if (this.destroyed) return undefined;
      try {
        return fn(...args);
      } catch (e) {
        const message = `ImageStage board stopped: ${e instanceof WebAssembly.RuntimeError ? 'the engine failed' : 'an error'}`
          + ` (${e.message}); the page keeps its elements where they are`;
        console.error(message, e);
        this.#emit('error', { message });
        this.destroy();
        return undefined;
      }
    };
  }

  /** Each element's border box as `measured` read it: [width, height, tolerance] in CSS pixels. */
  #sizes({ f, slotRects, itemRects }) {
    const sizes = new Map([[this.container, [...f.box, 1]]]); // offsetWidth is whole pixels
    this.slots.forEach((el, s) => sizes.set(el, [slotRects[s][2], slotRects[s][3], 0.01]));
    this.items.forEach((el, i) => sizes.set(el, [itemRects[i][2], itemRects[i][3], 0.01]));
    return sizes;
  }

  #observeSizes() {
    this.resizeObserver.disconnect();
    this.resizeObserver.observe(this.container);
    for (const el of this.slots) this.resizeObserver.observe(el);
    for (const el of this.items) this.resizeObserver.observe(el);
  }

  #itemAt(target) {
    const el = target?.closest?.('[data-board-item]');
    return el && this.container.contains(el) ? this.items.indexOf(el) : -1;
  }

  /**
   * Whether a press on `target` inside `item` starts a drag: not on a control (an input, a
   * button, a link…) or on what `filter` names; only on `handle`, when one is given.
   */
  #startsDrag(target, item) {
    const within = (el) => el && item.contains(el);
    const { handle, filter } = this.options;
    if (filter && within(target.closest(filter))) return false;
    const control = target.closest(CONTROLS);
    if (handle) {
      const h = target.closest(handle);
      if (!within(h)) return false;
      return !control || control === h || !h.contains(control);
    }
    return !within(control) || control === item;
  }

  #down(e) {
    this.swallowClick = false;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const i = this.#itemAt(e.target);
    const onContent = i < 0 && this.options.contentDraggable && e.target.closest?.('[data-board-copy]');
    if (i < 0 && !onContent) return;
    if (!this.#startsDrag(e.target, i >= 0 ? this.items[i] : onContent)) return; // the control's own press
    if (e.pointerType === 'touch' && this.touch.delay > 0) {
      // A touch becomes a drag only after a short hold, so the page still scrolls under it.
      const press = { i, x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY, target: e.target };
      press.timer = setTimeout(this.#guard(() => {
        this.pending.delete(e.pointerId);
        this.#press(e.pointerId, press.i, press.x, press.y, press.target, true);
      }), this.touch.delay);
      this.pending.set(e.pointerId, press);
      return;
    }
    if (e.pointerType === 'mouse') e.preventDefault(); // no text selection, no native image drag
    // A touch without a hold delay, a mouse or a pen: a drag once it moves; a click is none.
    this.#press(e.pointerId, i, e.clientX, e.clientY, e.target, false);
  }

  /** A press reaches the engine; `held`: a touch held still for the delay, picked up at once. */
  #press(id, i, clientX, clientY, target, held) {
    this.frameNow = this.#frame();
    const [x, y] = this.#toBoard(clientX, clientY);
    if (!this.pointers.size) this.scrollLimits = new Map();
    this.pointers.set(id, [clientX, clientY]);
    try { target.setPointerCapture?.(id); } catch { /* a synthetic or finished pointer */ }
    this.#answer(this.x.board_press(i, id, x, y, now(), held ? 1 : 0));
  }

  /** Escape during a pointer drag: every pointer's drag goes home (the keyboard's has its own). */
  #cancelPointers() {
    for (const id of [...this.pointers.keys()]) {
      this.pointers.delete(id);
      const [x, y] = [0, 0];
      this.#answer(this.x.board_pointer(3, id, x, y, now()));
    }
  }

  #move(e) {
    const press = this.pending.get(e.pointerId);
    if (press) {
      press.x = e.clientX;
      press.y = e.clientY;
      if (Math.hypot(e.clientX - press.x0, e.clientY - press.y0) > this.touch.tolerance) this.#drop(e.pointerId);
      return;
    }
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const [x, y] = this.#toBoard(e.clientX, e.clientY);
    this.#answer(this.x.board_pointer(1, e.pointerId, x, y, now()));
  }

  #drop(id) {
    clearTimeout(this.pending.get(id)?.timer);
    this.pending.delete(id);
  }

  #up(e, phase) {
    if (this.pending.has(e.pointerId)) return this.#drop(e.pointerId);
    if (this.dragging.delete(e.pointerId) && phase === 2) {
      // The browser sends that click in the same task as this pointerup: only it is taken.
      this.swallowClick = true;
      setTimeout(() => { this.swallowClick = false; }, 50);
    }
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.delete(e.pointerId);
    const [x, y] = this.#toBoard(e.clientX, e.clientY);
    this.#answer(this.x.board_pointer(phase, e.pointerId, x, y, now()));
  }

  #scrolled(e) {
    if (!this.x) return;
    if (this.pointers.size) {
      this.frameNow = this.#frame();
      for (const [id, [cx, cy]] of this.pointers) {
        const [x, y] = this.#toBoard(cx, cy);
        this.#answer(this.x.board_pointer(1, id, x, y, now()));
      }
    } else if (e.target !== document && e.target !== this.container && this.container.contains(e.target)) {
      this.#measureSoon(); // a scroller inside the board moved its slots
    }
  }

  #keydown(e) {
    const copy = e.target.closest?.('[data-board-copy]');
    if (copy && this.container.contains(copy) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // A shortcut's copy: Enter or Space acts as a click (it is a button); Delete removes it.
      const s = this.slots.indexOf(copy.parentElement?.closest(this.options.slots));
      if ((e.key === 'Enter' || e.key === ' ') && e.target === copy) {
        e.preventDefault();
        copy.click();
        return;
      }
      if ((e.key === 'Delete' || e.key === 'Backspace') && this.options.contentDraggable && s >= 0) {
        e.preventDefault();
        const next = this.slots[s];
        this.#answer(this.x.board_remove(s, now()));
        next.focus?.();
        return;
      }
    }
    const i = this.items.indexOf(e.target);
    const held = this.x.board_keyboard_held() >= 0;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === 'z' || e.key === 'Z' || e.key === 'y' || e.key === 'Y')) {
      // In a text field the keys are the field's own undo and redo, not the board's.
      if (e.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      e.preventDefault();
      this.#key(e.key === 'y' || e.shiftKey ? REDO : UNDO);
      return;
    }
    if (i < 0 && !held) return;
    let code = KEY[e.key];
    if (code === undefined || mod || e.altKey) return;
    if (code === KEY.Tab) {
      if (held) e.preventDefault(); // focus stays with what is held
      return;
    }
    if (!held && code !== KEY[' '] && code !== KEY.Enter) return; // arrows scroll, Escape is the page's
    if (!held) this.x.board_focus(i);
    e.preventDefault();
    this.#key(code);
  }

  #key(code) {
    if (this.x) this.#answer(this.x.board_key(code, now()));
  }

  // MARK: Answers

  #answer(length) { this.#apply(this.#read(length)); }

  /** The last answer's record of `length` doubles (BoardWeb.swift's `report`), as #apply takes it. */
  #read(length) {
    if (!length) return {};
    const n = new Float64Array(this.x.memory.buffer, this.x.board_numbers(), length);
    const [busy, nE, nI, nG, nS, nO, nR, nW] = n;
    let k = 8;
    const take = (count, size) => {
      const out = [];
      for (let j = 0; j < count; j++, k += size) out.push(size === 1 ? n[k] : Array.from(n.subarray(k, k + size)));
      return out;
    };
    const events = take(nE, 4).map(([code, a, b, c]) => {
      const type = EVENT_TYPES[code];
      switch (type) {
        case 'pickup': return { type, item: a, pointer: b };
        case 'drop': return { type, item: a, slot: b, from: c };
        case 'cancel': return { type, item: a };
        case 'announce': case 'status': return { type, sentence: a };
        default: return { type, item: a, slot: b };
      }
    });
    const answer = { busy: busy !== 0, events, items: take(nI, 3), ghosts: take(nG, 4), settled: take(nS, 2),
      over: take(nO, 1), refusing: take(nR, 1) };
    // The sentences (BoardWeb.swift's `putSentence`), which announce and status events name by index.
    const sentences = [];
    for (let j = 0; j < nW; j++) {
      const [phrase, item, slot, other, count, change] = n.subarray(k, k + 6);
      k += 6;
      const [items, slots] = [0, 1].map(() => Array.from(n.subarray(k + 1, (k += 1 + n[k]))));
      sentences.push({ code: PHRASE_NAMES[phrase], item, slot, other, count, change: PHRASE_NAMES[change] ?? null, items,
        slots });
    }
    for (const e of events) if (e.sentence !== undefined) e.sentence = sentences[e.sentence];
    return answer;
  }

  /**
   * A sentence (#read's) in words: `strings`' template for its code, or the English, filled
   * with the page's names, as Stage's `Engine.text(of:)` fills them (Sources/Stage/Sentence.swift
   * says what each `{name}` reads). An announcement goes through the page's `announcements` hook.
   */
  #words(s, announcing) {
    const t = (code) => this.strings[code] ?? PHRASES[code];
    const itemName = (i) => this.itemNames[i] ?? '';
    const slotName = (j) => (j >= 0 && j < this.slotIds.length
      ? this.slotNames[j] ?? fill(t('location'), { id: this.slotIds[j] }) : '');
    const p = s.code;
    let item = itemName(s.item), slot = slotName(s.slot), other = p === 'takenHome' ? slotName(s.other) : itemName(s.other);
    if (s.items.length) {
      const names = s.items.map(itemName);
      item = names.length === 1 ? names[0] : names.slice(0, -1).join(', ') + t('and') + names[names.length - 1];
    } else if ((p === 'focused' || p === 'pickedUp') && s.slot >= 0) {
      item = fill(t('itemInSlot'), { item, slot });
    }
    if (s.slots.length) slot = s.slots.map(slotName).join(', ');
    if (p === 'slotStatus' && s.slot >= 0) { // the seed's wording, as Swift keeps it
      const named = this.slotNames[s.slot];
      slot = named ?? `slot #${this.slotIds[s.slot]}`;
      item = s.item < 0 ? t('empty') : named == null ? this.itemIds[s.item] : itemName(s.item);
      other = '';
    }
    const hint = this.strings.undoHint ?? 'Press Ctrl+Z to undo.';
    const values = { item, slot, other, count: String(s.count), position: s.slot >= 0 ? String(s.slot + 1) : '',
      undo: hint ? ` ${hint}` : '' };
    values.change = s.change ? fill(t(s.change), values) : '';
    let text = fill(t(p), values);
    if (!announcing) return text;
    // A sentence starts with a capital letter, unless an item's name leads it (a file name stays as written).
    if (/^[a-z]/.test(text) && !this.itemNames.some((n) => text.startsWith(n))) text = text[0].toUpperCase() + text.slice(1);
    const hooks = this.options.announcements;
    const hook = hooks && (hooks[p] ?? hooks[Object.keys(MOMENTS).find((m) => MOMENTS[m].includes(p))]);
    if (typeof hook !== 'function') return text;
    const el = (list, j) => (j >= 0 ? list[j] ?? null : null);
    const otherList = p === 'takenHome' ? this.slots : this.items, otherIds = p === 'takenHome' ? this.slotIds : this.itemIds;
    try {
      // dnd-kit's rule: what the hook returns is said; undefined says nothing.
      const said = hook({ code: p, text, item: el(this.items, s.item), itemId: el(this.itemIds, s.item),
        slot: el(this.slots, s.slot), slotId: el(this.slotIds, s.slot), other: el(otherList, s.other),
        otherId: el(otherIds, s.other), position: s.slot >= 0 ? s.slot + 1 : null, count: s.count,
        items: s.items.map((i) => this.items[i]), slots: s.slots.map((j) => this.slots[j]) });
      return typeof said === 'string' ? said : '';
    } catch (e) {
      console.error(e); // a page's hook that throws must not stop the board: the default words stay
      return text;
    }
  }

  /** Where everything rests: `slots` (each item's slot index, −1 none) and `contents` (each slot's item, −1 none). */
  #placement() {
    const length = this.x.board_placement();
    const n = new Float64Array(this.x.memory.buffer, this.x.board_numbers(), length);
    return { slots: Array.from(n.subarray(1, 1 + n[0])), contents: Array.from(n.subarray(1 + n[0])) };
  }

  /** Applies what the engine answered: events out, items translated, ghosts drawn, rests kept. */
  #apply(a) {
    if (!a.events) return;
    let changed = false, placed = false;
    for (const e of a.events) {
      if (e.type === 'announce') {
        const text = this.#words(e.sentence, true);
        if (text) this.#say(text);
        continue;
      }
      if (e.type === 'status') this.#status((e.text = this.#words(e.sentence, false)));
      if (e.type === 'assign') this.#assign(e.slot, e.item);
      if (e.type === 'pickup' && e.pointer >= 0) this.dragging.add(e.pointer);
      // Whether the state changed is checked against the last one: a drop back home is none.
      if (['assign', 'drop', 'swap', 'return', 'redo'].includes(e.type)) changed = true;
      if (['drop', 'swap', 'return', 'redo'].includes(e.type)) placed = true;
      this.#emit(e.type, this.#detail(e));
    }
    const f = this.frameNow;
    const moved = new Set();
    for (const [i, x, y] of a.items) {
      moved.add(i);
      if (!this.offsets[i]) this.#lift(i, f);
      this.#translate(i, x, y, f);
    }
    // FLIP: an item on its way to a slot goes there in the page now, so its snap ends where
    // the page's CSS will hold it (measured just below), not at the slot's centre.
    if (placed && this.mode === 'locations') this.#placeMoving(moved);
    this.#drawGhosts(a.ghosts, f);
    for (const [i, s] of a.settled) if (!moved.has(i)) this.#settle(i, s);
    this.#highlight(a.over, a.refusing ?? []);
    this.container.classList.toggle('board-dragging', this.pointers.size > 0 || this.x.board_keyboard_held() >= 0);
    if (a.settled.length || placed) this.#measure();
    if (changed) this.#changed();
    if (a.busy) this.#animate();
    if (!a.busy && this.rebuildWanted) this.#rebuild();
  }

  /** Item `i`, held or animating, drawn with its centre at board point (x, y). */
  #translate(i, x, y, f) {
    const el = this.items[i];
    const float = this.floating.get(i);
    if (float) {
      const cx = f.left + (x - f.scrollLeft) * f.sx, cy = f.top + (y - f.scrollTop) * f.sy;
      el.style.translate = `${cx - float.width / 2}px ${cy - float.height / 2}px`;
      this.offsets[i] = [x - this.rest[i][0], y - this.rest[i][1]];
      return;
    }
    const dx = x - this.rest[i][0], dy = y - this.rest[i][1];
    this.offsets[i] = [dx, dy];
    el.style.translate = `${dx}px ${dy}px`;
  }

  /** Items that the engine put on another slot (or home) are moved there in the page now. */
  #placeMoving(moving) {
    const placement = this.#placement();
    placement.slots.forEach((s, i) => {
      const place = this.floating.get(i)?.placeholder ?? this.items[i];
      const there = s >= 0 ? place.parentElement?.closest(this.options.slots) === this.slots[s] : place.parentNode === this.home[i].parent;
      if (there) return;
      if (this.placement === 'move') {
        this.#own(() => this.#put(i, s, place));
      } else if (moving.has(i) || this.floating.has(i)) {
        this.#emit('place', { item: this.items[i], itemId: this.itemIds[i], slot: this.slots[s] ?? null, slotId: this.slotIds[s] ?? null });
        this.#refloat(i);
      }
    });
  }

  #detail(e) {
    const d = { type: e.type };
    if (e.item !== undefined && e.item >= 0) Object.assign(d, { item: this.items[e.item], itemId: this.itemIds[e.item] });
    if (e.slot !== undefined) {
      d.slot = e.slot >= 0 ? this.slots[e.slot] : null;
      d.slotId = e.slot >= 0 ? this.slotIds[e.slot] : null;
    }
    if (e.from !== undefined) {
      d.from = e.from >= 0 ? this.slots[e.from] : null;
      d.fromId = e.from >= 0 ? this.slotIds[e.from] : null;
    }
    if (e.pointer !== undefined) d.pointer = e.pointer >= 0 ? e.pointer : null;
    if (e.text !== undefined) d.text = e.text;
    return d;
  }

  #emit(name, detail) {
    for (const fn of this.listeners.get(name) ?? []) {
      try { fn(detail); } catch (err) { console.error(err); }
    }
    this.container?.dispatchEvent(new CustomEvent(`board:${name}`, { detail, bubbles: true }));
  }

  #say(text) {
    // Cleared first, so the same sentence twice is read twice.
    this.live.textContent = '';
    this.live.textContent = text;
  }

  #status(text) {
    const target = typeof this.options.status === 'string' ? document.querySelector(this.options.status) : this.options.status;
    if (target) target.textContent = text;
  }

  /**
   * Item `i` is held or animating: lifted, and (where the browser has a top layer) shown
   * there, above everything and outside any `overflow` clip (dnd-kit's drag overlay). An
   * invisible shallow copy keeps its place in the page, so nothing reflows under the drag.
   */
  #lift(i, f) {
    const el = this.items[i];
    el.classList.add('board-lifted');
    if (this.floating.has(i)) return;
    if (!topLayer || el.hasAttribute('popover') || !el.isConnected || !el.getClientRects().length) {
      if (getComputedStyle(el).position === 'static') {
        el.style.position = 'relative';
        el.dataset.boardPositioned = '';
      }
      return;
    }
    const width = el.offsetWidth, height = el.offsetHeight;
    const placeholder = el.cloneNode(false);
    for (const a of ['id', 'tabindex', 'role', 'aria-roledescription', 'aria-describedby', 'aria-label', 'data-board-item',
      'name', 'popover']) placeholder.removeAttribute(a);
    placeholder.classList.remove('board-lifted');
    placeholder.dataset.boardPlaceholder = '';
    placeholder.setAttribute('aria-hidden', 'true');
    placeholder.inert = true;
    Object.assign(placeholder.style, { visibility: 'hidden', width: `${width}px`, height: `${height}px`, boxSizing: 'border-box',
      translate: '' });
    const float = { placeholder, width, height, saved: {} };
    const style = { position: 'fixed', left: '0px', top: '0px', right: 'auto', bottom: 'auto', margin: '0px',
      width: `${width}px`, height: `${height}px`, boxSizing: 'border-box',
      scale: f.sx !== 1 || f.sy !== 1 ? `${f.sx} ${f.sy}` : '' };
    for (const k of Object.keys(style)) float.saved[k] = el.style[k];
    float.saved.translate = el.style.translate;
    float.style = style;
    const focused = el.contains(document.activeElement) ? document.activeElement : null;
    this.#own(() => el.before(placeholder));
    this.floating.set(i, float);
    this.#refloat(i);
    if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }

  /** Shows floating item `i` in the top layer (again, after the page moved it). */
  #refloat(i) {
    const float = this.floating.get(i);
    if (!float) return;
    const el = this.items[i];
    // The page's handler moved the element: its placeholder follows it there.
    if (el.previousSibling !== float.placeholder) this.#own(() => el.before(float.placeholder));
    Object.assign(el.style, float.style);
    if (!el.hasAttribute('popover')) el.setAttribute('popover', 'manual');
    if (!el.matches(':popover-open')) el.showPopover();
  }

  /** Item `i` is at rest: back in the page's flow, where its placeholder held its place. */
  #unlift(i) {
    const el = this.items[i];
    if (!el) return;
    // Only what changes is written: a write, even of the same value, has the page's style
    // worked out again (at start, for every item).
    if (el.classList.contains('board-lifted')) el.classList.remove('board-lifted');
    const float = this.floating.get(i);
    if (float) {
      this.floating.delete(i);
      const focused = el.contains(document.activeElement) ? document.activeElement : null;
      if (el.matches(':popover-open')) el.hidePopover();
      el.removeAttribute('popover');
      Object.assign(el.style, float.saved);
      if (float.placeholder.isConnected) this.#own(() => float.placeholder.replaceWith(el));
      if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
    }
    if (el.style.translate) el.style.translate = '';
    if ('boardPositioned' in el.dataset) {
      el.style.position = '';
      delete el.dataset.boardPositioned;
    }
  }

  /** Item `i` came to rest on slot `s` (−1: its own place): the page now holds it there. */
  #settle(i, s) {
    const el = this.items[i];
    this.offsets[i] = null;
    if (this.mode === 'locations') {
      const place = this.floating.get(i)?.placeholder ?? el;
      const there = s >= 0 ? place.parentElement?.closest(this.options.slots) === this.slots[s] : place.parentNode === this.home[i].parent;
      if (this.placement === 'move') this.#own(() => this.#put(i, s, place));
      else if (!there) this.#emit('place', { item: el, itemId: this.itemIds[i], slot: this.slots[s] ?? null, slotId: this.slotIds[s] ?? null });
    }
    this.#unlift(i);
  }

  /** Moves item `i`'s element (or what holds its place) into slot `s`, or back where the page first had it. */
  #put(i, s, el = this.items[i]) {
    const h = this.home[i];
    const parent = s >= 0 ? this.slots[s] : h.parent;
    if (el.parentNode === parent) return false;
    // Moving an element blurs it: the keyboard user's focus comes along.
    const focused = el.contains(document.activeElement) ? document.activeElement : null;
    if (s < 0 && h.next && h.next.parentNode === h.parent) h.parent.insertBefore(el, h.next);
    else parent.append(el);
    if (focused) focused.focus({ preventScroll: true });
    return true;
  }

  /** Runs `body`, which changes the DOM, without the observer taking it for the page's change. */
  #own(body) {
    body();
    this.mutationObserver?.takeRecords();
  }

  /** Slot `s` shows item `i` (−1: nothing): a copy of the item, marked as the board's. */
  #assign(s, i) {
    if (s < 0 || this.placement !== 'move') return;
    const slot = this.slots[s];
    this.#own(() => {
      slot.querySelector(':scope > [data-board-copy]')?.remove();
      if (i < 0) return;
      const copy = this.items[i].cloneNode(true);
      for (const el of [copy, ...copy.querySelectorAll('[id]')]) el.removeAttribute('id');
      for (const a of ['tabindex', 'role', 'aria-roledescription', 'aria-describedby', 'data-board-item', 'style', 'popover']) {
        if (!this.items[i].hasAttribute(a) || this.added.get(this.items[i])?.has(a)) copy.removeAttribute(a);
      }
      copy.removeAttribute('data-board-item');
      copy.classList.remove('board-lifted');
      copy.dataset.boardCopy = this.itemIds[i];
      // A Tab stop with a role and a name: Enter acts on it as a click does; with
      // contentDraggable, Delete removes it (the keyboard's way to drag it off).
      if (copy.tabIndex < 0) copy.tabIndex = 0;
      if (!copy.hasAttribute('role')) copy.setAttribute('role', 'button');
      if (!copy.hasAttribute('aria-label') && copy.tagName !== 'IMG') copy.setAttribute('aria-label', this.#itemName(this.items[i], i));
      if (this.options.contentDraggable) copy.setAttribute('aria-describedby', this.copyInstructions.id);
      slot.append(copy);
    });
  }

  #drawGhosts(ghosts, f) {
    const seen = new Set();
    for (const [id, i, x, y] of ghosts) {
      seen.add(id);
      let g = this.ghosts.get(id);
      if (!g) {
        g = this.#makeGhost(i, f);
        this.ghosts.set(id, g);
      }
      const cx = f.left + (x - f.scrollLeft) * f.sx, cy = f.top + (y - f.scrollTop) * f.sy;
      g.style.translate = `${cx - g.halfWidth}px ${cy - g.halfHeight}px`;
    }
    for (const [id, g] of this.ghosts) {
      if (!seen.has(id)) {
        g.remove();
        this.ghosts.delete(id);
      }
    }
  }

  /**
   * A copy of item `i` above everything, the size it shows at (Shortcuts' drag view). Beside
   * its source in the page (in the top layer), so the container's own CSS still styles it.
   */
  #makeGhost(i, f) {
    const source = this.items[i];
    const g = source.cloneNode(true);
    for (const el of [g, ...g.querySelectorAll('[id]')]) el.removeAttribute('id');
    for (const a of ['tabindex', 'role', 'aria-describedby', 'aria-roledescription', 'data-board-item', 'name']) g.removeAttribute(a);
    g.setAttribute('aria-hidden', 'true');
    g.inert = true;
    g.classList.add('board-ghost');
    const inPage = topLayer && source.isConnected && source.getClientRects().length;
    const width = inPage ? source.offsetWidth : source.getBoundingClientRect().width;
    const height = inPage ? source.offsetHeight : source.getBoundingClientRect().height;
    Object.assign(g.style, {
      position: 'fixed', left: '0', top: '0', margin: '0', width: `${width}px`, height: `${height}px`,
      boxSizing: 'border-box', pointerEvents: 'none', zIndex: '2147483647',
      scale: inPage && (f.sx !== 1 || f.sy !== 1) ? `${f.sx} ${f.sy}` : '',
    });
    g.halfWidth = width / 2;
    g.halfHeight = height / 2;
    if (inPage) {
      g.setAttribute('popover', 'manual');
      this.#own(() => source.after(g));
      g.showPopover();
    } else {
      g.style.transform = 'none';
      document.body.append(g);
    }
    return g;
  }

  #highlight(over, refusing) {
    const next = new Set(over);
    for (const s of this.over) if (!next.has(s)) delete this.slots[s]?.dataset.boardOver;
    for (const s of next) if (this.slots[s]) this.slots[s].dataset.boardOver = '';
    this.over = next;
    const refuses = new Set(refusing);
    this.slots.forEach((el, s) => {
      if (refuses.has(s)) el.dataset.boardRefuses = '';
      else delete el.dataset.boardRefuses;
    });
  }

  #animate() {
    if (this.frameRequest) return;
    const step = () => {
      this.frameRequest = 0;
      if (!this.x || this.destroyed) return;
      if (this.pointers.size) this.#autoScroll();
      this.frameNow = this.#frame(); // the page may have scrolled under a flying ghost
      this.#answer(this.x.board_advance(now()));
    };
    this.frameRequest = requestAnimationFrame(this.#guard(step));
  }

  /** A held pointer near a scroller's edge scrolls it, faster the nearer (dnd-kit's auto-scroll). */
  #autoScroll() {
    if (this.options.autoScroll === false) return;
    for (const [cx, cy] of this.pointers.values()) {
      for (let el = this.container; el; el = el.parentElement) {
        const isPage = el === document.documentElement;
        const style = isPage ? null : getComputedStyle(el);
        const scrollsY = isPage || /(auto|scroll)/.test(style.overflowY);
        const scrollsX = isPage || /(auto|scroll)/.test(style.overflowX);
        if (!scrollsX && !scrollsY) continue;
        const r = isPage ? { left: 0, top: 0, right: innerWidth, bottom: innerHeight } : el.getBoundingClientRect();
        // Only near an edge: from `edge` inside it to `edge` outside, and across from the box
        // (a pointer far below and beside a scroller is not asking it to scroll).
        const w = r.right - r.left, h = r.bottom - r.top;
        const edgeX = Math.min(60, w * 0.2), edgeY = Math.min(60, h * 0.2);
        const speed = (d, edge) => (d < edge && d > -edge ? Math.ceil(20 * (1 - Math.max(d, 0) / edge)) : 0);
        const acrossX = cx > r.left - edgeX && cx < r.right + edgeX;
        const acrossY = cy > r.top - edgeY && cy < r.bottom + edgeY;
        const dy = scrollsY && acrossX ? speed(cy - r.top, edgeY) * -1 || speed(r.bottom - cy, edgeY) : 0;
        const dx = scrollsX && acrossY ? speed(cx - r.left, edgeX) * -1 || speed(r.right - cx, edgeX) : 0;
        const target = isPage ? document.scrollingElement : el;
        // The held item's translate grows the scrollable area: scrolling stops where the
        // page's own content ended when the drag began, or it would chase the item forever.
        if (!this.scrollLimits.has(target)) {
          this.scrollLimits.set(target, [target.scrollWidth - target.clientWidth, target.scrollHeight - target.clientHeight]);
        }
        const [maxX, maxY] = this.scrollLimits.get(target);
        const before = [target.scrollLeft, target.scrollTop];
        const toX = Math.min(Math.max(before[0] + dx, 0), Math.max(maxX, before[0]));
        const toY = Math.min(Math.max(before[1] + dy, 0), Math.max(maxY, before[1]));
        if (toX !== before[0] || toY !== before[1]) target.scrollTo(toX, toY);
        if (target.scrollLeft !== before[0] || target.scrollTop !== before[1]) return;
      }
    }
  }

  // MARK: Changes

  /** Where every item and copy is: what `change` compares (not the centres, which move). */
  #placementKey() {
    const p = this.#placement();
    return `${p.slots}|${p.contents}`;
  }

  #changed() {
    const key = this.#placementKey();
    if (key === this.lastKey) return;
    this.lastKey = key;
    const state = this.state();
    this.lastState = state;
    if (this.options.persist === 'localStorage') {
      const problem = store(this.#storageName(), state);
      if (problem) console.warn(`ImageStage board: could not save to localStorage (${problem})`);
    }
    this.#emit('change', { state });
  }

  #storageName() { return `board.${this.options.persistKey || this.container.id || 'default'}`; }

  #load() {
    const name = this.#storageName();
    const text = storedText(name);
    if (text === null) return;
    const error = this.#restore(text, `localStorage imagestage.${name}`);
    if (error) {
      const aside = keepAside(name, text);
      const kept = aside ? `it is kept as localStorage "${aside}"` : `storage is too full to keep it (${text.length} characters), so it is dropped`;
      const message = `ImageStage board: the saved board does not read (${error}); ${kept} and the page's own layout is used`;
      console.warn(message);
      this.#emit('error', { message, key: aside });
    }
    this.lastState = this.state();
  }

  #restore(text, source) {
    if (typeof text !== 'string') return `${source}: expected the text state() returns`;
    let read;
    try { read = readState(text, source, this.itemIds, this.slotIds); } catch (e) { return e.message; }
    // Pairs of indices (BoardWeb.swift's board_restore), one spare so the buffer is never empty.
    const ints = Int32Array.from([...read.placements, ...read.contents, 0]);
    const error = this.wasm.out(this.wasm.withBytes(new Uint8Array(ints.buffer),
      (p) => this.x.board_restore(p, read.placements.length / 2, read.contents.length / 2)));
    if (error) return `${source}: ${error}`;
    this.#reconcileAll();
    return null;
  }

  /**
   * Puts every element where the engine says it rests (after a restore or a rebuild);
   * `untouched`: at the start, when no item has been lifted or translated yet.
   */
  #reconcileAll(measured = null, untouched = false) {
    const placement = this.#placement();
    let moved = false;
    if (this.mode === 'locations') {
      placement.slots.forEach((s, i) => {
        this.offsets[i] = null;
        if (this.placement === 'move') this.#own(() => { moved = this.#put(i, s) || moved; });
        // (Reading an item's style and dataset makes the browser build both: 1000 of each at start.)
        if (!untouched) this.#unlift(i);
      });
    } else {
      placement.contents.forEach((i, s) => {
        const copy = this.slots[s].querySelector(':scope > [data-board-copy]');
        if ((copy?.dataset.boardCopy ?? null) !== (i >= 0 ? this.itemIds[i] : null)) { this.#assign(s, i); moved = true; }
      });
    }
    this.measured = null;
    this.#measure(moved ? null : measured);
  }

  /** Elements the page added or removed: the board is built again, keeping where things are. */
  #mutated(records) {
    const ours = (n) => n.nodeType !== 1 || n.hasAttribute('data-board-copy') || n.hasAttribute('data-board-placeholder')
      || n.classList.contains('board-ghost');
    const relevant = records.some((r) => (r.type === 'attributes' ? !ours(r.target)
      : [...r.addedNodes, ...r.removedNodes].some((n) => !ours(n))));
    if (!relevant) return;
    this.rebuildWanted = true;
    if (!this.pointers.size && this.x.board_keyboard_held() < 0) queueMicrotask(() => this.#rebuild());
  }

  #rebuild() {
    if (!this.rebuildWanted || !this.x) return;
    this.rebuildWanted = false;
    const state = this.state();
    try {
      this.#create();
    } catch (e) {
      console.error(e.message);
      this.#emit('error', { message: e.message });
      return;
    }
    this.#restore(state, 'the board before the page changed');
    // What the page added or removed is no user's move: `change` compares later moves with this.
    this.lastKey = this.#placementKey();
    this.#observeSizes();
  }
}

