// ImageStage's web host: DOM events in, the scene layer's display list out. Every rule
// (dragging, snapping, focus, keys, the panorama camera, motion smoothing) lives in the Swift
// core compiled to imagestage.wasm; this file only translates, paints, stores and loads.
// The test interface (window.imagestage) is documented in docs/web.md.

const params = new URLSearchParams(location.search);
const canvas = document.getElementById('stage');
const ctx = canvas.getContext('2d');
const SCENES = ['locations', 'shortcuts', 'panorama'];
const events = [];
const now = () => performance.now() / 1000;
let markReady;
let readyAt = null;
const ready = new Promise((resolve) => {
  markReady = () => {
    if (readyAt == null) {
      readyAt = performance.now();
      performance.mark('imagestage:ready');
    }
    resolve();
  };
});

// ---------------------------------------------------------------- wasm

const decoder = new TextDecoder();
const encoder = new TextEncoder();
let wasm;

async function instantiate() {
  const url = params.get('wasm') || 'imagestage.wasm';
  const wasi = {
    // Embedded Swift prints through fd_write only on a fatal error: show it.
    fd_write(fd, iovs, count, written) {
      const view = new DataView(wasm.memory.buffer);
      let text = '', total = 0;
      for (let i = 0; i < count; i++) {
        const ptr = view.getUint32(iovs + i * 8, true), len = view.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, len));
        total += len;
      }
      view.setUint32(written, total, true);
      console.error(text);
      return 0;
    },
    random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(wasm.memory.buffer, ptr, len)); return 0; },
  };
  const imports = { wasi_snapshot_preview1: new Proxy(wasi, { get: (t, k) => t[k] || (() => 0) }) };
  const response = fetch(url);
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(response, imports));
  } catch {
    // A server without the application/wasm type: instantiate from bytes instead.
    ({ instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), imports));
  }
  wasm = instance.exports;
  wasm._initialize();
  performance.mark('imagestage:wasm');
}

/** The text the last call left in the output buffer. */
function out(length) {
  return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.web_out_ptr(), length));
}

/** Copies bytes (or a string) into wasm memory for one call. */
function withBytes(data, body) {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const ptr = wasm.web_alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  try { return body(ptr, bytes.length); } finally { wasm.web_free(ptr); }
}

// ---------------------------------------------------------------- failure

// Set once the module runs (web_start), cleared for good if it traps: listeners then call
// nothing more into a module whose state can no longer be trusted.
let running = false;

/** Adds a listener that runs only while the module does (not while it loads, not after a trap). */
function listen(target, type, fn, options) {
  target.addEventListener(type, (e) => { if (running) fn(e); }, options);
}

/** Moves every stored ImageStage value aside (kept, under a new name) and starts again. */
function setStorageAside() {
  const stamp = Date.now();
  try {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith('imagestage.') || /\.(corrupt|aside)-\d+$/.test(key)) continue;
      localStorage.setItem(`${key}.aside-${stamp}`, localStorage.getItem(key));
      localStorage.removeItem(key);
    }
  } catch { /* storage blocked: reload anyway */ }
  location.reload();
}

/** A trap in the module (or any error that stops start-up) shows what failed, never a blank page. */
function fatal(error) {
  if (document.getElementById('fatal')) return;
  running = false;
  console.error(error);
  const box = document.createElement('div');
  box.id = 'fatal';
  box.setAttribute('role', 'alert');
  const title = document.createElement('strong');
  title.textContent = 'ImageStage stopped.';
  const detail = document.createElement('p');
  const what = error && error.message ? error.message : String(error);
  detail.textContent = isTrap(error)
    ? `Its module failed (${what}). A saved board it cannot read can cause this: setting the saved boards aside ` +
      'keeps them, renamed, and starts afresh.'
    : what;
  const aside = document.createElement('button');
  aside.type = 'button';
  aside.textContent = 'Set saved boards aside and start again';
  aside.addEventListener('click', setStorageAside);
  const again = document.createElement('button');
  again.type = 'button';
  again.textContent = 'Reload';
  again.addEventListener('click', () => location.reload());
  box.append(title, detail, aside, ' ', again);
  document.body.append(box);
  aside.focus();
}

const isTrap = (e) => e instanceof WebAssembly.RuntimeError;
window.addEventListener('error', (e) => { if (isTrap(e.error)) fatal(e.error); });
window.addEventListener('unhandledrejection', (e) => { if (isTrap(e.reason)) fatal(e.reason); });

// ---------------------------------------------------------------- scene events

const live = { polite: document.getElementById('live-polite'), assertive: document.getElementById('live-assertive') };

function speak(text, politeness) {
  const region = live[politeness] || live.polite;
  // The same sentence twice in a row must be heard twice: clear, then set on the next frame.
  region.textContent = '';
  requestAnimationFrame(() => { region.textContent = text; });
}

/** Applies what a call into the scene layer reported. */
function handle(length) {
  const r = JSON.parse(out(length));
  for (const line of r.lines) events.push(line);
  for (const s of r.speak) speak(s.text, s.politeness);
  for (const kind of r.save) save(kind);
  if (r.shown) shown(r.shown);
  if (r.layout) layoutLine();
  // The H key and Escape change these in the core, and say so: look only then, not on
  // every pointer move.
  if (pano && r.speak.length) {
    showLevelHorizon();
    if (!stopButton.hidden) showReplay();
  }
  for (const q of r.requests) if (q === 'screenshot') screenshot();
  invalidate();
  return r;
}

