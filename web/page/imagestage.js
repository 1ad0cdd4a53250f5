// ImageStage's web host: DOM events in, the scene layer's display list out. Every rule
// (dragging, snapping, focus, keys, the panorama camera, motion smoothing) lives in the Swift
// core compiled to imagestage.wasm; this file only translates, paints, stores and loads.
// The test interface (window.imagestage) is documented in docs/web.md.

import { copyPixels, instantiate as instantiateModule, isTrap } from './wasm.js';
import { PanoramaGL } from './panorama-gl.js';
import { POINTER_KINDS, keyCode, modifiers, wheelDelta } from './input.js';
import { asksPermission, listenToOrientation, requestMotionPermission } from './motion.js';
import { keepAside, setEverythingAside, store, storedText } from './storage.js';

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

let wasm;
let bridge;

/**
 * The module to run: `?wasm=` names another build (the benchmark's scalar one), from this
 * page's own origin only. A module is code: one from anywhere else would run with this page's
 * storage, so it is refused, said in the console, and the page's own module runs.
 */
function moduleURL() {
  const own = new URL('imagestage.wasm', location.href);
  const asked = params.get('wasm');
  if (!asked) return own;
  let url = null;
  try { url = new URL(asked, location.href); } catch { /* not an address: refused below */ }
  if (url && url.origin === location.origin && /^https?:$/.test(url.protocol)) return url;
  console.error(`ImageStage: ?wasm=${asked} is refused: a module is loaded only from this page's origin ` +
    `(${location.origin}); ${own.pathname.split('/').pop()} runs instead`);
  return own;
}

async function instantiate() {
  bridge = await instantiateModule(moduleURL());
  wasm = bridge.exports;
  performance.mark('imagestage:wasm');
}

/** The text the last call left in the output buffer. */
const out = (length) => bridge.out(length);

/** Copies bytes (or a string) into wasm memory for one call. */
const withBytes = (data, body) => bridge.withBytes(data, body);

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
  setEverythingAside();
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

function save(kind) {
  const problem = store(kind, out(wasm.web_state(SCENES.indexOf(kind))));
  if (problem) message(`Cannot save ${kind}: ${problem}`);
}

