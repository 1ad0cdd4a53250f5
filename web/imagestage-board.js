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

/** ImageStage's version (VERSION), e.g. for a bug report. */
export { version } from './version.js';

const WASM = new URL('imagestage-board.wasm', import.meta.url);

/** Options the engine reads (StageJSON's PageBoard); checked there, named in its errors. */
const ENGINE_OPTIONS = ['mode', 'strategy', 'maxDistance', 'snapDuration', 'returnDuration', 'swap', 'hysteresis',
  'snapInside', 'dropOnHover', 'reducedMotion', 'activationDistance', 'contentDraggable', 'curve', 'grid'];
/** Options this file reads. */
const PAGE_OPTIONS = ['items', 'slots', 'placement', 'persist', 'persistKey', 'accepts', 'status', 'touch',
  'autoScroll', 'strings', 'ids'];
/** Strings the page shows itself (the engine's phrases are the rest of `strings`). */
const PAGE_STRINGS = {
  draggable: 'draggable',
  instructions: 'Press Space or Enter to pick up. Arrow keys move between slots; Space drops; Escape cancels.',
};
const EVENTS = ['pickup', 'hover', 'drop', 'return', 'swap', 'cancel', 'assign', 'change', 'status', 'place', 'error'];
/** Key numbers as web/BoardWeb.swift takes them (Stage's Key.allCases order). */
const KEY = { Tab: 0, ' ': 1, Enter: 2, Escape: 3, ArrowLeft: 4, ArrowRight: 5, ArrowUp: 6, ArrowDown: 7 };
const UNDO = 8, REDO = 9;
const now = () => performance.now() / 1000;

let styled = false;
/** The few rules the component needs; `:where()` keeps them weaker than any page rule. */
function addStyle() {
  if (styled) return;
  styled = true;
  const style = document.createElement('style');
  style.dataset.imagestageBoard = '';
  style.textContent = `
:where([data-board-item]) { cursor: grab; touch-action: manipulation; user-select: none; -webkit-user-select: none;
  -webkit-touch-callout: none; }
:where([data-board-item].board-lifted) { cursor: grabbing; z-index: 1000; }
:where([data-board-over]) { outline: 3px dashed currentColor; outline-offset: -3px; }
:where(.board-dragging, .board-dragging *) { user-select: none; -webkit-user-select: none; }
:where(.board-ghost) { opacity: 0.85; box-shadow: 0 8px 24px rgb(0 0 0 / 0.3); }
.board-live { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; border: 0; padding: 0; }
@media (prefers-reduced-motion: no-preference) { :where(.board-ghost) { transition: opacity 0.1s; } }`;
  document.head.append(style);
}

/** A short description of an element for error messages: `div.slot#kitchen`. */
function describe(el) {
  if (!el) return '(none)';
  let text = el.tagName.toLowerCase();
  if (el.id) text += '#' + el.id;
  for (const c of el.classList) if (!c.startsWith('board-')) text += '.' + c;
  if (el.dataset.id) text += `[data-id="${el.dataset.id}"]`;
  return text;
}

/** The board: `board(container, options)`; `ready` settles when the engine runs. */
export function board(container, options = {}) { return new Board(container, options); }

export class Board {
  constructor(container, options = {}) {
    this.container = typeof container === 'string' ? document.querySelector(container) : container;
    this.options = { ...options };
    this.listeners = new Map();
    this.items = [];
    this.slots = [];
    this.destroyed = false;
    this.pending = new Map(); // touch presses waiting for their hold
    this.pointers = new Map(); // pointer id → last client position, for presses that reached the engine
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
  state() { return this.wasm ? this.wasm.out(this.x.board_state()).trim() : null; }

  /** Restores a state line; throws an Error naming the field when it does not read. */
  restore(text) {
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
    const picked = {};
    for (const [k, v] of Object.entries(changes)) {
      if (k === 'mode') throw new Error('ImageStage board: mode: cannot change while the board runs; make a new board');
      if (ENGINE_OPTIONS.includes(k)) picked[k] = v;
      this.options[k] = v;
    }
    if ('strings' in changes) picked.strings = this.#engineStrings();
    const error = this.wasm.out(this.wasm.withBytes(JSON.stringify(picked), (p, n) => this.x.board_set_options(p, n)));
    if (error) throw new Error(`ImageStage board: ${error}`);
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
    for (const el of this.items) this.#unlift(el);
    for (const el of this.slots) delete el.dataset.boardOver;
    this.container?.classList.remove('board-dragging');
    this.wasm = this.x = null;
  }

  // MARK: Start

  async #start() {
    await null; // errors are reported after the page's own `on('error', …)` calls
    try {
      this.#check();
      addStyle();
      this.wasm = await instantiate(WASM);
      this.x = this.wasm.exports;
      if (this.destroyed) return this;
      this.#addLiveRegion();
      this.#create();
      this.#listen();
      if (this.options.persist === 'localStorage') this.#load();
      this.#reconcileAll();
      return this;
    } catch (e) {
      console.error(e.message);
      this.#emit('error', { message: e.message });
      throw e;
    }
  }

