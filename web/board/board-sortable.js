// The board's sortable mode: `board(el, { mode: 'sortable', … })`. Lists of the page's own
// elements reorder as SortableJS's do, with SortableJS's option and event names. The rule is
// Swift (Stage's SortableEngine, through web/board/SortableWeb.swift's numbers-only
// exports): this file measures the DOM, feeds the pointer and keys in, paints the offsets the
// engine answers as CSS `translate`, and moves the elements on a drop. docs/board.md.

import { instantiate } from './wasm.js';
import { storedText, store } from './storage.js';
import { optionProblem } from './board-options.js';

// Its own module: the sortable engine without the slots' (make's imagestage-sortable.wasm).
const WASM = new URL('imagestage-sortable.wasm', import.meta.url);
const STRINGS = {
  draggable: 'sortable',
  instructions: 'Press Space to pick up. Arrow keys move it; Space drops; Escape cancels. Shift+Space selects.',
  position: '{item}, position {position} of {count} in {list}',
  picked: 'Picked up {item}, position {position} of {count} in {list}',
  dropped: 'Dropped {item}, position {position} of {count} in {list}',
  cancelled: '{item} returned to position {position} of {count} in {list}',
  selected: '{item} selected, {count} selected',
};
const ARROWS = { ArrowLeft: 0, ArrowRight: 1, ArrowUp: 2, ArrowDown: 3 };
const EVENTS = ['start', 'sort', 'end', 'change', 'error', 'select'];
const OPTIONS = ['mode', 'lists', 'items', 'handle', 'filter', 'group', 'max', 'sort', 'animation', 'swapThreshold', 'invertSwap',
  'invertedSwapThreshold', 'rule', 'hysteresis', 'emptyInsertThreshold', 'multiDrag', 'persist', 'strings'];
/** SortableJS's names the sortable mode does not take, each with its way to do it. */
const SORTABLEJS = [
  [['ghostClass', 'chosenClass', 'dragClass', 'fallbackClass'],
    'style [data-board-held] (the held item), [data-board-over] (the list it would land in), [data-board-selected]'],
  [['draggable'], 'use items (a CSS selector)'],
  [['onChoose', 'onUnchoose', 'onAdd', 'onRemove', 'onUpdate', 'onMove', 'onClone', 'onFilter'], 'use onStart, onSort, onEnd (from, to) or onChange'],
  [['delay', 'delayOnTouchOnly', 'touchStartThreshold'], 'a drag starts once the pointer moved 3 px; there is no press delay'],
  [['forceFallback', 'fallbackOnBody', 'fallbackTolerance', 'fallbackOffset'], 'the board follows the pointer itself'],
  [['disabled'], 'call destroy(), and board() to start again'],
  [['store', 'dataIdAttr'], "ids are data-id; use persist: 'localStorage', or state() and restore()"],
  [['direction'], "read from the list's CSS"],
  [['scroll', 'scrollSensitivity', 'scrollSpeed', 'bubbleScroll', 'easing', 'preventOnFilter', 'removeCloneOnHide'], 'not taken'],
];
const CONTROLS = 'input, textarea, select, option, button, a[href], label, summary, [contenteditable]:not([contenteditable="false"])';
const fill = (t, v) => t.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(v, k) ? v[k] : m));
const px = (v) => parseFloat(v) || 0;
/** Set-up's phases as User Timing marks, as imagestage-board.js's (bench/web/setup.py prints them). */
const mark = (phase) => performance.mark(`imagestage-board:${phase}`);

let styled = false;
/**
 * The few rules the mode needs, in one constructed stylesheet. Nothing applies to an item at
 * rest: a declaration on every item (`cursor`, `user-select`, `touch-action`) had the browser
 * restyle and repaint all of them at set-up (the most of it at 1000 items). The hovered item
 * alone shows the grab cursor and takes no text selection; touch drags are kept from
 * scrolling by cancelling their touchmoves (#listen), not by `touch-action`.
 */
