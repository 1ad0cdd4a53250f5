// ImageStage's embeddable panorama viewer: `viewer(element or id, config)` on any page, with
// Pannellum's JSON config, methods (degrees, chaining) and events. A host like the demo page:
// every rule (reading and checking the config, the camera and its limits, autorotate,
// lookAt, where each hotspot is for the lens in use, where a scene link leads, the Tab order)
// is Swift in imagestage-viewer.wasm (web/viewer/ViewerWeb.swift over Scenes' ViewerTour); this file
// measures, feeds input in, fetches and decodes images, and paints the view and its DOM
// overlay (controls, hotspots, texts). Nothing from a config or a URL is ever parsed as
// HTML. docs/viewer.md lists every key, method and event.

import { compile, copyPixels, instantiate, isTrap } from './wasm.js';
import { PanoramaGL, probeWebGL2 } from './panorama-gl.js';
import { TileGL } from './tiles-gl.js';
import { POINTER_KINDS, keyCode, modifiers, wheelDelta } from './input.js';
import { listenToOrientation, requestMotionPermission } from './motion.js';

/** ImageStage's version (VERSION), e.g. for a bug report. */
export { version } from './version.js';

const WASM = new URL('imagestage-viewer.wasm', import.meta.url);
// The same viewer with the wasm CPU renderer in (about 30 KB more, gzipped): fetched instead
// only where a scene is drawn on the CPU (no WebGL2, a software one, `renderer: 'cpu'`).
const WASM_CPU = new URL('imagestage-viewer-cpu.wasm', import.meta.url);
// Compiling starts as soon as the module is imported, before a page creates its first viewer:
// the lean module where there is a GPU, the CPU renderer's where WebGL2 is missing. A software
// WebGL2 is drawn on the CPU unless the page asks for WebGL2: its viewer decides (viewer.html's
// and the classic script's preloads fetch the CPU one there unless WebGL2 is asked for).
const GL = window.imagestageGL ?? (() => { try { return probeWebGL2(); } catch { return { webgl2: false, software: false }; } })();
if (!GL.software) compile(GL.webgl2 ? WASM : WASM_CPU).catch(() => {});
const now = () => performance.now() / 1000;
const BOUNDS = { yaw: 0, pitch: 1, hfov: 2 };
const ANGLES = { northOffset: 0, horizonPitch: 1, horizonRoll: 2 };
const LENS_NAMES = { rectilinear: 'Normal lens', stereographic: 'Stereographic lens', fisheye: 'Little planet (fisheye)',
  equirectangular: 'Equirectangular lens' };

/** Pannellum's texts (its `strings`), in plain text: `<br>` in a site's own becomes a line break. */
const STRINGS = {
  loadButtonLabel: 'Click to\nLoad\nPanorama',
  loadingLabel: 'Loading…',
  bylineLabel: 'by %s',
  noPanoramaError: 'No panorama image was specified.',
  fileAccessError: 'The file %s could not be accessed.',
  malformedURLError: 'There is something wrong with the panorama URL.',
  genericWebGLError: 'Your browser does not have the necessary WebGL support to display this panorama.',
  textureSizeError: 'This panorama is too big for your device! It\'s %spx wide, but your device only supports images up to %spx wide.',
  unknownError: 'Unknown error. Check developer console.',
  // Ours: the controls' accessible names.
  zoomIn: 'Zoom in', zoomOut: 'Zoom out', fullscreen: 'Fullscreen', exitFullscreen: 'Exit fullscreen',
  motionOn: 'Use motion', motionOff: 'Stop using motion', lens: 'Change lens', recenter: 'Recentre',
  viewLabel: 'Panorama viewer: drag or use the arrows to look around, plus and minus zoom, L changes the lens.',
};

let styleAdded = false;

