// ImageStage's embeddable panorama viewer: `viewer(element or id, config)` on any page, with
// Pannellum's JSON config, methods (degrees, chaining) and events. A host like the demo page:
// every rule (reading and checking the config, the camera and its limits, autorotate,
// lookAt, where each hotspot is for the lens in use, where a scene link leads, the Tab order)
// is Swift in imagestage-viewer.wasm (web/viewer/ViewerWeb.swift over Scenes' ViewerTour); the
// JS measures, feeds input in, fetches and decodes images, and paints the view and its DOM
// overlay. This file is the `Viewer` class: the module it takes, the image and the frames,
// composing its parts, each in its own module: viewer-api.js (the methods and events, which
// `Viewer` extends), viewer-controls.js (toolbar, compass, title box), viewer-hotspots.js,
// viewer-tiles.js (multires scenes), viewer-input.js (pointer, wheel, keys, size) and
// viewer-video.js (a video scene's, imported for the first one). Nothing from a config or a
// URL becomes HTML but a hotspot's text, rebuilt from a short safe list (viewer-dom.js's
// safeHTML). docs/viewer.md lists every key, method and event.

import { compile, copyPixels, instantiate, isTrap } from './wasm.js';
import { PanoramaGL, probeWebGL2 } from './panorama-gl.js';
import { STRINGS, el, safeURL, startingView } from './viewer-dom.js';
import { ViewerAPI } from './viewer-api.js';
import { Controls } from './viewer-controls.js';
import { HotSpots, splitFunctions } from './viewer-hotspots.js';
import { feedConfig, feedParameters, parseConfig, readOutcome, readScene } from './viewer-config.js';
import { Tiles } from './viewer-tiles.js';
import { LENSES, SLOT, answerGeometry } from './viewer-frame.js';
import { wireInput, wirePage } from './viewer-input.js';

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
// The most pixels a frame has on the wasm CPU renderer: one thread draws every one, and a
// phone's page at full resolution (980 CSS px wide without a viewport meta tag, 3 device
// pixels each: 18.7 M) drew a frame in 417 ms on bench/web/phone.py's phone (100 ms at 4 M).
// Above it the canvas's backing store has fewer pixels than the screen (a smaller device pixel
// ratio) and CSS scales it up; the GPU draws every pixel.
const CPU_PIXEL_BUDGET = 4e6;

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

/** Decoded images by address, shared by a page's viewers (a tour fetches ahead). */
const imageCache = new Map();

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
    // A failure stays until a load has shown it (`forgetImage`): the request made ahead and
    // the load that takes it are one request, a missing file asked for once, not twice.
    p.catch(() => {});
    imageCache.set(key, p);
    // Bounded: a long tour keeps its last few images, not all of them.
    while (imageCache.size > 6) imageCache.delete(imageCache.keys().next().value);
  }
  return imageCache.get(key);
}

/** Drops a failed image, so that showing its scene again asks again. */
function forgetImage(url) {
  imageCache.delete(new URL(url, location.href).href);
}

/** RGBA copies of decoded images made while the module downloads (the CPU path), by bitmap. */
const staged = new WeakMap();
// Above this, a second full-size copy costs more memory than the time it saves is worth.
const STAGE_LIMIT = 64 << 20;