function addStyle() {
  if (styled) return;
  styled = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`:where([data-board-sortable]:hover) { cursor: grab; user-select: none; -webkit-user-select: none; }
:where([data-board-held]) { cursor: grabbing; z-index: 1000; position: relative; opacity: 0.9; }
:where(.board-dragging, .board-dragging *) { user-select: none; -webkit-user-select: none; }
:where([data-board-selected]) { outline: 2px solid Highlight; }
:where([data-board-refuses]) { opacity: 0.45; cursor: no-drop; }
:where([data-board-over]) { outline: 3px dashed currentColor; outline-offset: -3px; }
.board-live { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

export class SortableBoard {
  #o; #x; #w; #abort; #listeners = new Map(); #lists = []; #items = []; #groups = [];
  #given; #started = false; #press = null; #held = null; #moved = new Set(); #live; #help; #view = null;
  /** Attributes this mode added to the page's elements ([element, name, value]), taken back by destroy(). */
  #added = [];
  /** Items that had no `tabindex` before the roving one: destroy() removes theirs. */
  #tabbed = new Set();
  /** Each list's Tab stop (a roving tabindex): the one item of the list with `tabindex="0"`. */
  #stops = new Map();

  constructor(container, options) {
    this.#given = options ?? {};
    this.container = typeof container === 'string' ? document.querySelector(container) : container;
    // SortableJS's zones are its own hysteresis: 0 px more keeps its results; closest centre gets 4.
    this.options = this.#o = { animation: 150, swapThreshold: 1, invertSwap: false, emptyInsertThreshold: 5,
      hysteresis: options?.rule === 'closestCenter' ? 4 : 0, ...options };
    this.ready = this.#start();
    this.ready.catch(() => {});
  }

  on(name, fn) {
    if (!this.#listeners.has(name)) this.#listeners.set(name, new Set());
    this.#listeners.get(name).add(fn);
    return this;
  }

  off(name, fn) { this.#listeners.get(name)?.delete(fn); return this; }

  /** The `data-id`s of a list's items in order (SortableJS's `toArray`); the first list by default. */
  toArray(list = 0) {
    // Before `ready` (or when it failed) the DOM's order is the order: never [] for a page to save.
    if (!this.#lists.length && this.container instanceof Element) this.#lists = this.#findLists();
    return this.#itemsOf(this.#known(list, 'toArray')).map((el) => el.dataset.id ?? '');
  }

  /** Puts a list's items in this order of `data-id`s (SortableJS's `sort`); undoable. An id in
   * another list moves into this one, as SortableJS's `sort` moves the element. */
  sort(order, list = 0) {
    if (!this.#x) throw new Error('ImageStage board: sort(): the board is not ready yet (await b.ready)');
    let l = this.#known(list, 'sort');
    // Each id once, looked up in maps built once: a stored order may be long or repeat an id,
    // and the engine's buffer holds one number per item of the list, not per id given.
    const wanted = [...new Set(Array.from(order, String))];
    if (!this.#held) {
      const target = this.#lists[l];
      const byId = new Map();
      for (const e of this.#items) {
        if (e && !byId.has(e.dataset.id)) byId.set(e.dataset.id, []);
        if (e) byId.get(e.dataset.id).push(e);
      }
      for (const id of wanted) {
        const el = byId.get(id)?.find((e) => e.parentElement !== target && this.#lists.includes(e.parentElement));
        if (el) target.append(el);
      }
      // The page may have moved items itself (SortableJS's restore recipe): the engine reads the DOM again.
      this.#build();
      l = this.#known(list, 'sort');
    }
    const index = new Map(this.#items.map((e, i) => [e, i]));
    const at = new Map();
    for (const el of this.#itemsOf(l)) if (!at.has(el.dataset.id)) at.set(el.dataset.id, index.get(el));
    const ids = wanted.map((id) => at.get(id)).filter((i) => i !== undefined);
    this.#buffer(ids.length).set(ids);
    this.#answer(this.#x.sortable_sort(l, ids.length));
  }

  /** The orders of every list as a state line: `{"order":{"todo":["a","b"],…}}`. */
  state() {
    const order = {};
    this.#lists.forEach((el, l) => { order[this.#listId(l)] = this.toArray(l); });
    return JSON.stringify({ order });
  }

  /** Restores a state line from `state()`: each list takes the order it names. */
  restore(text) {
    let value;
    try { value = JSON.parse(text); } catch { throw new Error('ImageStage board: restore(): not JSON'); }
    if (!value || typeof value.order !== 'object' || value.order === null) throw new Error('ImageStage board: restore(): order: missing');
    // Items go to the list the state names them in first, then each list is sorted.
    const first = new Map();
    for (const e of this.#items) if (e && !first.has(e.dataset.id)) first.set(e.dataset.id, e);
    for (const [listId, ids] of Object.entries(value.order)) {
      const l = this.#lists.findIndex((el, k) => this.#listId(k) === listId);
      if (l < 0 || !Array.isArray(ids)) continue;
      for (const id of ids) {
        const el = first.get(String(id));
        if (el && el.parentElement !== this.#lists[l]) this.#lists[l].append(el);
      }
    }
    this.#build();
    for (const [listId, ids] of Object.entries(value.order)) {
      const l = this.#lists.findIndex((el, k) => this.#listId(k) === listId);
      if (l >= 0 && Array.isArray(ids)) this.sort(ids.map(String), l);
    }
  }

  // Before the engine has been needed nothing has moved: nothing to undo, nothing to measure again.
  undo() { if (this.#started) this.#answer(this.#x.sortable_undo()); }
  redo() { if (this.#started) this.#answer(this.#x.sortable_redo()); }
  canUndo() { return !!(this.#started && this.#x?.sortable_history() & 1); }
  canRedo() { return !!(this.#started && this.#x?.sortable_history() & 2); }
  refresh() { if (this.#x && this.#started && !this.#held) this.#build(); return this; }

  destroy() {
    this.#abort?.abort();
    this.#live?.remove();
    this.#help?.remove();
    for (const el of this.#items) if (el) for (const a of ['data-board-held', 'data-board-selected']) el.removeAttribute(a);
    for (const el of this.#items) if (el) el.style.translate = el.style.transition = '';
    // The page's elements as it made them: what this mode added goes, not a value the page set since.
    for (const [el, name, value] of this.#added) if (el.getAttribute(name) === value) el.removeAttribute(name);
    for (const el of this.#tabbed) el.removeAttribute('tabindex');
    this.#added = [];
    this.#tabbed.clear();
    this.#stops.clear();
    this.container?.classList.remove('board-dragging');
    this.#x = null;
  }

  // MARK: Start

  async #start() {
    mark('start');
    await null;
    try {
      if (!(this.container instanceof Element)) throw new Error(`ImageStage board: container: no element matches ${this.container}`);
      this.#check(this.#given);
      mark('checked');
      // The module is fetched and compiled (off the main thread) while the DOM is read below.
      const loading = instantiate(WASM);
      loading.catch(() => {}); // a DOM error first is the one reported
      this.#live = Object.assign(document.createElement('div'), { className: 'board-live' });
      // Polite: a step's announcement waits for the reader's current phrase instead of cutting it off.
      this.#live.setAttribute('aria-live', 'polite');
      this.#help = Object.assign(document.createElement('div'), { className: 'board-live', id: `board-help-${Math.random().toString(36).slice(2)}` });
      this.#help.textContent = this.#s('instructions');
      for (const k of Object.keys(this.#o)) {
        const name = k.slice(2).toLowerCase();
        if (k.startsWith('on') && EVENTS.includes(name) && typeof this.#o[k] === 'function') this.on(name, this.#o[k]);
      }
      // No box is read here: the layout is measured when it is first needed (a press, a key,
      // sort()), as SortableJS measures at the press, and then again at every pick-up.
      this.#lists = this.#findLists();
      if (!this.#lists.length) throw new Error(`ImageStage board: lists: "${this.#o.lists}" matches nothing`);
      mark('read');
      const listItems = this.#lists.map((_, l) => this.#itemsOf(l));
      this.#items = listItems.flat();
      this.#mark(listItems);
      document.body.append(this.#live, this.#help);
      mark('described');
      this.#w = await loading;
      this.#x = this.#w.exports;
      mark('wasm');
      mark('created');
      this.#listen();
      mark('listening');
      if (this.#o.persist === 'localStorage') {
        // Orders saved before 0.1.1 sit under imagestage.imagestage.board.KEY: read once, moved.
        const old = storedText(`imagestage.${this.#key()}`);
        if (old != null && (storedText(this.#key()) != null || !store(this.#key(), old))) {
          try { localStorage.removeItem(`imagestage.imagestage.${this.#key()}`); } catch { /* blocked: read again next time */ }
        }
        const saved = storedText(this.#key());
        if (saved) try { this.restore(saved); } catch (e) { console.warn(e.message); }
      }
      mark('ready');
      return this;
    } catch (e) {
      this.#emit('error', { message: e.message });
      throw e;
    }
  }

  /** Every option's name and value, all at once, before the engine's module is fetched. */
  #check(given) {
    const problems = [];
    for (const [key, value] of Object.entries(given)) {
      const problem = optionProblem(key, OPTIONS, EVENTS, SORTABLEJS);
      if (problem) { problems.push(`${key}: ${problem}`); continue; }
      const is = (ok, expected) => { if (!ok) problems.push(`${key}: expected ${expected}, found ${value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value}`); };
      if (/^on[A-Z]/.test(key)) is(typeof value === 'function', 'a function');
      else if (['animation', 'hysteresis', 'emptyInsertThreshold', 'max'].includes(key)) is(Number.isFinite(value) && value >= 0, 'a number of 0 or more');
      else if (['swapThreshold', 'invertedSwapThreshold'].includes(key)) is(Number.isFinite(value) && value >= 0 && value <= 1, 'a number from 0 to 1');
      else if (['invertSwap', 'multiDrag', 'sort'].includes(key)) is(typeof value === 'boolean', 'true or false');
      else if (['items', 'handle', 'filter'].includes(key)) is(typeof value === 'string', 'a CSS selector');
      else if (key === 'lists') is(typeof value === 'string' || typeof value?.[Symbol.iterator] === 'function', 'a CSS selector or elements');
      else if (key === 'rule') is(value === 'swapZones' || value === 'closestCenter', "'swapZones' or 'closestCenter'");
      else if (key === 'persist') is(value === 'localStorage' || value === false, "'localStorage' or false");
      else if (key === 'group') is(typeof value === 'string' || (typeof value === 'object' && value !== null), "a name or { name, pull, put }");
      else if (key === 'strings') is(typeof value === 'object' && value !== null, 'an object of templates');
    }
    if (problems.length) throw new Error(`ImageStage board: ${problems.length > 1 ? `${problems.length} problems:\n- ${problems.join('\n- ')}` : problems[0]}`);
  }

  #s(name) { return this.#o.strings?.[name] ?? STRINGS[name]; }
  #key() { return `board.${this.container.id || 'board'}`; } // storage.js adds `imagestage.`

  /** The lists: `lists` (a selector inside the container, or elements), or the container itself. */
  #findLists() {
    const l = this.#o.lists;
    if (!l) return [this.container];
    if (typeof l === 'string') return [...this.container.querySelectorAll(l)];
    return [...l];
  }

  #itemsOf(l) {
    const list = this.#lists[l];
    const sel = this.#o.items;
    return list ? [...list.children].filter((el) => !sel || el.matches(sel)) : [];
  }

  #known(list, method) {
    const l = this.#list(list);
    if (l < 0 || l >= this.#lists.length) throw new Error(`ImageStage board: ${method}(): no list ${JSON.stringify(String(list))}`);
    return l;
  }

  #list(list) {
    if (typeof list === 'number') return list;
    if (typeof list === 'string') return this.#lists.findIndex((el, k) => this.#listId(k) === list);
    return this.#lists.indexOf(list);
  }

  #listId(l) { const el = this.#lists[l]; return el.dataset.id || el.id || String(l); }
  #listName(l) {
    const el = this.#lists[l];
    const by = el.getAttribute('aria-labelledby');
    return el.getAttribute('aria-label') || (by && document.getElementById(by)?.textContent.trim()) || this.#listId(l);
  }

  #itemName(el) {
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
    // Its text without its controls' text: "Write spec", not "⠿Write specDone".
    const copy = el.cloneNode(true);
    for (const c of copy.querySelectorAll(`${CONTROLS}, [aria-hidden="true"]`)) c.remove();
    return copy.textContent.trim().replace(/\s+/g, ' ') || el.querySelector('img[alt]')?.alt || el.dataset.id || '';
  }

  /** A group option (`'name'` or `{ name, pull, put }`) with a list's `data-group` etc. over it. */
  #group(el) {
    let g = this.#o.group;
    g = typeof g === 'string' ? { name: g } : { ...(g || {}) };
    if (el.dataset.group) g.name = el.dataset.group;
    const read = (v) => (v === 'true' ? true : v === 'false' ? false : v === 'clone' ? 'clone' : v.split(/\s+/));
    if (el.dataset.pull) g.pull = read(el.dataset.pull);
    if (el.dataset.put) g.put = read(el.dataset.put);
    const n = (name) => {
      if (name == null) return -1;
      if (!this.#groups.includes(name)) this.#groups.push(name);
      return this.#groups.indexOf(name);
    };
    const pull = g.pull === false ? 1 : g.pull === 'clone' ? 2 : 0;
    let put = 0, mask = 0;
    if (g.put === true) put = 1;
    else if (g.put === false) put = 2;
    else if (Array.isArray(g.put)) { put = 3; for (const name of g.put) mask |= 1 << n(name); }
    return [n(g.name), pull, put, mask];
  }

  /** Numbers for every list as SortableWeb.swift's readLists takes them. */
  #measure(listItems = this.#lists.map((_, l) => this.#itemsOf(l))) {
    const out = [];
    const number = new Map(this.#items.map((el, i) => [el, i]));
    // The item a list is inside (a nested list), found by walking up: at the first build no
    // item is marked yet.
    const parentItem = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (number.has(p)) return number.get(p);
      return -1;
    };
    const sx = scrollX, sy = scrollY;
    this.#lists.forEach((el, l) => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      const items = listItems[l];
      const rects = items.map((it) => it.getBoundingClientRect());
      const content = [r.left + sx + px(cs.borderLeftWidth) + px(cs.paddingLeft), r.top + sy + px(cs.borderTopWidth) + px(cs.paddingTop)];
      content.push(el.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight), el.clientHeight - px(cs.paddingTop) - px(cs.paddingBottom));
      if (rects.length) { content[0] = rects[0].left + sx; content[1] = rects[0].top + sy; }
      let kind = 0, across = px(cs.columnGap), down = px(cs.rowGap), columns = 1, cell = [0, 0];
      if (cs.display.includes('grid')) {
        kind = 3;
        columns = Math.max(1, cs.gridTemplateColumns.split(' ').length);
        if (rects.length) cell = [rects[0].width, rects[0].height];
      } else if (cs.display.includes('flex') && cs.flexDirection.startsWith('row')) {
        kind = cs.flexWrap === 'nowrap' ? 1 : 2;
        if (rects.length > 1 && Math.abs(rects[1].top - rects[0].top) < 1) across = rects[1].left - rects[0].right;
      } else if (rects.length > 1) {
        down = rects[1].top - rects[0].bottom;
      }
      const max = Number(el.dataset.max ?? this.#o.max ?? -1);
      const parent = parentItem(el);
      out.push(r.left + sx, r.top + sy, r.width, r.height, ...content, kind, across, down, columns, ...cell,
        ...this.#group(el), Number.isFinite(max) ? max : -1, (el.dataset.sort ?? String(this.#o.sort)) === 'false' ? 0 : 1, parent, items.length);
      items.forEach((it, k) => out.push(number.get(it), rects[k].left + sx, rects[k].top + sy, rects[k].width, rects[k].height));
    });
    return out;
  }

  #buffer(n = 0) {
    if (n && !this.#x.sortable_reserve(n)) throw new Error('ImageStage board: too many lists and items');
    const ptr = this.#x.sortable_buffer();
    const mem = this.#x.memory.buffer;
    if (!this.#view || this.#view.buffer !== mem || this.#view.byteOffset !== ptr) this.#view = new Float64Array(mem, ptr, (mem.byteLength - ptr) >> 3);
    return this.#view;
  }

  /** (Re)reads the lists and their items and starts the engine on them; the undo history stays only across refresh of the same items. */
  #build() { this.#send(this.#read()); }

  /** The engine, started on the layout as it is now if nothing has needed it yet. */
  #engine() {
    if (!this.#started) this.#build();
    return this.#x;
  }

  /** The lists' and items' numbers (as `#measure`), their attributes written after every box is read. */
  #read() {
    this.#lists = this.#findLists();
    if (!this.#lists.length) throw new Error(`ImageStage board: lists: "${this.#o.lists}" matches nothing`);
    const known = new Set(this.#items);
    const listItems = this.#lists.map((_, l) => this.#itemsOf(l));
    for (const el of listItems.flat()) {
      if (!known.has(el)) { known.add(el); this.#items.push(el); }
      // Boxes without an animation's offset (none before the first build: reading each item's
      // style has the browser make 1000 style objects).
      if (this.#started && (el.style.translate || el.style.transition)) el.style.translate = el.style.transition = '';
    }
    // A settle still sliding is measured where it ends: cleared styles alone leave it running.
    for (const a of this.#started ? document.getAnimations?.() ?? [] : []) {
      if (a instanceof CSSTransition && known.has(a.effect?.target)) a.finish();
    }
    // Every box is read before any attribute is written: the writes would have the browser
    // work out every item's style again before the first read (most of the set-up time).
    const numbers = this.#measure(listItems);
    this.#mark(listItems);
    return numbers;
  }

  /** Marks the lists' items (attributes, one Tab stop a list), after any box is read: a read after these writes would have the browser restyle every item first. */
  #mark(listItems) {
    addStyle();
    for (let l = 0; l < this.#lists.length; l++) {
      const items = listItems[l];
      // One Tab stop a list (a roving tabindex): its first item until the focus moves. The
      // others keep no tabindex but -1 where the page made them focusable; `tabIndex` is
      // read before the writes below, which would have it restyle every item first.
      if (!items.includes(this.#stops.get(this.#lists[l]))) {
        items.forEach((el, k) => { if (k > 0 && el.tabIndex >= 0) this.#tabindex(el, -1); });
        if (items.length) this.#makeStop(items[0]);
      }
      for (const el of items) this.#add(el, 'data-board-sortable', '');
      for (const img of this.#lists[l].querySelectorAll('img')) this.#add(img, 'draggable', 'false');
    }
  }

  #tabindex(el, value) {
    if (!el.hasAttribute('tabindex')) this.#tabbed.add(el);
    el.tabIndex = value;
  }

  /**
   * Makes `el` its list's Tab stop, described as sortable with the instructions. Only the item
   * that can take the focus is described (here and in #focus): the 2000 attribute writes for
   * every item were most of set-up's own time at 1000 items.
   */
  #makeStop(el) {
    const list = el.parentElement, old = this.#stops.get(list);
    if (old && old !== el && old.parentElement === list) this.#tabindex(old, -1);
    this.#stops.set(list, el);
    this.#tabindex(el, 0);
    this.#add(el, 'aria-roledescription', this.#s('draggable'));
    this.#add(el, 'aria-describedby', this.#help.id);
  }

  /** Sets attribute `name` unless the element has one; remembered for destroy(). */
  #add(el, name, value) {
    if (el.hasAttribute(name)) return;
    el.setAttribute(name, value);
    this.#added.push([el, name, value]);
  }

  /** Starts the engine on `numbers` (`#read`'s), or gives it new boxes for the same items. */
  #send(numbers) {
    this.#buffer(numbers.length + 8).set(numbers);
    // The same lists and items in the same order: new boxes only, and the history stays.
    if (this.#started && !this.#x.sortable_relayout(this.#lists.length)) return;
    this.#started = true;
    const o = this.#o;
    const rule = o.rule === 'closestCenter' ? 1 : 0;
    const error = this.#x.sortable_create(this.#lists.length, rule, o.swapThreshold, o.invertSwap ? 1 : 0,
      o.invertedSwapThreshold ?? o.swapThreshold, o.hysteresis, o.emptyInsertThreshold);
    if (error) throw new Error('ImageStage board: a list or option could not be read (swapThreshold must be 0…1)');
  }

  // MARK: Input

  #listen() {
    this.#abort = new AbortController();
    const opts = { signal: this.#abort.signal };
    const on = (t, type, fn, o = opts) => t.addEventListener(type, fn, o);
    on(this.container, 'pointerdown', (e) => this.#down(e));
    // A touch on an item drags it rather than scrolling the page. `touch-action: none` on every
    // item did this at a restyle and repaint of each at set-up (the browser reads touch-action
    // when the touch starts, so it cannot come from the press): a touchmove cancelled while a
    // press is held does the same (as SortableJS does); a touch between items still scrolls.
    on(this.container, 'touchmove', (e) => { if ((this.#press || this.#held) && e.cancelable) e.preventDefault(); },
      { passive: false, signal: this.#abort.signal });
    on(window, 'pointermove', (e) => this.#pointerMove(e));
    on(window, 'pointerup', (e) => this.#up(e, false));
    on(window, 'pointercancel', (e) => this.#up(e, true));
    on(this.container, 'keydown', (e) => this.#keydown(e));
    // An item focused another way (a click on a handle-less part, the page's own focus()) becomes the Tab stop.
    on(this.container, 'focusin', (e) => {
      const el = e.target;
      if (this.#lists.includes(el.parentElement) && this.#stops.get(el.parentElement) !== el && this.#items.includes(el)) this.#makeStop(el);
    });
    on(this.container, 'dragstart', (e) => { if (e.target.closest?.('[data-board-sortable]')) e.preventDefault(); });
    on(window, 'click', (e) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      e.preventDefault();
      e.stopImmediatePropagation();
    }, { capture: true, signal: this.#abort.signal });
  }

  #down(e) {
    if (e.button > 0 || this.#held || this.#press) return;
    const el = e.target.closest?.('[data-board-sortable]');
    const i = this.#items.indexOf(el);
    if (i < 0 || !this.container.contains(el)) return;
    if (this.#o.handle && !e.target.closest(this.#o.handle)) return;
    if (this.#o.filter && e.target.closest(this.#o.filter)) return;
    if (e.target.closest(CONTROLS) && !(this.#o.handle && e.target.closest(this.#o.handle))) return;
    if (this.#o.multiDrag && (e.ctrlKey || e.metaKey || e.shiftKey)) {
      this.#toggleSelected(el, e.shiftKey);
      e.preventDefault();
      return;
    }
    this.#press = { id: e.pointerId, i, x: e.clientX, y: e.clientY };
    e.preventDefault();
  }

  #pointerMove(e) {
    const p = this.#press;
    if (!p || e.pointerId !== p.id) return;
    if (!this.#held) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < 3) return;
      this.#pickUp(p.i, p.x + scrollX, p.y + scrollY, true);
    }
    this.#held.pointer = [e.clientX - p.x, e.clientY - p.y];
    this.#answer(this.#x.sortable_move(e.clientX + scrollX, e.clientY + scrollY));
  }

  #up(e, cancelled) {
    const p = this.#press;
    if (!p || e.pointerId !== p.id) return;
    this.#press = null;
    if (!this.#held) return;
    this.swallowClick = !cancelled;
    this.#finish(cancelled);
  }

  #pickUp(i, x, y, byPointer) {
    // Everything measured at rest: a settle still running ends now.
    for (const el of this.#items) if (el) { el.style.transition = ''; el.style.translate = ''; }
    this.#build();
    const el = this.#items[i];
    if (!el.hasAttribute('data-board-selected')) this.#x.sortable_select(-1, 0);
    this.#held = { i, byPointer, pointer: [0, 0], selected: this.#items.filter((s) => s?.hasAttribute('data-board-selected')) };
    el.setAttribute('data-board-held', '');
    this.container.classList.add('board-dragging');
    this.#answer(this.#x.sortable_pick(i, x, y, byPointer ? 1 : 0));
  }

  #finish(cancelled) {
    const held = this.#held;
    const clone = this.#items.length;
    const n = cancelled ? this.#x.sortable_cancel() : this.#x.sortable_drop(clone);
    this.#answer(n, held);
  }

  // MARK: Keyboard

  #keydown(e) {
    const el = e.target.closest?.('[data-board-sortable]');
    const i = this.#items.indexOf(el);
    if (i < 0 || e.target !== el) return; // keys in a card's own controls are theirs (their Ctrl+Z too)
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !this.#held && (key === 'z' || key === 'y')) {
      if (key === 'y' || e.shiftKey) this.redo(); else this.undo();
      if (el.isConnected && document.activeElement !== el) this.#focus(el); // a DOM move blurs it
      e.preventDefault();
      return;
    }
    if (this.#held && !this.#held.byPointer) {
      if (e.key in ARROWS) this.#answer(this.#x.sortable_key(ARROWS[e.key]));
      else if (e.key === ' ' || e.key === 'Enter') this.#finish(false);
      else if (e.key === 'Escape') this.#finish(true);
      else if (e.key === 'Tab') this.#finish(false);
      else return;
      e.preventDefault();
      return;
    }
    if (e.key in ARROWS) {
      const next = this.#items[this.#engine().sortable_neighbour(i, ARROWS[e.key])];
      if (next) this.#focus(next);
    } else if (e.key === ' ' && e.shiftKey && this.#o.multiDrag) {
      this.#toggleSelected(el, false);
    } else if (e.key === ' ' || e.key === 'Enter') {
      const r = el.getBoundingClientRect();
      this.#pickUp(i, r.left + r.width / 2 + scrollX, r.top + r.height / 2 + scrollY, false);
      this.#say('picked', el);
    } else return;
    e.preventDefault();
  }

  #focus(el) {
    this.#makeStop(el);
    el.focus();
  }

  #toggleSelected(el, range) {
    const i = this.#items.indexOf(el);
    const on = !el.hasAttribute('data-board-selected');
    el.toggleAttribute('data-board-selected', on);
    this.#engine().sortable_select(i, on ? 1 : 0);
    if (range && on && this.lastSelected && this.lastSelected.parentElement === el.parentElement) {
      const siblings = [...el.parentElement.children];
      const [a, b] = [siblings.indexOf(this.lastSelected), siblings.indexOf(el)].sort((x, y) => x - y);
      for (const s of siblings.slice(a, b + 1)) {
        if (this.#items.includes(s)) { s.setAttribute('data-board-selected', ''); this.#x.sortable_select(this.#items.indexOf(s), 1); }
      }
    }
    this.lastSelected = el;
    const count = this.#items.filter((s) => s?.hasAttribute('data-board-selected')).length;
    this.#live.textContent = fill(this.#s('selected'), { item: this.#itemName(el), count });
    this.#emit('select', { item: el, itemId: el.dataset.id, selected: on });
  }

  #say(kind, el) {
    const l = this.#lists.indexOf(el.parentElement);
    const items = this.#itemsOf(l);
    let position = items.indexOf(el) + 1, count = items.length;
    const target = this.#target;
    if (this.#held && target && target[0] >= 0) {
      // While held: where it would land, counting it in that list.
      const others = this.#itemsOf(target[0]).filter((s) => s !== el && !this.#held.selected.includes(s));
      position = target[1] + 1;
      count = others.length + 1;
      this.#live.textContent = fill(this.#s(kind), { item: this.#itemName(el), position, count, list: this.#listName(target[0]) });
      return;
    }
    this.#live.textContent = fill(this.#s(kind), { item: this.#itemName(el), position, count, list: this.#listName(l) });
  }

  // MARK: Answers

  /** Reads an answer from the buffer: events, offsets, refusing lists, target. */
  #answer(count, finished = null) {
    const b = this.#buffer();
    let k = 0;
    const n = b[k++];
    const events = [];
    for (let e = 0; e < n; e++, k += 8) events.push(Array.from(b.subarray(k, k + 8)));
    const offsets = new Map();
    const m = b[k++];
    for (let e = 0; e < m; e++, k += 3) offsets.set(b[k], [b[k + 1], b[k + 2]]);
    const refusing = new Set();
    const r = b[k++];
    for (let e = 0; e < r; e++) refusing.add(b[k++]);
    this.#target = [b[k], b[k + 1]];
    const ended = events.find((ev) => ev[0] === 2 || ev[0] === 4);
    if (ended) { this.#settle(ended, finished); } else { this.#paint(offsets, refusing); }
    for (const ev of events) this.#event(ev, ended);
    if (events.some((ev) => ev[0] === 3) && !ended) this.#applyOrders();
    if (events.some((ev) => ev[0] === 3) && this.#o.persist === 'localStorage') store(this.#key(), this.state());
  }

  #target = null;

  #duration() {
    return matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : Math.max(0, Number(this.#o.animation) || 0);
  }

  /** Neighbours slide to their offsets; the held item follows the pointer (or its place, by keyboard). */
  #paint(offsets, refusing) {
    const d = this.#duration();
    const held = this.#held;
    for (const [i, [dx, dy]] of offsets) {
      const el = this.#items[i];
      if (!el) continue;
      if (held?.byPointer && (i === held.i || held.selected.includes(el))) {
        el.style.transition = '';
        const [px0, py0] = held.pointer;
        el.style.translate = i === held.i ? `${px0}px ${py0}px` : `${dx}px ${dy}px`;
      } else {
        el.style.transition = d ? `translate ${d}ms ease` : '';
        el.style.translate = dx || dy ? `${dx}px ${dy}px` : '';
      }
      this.#moved.add(el);
    }
    for (const el of this.#moved) {
      const i = this.#items.indexOf(el);
      if (!offsets.has(i)) { el.style.transition = d ? `translate ${d}ms ease` : ''; el.style.translate = ''; this.#moved.delete(el); }
    }
    this.#lists.forEach((el, l) => {
      el.toggleAttribute('data-board-refuses', refusing.has(l));
      el.toggleAttribute('data-board-over', !!this.#held && this.#target?.[0] === l && this.#lists.length > 1);
    });
  }

  /** Where each item of `lists` is drawn now, before the DOM changes (for the settle). */
  #firstRects() {
    const rects = new Map();
    for (const el of this.#items) if (el?.isConnected) rects.set(el, el.getBoundingClientRect());
    return rects;
  }

  /** The DOM takes the engine's orders, then every moved element slides from where it was drawn. */
  #applyOrders(before = this.#firstRects()) {
    this.#lists.forEach((list, l) => {
      const n = this.#x.sortable_order(l);
      const b = this.#buffer();
      const order = Array.from(b.subarray(0, n), (i) => this.#items[i]).filter(Boolean);
      const current = this.#itemsOf(l);
      if (order.length === current.length && order.every((el, k) => el === current[k])) return;
      // The items go where the list's first item was, in the engine's order.
      const marker = document.createComment('');
      list.insertBefore(marker, current[0] ?? null);
      for (const el of order) list.insertBefore(el, marker);
      marker.remove();
    });
    // A list whose Tab stop moved out takes its first item as its stop; the stop that moved is
    // no second one in its new list.
    for (const list of this.#lists) {
      const stop = this.#stops.get(list);
      if (stop && stop.parentElement !== list && this.#stops.get(stop.parentElement) !== stop) this.#tabindex(stop, -1);
      if (stop?.parentElement !== list) {
        const first = this.#itemsOf(this.#lists.indexOf(list))[0];
        if (first) this.#makeStop(first); else this.#stops.delete(list);
      }
    }
    const d = this.#duration();
    for (const el of this.#items) {
      if (!el) continue;
      el.style.transition = '';
      el.style.translate = '';
    }
    const moving = [];
    for (const [el, first] of before) {
      const now = el.getBoundingClientRect();
      const dx = first.left - now.left, dy = first.top - now.top;
      if (d && (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5)) { el.style.translate = `${dx}px ${dy}px`; moving.push(el); }
    }
    if (moving.length) {
      document.body.offsetWidth; // the starting point is laid out before the transition
      for (const el of moving) { el.style.transition = `translate ${d}ms ease`; el.style.translate = ''; }
    }
  }

  #settle(ended, held) {
    const [kind, item, , , , , clone] = ended;
    const el = this.#items[item];
    const before = this.#firstRects();
    if (kind === 2 && clone >= 0) {
      // SortableJS's clone: a copy stays in the source list, the original goes.
      const copy = el.cloneNode(true);
      copy.removeAttribute('data-board-held');
      copy.style.translate = copy.style.transition = '';
      this.#items[clone] = copy;
      el.before(copy);
      this.lastClone = copy;
    }
    el.removeAttribute('data-board-held');
    this.container.classList.remove('board-dragging');
    for (const l of this.#lists) { l.removeAttribute('data-board-refuses'); l.removeAttribute('data-board-over'); }
    this.#moved.clear();
    this.#applyOrders(before);
    this.#held = null;
    if (held && !held.byPointer) {
      this.#focus(el);
      this.#say(kind === 4 ? 'cancelled' : 'dropped', el);
    }
    for (const s of this.#items) s?.removeAttribute('data-board-selected');
    this.#x.sortable_select(-1, 0);
  }

  #event([kind, item, from, to, oldIndex, newIndex, clone], ended) {
    const el = this.#items[item];
    const detail = { item: el, itemId: el?.dataset.id, from: this.#lists[from], to: this.#lists[to],
      fromId: from >= 0 ? this.#listId(from) : undefined, toId: to >= 0 ? this.#listId(to) : undefined, oldIndex, newIndex };
    if (kind === 0) this.#emit('start', detail);
    else if (kind === 1) {
      detail.from = this.#lists[this.#held ? this.#lists.indexOf(this.#items[this.#held.i]?.parentElement) : to];
      this.#emit('sort', detail);
      if (this.#held && !this.#held.byPointer) this.#say('position', this.#items[this.#held.i]);
    } else if (kind === 2 || kind === 4) {
      if (clone >= 0) detail.clone = this.#items[clone];
      detail.cancelled = kind === 4;
      this.#emit('end', detail);
    } else if (kind === 3) this.#emit('change', { list: this.#lists[from], listId: this.#listId(from) });
  }

  #emit(name, detail) {
    for (const fn of this.#listeners.get(name) ?? []) {
      try { fn(detail); } catch (e) { console.error(e); }
    }
  }
}