/** Adds imagestage-viewer.css beside this module unless the page linked it itself. */
function ensureStyle() {
  if (styleAdded) return;
  styleAdded = true;
  const href = new URL('imagestage-viewer.css', import.meta.url).href;
  if ([...document.styleSheets].some((s) => s.href === href) || document.querySelector(`link[href$="imagestage-viewer.css"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  // First in the head: a page's own rules (its Pannellum styles) win over ours at equal weight.
  document.head.prepend(link);
}

/** The controls' pictures: SVG paths on a 24-unit grid, drawn in the button's colour. */
const ICONS = {
  'zoom-in': 'M5 12h14M12 5v14',
  'zoom-out': 'M5 12h14',
  fullscreen: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  motion: 'M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM11 18h2',
  lens: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM3 12h18M12 3c3 3 3 15 0 18',
  recenter: 'M12 4a8 8 0 1 0 8 8M12 2v5M12 17v5M2 12h5M17 12h5M12 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4z',
};

function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/** The compass needle: north red, south white, pointing up before the compass turns. */
function needle() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '-12 -12 24 24');
  svg.setAttribute('class', 'isv-needle');
  for (const [points, fill] of [['0,-10 3.5,0 -3.5,0', '#e33'], ['0,10 3.5,0 -3.5,0', '#fff']]) {
    const half = document.createElementNS(ns, 'polygon');
    half.setAttribute('points', points);
    half.setAttribute('fill', fill);
    svg.append(half);
  }
  return svg;
}

function el(tag, className, attrs = {}) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Only web addresses become links (no `javascript:`), resolved against the page. */
function safeURL(url) {
  try {
    const u = new URL(url, location.href);
    return /^(https?|mailto):$/.test(u.protocol) ? u.href : null;
  } catch { return null; }
}

/** Pulls the functions out of a config (JSON cannot carry them): hotspots' handlers by scene and index. */
function splitFunctions(config) {
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
  return { json: JSON.stringify(copy), functions };
}

/** Decoded images by address, shared by a page's viewers (a tour fetches ahead). */
const imageCache = new Map();

/** A decoded tile's RGBA bytes, read back through a 2D canvas (synchronously). */
function tilePixels(bitmap) {
  const c = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(bitmap, 0, 0);
  return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
}

function fetchImage(url, crossOrigin) {
  const key = new URL(url, location.href).href;
  if (!imageCache.has(key)) {
    const p = (async () => {
      let response;
      // viewer.html (and the classic script) ask for the panorama before any module runs,
      // viewer.html decoding it as it lands: take that request once.
      let early = window.imagestagePrefetch;
      if (early && early.url === key) window.imagestagePrefetch = null;
      else early = null;
      try {
        response = await (early ? early.response
          : fetch(key, { credentials: crossOrigin === 'use-credentials' ? 'include' : 'same-origin' }));
      } catch (e) {
        throw new Error(`${url} could not be fetched (${e.message}: the network, or the server does not allow this page to read it).`);
      }
      if (!response.ok) throw new Error(`${url} could not be loaded: HTTP ${response.status} ${response.statusText}`.trim() + '.');
      const blob = await (early && early.blob ? early.blob : response.blob());
      // The file's start (for its GPano metadata) is read while it decodes.
      const head = blob.slice(0, 1 << 20).arrayBuffer();
      let bitmap;
      try {
        bitmap = await (early && early.bitmap ? early.bitmap : createImageBitmap(blob));
      } catch {
        throw new Error(`${url} is not an image this browser can decode (${blob.type || 'unknown type'}, ${blob.size} bytes).`);
      }
      return { bitmap, head: new Uint8Array(await head) };
    })();
    p.catch(() => imageCache.delete(key));
    imageCache.set(key, p);
    // Bounded: a long tour keeps its last few images, not all of them.
    while (imageCache.size > 6) imageCache.delete(imageCache.keys().next().value);
  }
  return imageCache.get(key);
}

/**
 * Starts fetching and decoding an image a viewer is about to ask for (viewer.html knows its
 * `panorama=` before the module runs): the viewer's own request then finds it under way.
 */
export function prefetchImage(url, crossOrigin) {
  fetchImage(url, crossOrigin).catch(() => {});
}

/** A panorama viewer in `container` (an element or its id), configured like Pannellum's. */
export function viewer(container, config = {}) {
  return new Viewer(container, config);
}

export class Viewer {
  constructor(container, config = {}, options = {}) {
    const host = typeof container === 'string' ? document.getElementById(container) : container;
    if (!(host instanceof HTMLElement)) throw new Error(`ImageStage viewer: no element ${typeof container === 'string' ? `with id "${container}"` : 'given'}`);
    ensureStyle();
    this._host = host;
    this._handlers = new Map();
    this._listeners = [];
    this._loaded = false;
    this._destroyed = false;
    this._error = null;
    this._spots = [];
    this._functions = new Map();
    this._options = options;
    this._build();
    const { json, functions } = typeof config === 'string' ? { json: config, functions: new Map() } : splitFunctions(config);
    this._configRenderer = config && typeof config === 'object' && typeof config.renderer === 'string' ? config.renderer : undefined;
    this._functions = functions;
    // The image a one-panorama config loads at once: fetched while the module compiles
    // (only a hint: the core decides the address, and a miss costs one request).
    if (config && typeof config === 'object' && !config.scenes && typeof config.panorama === 'string' && config.autoLoad) {
      const base = typeof config.basePath === 'string' && config.basePath && !/^([a-z]+:|\/)/i.test(config.panorama)
        ? config.basePath.replace(/\/?$/, '/') : '';
      prefetchImage(base + config.panorama, config.crossOrigin);
    }
    this._started = this._start(json, options);
    this._started.catch((e) => this._fail(e));
  }

  // ------------------------------------------------------------ DOM

  _build() {
    const root = el('div', 'isv-viewer pnlm-ui', { role: 'region', 'aria-roledescription': 'panorama viewer' });
    const view = el('div', 'isv-view', { tabindex: '0', role: 'application', 'aria-label': STRINGS.viewLabel });
    const canvas = el('canvas', 'isv-canvas');
    const fade = el('canvas', 'isv-fade', { 'aria-hidden': 'true' });
    view.append(canvas, fade);
    const spots = el('div', 'isv-hotspots');
    // Pannellum's class names beside ours, so a page's styles for them still apply.
    const info = el('div', 'isv-info pnlm-panorama-info', { hidden: '' });
    const title = el('div', 'isv-title pnlm-title-box');
    const author = el('div', 'isv-author pnlm-author-box');
    info.append(title, author);
    const controls = el('div', 'isv-controls pnlm-controls-container', { role: 'toolbar', 'aria-label': 'Panorama controls' });
    const PNLM = { 'zoom-in': 'pnlm-zoom-in', 'zoom-out': 'pnlm-zoom-out',
      fullscreen: 'pnlm-fullscreen-toggle-button pnlm-fullscreen-toggle-button-inactive', motion: 'pnlm-orientation-button pnlm-orientation-button-inactive' };
    const button = (name, label) => {
      const pnlm = PNLM[name] ? ` ${PNLM[name]} pnlm-controls pnlm-control` : '';
      const b = el('button', `isv-button isv-${name}${pnlm}`, { type: 'button', 'aria-label': label, title: label });
      b.append(icon(name));
      controls.append(b);
      return b;
    };
    this._buttons = {
      zoomIn: button('zoom-in', STRINGS.zoomIn),
      zoomOut: button('zoom-out', STRINGS.zoomOut),
      fullscreen: button('fullscreen', STRINGS.fullscreen),
      motion: button('motion', STRINGS.motionOn),
      lens: button('lens', STRINGS.lens),
      recenter: button('recenter', STRINGS.recenter),
    };
    this._buttons.motion.hidden = true;
    const compass = el('div', 'isv-compass pnlm-compass pnlm-controls pnlm-control', { hidden: '', 'aria-hidden': 'true' });
    compass.append(needle());
    const load = el('div', 'isv-load', { hidden: '' });
    const loadButton = el('button', 'isv-load-button pnlm-load-button', { type: 'button' });
    const loadTitle = el('div', 'isv-load-title');
    load.append(loadTitle, loadButton);
    const loading = el('div', 'isv-loading pnlm-load-box', { role: 'status', hidden: '' });
    const message = el('div', 'isv-message pnlm-error-msg pnlm-info-box', { role: 'alert', hidden: '' });
    const live = el('div', 'isv-live', { 'aria-live': 'polite', 'aria-atomic': 'true' });
    root.append(view, spots, info, compass, controls, load, loading, message, live);
    // As Pannellum's, the page's element is the container: positioned (a page's own controls
    // inside it, `position: absolute`, sit on the view) and what goes fullscreen.
    this._host.classList.add('pnlm-container', 'isv-host');
    this._host.append(root);
    Object.assign(this, { _root: root, _view: view, _canvas: canvas, _fadeCanvas: fade, _spotLayer: spots, _info: info,
      _title: title, _author: author, _controls: controls, _compass: compass, _load: load, _loadButton: loadButton,
      _loadTitle: loadTitle, _loading: loading, _message: message, _live: live });
    this._ctx = canvas.getContext('2d');
  }

  _on(target, type, fn, options) {
    const wrapped = (e) => {
      if (this._destroyed || !this.m) return;
      try { fn(e); } catch (error) { if (isTrap(error)) this._fail(error); else throw error; }
    };
    target.addEventListener(type, wrapped, options);
    this._listeners.push([target, type, wrapped, options]);
  }

  _speak(text) {
    this._live.textContent = '';
    requestAnimationFrame(() => { this._live.textContent = text; });
  }

  _string(name, ...args) {
    let s = (this._scene && this._scene.strings[name]) ?? STRINGS[name] ?? this._video?.STRINGS[name] ?? name;
    s = String(s).replace(/<br\s*\/?>/gi, '\n');
    for (const a of args) s = s.replace('%s', a);
    return s;
  }

  // ------------------------------------------------------------ start

  async _start(json, options) {
    // Which module: from the probe above and the renderer asked for, only a hint here (the
    // page's option, its URL parameter, the config's key); the core's answer below decides,
    // and either module draws on the GPU.
    const hint = options.renderer ?? (options.parameters || []).filter(([n]) => n === 'renderer').map(([, v]) => v).pop()
      ?? this._configRenderer;
    const cpuLikely = hint === 'cpu' || !GL.webgl2 || (GL.software && hint !== 'webgl2');
    this._json = json;
    this.m = await instantiate(cpuLikely ? WASM_CPU : WASM);
    this._hasCPU = cpuLikely;
    performance.mark('imagestage-viewer:wasm');
    if (this._destroyed) { this.m = null; return; }
    this.w = this.m.exports;
    this._configure();
    this._configured = true;
    this._wire();
    this._resize();
    this._refreshScene();
    const s = this._scene;
    this._renderer = 'cpu';
    // A software rasteriser (no GPU) is slower than the wasm CPU renderer: only when asked.
    const asked = s.renderer || options.renderer;
    if (asked !== 'cpu') {
      try { this._gl = PanoramaGL.create(options.maxTexture); } catch (e) { console.error(e); this._gl = null; }
      if (this._gl && (asked === 'webgl2' || !this._gl.software)) this._renderer = 'webgl2';
      else if (this._gl) { this._gl.destroy(); this._gl = null; }
    }
    if (s.autoLoad || options.autoLoad) await this._loadCurrent();
    else this._showLoadButton();
  }

  /** Reads the config and the page's parameters into the module; throws the core's error. */
  _configure() {
    const options = this._options;
    const pairs = JSON.stringify(options.parameters || []);
    const answer = this.m.withTwo(this._json, pairs, (cp, cn, pp, pn) =>
      this.m.withTwo(options.source || 'config', options.folder || '', (sp, sn, fp, fn) =>
        this.m.json(this.w.viewer_configure(cp, cn, pp, pn, sp, sn, fp, fn))));
    for (const w of answer.warnings || []) console.warn(`ImageStage viewer: ${w}`);
    if (answer.error) throw new Error(answer.error);
  }

  /**
   * Makes sure the module in use has the CPU renderer: the first time a scene is drawn on the
   * CPU without it, imagestage-viewer-cpu.wasm takes over, configured from the same config
   * and on the same scene and view (hotspots and scenes added through the API since stay
   * with the old module). Answers whether it switched.
   */
  async _useCPU() {
    if (this._hasCPU) return false;
    this._hasCPU = true;
    const view = this._loaded ? this.m.json(this.w.viewer_view(1, 1)) : null;
    const id = this._scene && this._scene.id;
    const m = await instantiate(WASM_CPU);
    if (this._destroyed) return false;
    this.m = m;
    this.w = m.exports;
    this._configure();
    if (id != null) {
      this.m.withBytes(id, (p, n) => this.w.viewer_load_scene(p, n, view ? view.yaw : NaN, view ? view.pitch : NaN,
        view ? view.hfov : NaN));
    }
    this.w.viewer_layout(this._size.width, this._size.height);
    this._refreshScene();
    return true;
  }

  _wire() {
    const v = this._view;
    this._on(v, 'pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      v.focus({ preventScroll: true });
      v.setPointerCapture(e.pointerId);
      this._pointer(0, e);
      this._fire(e.pointerType === 'touch' ? 'touchstart' : 'mousedown', e);
      e.preventDefault();
    });
    this._on(v, 'pointermove', (e) => {
      const all = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
      for (const c of all.length ? all : [e]) this._pointer(1, c);
    });
    this._on(v, 'pointerup', (e) => {
      this._pointer(2, e);
      this._fire(e.pointerType === 'touch' ? 'touchend' : 'mouseup', e);
    });
    this._on(v, 'pointercancel', (e) => this._pointer(3, e));
    this._on(v, 'dblclick', (e) => {
      if (this._scene.doubleClickZoom === false || !this._loaded) return;
      const d = this.mouseEventToCoords(e);
      if (d) this.lookAt(d[0], d[1], Math.max(this.getHfov() / 2, this.getHfovBounds()[0]), 300);
    });
    // On the whole container, as Pannellum's: the wheel zooms over hotspots and controls too.
    this._on(this._host, 'wheel', (e) => {
      if (!this._loaded) return;
      const zoom = this._scene.mouseZoom;
      if (zoom === 'false' || (zoom === 'ctrl' && !e.ctrlKey)) return;
      const r = v.getBoundingClientRect();
      const d = wheelDelta(e);
      if (this.w.viewer_wheel(d.dx, d.dy, d.precise ? 1 : 0, e.clientX - r.left, e.clientY - r.top, now())) {
        e.preventDefault();
        this._invalidate();
      }
    }, { passive: false });
    const key = (e, down) => {
      const code = keyCode(e);
      if (code < 0 || code === 1) return; // Tab is the page's: it reaches the hotspots and controls
      if (this.w.viewer_key(code, modifiers(e), down ? 1 : 0, e.repeat ? 1 : 0, now())) {
        e.preventDefault();
        this._invalidate();
      }
    };
    this._on(v, 'keydown', (e) => key(e, true));
    this._on(v, 'keyup', (e) => key(e, false));
    this._on(v, 'blur', () => { this.w.viewer_focus_lost(now()); this._invalidate(); });
    const b = this._buttons;
    const press = (button, fn) => this._on(button, 'click', (e) => { fn(e); this._invalidate(); });
    press(b.zoomIn, () => { this.w.viewer_zoom_step(-1); });
    press(b.zoomOut, () => { this.w.viewer_zoom_step(1); });
    press(b.fullscreen, () => this.toggleFullscreen());
    press(b.lens, () => {
      this.w.viewer_cycle_lens();
      this._speak(LENS_NAMES[this.getLens()] || this.getLens());
    });
    press(b.recenter, () => { this.w.viewer_recenter(0.5); this._speak('Back to the starting view.'); });
    press(b.motion, () => (this.isOrientationActive() ? this.stopOrientation() : this.startOrientation()));
    this._on(this._loadButton, 'click', () => this._loadCurrent());
    this._on(document, 'fullscreenchange', () => this._fullscreenChanged());
    this._on(document, 'webkitfullscreenchange', () => this._fullscreenChanged());
    this._resizeObserver = new ResizeObserver(() => { if (!this._destroyed) this._resize(); });
    this._resizeObserver.observe(this._root);
    if (this.isOrientationSupported()) b.motion.hidden = false;
  }

  _pointer(phase, e) {
    if (!this._loaded) return;
    const r = this._view.getBoundingClientRect();
    if (this.w.viewer_pointer(phase, e.pointerId, POINTER_KINDS[e.pointerType] ?? 0, e.clientX - r.left, e.clientY - r.top,
      e.timeStamp / 1000)) this._invalidate();
  }

  _resize() {
    const r = this._root.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this._size = { width: Math.max(1, Math.round(r.width)), height: Math.max(1, Math.round(r.height)) };
    const pw = Math.round(this._size.width * dpr), ph = Math.round(this._size.height * dpr);
    if (this._canvas.width !== pw || this._canvas.height !== ph) { this._canvas.width = pw; this._canvas.height = ph; }
    this._root.classList.toggle('isv-narrow', this._size.width < 480);
    if (this.w) this.w.viewer_layout(this._size.width, this._size.height);
    this._lastKey = '';
    this._invalidate();
  }

  /** Reads the shown scene from the core and lays out its texts, controls and hotspots. */
  _refreshScene() {
    const s = this._scene = this.m.json(this.w.viewer_scene());
    const shown = (flag) => flag !== false;
    this._controls.hidden = !shown(s.showControls);
    this._buttons.zoomIn.hidden = this._buttons.zoomOut.hidden = !shown(s.showZoomCtrl);
    this._showLens = shown(s.showLensCtrl);
    this._buttons.recenter.hidden = !shown(s.showRecenterCtrl);
    const canFullscreen = shown(s.showFullscreenCtrl);
    this._buttons.fullscreen.hidden = !canFullscreen;
    this._title.textContent = s.title || '';
    this._author.replaceChildren();
    if (s.author) {
      const byline = this._string('bylineLabel', '\u0000').split('\u0000');
      const url = s.authorURL && safeURL(s.authorURL);
      let name = document.createTextNode(s.author);
      if (url) {
        name = el('a', '', { href: url, target: '_blank', rel: 'noopener noreferrer' });
        name.textContent = s.author;
      }
      this._author.append(byline[0] || '', name, byline[1] || '');
    }
    this._info.hidden = !s.title && !s.author;
    const bg = s.backgroundColor;
    this._root.style.backgroundColor = bg ? `rgb(${bg.map((c) => Math.round(c * 255)).join(',')})` : '';
    this._compass.hidden = !s.compass;
    this._view.setAttribute('aria-label', s.title ? `${s.title}. ${this._string('viewLabel')}` : this._string('viewLabel'));
    this._buildHotSpots();
  }

  _buildHotSpots() {
    // A followed link's hotspot goes with its scene: the focus stays in the viewer, not <body>.
    const hadFocus = this._spotLayer.contains(document.activeElement);
    for (const h of this._spots) h.element.remove();
    this._spots = [];
    const s = this._scene;
    for (const index of s.order) {
      const h = s.hotSpots[index];
      const f = this._functions.get(`${s.id}\u0000${index}`) || {};
      const link = h.kind === 'info' && h.url ? safeURL(h.url) : null;
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
          div.classList.add('isv-hotspot');
          div.tabIndex = 0;
          div.setAttribute('role', 'button');
          this._on(div, 'keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); if (!e.repeat) div.click(); }
          });
        }
      } else {
        element = div = link ? el('a', '', { href: link }) : el('button', '', { type: 'button' });
        element.className = `isv-hotspot isv-hotspot-default isv-spot-${h.kind} ${pnlm}`;
      }
      if (link && (s.targetBlank || this._options.fromURL)) {
        element.target = '_blank';
        element.rel = 'noopener noreferrer';
      }
      if (h.id) element.dataset.id = h.id;
      element.dataset.index = index;
      // In the page before its tooltip is made, as Pannellum's: the page's function measures it.
      this._spotLayer.append(element);
      if (f.createTooltipFunc) {
        f.createTooltipFunc(div, f.createTooltipArgs);
      } else if (h.text) {
        if (custom) div.classList.add('pnlm-tooltip');
        const tip = el('span', 'isv-tooltip', { 'aria-hidden': 'true' });
        tip.textContent = h.text; // text, never HTML
        div.append(tip);
      }
      // The name: its text, else what the page's createTooltipFunc wrote, else the core's.
      const written = !h.text && f.createTooltipFunc ? div.textContent.trim() : '';
      element.setAttribute('aria-label', written || h.name);
      const spot = { index, element, div, hotSpot: h, functions: f, shown: null };
      this._on(element, 'click', (e) => this._activate(spot, e));
      this._on(element, 'focus', () => { this.w.viewer_reveal(index, 0.6); this._invalidate(); });
      if (h.draggable) {
        this._draggable(spot);
        element.setAttribute('aria-roledescription', 'draggable hotspot');
        element.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight ArrowUp ArrowDown');
      }
      this._spots.push(spot);
    }
    if (hadFocus) this._view.focus({ preventScroll: true });
  }

  _activate(spot, e) {
    if (spot.dragged) { spot.dragged = false; e.preventDefault(); return; }
    if (spot.functions.clickHandlerFunc) spot.functions.clickHandlerFunc(e, spot.functions.clickHandlerArgs);
    if (spot.hotSpot.kind === 'scene') {
      const target = this.m.out(this.w.viewer_follow(spot.index));
      if (target) this._changeScene(target);
    }
  }

  /** A draggable hotspot follows the pointer and stays where it is dropped. */
  _draggable(spot) {
    const e0 = spot.element;
    let drag = null;
    this._on(e0, 'pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      e0.setPointerCapture(e.pointerId);
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
      e.stopPropagation();
      e.preventDefault();
    });
    this._on(e0, 'pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
      drag.moved = true;
      const d = this.mouseEventToCoords(e);
      if (d) {
        this.w.viewer_move_hotspot(spot.index, d[1], d[0]);
        this._placeHotSpots(true);
      }
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (drag.moved) {
        spot.dragged = true;
        const d = this.mouseEventToCoords(e);
        if (d) { spot.hotSpot.pitch = d[0]; spot.hotSpot.yaw = d[1]; }
        if (spot.functions.dragHandlerFunc) spot.functions.dragHandlerFunc(e, spot.functions.dragHandlerArgs);
        this._speak(`${spot.hotSpot.name} moved.`);
      }
      drag = null;
    };
    this._on(e0, 'pointerup', end);
    this._on(e0, 'pointercancel', end);
    // By keyboard: the arrows move it (Shift: five steps), as a drag would.
    this._on(e0, 'keydown', (e) => {
      const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      const d = dirs[e.key];
      if (!d) return;
      e.preventDefault();
      const k = e.shiftKey ? 5 : 1;
      const at = this.m.json(this.w.viewer_nudge_hotspot(spot.index, d[0] * k, d[1] * k));
      if (!at) return;
      spot.hotSpot.yaw = at[0];
      spot.hotSpot.pitch = at[1];
      this._placeHotSpots(true);
      if (spot.functions.dragHandlerFunc) spot.functions.dragHandlerFunc(e, spot.functions.dragHandlerArgs);
      this._speak(`${spot.hotSpot.name}: yaw ${Math.round(at[0])}°, pitch ${Math.round(at[1])}°.`);
    });
  }

  _placeHotSpots(force = false) {
    if (!this._loaded) return;
    const places = this.m.json(this.w.viewer_placements(0));
    for (const spot of this._spots) {
      const p = places[spot.index];
      const shown = !!p;
      if (shown !== spot.shown || force || shown) {
        spot.element.classList.toggle('isv-hidden', !shown);
        if (shown) spot.element.style.transform = `translate(${p[0]}px, ${p[1]}px) translate(-50%, -50%)`;
        spot.shown = shown;
      }
    }
    if (this._scene.compass) {
      const yaw = this.getYaw() + (this._scene.northOffset || 0);
      this._compass.style.transform = `rotate(${-yaw}deg)`;
    }
  }

  // ------------------------------------------------------------ loading

  _showLoadButton() {
    const s = this._scene;
    this._load.hidden = false;
    this._loadButton.textContent = this._string('loadButtonLabel');
    this._loadTitle.textContent = [s.previewTitle || s.title, s.previewAuthor || s.author].filter(Boolean).join(' · ');
    if (s.preview) {
      const url = safeURL(s.preview);
      if (url) this._load.style.backgroundImage = `url("${url.replace(/["\\]/g, '\\$&')}")`;
    }
  }

  async _loadCurrent(fade = false) {
    this._load.hidden = true;
    this._player?.close();
    this._root.classList.remove('isv-has-video');
    const s = this._scene;
    if (s.problem) return this._fail(new Error(s.image === null && !s.problem.includes('supported') ? this._string('noPanoramaError') : s.problem), false);
    this._loading.textContent = this._string('loadingLabel');
    this._loading.hidden = false;
    const ticket = this._ticket = (this._ticket || 0) + 1;
    if (s.tiled) return this._openTiles(fade, ticket);
    this._tileState = null;
    if (s.video) return this._openVideo(fade, ticket);
    this._buttons.lens.hidden = !this._showLens;
    let image;
    try {
      image = await fetchImage(s.image, s.crossOrigin);
    } catch (e) {
      if (ticket === this._ticket) this._fail(e, false);
      return;
    }
    if (ticket !== this._ticket || this._destroyed) return;
    performance.mark('imagestage-viewer:decoded');
    this._loading.hidden = true;
    if (this._error) this._clearError();
    const { bitmap, head } = image;
    const name = decodeURIComponent(String(s.image).split('/').pop().split('?')[0]);
    if (fade) this._snapshot();
    if (this._renderer === 'cpu') await this._useCPU();
    if (this._destroyed || ticket !== this._ticket) return;
    const open = () => this.m.withTwo(head, name, (hp, hn, np, nn) =>
      this.m.json(this.w.viewer_open(hp, hn, bitmap.width, bitmap.height, np, nn)));
    let geometry = open();
    this.w.viewer_layout(this._size.width, this._size.height);
    this._source = { bitmap, width: bitmap.width, height: bitmap.height, geometry };
    if (this._renderer === 'webgl2') {
      try {
        this._tiles = this._gl.upload(bitmap, geometry);
      } catch (e) {
        console.warn(`ImageStage viewer: WebGL2 could not take the image (${e.message}); drawing on the CPU`);
        this._renderer = 'cpu';
        if (await this._useCPU()) {
          if (this._destroyed || ticket !== this._ticket) return;
          this._source.geometry = geometry = open();
          this.w.viewer_layout(this._size.width, this._size.height);
        }
      }
    }
    if (this._renderer === 'cpu') await this._cpuPixels(bitmap);
    if (this._destroyed || ticket !== this._ticket) return;
    performance.mark('imagestage-viewer:pixels');
    this._lastKey = '';
    const first = !this._loaded;
    this._loaded = true;
    this._root.classList.add('isv-loaded');
    this._placeHotSpots(true);
    this._invalidate();
    await new Promise((r) => requestAnimationFrame(r));
    if (this._destroyed) return;
    this._loadDone(fade, first);
    this._prefetch();
  }

  _loadDone(fade, first = !this._loadFired) {
    if (first) {
      this.loadedAt = performance.now(); // milliseconds from navigation (bench/web.sh reads it)
      performance.mark('imagestage-viewer:load');
    }
    this._loadFired = true;
    this._fire('load');
    if (fade) this._fadeOut();
    if (first && this._scene.orientationOnByDefault && this.isOrientationSupported()) this.startOrientation();
  }

  /**
   * Opens a tiled (multires) scene: no image, tiles fetched as the core's plan asks, each
   * drawn as it arrives. `load` fires when the coarsest level is in: from then on every
   * direction shows something.
   */
  async _openTiles(fade, ticket) {
    // The GPU draws tiles unless the CPU renderer was asked for; without WebGL2 the wasm CPU
    // renderer draws them from the same plan.
    const cpu = (this._scene.renderer || this._options.renderer) === 'cpu';
    if (!this._tileGL && !cpu && !this._tileGLFailed) {
      try { this._tileGL = TileGL.create(); } catch (e) {
        this._tileGLFailed = true;
        console.warn(`ImageStage viewer: ${e.message}; drawing the tiles on the CPU`);
      }
    }
    const gpu = !cpu && this._tileGL;
    if (!gpu) await this._useCPU();
    if (this._destroyed || ticket !== this._ticket) return;
    if (fade) this._snapshot();
    if (this._tileGL) this._tileGL.clear();
    const geometry = this.m.json(this.w.viewer_open_tiles(gpu ? 384 : 0));
    this.w.viewer_layout(this._size.width, this._size.height);
    this._source = { tiled: true, width: geometry.croppedWidth, height: geometry.croppedHeight, geometry };
    this._tileState = { ticket, baseSettled: 0, fade, first: !this._loaded, loadFired: false, failures: 0, cpu: !gpu };
    this._buttons.lens.hidden = true; // tiles are drawn through the normal lens
    this._loading.hidden = true;
    if (this._error) this._clearError();
    this._lastKey = '';
    this._loaded = true;
    this._root.classList.add('isv-loaded');
    this._placeHotSpots(true);
    this._invalidate();
  }

  /**
   * Opens a video scene through viewer-video.js (fetched for the first one). Every frame is
   * new, and the GPU path only uploads it: WebGL2 wherever there is one, a software one too.
   */
  async _openVideo(fade, ticket) {
    const asked = this._scene.renderer || this._options.renderer;
    if (!this._gl && asked !== 'cpu' && GL.webgl2) {
      try { this._gl = PanoramaGL.create(this._options.maxTexture); } catch (e) { console.error(e); }
    }
    this._video ??= await import('./viewer-video.js');
    return this._video.openVideo(this, asked !== 'cpu' && !!this._gl, fade, ticket);
  }

  /** Fetches and decodes one tile of the plan; a failure is the core's to retry or give up. */
  async _fetchTile(entry, state) {
    const [level, face, x, y] = entry.id.split('/').map(Number);
    let bitmap;
    try {
      const response = await fetch(new URL(entry.url, location.href).href,
        { credentials: this._scene.crossOrigin === 'use-credentials' ? 'include' : 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      try { bitmap = await createImageBitmap(blob); } catch { throw new Error(`not an image (${blob.type || 'unknown type'}, ${blob.size} bytes)`); }
    } catch (e) {
      if (this._destroyed || state !== this._tileState) return;
      const again = this.w.viewer_tile_failed(level, face, x, y);
      state.failures++;
      if (level === 1 && !again) state.baseSettled++;
      console.warn(`ImageStage viewer: tile ${entry.url} failed (${e.message}); ${again ? 'trying again' : 'showing the coarser level there'}`);
      // A moment before the retry, so a server that is down is not hammered.
      setTimeout(() => this._invalidate(), again ? 300 : 0);
      return;
    }
    if (this._destroyed || state !== this._tileState) { bitmap.close(); return; }
    if (state.cpu) {
      // Decoded and copied in one go (no await), so no other tile takes the buffer meanwhile.
      const rgba = tilePixels(bitmap);
      const ptr = this.w.web_panorama_buffer(bitmap.width, bitmap.height);
      bitmap.close();
      if (!ptr) { this.w.viewer_tile_failed(level, face, x, y); return; }
      new Uint8Array(this.w.memory.buffer, ptr, rgba.length).set(rgba);
      this.w.viewer_tile_pixels(level, face, x, y);
      this._lastKey = '';
    } else {
      this._tileGL.add(entry.id, bitmap);
      this.w.viewer_tile_loaded(level, face, x, y);
    }
    if (level === 1) state.baseSettled++;
    this._invalidate();
  }

  /** The tiles held: count, texture bytes, and the page's JS heap where the browser says. */
  memory() {
    const heap = performance.memory ? performance.memory.usedJSHeapSize : null;
    if (this._tileState && this._tileState.cpu) {
      const held = this.m.json(this.w.viewer_tile_memory());
      return { tiles: held.tiles, textureBytes: 0, tileBytes: held.bytes, wasmBytes: this.w.memory.buffer.byteLength, jsHeapBytes: heap };
    }
    return { tiles: this._tileGL ? this._tileGL.textures.size : 0, textureBytes: this._tileGL ? this._tileGL.textureBytes : 0, jsHeapBytes: heap };
  }

  async _tilesReady(state) {
    state.loadFired = true;
    await new Promise((r) => requestAnimationFrame(r));
    if (this._destroyed || state !== this._tileState) return;
    if (state.first) {
      this.loadedAt = performance.now();
      performance.mark('imagestage-viewer:load');
    }
    this._fire('load');
    if (state.fade) this._fadeOut();
    if (state.first && this._scene.orientationOnByDefault && this.isOrientationSupported()) this.startOrientation();
  }

  async _cpuPixels(bitmap) {
    const ptr = this.w.web_panorama_buffer(bitmap.width, bitmap.height);
    if (!ptr) throw new Error('no memory for the panorama');
    const w = this.w;
    this._pixelPath = await copyPixels(bitmap, w.memory, ptr);
    if (this.w !== w) return; // destroyed meanwhile
    w.viewer_commit();
    this._cpuMipsPending = true;
  }

  /** While this scene is idle, the scenes its links lead to are fetched and decoded ahead. */
  _prefetch() {
    const linked = this._scene.linked.filter((l) => l.image);
    if (!linked.length) return;
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 500));
    idle(() => { if (!this._destroyed) for (const l of linked) fetchImage(l.image, this._scene.crossOrigin).catch(() => {}); });
  }

  _changeScene(id, fadeDone) {
    this._fire('scenechange', id);
    this._refreshScene();
    this._pendingFadeDone = fadeDone;
    this._loadCurrent(true);
  }

  /** The old scene's last frame, laid over the view to fade out once the new one is drawn. */
  _snapshot() {
    const f = this._fadeCanvas;
    f.width = this._canvas.width;
    f.height = this._canvas.height;
    f.getContext('2d').drawImage(this._canvas, 0, 0);
    f.style.transition = 'none';
    f.style.opacity = '1';
    f.hidden = false;
  }

  _fadeOut() {
    const ms = this._scene.sceneFadeDuration || 0;
    const f = this._fadeCanvas;
    const done = () => {
      f.hidden = true;
      this._fire('scenechangefadedone');
      if (this._pendingFadeDone) { const cb = this._pendingFadeDone; this._pendingFadeDone = null; cb(); }
    };
    if (!ms || matchMedia('(prefers-reduced-motion: reduce)').matches) { done(); return; }
    f.getBoundingClientRect(); // the opacity 1 is laid out before it changes
    f.style.transition = `opacity ${ms}ms linear`;
    f.style.opacity = '0';
    clearTimeout(this._fadeTimer);
    this._fadeTimer = setTimeout(done, ms);
  }

  _fail(error, fatal = true) {
    if (this._destroyed) return;
    const text = error && error.message ? error.message : String(error);
    console.error('ImageStage viewer:', error);
    this._loading.hidden = true;
    this._load.hidden = true;
    this._message.textContent = isTrap(error) ? `The viewer stopped: ${text}. Reload the page to start again.` : text;
    this._message.hidden = false;
    this._error = text;
    if (isTrap(error) || fatal) this._stopped = fatal;
    this._fire('error', text);
  }

  _clearError() {
    this._message.hidden = true;
    this._error = null;
    this._fire('errorcleared');
  }

  // ------------------------------------------------------------ frames

  _invalidate() {
    this._dirty = true;
    if (!this._scheduled && !this._destroyed) {
      this._scheduled = true;
      requestAnimationFrame(() => this._tick());
    }
  }

  _tick() {
    this._scheduled = false;
    if (this._destroyed || !this.w || this._stopped) return;
    let idle = true, view = null;
    try {
      const flags = this.w.viewer_advance(now());
      idle = (flags & 1) === 1;
      if (flags & 2) this._arrived();
      view = this._loaded ? this._draw() : null;
    } catch (e) {
      if (isTrap(e)) { this._fail(e); return; }
      throw e;
    }
    if (view) {
      const hfov = view.hfov;
      if (this._lastHfov !== undefined && Math.abs(hfov - this._lastHfov) > 1e-9) this._fire('zoomchange', hfov);
      this._lastHfov = hfov;
      if (idle && this._moving) this._fire('animatefinished', { pitch: view.pitch, yaw: view.yaw, hfov });
      this._moving = !idle;
    }
    this._dirty = false;
    if (!idle) this._invalidate();
  }

  _arrived() {
    const cb = this._lookAtCallback;
    this._lookAtCallback = null;
    if (cb) cb.fn(cb.args);
  }

  _draw() {
    const dpr = window.devicePixelRatio || 1;
    const pw = Math.max(1, Math.round(this._size.width * dpr)), ph = Math.max(1, Math.round(this._size.height * dpr));
    const view = this.m.json(this.w.viewer_view(pw, ph));
    const tiles = this._tileState;
    if (tiles && this._source && this._source.tiled) {
      const plan = this.m.json(this.w.viewer_tile_plan(pw, ph));
      for (const entry of plan.fetch) this._fetchTile(entry, tiles);
      if (tiles.cpu) {
        // The core dropped the evicted tiles' pixels while planning.
        if (view.key !== this._lastKey || plan.level !== tiles.drawnLevel) {
          const ptr = this.w.viewer_render_tiles(pw, ph);
          if (ptr) this._ctx.putImageData(new ImageData(new Uint8ClampedArray(this.w.memory.buffer, ptr, pw * ph * 4), pw, ph), 0, 0);
          tiles.drawnLevel = plan.level;
        }
      } else {
        for (const id of plan.evict) this._tileGL.drop(id);
        this._tileGL.render(plan, pw, ph, this._scene.backgroundColor || [0, 0, 0]);
        this._ctx.drawImage(this._tileGL.canvas, 0, 0, this._canvas.width, this._canvas.height);
      }
      this._lastKey = view.key;
      this._placeHotSpots();
      // The coarsest level in (or given up on): every direction shows what it can.
      if (!tiles.loadFired && tiles.baseSettled >= 6) this._tilesReady(tiles);
      return view;
    }
    const gpu = this._source.video ? this._source.gpu : this._renderer === 'webgl2';
    if (view.key !== this._lastKey || gpu) {
      if (gpu) {
        this._gl.render(this.m.json(this.w.viewer_gpu_view(pw, ph, this._source.width, this._source.height)), pw, ph);
        this._ctx.drawImage(this._gl.canvas, 0, 0, this._canvas.width, this._canvas.height);
        if (this._gl.mipmapsPending) setTimeout(() => { if (!this._destroyed && this._gl?.buildMipmaps()) { this._lastKey = ''; this._invalidate(); } }, 0);
      } else {
        const ptr = this.w.viewer_render_cpu(pw, ph);
        if (ptr) this._ctx.putImageData(new ImageData(new Uint8ClampedArray(this.w.memory.buffer, ptr, pw * ph * 4), pw, ph), 0, 0);
        if (this._cpuMipsPending) {
          this._cpuMipsPending = false;
          setTimeout(() => { if (!this._destroyed) { this.w.viewer_mip_levels(); this._lastKey = ''; this._invalidate(); } }, 0);
        }
      }
      this._lastKey = view.key;
      this._placeHotSpots();
      this._buttons.lens.setAttribute('aria-label', `${this._string('lens')} (now: ${LENS_NAMES[view.lens] || view.lens})`);
    }
    return view; // the frame's camera, read once a frame (zoomchange and animatefinished use it)
  }

  _fire(type, ...args) {
    for (const fn of [...(this._handlers.get(type) || [])]) {
      try { fn(...args); } catch (e) { console.error(e); }
    }
  }

  _ready(fn) {
    if (this.w && this._configured) return fn();
    this._started.then(() => { if (this.w && !this._destroyed) fn(); });
    return undefined;
  }

  // ------------------------------------------------------------ Pannellum's API

  isLoaded() { return this._loaded; }
  getPitch() { return this.w ? this.m.json(this.w.viewer_view(1, 1)).pitch : undefined; }
  getYaw() { return this.w ? this.m.json(this.w.viewer_view(1, 1)).yaw : undefined; }
  getHfov() { return this.w ? this.m.json(this.w.viewer_view(1, 1)).hfov : undefined; }

  setPitch(pitch, animated = 1000, callback, callbackArgs) { return this.lookAt(pitch, undefined, undefined, animated, callback, callbackArgs); }
  setYaw(yaw, animated = 1000, callback, callbackArgs) { return this.lookAt(undefined, yaw, undefined, animated, callback, callbackArgs); }
  setHfov(hfov, animated = 1000, callback, callbackArgs) { return this.lookAt(undefined, undefined, hfov, animated, callback, callbackArgs); }

  /** Pannellum's `lookAt`: degrees (undefined keeps one), `animated` milliseconds (true: 1000, false: at once). */
  lookAt(pitch, yaw, hfov, animated = 1000, callback, callbackArgs) {
    this._ready(() => {
      const ms = animated === true ? 1000 : animated === false || animated == null ? 0 : Number(animated) || 0;
      const n = (x) => (x == null || !Number.isFinite(Number(x)) ? NaN : Number(x));
      this._lookAtCallback = callback ? { fn: callback, args: callbackArgs } : null;
      this.w.viewer_look(n(yaw), n(pitch), n(hfov), ms / 1000);
      this._invalidate();
    });
    return this;
  }

  getPitchBounds() { return this._bounds('pitch'); }
  getYawBounds() { return this._bounds('yaw'); }
  getHfovBounds() { return this._bounds('hfov'); }
  setPitchBounds(b) { return this._setBounds('pitch', b); }
  setYawBounds(b) { return this._setBounds('yaw', b); }
  setHfovBounds(b) { return this._setBounds('hfov', b); }
  _bounds(kind) { return this.w ? this.m.json(this.w.viewer_bounds(BOUNDS[kind])) : undefined; }
  _setBounds(kind, b) {
    this._ready(() => { this.w.viewer_set_bounds(BOUNDS[kind], Number(b[0]), Number(b[1])); this._invalidate(); });
    return this;
  }

  getNorthOffset() { return this._angle('northOffset'); }
  setNorthOffset(d) { return this._setAngle('northOffset', d); }
  getHorizonRoll() { return this._angle('horizonRoll'); }
  setHorizonRoll(d) { return this._setAngle('horizonRoll', d); }
  getHorizonPitch() { return this._angle('horizonPitch'); }
  setHorizonPitch(d) { return this._setAngle('horizonPitch', d); }
  _angle(name) { return this._scene ? this._scene[name] ?? 0 : undefined; }
  _setAngle(name, d) {
    this._ready(() => {
      this.w.viewer_set_angle(ANGLES[name], Number(d));
      this._scene = this.m.json(this.w.viewer_scene());
      this._placeHotSpots(true);
    });
    return this;
  }

  startAutoRotate(speed, pitch) {
    this._ready(() => {
      const s = Number(speed) || this._configSpeed() || 1;
      this.w.viewer_auto_rotate(s, pitch == null ? NaN : Number(pitch));
      this._invalidate();
    });
    return this;
  }
  _configSpeed() { return this.m.json(this.w.viewer_config()).autoRotate; }
  stopAutoRotate() { this._ready(() => this.w.viewer_auto_rotate(NaN, NaN)); return this; }
  stopMovement() { this._ready(() => this.w.viewer_stop_movement()); return this; }

  /** Pannellum's `loadScene(sceneId, pitch, yaw, hfov, fadeDone)`; 'same' keeps an angle. */
  loadScene(sceneId, pitch, yaw, hfov, fadeDone) {
    this._ready(() => {
      const here = this.m.json(this.w.viewer_view(1, 1));
      const v = (x, same) => (x === 'same' ? same : x == null ? NaN : Number(x));
      const ok = this.m.withBytes(String(sceneId), (p, n) =>
        this.w.viewer_load_scene(p, n, v(yaw, here.yaw), v(pitch, here.pitch), v(hfov, here.hfov)));
      if (!ok) { console.warn(`ImageStage viewer: loadScene: no scene "${sceneId}"`); return; }
      this._changeScene(String(sceneId), fadeDone);
    });
    return this;
  }

  getScene() { return this._scene ? this._scene.id : undefined; }

  addScene(sceneId, config) {
    this._ready(() => {
      const { json } = splitFunctions(config || {});
      const error = this.m.withTwo(String(sceneId), json, (ip, il, jp, jl) => this.m.out(this.w.viewer_add_scene(ip, il, jp, jl)));
      if (error) console.error(`ImageStage viewer: ${error}`);
    });
    return this;
  }

  removeScene(sceneId) {
    if (!this.w) return false;
    return this.m.withBytes(String(sceneId), (p, n) => this.w.viewer_remove_scene(p, n)) === 1;
  }

  toggleFullscreen() {
    const root = this._host; // the page's element, with whatever the page put in it
    const active = document.fullscreenElement === root || document.webkitFullscreenElement === root;
    if (active) {
      (document.exitFullscreen || document.webkitExitFullscreen).call(document);
    } else if (root.classList.contains('isv-fill-window')) {
      root.classList.remove('isv-fill-window');
      this._fullscreenChanged();
    } else if (root.requestFullscreen || root.webkitRequestFullscreen) {
      (root.requestFullscreen || root.webkitRequestFullscreen).call(root).catch?.(() => this._fillWindow());
    } else {
      this._fillWindow(); // the iPhone's Safari has no Fullscreen API for elements
    }
    return this;
  }

  _fillWindow() {
    this._host.classList.add('isv-fill-window');
    this._fullscreenChanged();
  }

  _fullscreenChanged() {
    const host = this._host;
    const on = document.fullscreenElement === host || document.webkitFullscreenElement === host ||
      host.classList.contains('isv-fill-window');
    if (on === this._fullscreen) return;
    this._fullscreen = on;
    const b = this._buttons.fullscreen;
    b.setAttribute('aria-label', this._string(on ? 'exitFullscreen' : 'fullscreen'));
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('pnlm-fullscreen-toggle-button-active', on);
    b.classList.toggle('pnlm-fullscreen-toggle-button-inactive', !on);
    this._root.classList.toggle('isv-is-fullscreen', on);
    this._fire('fullscreenchange', on);
    this._resize();
  }

  /** The shown scene's settings as Pannellum's JSON, with its hotspots and the view now. */
  getConfig() {
    if (!this.w) return undefined;
    const c = this.m.json(this.w.viewer_config());
    // As Pannellum's: each shown hotspot's element as `div`, with the page's functions.
    for (const spot of this._spots) {
      const h = c.hotSpots[spot.index];
      if (h) Object.assign(h, spot.functions, { div: spot.div });
    }
    return c;
  }
  getContainer() { return this._host; }

  addHotSpot(hs, sceneId) {
    this._ready(() => {
      const f = {}, rest = {};
      for (const [k, v] of Object.entries(hs || {})) {
        if (typeof v === 'function' || /Args$/.test(k)) f[k] = v; else rest[k] = v;
      }
      const scene = sceneId == null ? this.getScene() : String(sceneId);
      const error = this.m.withTwo(JSON.stringify(rest), sceneId == null ? '' : scene, (jp, jl, sp, sl) =>
        this.m.out(this.w.viewer_add_hotspot(jp, jl, sp, sl)));
      if (error) { console.error(`ImageStage viewer: ${error}`); return; }
      const count = this.m.json(this.w.viewer_config()).hotSpots.length;
      if (Object.keys(f).length) this._functions.set(`${scene}\u0000${scene === this.getScene() ? count - 1 : '?'}`, f);
      if (scene === this.getScene()) { this._refreshScene(); this._placeHotSpots(true); }
    });
    return this;
  }

  removeHotSpot(hotSpotId, sceneId) {
    if (!this.w) return false;
    const removed = this.m.withTwo(String(hotSpotId), sceneId == null ? '' : String(sceneId), (ip, il, sp, sl) =>
      this.w.viewer_remove_hotspot(ip, il, sp, sl)) === 1;
    if (removed) { this._refreshScene(); this._placeHotSpots(true); }
    return removed;
  }

  resize() { if (this.w) this._resize(); return this; }

  isOrientationSupported() {
    return typeof DeviceOrientationEvent !== 'undefined' && navigator.maxTouchPoints > 0;
  }

  startOrientation() {
    if (!this.isOrientationSupported() || this._orientation) return this;
    const listen = () => {
      this._orientation = listenToOrientation((alpha, beta, gamma, angle, t) => {
        if (!this.w) return;
        this.w.viewer_orientation(alpha, beta, gamma, angle, t);
        this._invalidate();
      });
      this._buttons.motion.setAttribute('aria-pressed', 'true');
      this._buttons.motion.classList.replace('pnlm-orientation-button-inactive', 'pnlm-orientation-button-active');
      this._buttons.motion.setAttribute('aria-label', this._string('motionOff'));
    };
    // iOS asks inside a click; a refusal is said, and dragging still works.
    requestMotionPermission().then((answer) => {
      if (answer === 'granted') listen(); else this._speak('Motion access was refused: drag to look around instead.');
    }).catch(() => listen());
    return this;
  }

  stopOrientation() {
    if (this._orientation) this._orientation();
    this._orientation = null;
    this._buttons.motion.setAttribute('aria-pressed', 'false');
    this._buttons.motion.classList.replace('pnlm-orientation-button-active', 'pnlm-orientation-button-inactive');
    this._buttons.motion.setAttribute('aria-label', this._string('motionOn'));
    return this;
  }

  isOrientationActive() { return !!this._orientation; }

  /** `[pitch, yaw]` degrees under a mouse or pointer event. */
  mouseEventToCoords(event) {
    if (!this.w) return null;
    const r = this._view.getBoundingClientRect();
    return this.m.json(this.w.viewer_direction(event.clientX - r.left, event.clientY - r.top));
  }

  on(type, listener) {
    if (!this._handlers.has(type)) this._handlers.set(type, []);
    this._handlers.get(type).push(listener);
    return this;
  }

  off(type, listener) {
    if (type == null) this._handlers.clear();
    else if (listener == null) this._handlers.delete(type);
    else this._handlers.set(type, (this._handlers.get(type) || []).filter((f) => f !== listener));
    return this;
  }

  /** Removes the viewer: its DOM, listeners, WebGL context and wasm memory. */
  destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    this.stopOrientation();
    for (const [t, type, fn, o] of this._listeners) t.removeEventListener(type, fn, o);
    this._listeners = [];
    this._resizeObserver?.disconnect();
    clearTimeout(this._fadeTimer);
    this._player?.close();
    this._gl?.destroy();
    this._gl = null;
    this._tileGL?.destroy();
    this._tileGL = null;
    this._tileState = null;
    this._source = null;
    this._root.remove();
    this._host.classList.remove('pnlm-container', 'isv-host', 'isv-fill-window');
    this._handlers.clear();
    this.m = null;
    this.w = null;
  }

  /** Pannellum's dynamic (video) panoramas are not offered yet: said, not silently ignored. */
  setUpdate() { console.warn('ImageStage viewer: setUpdate: dynamic panoramas are not supported yet'); return this; }
  updateOnce() { console.warn('ImageStage viewer: updateOnce: dynamic panoramas are not supported yet'); return this; }

  // ------------------------------------------------------------ ours

  /** The lens: rectilinear, stereographic, fisheye (the little planet), equirectangular. */
  getLens() { return this.w ? this.m.json(this.w.viewer_view(1, 1)).lens : undefined; }
  setLens(name) {
    this._ready(() => {
      const problem = this.m.withBytes(String(name), (p, n) => this.m.out(this.w.viewer_set_lens(p, n)));
      if (problem) console.error(`ImageStage viewer: setLens: ${problem}`);
      this._invalidate();
    });
    return this;
  }
  /** 'webgl2' or 'cpu' (for a tiled scene: what draws its tiles). */
  getRenderer() {
    if (this._source?.video) return this._source.gpu ? 'webgl2' : 'cpu';
    return this._tileState ? (this._tileState.cpu ? 'cpu' : 'webgl2') : this._renderer;
  }
  /** Back to the scene's starting view, over `animated` milliseconds. */
  recenter(animated = 500) { this._ready(() => { this.w.viewer_recenter(animated / 1000); this._invalidate(); }); return this; }
  /** Keeps the horizon level under motion (ignores the device's roll). */
  setLevelHorizon(on) { this._ready(() => this.w.viewer_level_horizon(on ? 1 : 0)); return this; }
  getLevelHorizon() { return this.w ? this.w.viewer_level_horizon(-1) === 1 : false; }
  // A video scene's (ours: Pannellum plays video through video.js). Before the video is in,
  // play and seek wait for it; the getters answer undefined on a scene without a video.
  /** Plays the video scene (muted until the user turns sound on). */
  play() {
    if (this._player?.video) this._player.play(true); else this._wantPlay = true;
    return this;
  }
  pause() {
    this._wantPlay = false;
    this._player?.pause();
    return this;
  }
  /** Moves the video to `seconds`. */
  seek(seconds) {
    if (this._player?.video) this._player.seek(seconds); else this._wantSeek = Number(seconds);
    return this;
  }
  /** The video's time now and its length, in seconds. */
  getTime() { return this._player?.time; }
  getDuration() { return this._player?.duration; }
  /** Turns the video's sound on (`false`) or off. */
  setMuted(muted) { this._player?.setMuted(muted, true); return this; }
  isMuted() { return this._player?.video ? this._player.video.muted : undefined; }

  /** The error shown in the view, or null. */
  getError() { return this._error; }
  /** Resolves once the module runs and the config is read (rejects with its error). */
  get ready() { return this._started; }
}

/** Pannellum's global, for a page written for it: `pannellum.viewer(id, config)`. */
export const pannellum = { viewer };