/** Starts copying `bitmap`'s pixels out (once); resolves with them, or null over the limit or on failure. */
function stagePixels(bitmap) {
  if (!staged.has(bitmap)) {
    const bytes = bitmap.width * bitmap.height * 4;
    staged.set(bitmap, bytes > STAGE_LIMIT ? Promise.resolve(null) : (async () => {
      const buffer = new ArrayBuffer(bytes);
      await copyPixels(bitmap, { buffer }, 0);
      return new Uint8Array(buffer);
    })().catch(() => null));
  }
  return staged.get(bitmap);
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

/** A viewer in a page's element: the module, the image, the frames; the parts composed. */
export class Viewer extends ViewerAPI {
  constructor(container, config = {}, options = {}) {
    super();
    const host = typeof container === 'string' ? document.getElementById(container) : container;
    if (!(host instanceof HTMLElement)) throw new Error(`ImageStage viewer: no element ${typeof container === 'string' ? `with id "${container}"` : 'given'}`);
    ensureStyle();
    this._host = host;
    this._handlers = new Map();
    // The viewer's lifetime: every listener `_on` adds leaves with it at `destroy`.
    this._lifetime = new AbortController();
    this._loaded = false;
    this._destroyed = false;
    this._error = null;
    this._options = options;
    // What the getters answer until the module runs (and for good without WebAssembly).
    this._early = startingView(config, options.parameters || []);
    this._build();
    if (typeof WebAssembly !== 'object' || WebAssembly === null) {
      // No WebAssembly (turned off, Lockdown Mode, a JIT-less browser): said in the view, as
      // Pannellum says it has no WebGL. The page is never sent anywhere else.
      // Nothing can act on the controls: they go, so no button promises what cannot happen.
      this._controls.bar.hidden = true;
      this._controls.compass.hidden = true;
      this._started = Promise.reject(new Error(this._string('noWebAssemblyError')));
      this._started.catch((e) => this._fail(e));
      return;
    }
    const { plain, functions } = typeof config === 'string' ? { plain: config, functions: new Map() } : splitFunctions(config);
    this._configRenderer = config && typeof config === 'object' && typeof config.renderer === 'string' ? config.renderer : undefined;
    this._hotSpots.functions = functions;
    // The image a one-panorama config loads at once: fetched while the module compiles
    // (only a hint: the core decides the address, and a miss costs one request).
    if (config && typeof config === 'object' && !config.scenes && typeof config.panorama === 'string' && config.autoLoad) {
      const base = typeof config.basePath === 'string' && config.basePath && !/^([a-z]+:|\/)/i.test(config.panorama)
        ? config.basePath.replace(/\/?$/, '/') : '';
      prefetchImage(base + config.panorama, config.crossOrigin);
    }
    this._started = this._start(plain, options);
    this._started.catch((e) => this._fail(e));
  }

  // ------------------------------------------------------------ DOM

  _build() {
    const root = el('div', 'isv-viewer pnlm-ui', { role: 'region', 'aria-roledescription': 'panorama viewer' });
    const view = el('div', 'isv-view', { tabindex: '0', role: 'application', 'aria-label': STRINGS.viewLabel });
    const canvas = el('canvas', 'isv-canvas');
    const fade = el('canvas', 'isv-fade', { 'aria-hidden': 'true' });
    view.append(canvas, fade);
    this._controls = new Controls(this);
    this._hotSpots = new HotSpots(this);
    this._tiles = new Tiles(this);
    const { info, compass, bar } = this._controls;
    const load = el('div', 'isv-load', { hidden: '' });
    const loadButton = el('button', 'isv-load-button pnlm-load-button', { type: 'button' });
    const loadTitle = el('div', 'isv-load-title');
    load.append(loadTitle, loadButton);
    const loading = el('div', 'isv-loading pnlm-load-box', { role: 'status', hidden: '' });
    const message = el('div', 'isv-message pnlm-error-msg pnlm-info-box', { role: 'alert', hidden: '' });
    const live = el('div', 'isv-live', { 'aria-live': 'polite', 'aria-atomic': 'true' });
    const hint = el('div', 'isv-hint', { role: 'status', hidden: '' });
    root.append(view, this._hotSpots.layer, info, compass, bar, load, loading, message, hint, live);
    // As Pannellum's, the page's element is the container: positioned (a page's own controls
    // inside it, `position: absolute`, sit on the view) and what goes fullscreen.
    this._host.classList.add('pnlm-container', 'isv-host');
    this._host.append(root);
    Object.assign(this, { _root: root, _view: view, _canvas: canvas, _fadeCanvas: fade, _load: load, _loadButton: loadButton,
      _loadTitle: loadTitle, _loading: loading, _message: message, _live: live, _hintBox: hint });
    this._ctx = canvas.getContext('2d');
  }

  /**
   * Listens for the viewer's lifetime, or for `signal`'s (the hotspots': one build of them),
   * whichever ends first; a trap in `fn` stops the viewer.
   */
  _on(target, type, fn, { signal, ...options } = {}) {
    const wrapped = (e) => {
      if (this._destroyed || !this.m) return;
      try { fn(e); } catch (error) { if (isTrap(error)) this._fail(error); else throw error; }
    };
    target.addEventListener(type, wrapped, { ...options, signal: signal ?? this._lifetime.signal });
  }

  _speak(text) {
    this._live.textContent = '';
    requestAnimationFrame(() => { this._live.textContent = text; });
  }

  _string(name, ...args) {
    const own = this._scene ? this._scene.strings[name] : this._early?.strings[name];
    let s = own ?? STRINGS[name] ?? this._video?.STRINGS[name] ?? name;
    s = String(s).replace(/<br\s*\/?>/gi, '\n');
    // A function, so `$&` or `$'` in a file's name is not read as a replacement pattern.
    for (const a of args) s = s.replace('%s', () => a);
    return s;
  }

  // ------------------------------------------------------------ start

  async _start(config, options) {
    // Which module: from the probe above and the renderer asked for, only a hint here (the
    // page's option, its URL parameter, the config's key); the core's answer below decides,
    // and either module draws on the GPU.
    const hint = options.renderer ?? (options.parameters || []).filter(([n]) => n === 'renderer').map(([, v]) => v).pop()
      ?? this._configRenderer;
    const cpuLikely = hint === 'cpu' || !GL.webgl2 || (GL.software && hint !== 'webgl2');
    this._config = config;
    const module = instantiate(cpuLikely ? WASM_CPU : WASM);
    // The CPU path copies the decoded image into the module's memory: the images asked for
    // so far (the one this viewer prefetched) are copied out while the module downloads.
    if (cpuLikely) for (const image of imageCache.values()) image.then(({ bitmap }) => stagePixels(bitmap), () => {});
    this.m = await module;
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
    // (The probe above saw one already: no context made and dropped, a shader compile saved.)
    const asked = s.renderer || options.renderer;
    if (asked !== 'cpu' && (asked === 'webgl2' || !GL.software)) {
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
    // JSON text (a file's) is read here, once, so its syntax error shows as the core's do.
    if (typeof this._config === 'string') this._config = parseConfig(this._config, options.source || 'config');
    feedConfig(this.m, this._config);
    feedParameters(this.m, options.parameters || []);
    const answer = this.m.withTwo(options.source || 'config', options.folder || '', (sp, sn, fp, fn) =>
      readOutcome(this.w, this.w.viewer_configure(sp, sn, fp, fn)));
    for (const w of answer.warnings) console.warn(`ImageStage viewer: ${w}`);
    if (this._fullscreen) this.w.viewer_set_fullscreen(1);
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
    const n = this._loaded ? this._frame.view(1, 1) : null;
    const view = n && { yaw: n[SLOT.yaw], pitch: n[SLOT.pitch], hfov: n[SLOT.hfov] };
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
    wireInput(this);
    this._controls.wire();
    this._on(this._loadButton, 'click', () => this._loadCurrent());
    wirePage(this);
  }

  _resize() {
    const r = this._root.getBoundingClientRect();
    this._size = { width: Math.max(1, Math.round(r.width)), height: Math.max(1, Math.round(r.height)) };
    const [pw, ph] = this._backingSize();
    if (this._canvas.width !== pw || this._canvas.height !== ph) { this._canvas.width = pw; this._canvas.height = ph; }
    this._root.classList.toggle('isv-narrow', this._size.width < 480);
    this._controls.fold();
    if (this.w) this.w.viewer_layout(this._size.width, this._size.height);
    this._frame?.forget();
    this._invalidate();
  }

  /** Reads the shown scene from the core and lays out its texts, controls and hotspots. */
  _refreshScene() {
    const s = this._scene = readScene(this.w, this.w.viewer_scene());
    this._controls.show(s);
    this._fullscreenToCore();
    const bg = s.backgroundColor;
    this._root.style.backgroundColor = bg ? `rgb(${bg.map((c) => Math.round(c * 255)).join(',')})` : '';
    this._view.setAttribute('aria-label', s.title ? `${s.title}. ${this._string('viewLabel')}` : this._string('viewLabel'));
    this._hotSpots.build(s);
  }

  /** The hotspots and the compass where this frame's view puts them (`force`: every hotspot). */
  _placeHotSpots(force = false) {
    if (!this._loaded) return;
    this._hotSpots.place(force);
    if (this._scene.compass) this._controls.turnCompass(this.getYaw(), this._scene.northOffset);
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
    if (s.tiled) return this._tiles.open(fade, ticket);
    this._tiles.close();
    if (s.video) return this._openVideo(fade, ticket);
    this._controls.showLens(true);
    let image;
    try {
      image = await fetchImage(s.image, s.crossOrigin);
    } catch (e) {
      forgetImage(s.image);
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
      answerGeometry(this.w, this.w.viewer_open(hp, hn, bitmap.width, bitmap.height, np, nn)));
    let geometry = open();
    this.w.viewer_layout(this._size.width, this._size.height);
    this._source = { bitmap, width: bitmap.width, height: bitmap.height, geometry };
    if (this._renderer === 'webgl2') {
      try {
        this._gl.upload(bitmap, geometry);
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
    this._frame.forget();
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
    // A scene's own field of view is no zoom; and once it has come to rest, animatefinished
    // (Pannellum's fires after each load).
    this._zoomReported = undefined;
    this._moving = true;
    this._invalidate();
    if (fade) this._fadeOut();
    if (first && this._scene.orientationOnByDefault && this.isOrientationSupported()) this.startOrientation();
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

  async _cpuPixels(bitmap) {
    const ptr = this.w.web_panorama_buffer(bitmap.width, bitmap.height);
    if (!ptr) throw new Error('no memory for the panorama');
    const w = this.w;
    const early = staged.get(bitmap);
    const pixels = early && await early;
    if (this.w !== w) return; // destroyed meanwhile
    staged.delete(bitmap);
    if (pixels) new Uint8Array(w.memory.buffer, ptr, pixels.length).set(pixels);
    else await copyPixels(bitmap, w.memory, ptr);
    if (this.w !== w) return;
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
      // The frame's numbers, read again after the draw: placing the hotspots may have moved them.
      view = this._loaded && this._draw() ? this._frame.numbers() : null;
    } catch (e) {
      if (isTrap(e)) { this._fail(e); return; }
      throw e;
    }
    if (view) {
      // zoomchange once a zoom has come to rest at a new field of view (a `lookAt`'s glide,
      // a setHfov, a wheel or pinch that stops), as Pannellum's: not on every frame of it.
      const hfov = view[SLOT.hfov];
      const settled = idle || hfov === this._frameHfov;
      if (this._zoomReported === undefined) this._zoomReported = hfov;
      else if (settled && Math.abs(hfov - this._zoomReported) > 1e-9) {
        this._zoomReported = hfov;
        this._fire('zoomchange', hfov);
      }
      this._frameHfov = hfov;
      if (idle && this._moving) this._fire('animatefinished', { pitch: view[SLOT.pitch], yaw: view[SLOT.yaw], hfov });
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

  /**
   * The canvas's backing store, in pixels: its CSS size at the device pixel ratio, but on the
   * CPU renderer within CPU_PIXEL_BUDGET (hotspots and input use CSS pixels: they don't move).
   */
  _backingSize() {
    const { width, height } = this._size;
    const dpr = window.devicePixelRatio || 1;
    if (this.getRenderer() === 'cpu' && width * height * dpr * dpr > CPU_PIXEL_BUDGET) {
      const scale = Math.sqrt(CPU_PIXEL_BUDGET / (width * height));
      return [Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale))];
    }
    return [Math.max(1, Math.round(width * dpr)), Math.max(1, Math.round(height * dpr))];
  }

  _draw() {
    // The renderer is known by now (not at the first _resize): the canvas follows it.
    const [pw, ph] = this._backingSize();
    if (this._canvas.width !== pw || this._canvas.height !== ph) {
      this._canvas.width = pw; // (clears it: drawn again below)
      this._canvas.height = ph;
      this._frame.forget();
    }
    // Numbers in the module's frame buffer (viewer-frame.js): nothing parsed or allocated.
    const frame = this._frame, view = frame.view(pw, ph);
    if (this._tiles.state && this._source && this._source.tiled) return this._tiles.draw(view, pw, ph);
    const gpu = this._source.video ? this._source.gpu : this._renderer === 'webgl2';
    if (frame.keyChanged() || gpu) {
      if (gpu) {
        this._gl.render(frame.gpuView(pw, ph, this._source.width, this._source.height), pw, ph);
        this._ctx.drawImage(this._gl.canvas, 0, 0, this._canvas.width, this._canvas.height);
        if (this._gl.mipmapsPending) setTimeout(() => { if (!this._destroyed && this._gl?.buildMipmaps()) { this._frame.forget(); this._invalidate(); } }, 0);
      } else {
        const ptr = this.w.viewer_render_cpu(pw, ph);
        if (ptr) this._ctx.putImageData(new ImageData(new Uint8ClampedArray(this.w.memory.buffer, ptr, pw * ph * 4), pw, ph), 0, 0);
        if (this._cpuMipsPending) {
          this._cpuMipsPending = false;
          setTimeout(() => { if (!this._destroyed) { this.w.viewer_mip_levels(); this._frame.forget(); this._invalidate(); } }, 0);
        }
      }
      frame.keep();
      this._placeHotSpots();
      this._controls.lensInUse(LENSES[view[SLOT.lens]]);
    }
    return view; // the frame's camera, read once a frame (zoomchange and animatefinished use it)
  }
}

/** Pannellum's global, for a page written for it: `pannellum.viewer(id, config)`. */
export const pannellum = { viewer };