let size = { width: 1, height: 1 };

function layoutLine() {
  events.push(JSON.parse(out(wasm.web_layout_line(size.width, size.height))));
  accessibility();
}

function shown(kind) {
  document.getElementById('tools').classList.toggle('shown', kind === 'panorama');
  document.body.classList.toggle('panorama', kind === 'panorama');
  if (kind === 'panorama') loadPanorama();
  accessibility();
}

function screenshot() {
  const a = document.createElement('a');
  a.download = `imagestage-${new Date().toISOString().replace(/[:.]/g, '-')}.png`;
  a.href = canvas.toDataURL('image/png');
  a.click();
}

// ---------------------------------------------------------------- saving

const storageKey = (kind) => `imagestage.${kind}`;

function save(kind) {
  try {
    localStorage.setItem(storageKey(kind), out(wasm.web_state(SCENES.indexOf(kind))));
  } catch (e) {
    message(`Cannot save ${kind}: ${e.message}`);
  }
}

/** Restores both boards; a stored value that does not read is kept aside, with a notice. */
function restore() {
  for (const kind of ['locations', 'shortcuts']) {
    let text;
    try { text = localStorage.getItem(storageKey(kind)); } catch { return; }
    if (text == null) continue;
    const error = withBytes(text, (p, n) => out(wasm.web_restore(SCENES.indexOf(kind), p, n, now())));
    if (error) {
      const aside = `${storageKey(kind)}.corrupt-${Date.now()}`;
      try {
        localStorage.setItem(aside, text);
        localStorage.removeItem(storageKey(kind));
      } catch { /* storage full or blocked: the value stays where it was */ }
      message(`The saved ${kind} could not be read (${error}); it is kept as ${aside}.`);
    }
  }
}

function message(text) {
  withBytes(text, (p, n) => wasm.web_message(p, n));
  speak(text, 'assertive');
  invalidate();
}

// ---------------------------------------------------------------- accessibility

/** Mirrors the tabs and the board's images and slots as DOM nodes a screen reader reads. */
function accessibility() {
  const a = JSON.parse(out(wasm.web_accessibility()));
  const tabs = document.getElementById('a11y-tabs');
  tabs.replaceChildren(...a.tabs.map((t, i) => {
    const el = document.createElement('button');
    el.type = 'button';
    el.setAttribute('role', 'tab');
    el.setAttribute('aria-selected', String(t.selected));
    el.tabIndex = -1;
    el.textContent = t.name;
    el.addEventListener('click', () => handle(wasm.web_show(i, now())));
    return el;
  }));
  const board = document.getElementById('a11y-board');
  board.replaceChildren(...a.nodes.map((n) => {
    const el = document.createElement('li');
    el.textContent = n.name;
    return el;
  }));
}

// ---------------------------------------------------------------- images

const images = new Map(); // "photo:id" / "icon:id" → something drawImage takes
let icons = [];

function defaultArt() {
  const side = 256;
  const ptr = wasm.web_default_photo(side);
  const pixels = new Uint8ClampedArray(wasm.memory.buffer, ptr, side * side * 4).slice();
  const c = new OffscreenCanvas(side, side);
  c.getContext('2d').putImageData(new ImageData(pixels, side, side), 0, 0);
  images.set('photo:photo', c);
  icons = JSON.parse(out(wasm.web_icons()));
}

function roundRect(x, y, w, h, r) {
  ctx.beginPath();
  if (r > 0) ctx.roundRect(x, y, w, h, Math.min(r, w / 2, h / 2)); else ctx.rect(x, y, w, h);
}

function drawImage(kind, id, x, y, w, h, opacity) {
  ctx.globalAlpha = opacity;
  if (kind === 'icon') {
    const icon = icons.find((i) => i.id === id);
    ctx.fillStyle = icon ? icon.color : '#888';
    roundRect(x, y, w, h, Math.min(w, h) * 0.22);
    ctx.fill();
  } else if (kind === 'panorama') {
    drawPanorama(x, y, w, h);
  } else {
    const image = images.get(`${kind}:${id}`);
    if (image) ctx.drawImage(image, x, y, w, h);
    else { ctx.fillStyle = '#ccd'; ctx.fillRect(x, y, w, h); }
  }
  ctx.globalAlpha = 1;
}

function fitText(text, maxWidth) {
  if (maxWidth == null || ctx.measureText(text).width <= maxWidth) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + '…').width <= maxWidth) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo) + '…';
}

// ---------------------------------------------------------------- painting

let dirty = true;
let scheduled = false;
let framesDrawn = 0;

function invalidate() {
  dirty = true;
  if (!scheduled) { scheduled = true; requestAnimationFrame(tick); }
}

