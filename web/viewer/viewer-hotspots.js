// The viewer's hotspots: one element each in the scene's Tab order (buttons and links, or a
// `<div>` the page styles itself as Pannellum's), placed every frame where the core's
// `viewer_placements` says for the lens in use, hidden behind the viewer (opacity, so they
// stay in the Tab order), dragged and nudged where the config allows it. Where each one
// is, where a scene link leads and each one's name are Swift's; the page's own functions
// (JSON cannot carry them) are kept here by scene and index.

import { el, safeHTML, safeURL } from './viewer-dom.js';
import { SLOT, answerNumbers } from './viewer-frame.js';

/** Pulls the functions out of a config (the core takes none): hotspots' handlers by scene and index. */
export function splitFunctions(config) {
  const functions = new Map(); // "scene\u0000index" → { createTooltipFunc, … }
  const strip = (spots, scene) => (Array.isArray(spots) ? spots.map((h, i) => {
    if (!h || typeof h !== 'object') return h;
    const f = {}, rest = {};
    for (const [k, v] of Object.entries(h)) {
      if (typeof v === 'function' || k === 'createTooltipArgs' || k === 'clickHandlerArgs' || k === 'dragHandlerArgs') f[k] = v;
      else rest[k] = v;
    }
    if (Object.keys(f).length) functions.set(`${scene}\u0000${i}`, f);
    return rest;
  }) : spots);
  const copy = { ...config };
  if (copy.hotSpots) copy.hotSpots = strip(copy.hotSpots, '');
  if (copy.scenes && typeof copy.scenes === 'object') {
    copy.scenes = Object.fromEntries(Object.entries(copy.scenes).map(([id, s]) =>
      [id, s && typeof s === 'object' && s.hotSpots ? { ...s, hotSpots: strip(s.hotSpots, id) } : s]));
  }
  for (const k of Object.keys(copy)) if (typeof copy[k] === 'function') delete copy[k];
  return { plain: copy, functions };
}

/** The hotspot layer of one viewer (`viewer`: its host, a Viewer). */
export class HotSpots {
  constructor(viewer) {
    this.viewer = viewer;
    this.layer = el('div', 'isv-hotspots');
    /** The shown scene's: `{ index, element, div, hotSpot, functions, shown, dragged }`. */
    this.spots = [];
    /** The page's functions: "scene\u0000index" → { createTooltipFunc, clickHandlerFunc, … }. */
    this.functions = new Map();
    /** The listeners of the elements built last: they leave with them (`clear`). */
    this.built = null;
  }

  /** Removes the elements and their listeners (a scene change, a hotspot added or removed, `destroy`). */
  clear() {
    this.built?.abort();
    this.built = null;
    for (const h of this.spots) h.element.remove();
    this.spots = [];
  }

  /** Listens on one of this build's elements (`viewer._on`, until the next build or destroy). */
  on(target, type, fn) { this.viewer._on(target, type, fn, { signal: this.built.signal }); }