  /** What can be checked before the module loads: the container, option names, selectors. */
  #check() {
    const o = this.options;
    if (!(this.container instanceof Element)) throw new Error(`ImageStage board: container: no element matches ${this.container}`);
    for (const k of Object.keys(o)) {
      if (!ENGINE_OPTIONS.includes(k) && !PAGE_OPTIONS.includes(k) && !k.startsWith('on')) {
        throw new Error(`ImageStage board: ${k}: not an option (docs/board.md lists them)`);
      }
      if (k.startsWith('on') && EVENTS.includes(k.slice(2).toLowerCase())) this.on(k.slice(2).toLowerCase(), o[k]);
    }
    for (const k of ['items', 'slots']) {
      if (typeof o[k] !== 'string' || !o[k]) throw new Error(`ImageStage board: ${k}: expected a CSS selector, found ${o[k]}`);
      let found;
      try { found = this.container.querySelector(o[k]); } catch { throw new Error(`ImageStage board: ${k}: "${o[k]}" is not a valid selector`); }
      if (!found) throw new Error(`ImageStage board: ${k}: "${o[k]}" matches nothing inside ${describe(this.container)}`);
    }
    if (o.placement !== undefined && !['move', 'event'].includes(o.placement)) {
      throw new Error(`ImageStage board: placement: unknown value "${o.placement}"; expected one of: move, event`);
    }
    if (o.persist !== undefined && o.persist !== 'localStorage' && o.persist !== false) {
      throw new Error(`ImageStage board: persist: unknown value "${o.persist}"; expected "localStorage" or false`);
    }
    if (o.accepts !== undefined && typeof o.accepts !== 'function') {
      throw new Error('ImageStage board: accepts: expected a function (item, slot) => boolean; use data-accepts for tags');
    }
    this.placement = o.placement ?? 'move';
    this.mode = o.mode ?? 'locations';
    this.touch = { delay: 200, tolerance: 6, ...(o.touch || {}) };
    this.strings = { ...PAGE_STRINGS, ...(o.strings || {}) };
  }

  #engineStrings() {
    const s = {};
    for (const [k, v] of Object.entries(this.options.strings || {})) if (!(k in PAGE_STRINGS)) s[k] = v;
    return s;
  }

  /** Finds the page's items and slots and hands the engine their boxes. */
  #create() {
    const o = this.options;
    const all = (sel) => [...this.container.querySelectorAll(sel)].filter((el) => !el.hasAttribute('data-board-copy'));
    this.items = all(o.items);
    this.slots = all(o.slots);
    if (!this.items.length) throw new Error(`ImageStage board: items: "${o.items}" matches nothing inside ${describe(this.container)}`);
    this.itemIds = this.items.map((el, i) => el.dataset.id || String(i + 1));
    this.slotIds = this.slots.map((el, i) => el.dataset.id || String(i + 1));
    this.home = this.items.map((el) => this.home?.find((h) => h.el === el) ?? { el, parent: el.parentNode, next: el.nextSibling });
    this.offsets = this.items.map(() => null);
    this.ghosts = this.ghosts ?? new Map();
    this.over = new Set();
    const f = this.#frame();
    const slotRects = this.slots.map((el) => this.#rect(el, f, null));
    const items = this.items.map((el, i) => {
      el.dataset.boardItem = '';
      for (const img of el.tagName === 'IMG' ? [el] : el.querySelectorAll('img')) img.draggable = false;
      this.#label(el, i);
      const slotEl = el.parentElement?.closest(o.slots);
      const s = slotEl ? this.slots.indexOf(slotEl) : -1;
      const item = { id: this.itemIds[i], name: this.#itemName(el, i), frame: this.#rect(el, f, null) };
      if (s >= 0 && this.mode === 'locations') item.slot = this.slotIds[s];
      else if (el.dataset.slot && this.slotIds.includes(el.dataset.slot)) item.slot = el.dataset.slot;
      if (el.dataset.tags) item.tags = el.dataset.tags.split(/\s+/).filter(Boolean);
      return item;
    });
    const slots = this.slots.map((el, s) => {
      const slot = { id: this.slotIds[s], frame: slotRects[s] };
      const name = el.dataset.name || el.getAttribute('aria-label');
      if (name) slot.name = name;
      if (el.dataset.accepts) slot.accepts = el.dataset.accepts.split(/\s+/).filter(Boolean);
      if (el.dataset.capacity) slot.capacity = Number(el.dataset.capacity);
      const copy = el.querySelector(':scope > [data-board-copy]');
      if (copy && this.itemIds.includes(copy.dataset.boardCopy)) slot.content = copy.dataset.boardCopy;
      if (!el.hasAttribute('role')) el.setAttribute('role', 'group');
      if (!el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) {
        el.setAttribute('aria-label', slot.name || `location #${slot.id}`);
      }
      return slot;
    });
    if (o.accepts) this.#acceptsByFunction(items, slots);
    const description = { canvas: { width: Math.max(1, f.width), height: Math.max(1, f.height) }, slots, items };
    for (const k of ENGINE_OPTIONS) if (o[k] !== undefined) description[k] = o[k];
    if (o.reducedMotion === undefined) description.reducedMotion = this.#prefersReducedMotion();
    const strings = this.#engineStrings();
    if (Object.keys(strings).length) description.strings = strings;
    const error = this.wasm.out(this.wasm.withBytes(JSON.stringify(description), (p, n) => this.x.board_create(p, n)));
    if (error) throw new Error(`ImageStage board: ${this.#nameElements(error)}`);
    this.#measure();
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

  #itemName(el, i) {
    return el.getAttribute('aria-label') || el.getAttribute('alt') || el.querySelector?.('img[alt]')?.alt
      || el.textContent.trim() || this.itemIds[i];
  }

  /** Roles and names for items, unless the page gave its own. */
  #label(el, i) {
    if (!el.hasAttribute('tabindex') && el.tabIndex < 0) el.tabIndex = 0;
    if (!el.hasAttribute('role')) el.setAttribute('role', 'button');
    if (!el.hasAttribute('aria-roledescription')) el.setAttribute('aria-roledescription', this.strings.draggable);
    if (!el.hasAttribute('aria-describedby')) el.setAttribute('aria-describedby', this.instructions.id);
    if (el.tagName !== 'IMG' && !el.hasAttribute('aria-label') && !el.textContent.trim()) {
      el.setAttribute('aria-label', this.#itemName(el, i));
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
    document.body.append(this.live, this.instructions);
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
  #measure() {
    const f = (this.frameNow = this.#frame());
    const nS = this.slots.length, nI = this.items.length;
    const frames = new Float64Array(4 * (nS + nI));
    this.slots.forEach((el, s) => frames.set(this.#rect(el, f, null), 4 * s));
    const placement = JSON.parse(this.wasm.out(this.x.board_placement()));
    this.rest = this.items.map((el, i) => {
      const r = this.#rect(el, f, this.offsets[i]);
      // An item sitting in a slot shows where the slot is, not where its own place is.
      if (placement.slots[i] >= 0 && this.mode === 'locations') frames.set([NaN, NaN, r[2], r[3]], 4 * (nS + i));
      else frames.set(r, 4 * (nS + i));
      return [r[0] + r[2] / 2, r[1] + r[3] / 2];
    });
    const bytes = new Uint8Array(frames.buffer);
    const answer = this.wasm.withBytes(bytes, (p, n) => this.x.board_layout(p, nS, nI, f.width, f.height, now()));
    this.#apply(this.wasm.json(answer));
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
        this.wasm.withBytes(JSON.stringify({ reducedMotion: e.matches }), (p, n) => this.x.board_set_options(p, n));
      }
    });
    this.resizeObserver = new ResizeObserver(this.#guard(() => this.#measureSoon()));
    this.#observeSizes();
    this.mutationObserver = new MutationObserver(this.#guard((records) => this.#mutated(records)));
    this.mutationObserver.observe(c, { childList: true, subtree: true });
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

  #down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const i = this.#itemAt(e.target);
    const onContent = i < 0 && this.options.contentDraggable && e.target.closest?.('[data-board-copy]');
    if (i < 0 && !onContent) return;
    if (e.pointerType === 'touch' && this.touch.delay > 0) {
      // A touch becomes a drag only after a short hold, so the page still scrolls under it.
      const press = { i, x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY, target: e.target };
      press.timer = setTimeout(this.#guard(() => {
        this.pending.delete(e.pointerId);
        this.#press(e.pointerId, press.i, press.x, press.y, press.target);
      }), this.touch.delay);
      this.pending.set(e.pointerId, press);
      return;
    }
    if (e.pointerType === 'mouse') e.preventDefault(); // no text selection, no native image drag
    this.#press(e.pointerId, i, e.clientX, e.clientY, e.target);
  }

  #press(id, i, clientX, clientY, target) {
    this.frameNow = this.#frame();
    const [x, y] = this.#toBoard(clientX, clientY);
    if (!this.pointers.size) this.scrollLimits = new Map();
    this.pointers.set(id, [clientX, clientY]);
    try { target.setPointerCapture?.(id); } catch { /* a synthetic or finished pointer */ }
    const t = now();
    this.#answer(i >= 0 ? this.x.board_press(i, id, x, y, t) : this.x.board_pointer(0, id, x, y, t));
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
    const i = this.items.indexOf(e.target);
    const held = this.x.board_keyboard_held() >= 0;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === 'z' || e.key === 'Z' || e.key === 'y')) {
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

  #answer(length) { this.#apply(this.wasm.json(length)); }

  /** Applies what the engine answered: events out, items translated, ghosts drawn, rests kept. */
  #apply(a) {
    if (!a.events) return;
    let changed = false;
    for (const e of a.events) {
      if (e.type === 'announce') {
        this.#say(e.text);
        continue;
      }
      if (e.type === 'status') this.#status(e.text);
      if (e.type === 'assign') this.#assign(e.slot, e.item);
      // A return may be an undo's: whether the state changed is checked against the last one.
      if (['assign', 'drop', 'swap', 'return'].includes(e.type)) changed = true;
      this.#emit(e.type, this.#detail(e));
    }
    const f = this.frameNow;
    const moved = new Set();
    for (const [i, x, y] of a.items) {
      moved.add(i);
      const el = this.items[i];
      if (!this.offsets[i]) this.#lift(el);
      const dx = x - this.rest[i][0], dy = y - this.rest[i][1];
      this.offsets[i] = [dx, dy];
      el.style.translate = `${dx}px ${dy}px`;
    }
    this.#drawGhosts(a.ghosts, f);
    for (const [i, s] of a.settled) if (!moved.has(i)) this.#settle(i, s);
    this.#highlight(a.over);
    this.container.classList.toggle('board-dragging', this.pointers.size > 0 || this.x.board_keyboard_held() >= 0);
    if (a.settled.length) this.#measure();
    if (changed) this.#changed();
    if (a.busy) this.#animate();
    if (!a.busy && this.rebuildWanted) this.#rebuild();
  }

  #detail(e) {
    const d = { type: e.type };
    if (e.item !== undefined && e.item >= 0) Object.assign(d, { item: this.items[e.item], itemId: this.itemIds[e.item] });
    if (e.slot !== undefined) {
      d.slot = e.slot >= 0 ? this.slots[e.slot] : null;
      d.slotId = e.slot >= 0 ? this.slotIds[e.slot] : null;
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

  #lift(el) {
    el.classList.add('board-lifted');
    if (getComputedStyle(el).position === 'static') {
      el.style.position = 'relative';
      el.dataset.boardPositioned = '';
    }
  }

  #unlift(el) {
    el.classList.remove('board-lifted');
    el.style.translate = '';
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
      if (this.placement === 'move') this.#own(() => this.#put(i, s));
      else this.#emit('place', { item: el, itemId: this.itemIds[i], slot: this.slots[s] ?? null, slotId: this.slotIds[s] ?? null });
    }
    this.#unlift(el);
  }

  /** Moves item `i`'s element into slot `s`, or back where the page first had it. */
  #put(i, s) {
    const el = this.items[i];
    const h = this.home[i];
    const parent = s >= 0 ? this.slots[s] : h.parent;
    if (el.parentNode === parent) return;
    // Moving an element blurs it: the keyboard user's focus comes along.
    const focused = el.contains(document.activeElement);
    if (s < 0 && h.next && h.next.parentNode === h.parent) h.parent.insertBefore(el, h.next);
    else parent.append(el);
    if (focused) el.focus({ preventScroll: true });
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
      for (const a of ['tabindex', 'role', 'aria-roledescription', 'aria-describedby', 'data-board-item', 'style']) copy.removeAttribute(a);
      copy.classList.remove('board-lifted');
      copy.dataset.boardCopy = this.itemIds[i];
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

  /** A copy of item `i` above everything, the size it shows at (Shortcuts' drag view). */
  #makeGhost(i, f) {
    const source = this.items[i];
    const r = source.getBoundingClientRect();
    const g = source.cloneNode(true);
    for (const el of [g, ...g.querySelectorAll('[id]')]) el.removeAttribute('id');
    for (const a of ['tabindex', 'role', 'aria-describedby', 'data-board-item']) g.removeAttribute(a);
    g.setAttribute('aria-hidden', 'true');
    g.classList.add('board-ghost');
    Object.assign(g.style, {
      position: 'fixed', left: '0', top: '0', margin: '0', width: `${r.width}px`, height: `${r.height}px`,
      boxSizing: 'border-box', pointerEvents: 'none', zIndex: '2147483647', transform: 'none',
    });
    g.halfWidth = r.width / 2;
    g.halfHeight = r.height / 2;
    document.body.append(g);
    return g;
  }

  #highlight(over) {
    const next = new Set(over);
    for (const s of this.over) if (!next.has(s)) delete this.slots[s]?.dataset.boardOver;
    for (const s of next) if (this.slots[s]) this.slots[s].dataset.boardOver = '';
    this.over = next;
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
        const speed = (d, size) => {
          const edge = Math.min(60, size * 0.2);
          return d < edge ? Math.ceil(20 * (1 - Math.max(d, 0) / edge)) : 0;
        };
        const w = r.right - r.left, h = r.bottom - r.top;
        const dy = scrollsY ? speed(cy - r.top, h) * -1 || speed(r.bottom - cy, h) : 0;
        const dx = scrollsX ? speed(cx - r.left, w) * -1 || speed(r.right - cx, w) : 0;
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

  #changed() {
    const state = this.state();
    if (state === this.lastState) return;
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
      const message = `ImageStage board: the saved board does not read (${error}); it is kept as localStorage "${aside}" and the page's own layout is used`;
      console.warn(message);
      this.#emit('error', { message, key: aside });
    }
    this.lastState = this.state();
  }

  #restore(text, source) {
    if (typeof text !== 'string') return `${source}: expected the text state() returns`;
    const error = this.wasm.out(this.wasm.withTwo(text, source, (p, n, q, m) => this.x.board_restore(p, n, q, m)));
    if (error) return error;
    this.#reconcileAll();
    return null;
  }

  /** Puts every element where the engine says it rests (after a restore or a rebuild). */
  #reconcileAll() {
    const placement = JSON.parse(this.wasm.out(this.x.board_placement()));
    if (this.mode === 'locations') {
      placement.slots.forEach((s, i) => {
        this.offsets[i] = null;
        if (this.placement === 'move') this.#own(() => this.#put(i, s));
        this.#unlift(this.items[i]);
      });
    } else {
      placement.contents.forEach((i, s) => {
        const copy = this.slots[s].querySelector(':scope > [data-board-copy]');
        if ((copy?.dataset.boardCopy ?? null) !== (i >= 0 ? this.itemIds[i] : null)) this.#assign(s, i);
      });
    }
    this.#measure();
  }

  /** Elements the page added or removed: the board is built again, keeping where things are. */
  #mutated(records) {
    const ours = (n) => n.nodeType !== 1 || n.hasAttribute('data-board-copy') || n.classList.contains('board-ghost');
    const relevant = records.some((r) => [...r.addedNodes, ...r.removedNodes].some((n) => !ours(n)));
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
    this.#observeSizes();
  }
}