function paint() {
  const list = JSON.parse(out(wasm.web_display_list()));
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.textBaseline = 'top';
  for (const c of list.commands) {
    switch (c[0]) {
      case 'fill':
        ctx.fillStyle = c[5];
        roundRect(c[1], c[2], c[3], c[4], c[6]);
        ctx.fill();
        break;
      case 'outline': {
        const w = c[6];
        ctx.strokeStyle = c[5];
        ctx.lineWidth = w;
        roundRect(c[1] + w / 2, c[2] + w / 2, c[3] - w, c[4] - w, c[7]);
        ctx.stroke();
        break;
      }
      case 'image':
        drawImage(c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        break;
      case 'text':
        ctx.font = `${c[4]}px system-ui, "DejaVu Sans", sans-serif`;
        ctx.fillStyle = c[5];
        ctx.textAlign = c[6];
        ctx.fillText(fitText(c[1], c[7]), c[2], c[3]);
        break;
      case 'shadow': {
        // Only the shadow: the shape itself is drawn far off to the left and its shadow
        // offset back (offsets and blur are in device pixels, untouched by the transform).
        // Filling the shape left an opaque black band below the lifted item.
        const far = 10000;
        ctx.save();
        ctx.shadowColor = `rgba(0,0,0,${c[6]})`;
        ctx.shadowBlur = c[5] * dpr;
        ctx.shadowOffsetX = far * dpr;
        ctx.shadowOffsetY = (c[5] / 3) * dpr;
        ctx.fillStyle = '#000';
        roundRect(c[1] - far, c[2], c[3], c[4], 6);
        ctx.fill();
        ctx.restore();
        break;
      }
      case 'focus':
        ctx.lineWidth = 5;
        ctx.strokeStyle = '#fff';
        ctx.strokeRect(c[1], c[2], c[3], c[4]);
        ctx.lineWidth = 3;
        ctx.strokeStyle = 'rgb(30,110,255)';
        ctx.strokeRect(c[1], c[2], c[3], c[4]);
        break;
    }
  }
  canvas.style.cursor = list.cursor;
  if (document.title !== list.title) document.title = list.title;
}

function tick() {
  scheduled = false;
  if (!running) return;
  const idle = wasm.web_advance(now()) === 1;
  if (dirty || !idle) {
    dirty = false;
    paint();
    framesDrawn++;
    if (framesDrawn === 1 && !params.get('scene')?.startsWith('panorama')) markReady();
  }
  if (!idle) { scheduled = true; requestAnimationFrame(tick); }
}

function resize() {
  const dpr = window.devicePixelRatio || 1;
  size = { width: Math.max(1, Math.round(window.innerWidth)), height: Math.max(1, Math.round(window.innerHeight)) };
  canvas.width = Math.round(size.width * dpr);
  canvas.height = Math.round(size.height * dpr);
  handle(wasm.web_layout(size.width, size.height, now()));
}

// ---------------------------------------------------------------- input

const KINDS = { mouse: 0, touch: 1, pen: 2 };

function point(e) {
  const r = canvas.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

function pointer(phase, e) {
  const [x, y] = point(e);
  handle(wasm.web_pointer(phase, e.pointerId, KINDS[e.pointerType] ?? 0, x, y, e.timeStamp / 1000));
}

listen(canvas, 'pointerdown', (e) => {
  if (e.button !== 0 && e.pointerType === 'mouse') return;
  canvas.focus({ preventScroll: true });
  canvas.setPointerCapture(e.pointerId);
  pointer(0, e);
  e.preventDefault();
});
listen(canvas, 'pointermove', (e) => {
  // Coalesced events keep a fast drag's path (and a flick's speed) exact.
  const all = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const c of all.length ? all : [e]) pointer(1, c);
});
listen(canvas, 'pointerup', (e) => pointer(2, e));
listen(canvas, 'pointercancel', (e) => pointer(3, e));
listen(canvas, 'wheel', (e) => {
  e.preventDefault();
  const [x, y] = point(e);
  // deltaMode 1 is lines (a notched wheel); pixels from a touchpad or a smooth wheel are
  // precise. The DOM's positive deltaY scrolls down; the scene's positive dy scrolls up.
  const lines = e.deltaMode === 1, pages = e.deltaMode === 2;
  const scale = pages ? 3 : 1;
  // Chromium reports a notched wheel as 100 px per notch in pixel mode: treat exact
  // multiples of 100 px with no sideways part as notches.
  const notched = lines || pages || (e.deltaX === 0 && e.deltaY !== 0 && Math.abs(e.deltaY) % 100 === 0);
  const unit = notched && !lines && !pages ? 100 : 1;
  handle(wasm.web_wheel(e.deltaX / unit * scale, -e.deltaY / unit * scale, notched ? 0 : 1, x, y, now()));
}, { passive: false });

const KEYS = {
  Tab: 1, ' ': 2, Enter: 3, Escape: 4, Backspace: 5, Delete: 6,
  ArrowLeft: 7, ArrowRight: 8, ArrowUp: 9, ArrowDown: 10, '+': 11, '-': 12,
};

function keyCode(e) {
  if (e.key in KEYS) return KEYS[e.key];
  const f = /^F(\d{1,2})$/.exec(e.key);
  if (f) return 100 + Number(f[1]);
  if ([...e.key].length === 1) return 1000 + e.key.toLowerCase().codePointAt(0);
  return -1;
}

function key(e, down) {
  const code = keyCode(e);
  if (code < 0) return;
  const mods = (e.shiftKey ? 1 : 0) | (e.ctrlKey || e.metaKey ? 2 : 0) | (e.altKey ? 4 : 0);
  const length = wasm.web_key(code, mods, down ? 1 : 0, e.repeat ? 1 : 0, now());
  if (length >= 0) {
    handle(length);
    e.preventDefault();
  }
}

listen(canvas, 'keydown', (e) => key(e, true));
listen(canvas, 'keyup', (e) => key(e, false));
listen(window, 'blur', () => handle(wasm.web_focus_lost(now())));
// The keyboard focus went to the page (a toolbar button): the canvas draws no ring of its own.
listen(canvas, 'blur', () => { wasm.web_release_focus(); invalidate(); });
// A touch screen first: labels without keys, Undo and Redo buttons (the core lays them out).
const coarse = matchMedia('(pointer: coarse)');
listen(coarse, 'change', () => {
  wasm.web_set_touch_first(coarse.matches ? 1 : 0);
  document.body.classList.toggle('touch', coarse.matches);
  resize();
});
listen(window, 'resize', resize);
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
listen(reducedMotion, 'change', () => wasm.web_set_reduced_motion(reducedMotion.matches ? 1 : 0));

// ---------------------------------------------------------------- motion

const motionButton = document.getElementById('motion');
let orientationEvents = 0;
let motionStatus = 'off';

function screenAngle() {
  return (screen.orientation && screen.orientation.angle) || window.orientation || 0;
}

function onOrientation(e) {
  if (e.alpha == null || e.beta == null || e.gamma == null) return;
  // Skip the first two readings: right after a listener is added, browsers may hand over a
  // cached reading taken before the page listened (Pannellum skips them too). The tracker
  // recentres on its first sample, so a stale one would set the wrong straight-ahead.
  if (++orientationEvents <= 2) return;
  motionButton.hidden = true;
  motionStatus = 'on';
  wasm.web_orientation(e.alpha, e.beta, e.gamma, screenAngle(), e.timeStamp / 1000);
  invalidate();
}

function listenToMotion() {
  window.addEventListener('deviceorientation', onOrientation);
}

// Where a permission is asked for (iOS Safari, and this Chromium too), a button asks it
// inside a click, as iOS requires. Elsewhere readings simply arrive. Chromium has
// requestPermission yet delivers readings without it, so listen at once as well: the button
// goes away with the first reading.
// Offered only where a sensor may answer: a device with a touch screen. A phone or tablet
// (a finger is its main pointer) surely has one; a touch laptop may not, and the button says
// so before the click rather than after. Desktop Chromium has requestPermission too, and no
// sensor behind it.
const mayHaveSensor = navigator.maxTouchPoints > 0;
if (typeof DeviceOrientationEvent !== 'undefined' && typeof DeviceOrientationEvent.requestPermission === 'function' &&
    mayHaveSensor) {
  motionButton.hidden = false;
  if (!coarse.matches) motionButton.textContent = 'Use motion (if this device has a sensor)';
  motionButton.addEventListener('click', async () => {
    try {
      const answer = await DeviceOrientationEvent.requestPermission();
      motionStatus = answer === 'granted' ? 'granted' : 'denied';
      if (answer === 'granted') {
        motionButton.hidden = true;
        speak('Motion on: turn the phone to look around.', 'polite');
        // A desktop grants access yet has no sensor: say so rather than leave the user waiting.
        const before = orientationEvents;
        setTimeout(() => {
          if (orientationEvents === before) message('No motion sensor is sending readings here: drag to look around.');
        }, 1500);
      } else {
        message('Motion access was refused: drag to look around instead.');
      }
    } catch (e) {
      message(`Motion is not available: ${e.message}`);
    }
  });
}
if (typeof DeviceOrientationEvent !== 'undefined') listenToMotion();

// ---------------------------------------------------------------- panorama

let pano = null;       // { bitmap, width, height, geometry, name, textures }
let panoLoading = null;
let lastViewKey = '';
const renderer = { kind: 'cpu', gl: null };
const maxTextureParam = Number(params.get('maxTexture')) || 0;

/** Fetches and decodes an image: the start of its file (for GPano metadata) and a bitmap. */
async function fetchImage(src, file, started = null) {
  const blob = file || await (started || fetch(src)).then((r) => {
    if (!r.ok) throw new Error(`${src}: HTTP ${r.status}`);
    return r.blob();
  });
  const [head, bitmap] = await Promise.all([blob.slice(0, 1 << 20).arrayBuffer(), createImageBitmap(blob)]);
  performance.mark('imagestage:decoded');
  return { head: new Uint8Array(head), bitmap };
}

// A page that opens on the panorama fetches and decodes it while the module compiles.
const defaultSource = params.get('src') || 'sample.jpg';
let prefetched = params.get('scene') === 'panorama' ? fetchImage(defaultSource, null, window.imagestagePrefetch) : null;
prefetched?.catch(() => {});

async function loadPanorama(src = defaultSource, file = null) {
  if (panoLoading) return panoLoading;
  if (pano && !file && pano.src === src) return;
  panoLoading = (async () => {
    try {
      const early = !file && src === defaultSource ? prefetched : null;
      prefetched = null;
      const { head, bitmap } = await (early || fetchImage(src, file));
      const name = file ? file.name : decodeURIComponent(src.split('/').pop().split('?')[0]) || 'panorama';
      const geometry = withBytes(name, (np, nn) =>
        withBytes(head, (hp, hn) => JSON.parse(out(wasm.web_open_panorama(hp, hn, bitmap.width, bitmap.height, np, nn)))));
      pano = { src, bitmap, width: bitmap.width, height: bitmap.height, geometry, name, textures: 0 };
      if (renderer.kind === 'webgl2') uploadTiles(pano);
      if (renderer.kind === 'cpu' || params.get('reference') === '1') cpuPixels(pano);
      if (!file) applyCameraParams();
      lastViewKey = '';
      accessibility();
      invalidate();
    } catch (e) {
      message(`Cannot open the panorama: ${e.message}`);
      markReady();
    } finally {
      panoLoading = null;
    }
  })();
  return panoLoading;
}

function applyCameraParams() {
  const num = (k) => (params.has(k) ? Number(params.get(k)) : NaN);
  const problem = withBytes(params.get('lens') || '', (p, n) =>
    out(wasm.web_set_camera(num('yaw'), num('pitch'), num('hfov'), p, n)));
  if (problem) message(`URL parameter lens: ${problem}`);
  if (params.get('level') === '1') wasm.web_level_horizon(1);
  showLevelHorizon();
}

// ---------------------------------------------------------------- help

const help = document.getElementById('help');
document.getElementById('help-open').addEventListener('click', () => help.showModal());
// Back to the board when the dialog closes, so the keys work at once.
help.addEventListener('close', () => canvas.focus({ preventScroll: true }));

// ---------------------------------------------------------------- replay

const stopButton = document.getElementById('stop-replay');

/** Offers Stop replay while a motion log plays (Escape stops it too, in the core). */
function showReplay() {
  const playing = !!pano && JSON.parse(out(wasm.web_view(1, 1))).source === 'log';
  if (stopButton.hidden === playing) stopButton.hidden = !playing;
}

listen(stopButton, 'click', () => {
  if (wasm.web_stop_replay() === 1) speak('Replay stopped.', 'polite');
  showReplay();
  canvas.focus({ preventScroll: true });
  invalidate();
});

// ---------------------------------------------------------------- level horizon

const levelButton = document.getElementById('level');

/** The button shows the core's state (the H key toggles it as well). */
function showLevelHorizon() {
  levelButton.setAttribute('aria-pressed', String(wasm.web_level_horizon(-1) === 1));
}

listen(levelButton, 'click', () => {
  const on = wasm.web_level_horizon(levelButton.getAttribute('aria-pressed') === 'true' ? 0 : 1) === 1;
  showLevelHorizon();
  speak(on ? "Horizon kept level: the device's roll is ignored." : 'The view rolls with the device again.', 'polite');
  invalidate();
});

/** Hands the pixels to the CPU renderer in wasm: decoded once, copied once into its memory. */
function cpuPixels(p) {
  const c = new OffscreenCanvas(p.width, p.height);
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(p.bitmap, 0, 0);
  const data = g.getImageData(0, 0, p.width, p.height).data;
  const ptr = wasm.web_panorama_buffer(p.width, p.height);
  new Uint8Array(wasm.memory.buffer, ptr, data.length).set(data);
  wasm.web_panorama_commit();
  p.cpuMipLevelsPending = true;
  performance.mark('imagestage:pixels');
}

let cpuCanvas = null;

function drawPanorama(x, y, w, h) {
  if (!pano) {
    ctx.fillStyle = '#000';
    ctx.fillRect(x, y, w, h);
    return;
  }
  const dpr = window.devicePixelRatio || 1;
  const pw = Math.max(1, Math.round(w * dpr)), ph = Math.max(1, Math.round(h * dpr));
  const view = JSON.parse(out(wasm.web_view(pw, ph)));
  const fresh = view.key !== lastViewKey;
  if (renderer.kind === 'webgl2') {
    // Always drawn: a WebGL canvas's buffer is cleared after it is composited.
    glRender(pw, ph);
    ctx.drawImage(renderer.gl.canvas, x, y, w, h);
  } else {
    if (!cpuCanvas || cpuCanvas.width !== pw || cpuCanvas.height !== ph) cpuCanvas = new OffscreenCanvas(pw, ph);
    if (fresh || !cpuCanvas.drawn) {
      const ptr = wasm.web_render_cpu(pw, ph);
      if (ptr) {
        cpuCanvas.getContext('2d').putImageData(
          new ImageData(new Uint8ClampedArray(wasm.memory.buffer, ptr, pw * ph * 4), pw, ph), 0, 0);
        cpuCanvas.drawn = true;
      }
    }
    ctx.drawImage(cpuCanvas, x, y, w, h);
  }
  if (fresh) {
    lastViewKey = view.key;
    events.push(JSON.parse(view.line));
    if (!panoReady) { panoReady = true; markReady(); }
  }
  if (pano.mipmapsPending) setTimeout(() => buildMipmaps(pano), 0);
  if (pano.cpuMipLevelsPending) {
    pano.cpuMipLevelsPending = false;
    setTimeout(() => { wasm.web_panorama_mip_levels(); lastViewKey = ''; invalidate(); }, 0);
  }
}
let panoReady = false;

// ---------------------------------------------------------------- WebGL2

const VERTEX = `#version 300 es
in vec2 corner;
void main() { gl_Position = vec4(corner, 0.0, 1.0); }`;

// Each pixel's direction, the same mapping as the CPU renderer (Panorama/Renderer.swift,
// CameraParameters), then the source position, sampled with mip levels from tiles of a
// texture array (as many as the source needs; each tile carries a border from its
// neighbours, so filtering never shows a seam).
const FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler2DArray;
uniform sampler2DArray tiles;
uniform vec2 viewSize;
uniform int mode;        // 0 perspective, 1 strip
uniform int lens;        // Lens.allCases: rectilinear, stereographic, fisheye, equirectangular
uniform mat3 axes;
uniform float focal, yaw;
uniform vec2 fullSize;
uniform vec4 crop;       // left, top, width, height in full-panorama pixels
uniform vec2 sourceSize;
uniform bool wraps, cylindrical;
uniform vec2 tileSize;
uniform float pad;
uniform vec2 layerSize;
uniform ivec2 grid;      // columns, rows
uniform float stripWidth, stripOffset;
out vec4 color;
const float PI = 3.141592653589793;

void main() {
  vec2 frag = gl_FragCoord.xy;
  float u, v;
  bool outside = false;
  if (mode == 1) {
    float scale = sourceSize.y / viewSize.y;
    u = (frag.x - viewSize.x * 0.5 + stripWidth * 0.5 + stripOffset) * scale;
    v = (viewSize.y - frag.y) * scale;
  } else {
    vec2 p = (frag - viewSize * 0.5) / focal;
    vec3 c = vec3(p, 1.0);
    if (lens == 1) {
      c.z = 1.0 - dot(p, p) / 4.0;
    } else if (lens == 2) {
      float r = length(p);
      outside = r > PI;
      float s = r > 1e-6 ? sin(r) / r : 1.0;
      c = vec3(p * s, cos(r));
    } else if (lens == 3) {
      c = vec3(cos(p.y) * sin(p.x), sin(p.y), cos(p.y) * cos(p.x));
    }
    vec3 d = axes * c;
    float horizontal = length(d.xz);
    float x = (atan(d.x, d.z) + yaw) / (2.0 * PI) * fullSize.x + fullSize.x * 0.5;
    float y = cylindrical
      ? fullSize.y * 0.5 - d.y / max(horizontal, 1e-9) * fullSize.x / (2.0 * PI)
      : (0.5 - atan(d.y, horizontal) / PI) * fullSize.y;
    u = (x - crop.x) * sourceSize.x / crop.z;
    v = (y - crop.y) * sourceSize.y / crop.w;
  }
  float period = mode == 1 ? sourceSize.x : fullSize.x * sourceSize.x / crop.z;
  // Derivatives for the mip level, in uniform control flow, with the wrap's jump removed.
  vec2 dx = vec2(dFdx(u), dFdx(v)), dy = vec2(dFdy(u), dFdy(v));
  if (abs(dx.x) > period * 0.5) dx.x -= sign(dx.x) * period;
  if (abs(dy.x) > period * 0.5) dy.x -= sign(dy.x) * period;
  if (wraps) {
    u = mod(u, period);
  } else if (u < -0.5 || u > sourceSize.x + 0.5) {
    outside = true;
  }
  bool fullSphere = !cylindrical && crop.w >= fullSize.y - 0.5;
  if (!fullSphere && (v < -0.5 || v > sourceSize.y + 0.5)) outside = true;
  u = clamp(u, 0.5, sourceSize.x - 0.5);
  v = clamp(v, 0.5, sourceSize.y - 0.5);
  ivec2 t = min(ivec2(vec2(u, v) / tileSize), grid - 1);
  vec2 local = (vec2(u, v) - vec2(t) * tileSize + pad) / layerSize;
  vec4 texel = textureGrad(tiles, vec3(local, float(t.y * grid.x + t.x)), dx / layerSize, dy / layerSize);
  color = outside ? vec4(0.0, 0.0, 0.0, 1.0) : vec4(texel.rgb, 1.0);
}`;

function setUpWebGL() {
  const c = document.createElement('canvas');
  const gl = c.getContext('webgl2', { alpha: false, antialias: false, preserveDrawingBuffer: true });
  if (!gl) return null;
  const shader = (type, source) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
  gl.useProgram(program);
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  const corner = gl.getAttribLocation(program, 'corner');
  gl.enableVertexAttribArray(corner);
  gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
  const uniforms = {};
  for (let i = 0; i < gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS); i++) {
    const name = gl.getActiveUniform(program, i).name;
    uniforms[name] = gl.getUniformLocation(program, name);
  }
  const limit = Math.min(gl.getParameter(gl.MAX_TEXTURE_SIZE), maxTextureParam || Infinity);
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  const software = /swiftshader|llvmpipe|software/i.test(name);
  return { gl, canvas: c, uniforms, limit, texture: null, software, name };
}

const PAD = 32; // border texels per tile side: mip levels up to 1/32 stay seamless

/** Splits the source into as few tiles as the texture size limit allows, each with a border. */
function uploadTiles(p) {
  const r = renderer.gl, gl = r.gl;
  // Tiles (and so layers, with their 32-texel borders) a multiple of 64 texels: every mip
  // level down to 1/64 is then exactly half the one above and starts on the same lattice in
  // every tile, so neighbouring tiles' levels meet without a seam when zoomed out (odd sizes
  // drift by up to half a texel).
  const fit = Math.floor((r.limit - 2 * PAD) / 64) * 64;
  const grid = [Math.ceil(p.width / fit), Math.ceil(p.height / fit)];
  const tile = [Math.ceil(p.width / grid[0] / 64) * 64, Math.ceil(p.height / grid[1] / 64) * 64];
  const layer = [tile[0] + 2 * PAD, tile[1] + 2 * PAD];
  const levels = Math.floor(Math.log2(Math.max(layer[0], layer[1]))) + 1;
  if (r.texture) gl.deleteTexture(r.texture);
  r.texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, r.texture);
  gl.texStorage3D(gl.TEXTURE_2D_ARRAY, levels, gl.RGBA8, layer[0], layer[1], grid[0] * grid[1]);
  const scratch = new OffscreenCanvas(layer[0], layer[1]);
  const g = scratch.getContext('2d');
  const wraps = p.geometry.wraps;
  for (let ty = 0; ty < grid[1]; ty++) {
    for (let tx = 0; tx < grid[0]; tx++) {
      const ox = tx * tile[0] - PAD, oy = ty * tile[1] - PAD;
      g.clearRect(0, 0, layer[0], layer[1]);
      for (const shift of wraps ? [-p.width, 0, p.width] : [0]) g.drawImage(p.bitmap, shift - ox, -oy);
      // Above the first row and below the last, the edge row repeats (what clamping reads).
      if (oy < 0) g.drawImage(p.bitmap, 0, 0, p.width, 1, -ox, 0, p.width, -oy);
      const below = p.height - oy;
      if (below < layer[1]) g.drawImage(p.bitmap, 0, p.height - 1, p.width, 1, -ox, below, p.width, layer[1] - below);
      gl.texSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, ty * grid[0] + tx, layer[0], layer[1], 1, gl.RGBA, gl.UNSIGNED_BYTE, scratch);
    }
  }
  // The first frame samples the full-size level only; the mip levels follow a frame later,
  // so the picture shows as soon as the pixels are up (building them costs as much again).
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAX_LEVEL, 0);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  p.mipmapsPending = true;
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  Object.assign(p, { grid, tile, layer, textures: grid[0] * grid[1] });
}

/** Builds the mip levels the first frame went without. */
function buildMipmaps(p) {
  const gl = renderer.gl.gl;
  if (!p.mipmapsPending || pano !== p) return;
  p.mipmapsPending = false;
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, renderer.gl.texture);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAX_LEVEL, 1000);
  gl.generateMipmap(gl.TEXTURE_2D_ARRAY);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
  lastViewKey = '';
  invalidate();
}

function glRender(w, h) {
  const r = renderer.gl, gl = r.gl, u = r.uniforms, p = pano, g = p.geometry;
  if (r.canvas.width !== w || r.canvas.height !== h) { r.canvas.width = w; r.canvas.height = h; }
  const v = JSON.parse(out(wasm.web_gpu_view(w, h, p.width, p.height)));
  gl.viewport(0, 0, w, h);
  gl.uniform2f(u.viewSize, w, h);
  gl.uniform1i(u.mode, v.mode === 'strip' ? 1 : 0);
  gl.uniform1i(u.lens, v.lensIndex);
  gl.uniformMatrix3fv(u.axes, false, v.matrix);
  gl.uniform1f(u.focal, v.focal);
  gl.uniform1f(u.yaw, v.turn);
  gl.uniform2f(u.fullSize, g.fullWidth, g.fullHeight);
  gl.uniform4f(u.crop, g.croppedLeft, g.croppedTop, g.croppedWidth, g.croppedHeight);
  gl.uniform2f(u.sourceSize, p.width, p.height);
  gl.uniform1i(u.wraps, g.wraps ? 1 : 0);
  gl.uniform1i(u.cylindrical, g.projection === 'cylindrical' ? 1 : 0);
  gl.uniform2f(u.tileSize, p.tile[0], p.tile[1]);
  gl.uniform1f(u.pad, PAD);
  gl.uniform2f(u.layerSize, p.layer[0], p.layer[1]);
  gl.uniform2i(u.grid, p.grid[0], p.grid[1]);
  gl.uniform1f(u.stripWidth, v.stripWidth);
  gl.uniform1f(u.stripOffset, v.stripOffset);
  gl.uniform1i(u.tiles, 0);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
}

// ---------------------------------------------------------------- files

let photoCount = 0;

/** A photo dropped on Locations joins the board, as in the app: a 256-px square thumbnail. */
async function addPhoto(file, at = null) {
  const bitmap = await createImageBitmap(file);
  const side = 256, crop = Math.min(bitmap.width, bitmap.height);
  const thumb = new OffscreenCanvas(side, side);
  thumb.getContext('2d').drawImage(bitmap, (bitmap.width - crop) / 2, (bitmap.height - crop) / 2, crop, crop, 0, 0, side, side);
  const id = `dropped-${++photoCount}`;
  images.set(`photo:${id}`, thumb);
  // Named as the file is (photo.jpg beside the board's own Photo), put where it was dropped.
  const [x, y] = at || [NaN, NaN];
  withBytes(id, (ip, il) => withBytes(file.name, (np, nl) => handle(wasm.web_add_photo(ip, il, np, nl, x, y, now()))));
}

async function openFile(file, at = null) {
  if (!file) return;
  const image = /^image\/(jpeg|png)$/.test(file.type) || /\.(jpe?g|png)$/i.test(file.name);
  if (image && currentScene() === 'locations') {
    try { await addPhoto(file, at); } catch (e) { message(`${file.name}: ${e.message}`); }
    return;
  }
  if (image) {
    if (!pano) handle(wasm.web_show(2, now()));
    await loadPanorama(file.name, file);
  } else {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!pano) { handle(wasm.web_show(2, now())); await loadPanorama(); }
    const error = withBytes(bytes, (p, n) => out(wasm.web_play_log(p, n)));
    if (error) message(`${file.name}: ${error}`);
    else speak(`Replaying ${file.name}. Escape or Stop replay ends it.`, 'polite');
    showReplay();
    invalidate();
  }
}

document.getElementById('open-image').addEventListener('change', (e) => openFile(e.target.files[0]));
document.getElementById('open-log').addEventListener('change', (e) => openFile(e.target.files[0]));
const dropHint = document.getElementById('drop');
window.addEventListener('dragover', (e) => { e.preventDefault(); dropHint.classList.add('shown'); });
window.addEventListener('dragleave', () => dropHint.classList.remove('shown'));
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dropHint.classList.remove('shown');
  let first = true;
  for (const file of e.dataTransfer.files) {
    openFile(file, first ? point(e) : null);
    first = false;
  }
});

// ---------------------------------------------------------------- start

/** Renders the current view with `kind` ('webgl2' or 'cpu') at w×h; RGBA bytes as base64. */
function framePixels(kind, w, h) {
  let bytes;
  if (kind !== 'cpu') buildMipmaps(pano);
  if (kind === 'cpu') {
    const ptr = wasm.web_render_cpu(w, h);
    if (!ptr) throw new Error('the CPU renderer has no pixels (add &reference=1)');
    bytes = new Uint8Array(wasm.memory.buffer, ptr, w * h * 4).slice();
  } else {
    glRender(w, h);
    const gl = renderer.gl.gl;
    bytes = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, bytes);
    // GL rows run bottom up.
    const row = w * 4, flipped = new Uint8Array(bytes.length);
    for (let y = 0; y < h; y++) flipped.set(bytes.subarray((h - 1 - y) * row, (h - y) * row), y * row);
    bytes = flipped;
  }
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function start() {
  try {
    await instantiate();
  } catch (e) {
    fatal(new Error(`ImageStage could not start: ${e.message}`));
    throw e;
  }
  const scene = Math.max(0, SCENES.indexOf(params.get('scene') || 'locations'));
  if (params.has('scene') && !SCENES.includes(params.get('scene'))) console.warn(`unknown scene ${params.get('scene')}`);
  wasm.web_start(scene, reducedMotion.matches ? 1 : 0);
  wasm.web_set_touch_first(coarse.matches ? 1 : 0);
  wasm.web_set_tab_bar_inset(document.getElementById('help-open').offsetWidth);
  running = true;
  document.getElementById('keys').textContent = out(wasm.web_help());
  document.getElementById('help-keys').textContent = document.getElementById('keys').textContent;
  document.body.classList.toggle('touch', coarse.matches);
  const wanted = params.get('renderer');
  if (wanted !== 'cpu') {
    try { renderer.gl = setUpWebGL(); } catch (e) { console.error(e); renderer.gl = null; }
    // A software rasteriser (SwiftShader, llvmpipe: a machine without a GPU) draws a
    // 1280×720 view in about 80 ms here, the wasm CPU renderer in 3: unless asked for
    // WebGL2, take the CPU there.
    if (renderer.gl && (wanted === 'webgl2' || !renderer.gl.software)) renderer.kind = 'webgl2';
  }
  defaultArt();
  restore();
  resize();
  if (scene === 2) shown('panorama');
  canvas.focus({ preventScroll: true });
  invalidate();
}

window.imagestage = {
  ready,
  events,
  state(kind) {
    const k = kind || (SCENES.indexOf(currentScene()) < 2 ? currentScene() : 'locations');
    return JSON.parse(out(wasm.web_state(SCENES.indexOf(k))));
  },
  view() {
    if (!pano) return null;
    const v = JSON.parse(out(wasm.web_view(1, 1)));
    return {
      yaw: v.yaw, pitch: v.pitch, roll: v.roll, hfov: v.hfov, lens: v.lens, mode: v.mode,
      renderer: renderer.kind, textures: renderer.kind === 'webgl2' ? pano.textures : 0, source: v.source,
      tiles: pano.grid ? { grid: pano.grid, tile: pano.tile, layer: pano.layer } : null,
      coverage: pano.geometry.coverage, motion: motionStatus,
    };
  },
  framePixels,
  /** The scene layer's display list as drawn last: `{commands, cursor, title}` (tests read texts and rects). */
  displayList: () => JSON.parse(out(wasm.web_display_list())),
  /** Milliseconds from navigation to the first frame (`ready`), or null before it. */
  get readyAt() { return readyAt; },
  /** Milliseconds from navigation to each start-up step (bench/web.sh prints them). */
  timings: () => Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('imagestage:')).map((m) => [m.name.slice(11), m.startTime])),
  version: () => out(wasm.web_version()),
  bench: { timeFrames },
};

/** For bench/web.sh: seconds to draw `n` panorama frames at w×h with `kind`, yaw 1° further
 * each; the GPU is waited for after each frame (a one-pixel read), as a display would. */
function timeFrames(kind, n, w, h) {
  const probe = new Uint8Array(4);
  const start = performance.now();
  for (let k = 1; k <= n; k++) {
    wasm.web_set_camera(k, NaN, NaN, 0, 0);
    if (kind === 'cpu') {
      wasm.web_render_cpu(w, h);
    } else {
      glRender(w, h);
      renderer.gl.gl.readPixels(0, 0, 1, 1, renderer.gl.gl.RGBA, renderer.gl.gl.UNSIGNED_BYTE, probe);
    }
  }
  return (performance.now() - start) / 1000;
}

function currentScene() {
  const a = JSON.parse(out(wasm.web_accessibility()));
  return a.tabs.find((t) => t.selected).id;
}

start().catch((e) => fatal(e));