  /** Makes the elements of the core's scene `s` (its `order`: the Tab order). */
  build(s) {
    const v = this.viewer;
    // A followed link's hotspot goes with its scene: the focus stays in the viewer, not <body>.
    const hadFocus = this.layer.contains(document.activeElement);
    this.clear();
    this.built = new AbortController();
    for (const index of s.order) {
      const h = s.hotSpots[index];
      const f = this.functions.get(`${s.id}\u0000${index}`) || {};
      const link = h.kind === 'info' && h.url ? safeURL(h.url) : null;
      if (h.kind === 'info' && h.url && !link) {
        // Pannellum would follow it; a `javascript:` link runs script on the page, so it goes,
        // but said: the page's author otherwise sees a hotspot that does nothing.
        console.warn(`ImageStage viewer: hotspot ${h.id ? `"${h.id}"` : `${index} ("${h.name}")`}${s.id ? ` in scene "${s.id}"` : ''}: `
          + `URL ${JSON.stringify(String(h.url).slice(0, 80))} dropped (only http(s), mailto and relative links are followed)`);
      }
      const pnlm = `pnlm-hotspot-base ${h.cssClass ? h.cssClass : `pnlm-hotspot pnlm-sprite pnlm-${h.kind}`}` +
        (link || h.kind === 'scene' ? ' pnlm-pointer' : '');
      // A hotspot the page styles itself (cssClass, createTooltipFunc) is a <div>, as
      // Pannellum's, so the page's Pannellum CSS (`div.custom-tooltip span`) matches it; it
      // still takes Tab and Enter, and has a name. Ours are buttons and links.
      const custom = !!(h.cssClass || f.createTooltipFunc);
      let element, div;
      if (custom) {
        div = el('div', pnlm);
        if (link) {
          element = el('a', 'isv-hotspot isv-hotspot-link', { href: link });
          element.append(div);
        } else {
          element = div;
          div.classList.add('isv-hotspot', 'isv-page-spot');
          div.tabIndex = 0;
          div.setAttribute('role', 'button');
          this.on(div, 'keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); if (!e.repeat) div.click(); }
          });
        }
      } else {
        element = div = link ? el('a', '', { href: link }) : el('button', '', { type: 'button' });
        element.className = `isv-hotspot isv-hotspot-default isv-spot-${h.kind} ${pnlm}`;
      }
      if (link && (s.targetBlank || v._options.fromURL)) {
        element.target = '_blank';
        element.rel = 'noopener noreferrer';
      }
      if (h.id) element.dataset.id = h.id;
      element.dataset.index = index;
      // In the page before its tooltip is made, as Pannellum's: the page's function measures it.
      this.layer.append(element);
      let spotText = '';
      if (f.createTooltipFunc) {
        f.createTooltipFunc(div, f.createTooltipArgs);
      } else if (h.text) {
        if (custom) div.classList.add('pnlm-tooltip');
        const tip = el('span', 'isv-tooltip', { 'aria-hidden': 'true' });
        if (s.escapeHTML) {
          tip.textContent = h.text; // the text as written, tags and all
        } else {
          // HTML, as Pannellum shows it, through the browser's parser and only its safe subset.
          const { fragment, text, dropped } = safeHTML(h.text);
          if (dropped.length) {
            console.warn(`ImageStage viewer: hotspot ${h.id ? `"${h.id}"` : index} text: dropped ${dropped.join(', ')} `
              + '(only b, i, em, strong, br, p, span and a with an http(s) or relative href are shown)');
          }
          tip.append(fragment);
          spotText = text;
        }
        div.append(tip);
      }
      // The name: its text, else what the page's createTooltipFunc wrote, else the core's.
      const written = spotText || (!h.text && f.createTooltipFunc ? div.textContent.trim() : '');
      element.setAttribute('aria-label', written || h.name);
      const spot = { index, element, div, hotSpot: h, functions: f, shown: null };
      this.on(element, 'click', (e) => this.activate(spot, e));
      this.on(element, 'focus', () => { v.w.viewer_reveal(index, 0.6); v._invalidate(); });
      if (h.draggable) {
        this.draggable(spot);
        element.setAttribute('aria-roledescription', 'draggable hotspot');
        element.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight ArrowUp ArrowDown');
      }
      this.spots.push(spot);
    }
    if (hadFocus) v._view.focus({ preventScroll: true });
  }

  /** A click (or Enter): the page's handler, then a scene link is followed. */
  activate(spot, e) {
    const v = this.viewer;
    if (spot.dragged) { spot.dragged = false; e.preventDefault(); return; }
    if (spot.functions.clickHandlerFunc) spot.functions.clickHandlerFunc(e, spot.functions.clickHandlerArgs);
    if (spot.hotSpot.kind === 'scene') {
      const target = v.m.out(v.w.viewer_follow(spot.index));
      if (target) v._changeScene(target);
    }
  }

  /** A draggable hotspot follows the pointer and stays where it is dropped. */
  draggable(spot) {
    const v = this.viewer;
    const e0 = spot.element;
    let drag = null;
    this.on(e0, 'pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      e0.setPointerCapture(e.pointerId);
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
      e.stopPropagation();
      e.preventDefault();
    });
    this.on(e0, 'pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
      drag.moved = true;
      const d = v.mouseEventToCoords(e);
      if (d) {
        v.w.viewer_move_hotspot(spot.index, d[1], d[0]);
        v._placeHotSpots(true);
      }
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (drag.moved) {
        spot.dragged = true;
        const d = v.mouseEventToCoords(e);
        if (d) { spot.hotSpot.pitch = d[0]; spot.hotSpot.yaw = d[1]; }
        if (spot.functions.dragHandlerFunc) spot.functions.dragHandlerFunc(e, spot.functions.dragHandlerArgs);
        v._speak(`${spot.hotSpot.name} moved.`);
      }
      drag = null;
    };
    this.on(e0, 'pointerup', end);
    this.on(e0, 'pointercancel', end);
    // By keyboard: the arrows move it (Shift: five steps), as a drag would.
    this.on(e0, 'keydown', (e) => {
      const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      const d = dirs[e.key];
      if (!d) return;
      e.preventDefault();
      const k = e.shiftKey ? 5 : 1;
      const at = answerNumbers(v.w, v.w.viewer_nudge_hotspot(spot.index, d[0] * k, d[1] * k));
      if (!at) return;
      spot.hotSpot.yaw = at[0];
      spot.hotSpot.pitch = at[1];
      v._placeHotSpots(true);
      if (spot.functions.dragHandlerFunc) spot.functions.dragHandlerFunc(e, spot.functions.dragHandlerArgs);
      v._speak(`${spot.hotSpot.name}: yaw ${Math.round(at[0])}°, pitch ${Math.round(at[1])}°.`);
    });
  }

  /** Moves each element where the core places it for this frame's view (`force`: all of them). */
  place(force = false) {
    const v = this.viewer;
    const count = v.w.viewer_placements(0);
    const n = v._frame.numbers(); // after the call: it may have moved the buffer
    for (const spot of this.spots) {
      const at = SLOT.placements + 2 * spot.index;
      const x = n[at], y = n[at + 1];
      const shown = spot.index < count && !Number.isNaN(x);
      if (shown !== spot.shown || force || shown) {
        spot.element.classList.toggle('isv-hidden', !shown);
        if (shown) spot.element.style.transform = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
        spot.shown = shown;
      }
    }
  }
}