/** Restores both boards; a stored value that does not read is kept aside, with a notice. */
function restore() {
  for (const kind of ['locations', 'shortcuts']) {
    const text = storedText(kind);
    if (text == null) continue;
    const error = withBytes(text, (p, n) => out(wasm.web_restore(SCENES.indexOf(kind), p, n, now())));
    if (!error) continue;
    const aside = keepAside(kind, text);
    message(`The saved ${kind} could not be read (${error}); ` +
      (aside ? `it is kept as ${aside}.` : 'storage is too full to keep it, so it is dropped.'));
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


function point(e) {
  const r = canvas.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

function pointer(phase, e) {
  const [x, y] = point(e);
  handle(wasm.web_pointer(phase, e.pointerId, POINTER_KINDS[e.pointerType] ?? 0, x, y, e.timeStamp / 1000));
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
  const d = wheelDelta(e);
  handle(wasm.web_wheel(d.dx, d.dy, d.precise ? 1 : 0, x, y, now()));
}, { passive: false });

function key(e, down) {
  const code = keyCode(e);
  if (code < 0) return;
  const length = wasm.web_key(code, modifiers(e), down ? 1 : 0, e.repeat ? 1 : 0, now());
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

function onOrientation(alpha, beta, gamma, angle, t) {
  orientationEvents++;
  motionButton.hidden = true;
  motionStatus = 'on';
  wasm.web_orientation(alpha, beta, gamma, angle, t);
  invalidate();
}

function listenToMotion() {
  listenToOrientation((...reading) => { if (running) onOrientation(...reading); });
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
if (asksPermission() && mayHaveSensor) {
  motionButton.hidden = false;
  if (!coarse.matches) motionButton.textContent = 'Use motion (if this device has a sensor)';
  motionButton.addEventListener('click', async () => {
    try {
      const answer = await requestMotionPermission();
      motionStatus = answer;
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
      const next = { src, bitmap, width: bitmap.width, height: bitmap.height, geometry, name, textures: 0 };
      if (renderer.kind === 'webgl2') uploadTiles(next);
      // Shown only once its pixels are in (the copy into wasm memory is asynchronous).
      if (renderer.kind === 'cpu' || params.get('reference') === '1') await cpuPixels(next);
      pano = next;
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

// ---------------------------------------------------------------- view buttons

// Zoom, lens and recentre press their keys in the core (one rule for keys and buttons).
for (const button of document.querySelectorAll('#tools button[data-key]')) {
  listen(button, 'click', () => {
    const code = Number(button.dataset.key);
    for (const down of [1, 0]) {
      const length = wasm.web_key(code, 0, down, 0, now());
      if (length >= 0) handle(length);
    }
    if (button.id === 'lens') speak(`Lens: ${JSON.parse(out(wasm.web_view(1, 1))).lens}.`, 'polite');
  });
}

const fullscreenButton = document.getElementById('fullscreen');
listen(fullscreenButton, 'click', () => {
  const root = document.documentElement;
  if (document.fullscreenElement) document.exitFullscreen();
  else if (root.requestFullscreen) root.requestFullscreen().catch(() => {});
  else speak('This browser cannot fill the screen; add the page to the home screen instead.', 'polite');
});
document.addEventListener('fullscreenchange', () =>
  fullscreenButton.setAttribute('aria-pressed', String(!!document.fullscreenElement)));

/** Hands the pixels to the CPU renderer in wasm: decoded once, copied once into its memory. */
async function cpuPixels(p) {
  const ptr = wasm.web_panorama_buffer(p.width, p.height);
  await copyPixels(p.bitmap, wasm.memory, ptr);
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

// ---------------------------------------------------------------- WebGL2 (panorama-gl.js)

function uploadTiles(p) {
  Object.assign(p, renderer.gl.upload(p.bitmap, p.geometry));
  p.mipmapsPending = true;
}

/** Builds the mip levels the first frame went without. */
function buildMipmaps(p) {
  if (!p.mipmapsPending || pano !== p) return;
  p.mipmapsPending = false;
  renderer.gl.buildMipmaps();
  lastViewKey = '';
  invalidate();
}

function glRender(w, h) {
  renderer.gl.render(JSON.parse(out(wasm.web_gpu_view(w, h, pano.width, pano.height))), w, h);
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

/**
 * A 360° video opens in the viewer component over the page (fetched only then; this page's
 * own renderer shows stills). Close or Escape comes back.
 */
async function openVideo(file) {
  const { Viewer } = await import('./imagestage-viewer.js');
  const box = document.createElement('div');
  box.id = 'video-viewer';
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', file.name);
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close video';
  const url = URL.createObjectURL(file);
  const view = document.createElement('div');
  box.append(view, close);
  document.body.append(box);
  const v = new Viewer(view, { video: url, autoLoad: true, autoplay: true, title: file.name });
  const end = () => {
    v.destroy();
    box.remove();
    URL.revokeObjectURL(url);
    canvas.focus({ preventScroll: true });
  };
  close.addEventListener('click', end);
  box.addEventListener('keydown', (e) => { if (e.key === 'Escape') end(); });
  window.videoViewer = v;
  v.ready.then(() => box.querySelector('.isv-view').focus());
}

async function openFile(file, at = null) {
  if (!file) return;
  if (/^video\//.test(file.type) || /\.(webm|mp4|m4v|mov|mkv)$/i.test(file.name)) return openVideo(file);
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
    bytes = renderer.gl.readPixels(w, h);
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
    try { renderer.gl = PanoramaGL.create(maxTextureParam); } catch (e) { console.error(e); renderer.gl = null; }
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
  /** Resolves once the scene has come to rest and its last frame is painted (a board scene:
   * a drop's animation ended; a panorama that keeps turning never rests). */
  settled() {
    return new Promise((resolve) => {
      const check = () => (!scheduled && !dirty ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
  },
  /** Turns the panorama's camera to `yaw`, `pitch`, `hfov` (degrees; NaN keeps one), as the
   * URL's parameters do: a test draws several views of one loaded image without reloading it. */
  look(yaw, pitch, hfov) {
    wasm.web_set_camera(yaw, pitch, hfov, 0, 0);
    invalidate();
  },
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
  const start = performance.now();
  for (let k = 1; k <= n; k++) {
    wasm.web_set_camera(k, NaN, NaN, 0, 0);
    if (kind === 'cpu') {
      wasm.web_render_cpu(w, h);
    } else {
      glRender(w, h);
      renderer.gl.finish();
    }
  }
  return (performance.now() - start) / 1000;
}

function currentScene() {
  const a = JSON.parse(out(wasm.web_accessibility()));
  return a.tabs.find((t) => t.selected).id;
}

start().catch((e) => fatal(e));
