// The viewer's API surface: Pannellum's methods (degrees, `animated` milliseconds, chaining)
// and events, and ours (lens, renderer, recentre, level horizon, video, memory), as
// docs/viewer.md and imagestage-viewer.d.ts list them. `Viewer` (imagestage-viewer.js)
// extends this class with what runs them: the wasm module (`m`, `w`), the scene the core
// shows (`_scene`), `_ready(fn)`, `_invalidate()` and the parts (`_controls`, `_hotSpots`,
// `_tiles`). Each method only converts and forwards: the rule is the core's
// (web/viewer/ViewerWeb.swift over Scenes' ViewerTour).

import { splitFunctions } from './viewer-hotspots.js';
import { feedConfig, readConfig, readOutcome, readScene } from './viewer-config.js';
import { FrameNumbers, LENSES, SLOT, answerNumbers } from './viewer-frame.js';
import { listenToOrientation, requestMotionPermission } from './motion.js';

const BOUNDS = { yaw: 0, pitch: 1, hfov: 2 };

/** A number a method takes: a finite number, or a string of one (Pannellum's pages pass both). */
const numeric = (x) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Number.isFinite(Number(x));

/**
 * Whether every argument given is a number the view can take: one that isn't (NaN, Infinity,
 * `'wide'`) refuses the whole call, said in the console naming `method`, the view unchanged.
 * `optional` arguments may be absent (null or undefined: that angle is kept).
 */
function finite(method, required, optional = []) {
  const bad = [...required.filter((x) => !numeric(x)), ...optional.filter((x) => x != null && !numeric(x))];
  if (!bad.length) return true;
  console.warn(`ImageStage viewer: ${method}: ${bad.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(', ')}`
    + ' is not a finite number; the call is ignored');
  return false;
}

/** `animated` as Pannellum takes it: milliseconds, true (1000), false or absent (at once). */
const animation = (a) => (typeof a === 'boolean' || a == null ? [] : [a]);
const ANGLES = { northOffset: 0, horizonPitch: 1, horizonRoll: 2 };

export class ViewerAPI {
  // ------------------------------------------------------------ events

  /** Calls the page's listeners for `type` (one that throws is logged, the rest still run). */
  _fire(type, ...args) {
    for (const fn of [...(this._handlers.get(type) || [])]) {
      try { fn(...args); } catch (e) { console.error(e); }
    }
  }

  /** Runs `fn` now when the module runs and the config is read, else once it is. */
  _ready(fn) {
    if (this.w && this._configured) return fn();
    // A viewer that could not start shows why in its view: the call is dropped, not rejected
    // a second time as an uncaught promise.
    this._started.then(() => { if (this.w && !this._destroyed) fn(); }, () => {});
    return undefined;
  }

  // ------------------------------------------------------------ Pannellum's methods

  isLoaded() { return this._loaded; }
  // Until the module runs (for good where the browser has no WebAssembly), the getters answer
  // the config's starting values, as Pannellum's do before its panorama loads.
  getPitch() { return this.w ? this._frame.pitch() : this._early?.pitch; }
  getYaw() { return this.w ? this._frame.yaw() : this._early?.yaw; }
  getHfov() { return this.w ? this._frame.hfov() : this._early?.hfov; }

  /** The module's frame buffer (viewer-frame.js), for the instance in use; null before it runs. */
  get _frame() {
    if (!this.w) return null;
    if (this._frameOf !== this.w) { this._frameOf = this.w; this._frameNumbers = new FrameNumbers(this.w); }
    return this._frameNumbers;
  }

  setPitch(pitch, animated = 1000, callback, callbackArgs) {
    if (!finite('setPitch', [pitch], animation(animated))) return this;
    return this.lookAt(pitch, undefined, undefined, animated, callback, callbackArgs);
  }
  setYaw(yaw, animated = 1000, callback, callbackArgs) {
    if (!finite('setYaw', [yaw], animation(animated))) return this;
    return this.lookAt(undefined, yaw, undefined, animated, callback, callbackArgs);
  }
  setHfov(hfov, animated = 1000, callback, callbackArgs) {
    if (!finite('setHfov', [hfov], animation(animated))) return this;
    return this.lookAt(undefined, undefined, hfov, animated, callback, callbackArgs);
  }

  /** Pannellum's `lookAt`: degrees (undefined keeps one), `animated` milliseconds (true: 1000, false: at once). */
  lookAt(pitch, yaw, hfov, animated = 1000, callback, callbackArgs) {
    if (!finite('lookAt', [], [pitch, yaw, hfov, ...animation(animated)])) return this;
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
  _bounds(kind) { return this.w ? answerNumbers(this.w, this.w.viewer_bounds(BOUNDS[kind])) : this._early?.[`${kind}Bounds`]; }
  _setBounds(kind, b) {
    const method = `set${kind[0].toUpperCase()}${kind.slice(1)}Bounds`;
    if (!Array.isArray(b) || b.length !== 2) {
      console.warn(`ImageStage viewer: ${method}: expected [min, max] in degrees; the call is ignored`);
      return this;
    }
    if (!finite(method, b)) return this;
    this._ready(() => { this.w.viewer_set_bounds(BOUNDS[kind], Number(b[0]), Number(b[1])); this._invalidate(); });
    return this;
  }

  getNorthOffset() { return this._angle('northOffset'); }
  setNorthOffset(d) { return this._setAngle('northOffset', d); }
  getHorizonRoll() { return this._angle('horizonRoll'); }
  setHorizonRoll(d) { return this._setAngle('horizonRoll', d); }
  getHorizonPitch() { return this._angle('horizonPitch'); }
  setHorizonPitch(d) { return this._setAngle('horizonPitch', d); }
  _angle(name) { return this._scene ? this._scene[name] ?? 0 : this._early?.[name]; }
  _setAngle(name, d) {
    if (!finite(`set${name[0].toUpperCase()}${name.slice(1)}`, [d])) return this;
    this._ready(() => {
      this.w.viewer_set_angle(ANGLES[name], Number(d));
      this._scene = readScene(this.w, this.w.viewer_scene());
      this._placeHotSpots(true);
    });
    return this;
  }

  startAutoRotate(speed, pitch) {
    if (!finite('startAutoRotate', [], [speed, pitch])) return this;
    this._ready(() => {
      const s = Number(speed) || this._configSpeed() || 1;
      this.w.viewer_auto_rotate(s, pitch == null ? NaN : Number(pitch));
      this._invalidate();
    });
    return this;
  }
  _configSpeed() { return readConfig(this.w, this.w.viewer_config()).autoRotate; }
  stopAutoRotate() { this._ready(() => this.w.viewer_auto_rotate(NaN, NaN)); return this; }
  stopMovement() { this._ready(() => this.w.viewer_stop_movement()); return this; }

  /** Pannellum's `loadScene(sceneId, pitch, yaw, hfov, fadeDone)`; 'same' keeps an angle. */
  loadScene(sceneId, pitch, yaw, hfov, fadeDone) {
    if (!finite('loadScene', [], [pitch, yaw, hfov].filter((x) => x !== 'same'))) return this;
    this._ready(() => {
      const n = this._frame.view(1, 1);
      const here = { yaw: n[SLOT.yaw], pitch: n[SLOT.pitch], hfov: n[SLOT.hfov] };
      const v = (x, same) => (x === 'same' ? same : x == null ? NaN : Number(x));
      const ok = this.m.withBytes(String(sceneId), (p, n) =>
        this.w.viewer_load_scene(p, n, v(yaw, here.yaw), v(pitch, here.pitch), v(hfov, here.hfov)));
      if (!ok) { console.warn(`ImageStage viewer: loadScene: no scene "${sceneId}"`); return; }
      this._changeScene(String(sceneId), fadeDone);
    });
    return this;
  }

  /** The shown scene's id; undefined for a config without `scenes`, as Pannellum's. */
  getScene() { return this._scene ? (this._scene.id !== '' ? this._scene.id : undefined) : this._early?.scene || undefined; }

  addScene(sceneId, config) {
    this._ready(() => {
      feedConfig(this.m, splitFunctions(config || {}).plain);
      const answer = this.m.withBytes(String(sceneId), (p, n) => readOutcome(this.w, this.w.viewer_add_scene(p, n)));
      for (const w of answer.warnings) console.warn(`ImageStage viewer: ${w}`);
      if (answer.error) console.error(`ImageStage viewer: ${answer.error}`);
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

  /** Tells the core (`mouseZoom: 'fullscreenonly'`, `dragConfirm`) and lets the page scroll
   * with one finger on the axes `dragConfirm` keeps for two, outside fullscreen. */
  _fullscreenToCore() {
    if (this.w) this.w.viewer_set_fullscreen(this._fullscreen ? 1 : 0);
    const confirm = this._fullscreen ? null : this._scene?.dragConfirm;
    this._view.style.touchAction = confirm === 'both' ? 'pan-x pan-y' : confirm === 'yaw' ? 'pan-x'
      : confirm === 'pitch' ? 'pan-y' : '';
  }

  /** Says `text` (a `STRINGS` name) over the view for a moment, as Pannellum's interaction messages. */
  _hint(name) {
    const hint = this._hintBox;
    hint.textContent = this._string(name);
    hint.hidden = false;
    clearTimeout(this._hintTimer);
    this._hintTimer = setTimeout(() => { hint.hidden = true; }, 1500);
  }

  _fullscreenChanged() {
    const host = this._host;
    const on = document.fullscreenElement === host || document.webkitFullscreenElement === host ||
      host.classList.contains('isv-fill-window');
    if (on === this._fullscreen) return;
    this._fullscreen = on;
    this._fullscreenToCore();
    this._controls.fullscreen(on);
    this._root.classList.toggle('isv-is-fullscreen', on);
    this._fire('fullscreenchange', on);
    this._resize();
  }

  /** The shown scene's settings as Pannellum's JSON, with its hotspots and the view now. */
  getConfig() {
    if (!this.w) return undefined;
    const c = readConfig(this.w, this.w.viewer_config());
    // As Pannellum's: each shown hotspot's element as `div`, with the page's functions.
    for (const spot of this._hotSpots.spots) {
      const h = c.hotSpots[spot.index];
      if (h) Object.assign(h, spot.functions, { div: spot.div });
    }
    return c;
  }
  getContainer() { return this._host; }

  addHotSpot(hs, sceneId) {
    // (NaN would cross as null, which reads as a missing angle.)
    const numbers = Object.values(hs || {}).filter((v) => typeof v === 'number');
    if (!finite('addHotSpot', numbers)) return this;
    this._ready(() => {
      const f = {}, rest = {};
      for (const [k, v] of Object.entries(hs || {})) {
        if (typeof v === 'function' || /Args$/.test(k)) f[k] = v; else rest[k] = v;
      }
      const scene = sceneId == null ? this._scene.id : String(sceneId);
      feedConfig(this.m, rest, true);
      const error = this.m.withBytes(sceneId == null ? '' : scene, (p, n) => this.m.out(this.w.viewer_add_hotspot(p, n)));
      if (error) { console.error(`ImageStage viewer: ${error}`); return; }
      const count = readConfig(this.w, this.w.viewer_config()).hotSpots.length;
      if (Object.keys(f).length) this._hotSpots.functions.set(`${scene}\u0000${scene === this._scene.id ? count - 1 : '?'}`, f);
      if (scene === this._scene.id) { this._refreshScene(); this._placeHotSpots(true); }
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
      this._controls.motion(true);
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
    this._controls.motion(false);
    return this;
  }

  isOrientationActive() { return !!this._orientation; }

  /** `[pitch, yaw]` degrees under a mouse or pointer event. */
  mouseEventToCoords(event) {
    if (!this.w || !finite('mouseEventToCoords', [event?.clientX, event?.clientY])) return null;
    const r = this._view.getBoundingClientRect();
    return answerNumbers(this.w, this.w.viewer_direction(event.clientX - r.left, event.clientY - r.top));
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
    // The getters answer numbers, as declared, after destroy too: the view the viewer had.
    if (this.w && this._configured) {
      this._early = { ...this._early, pitch: this.getPitch(), yaw: this.getYaw(), hfov: this.getHfov(), lens: this.getLens(),
        pitchBounds: this.getPitchBounds(), yawBounds: this.getYawBounds(), hfovBounds: this.getHfovBounds() };
    }
    this._destroyed = true;
    this.stopOrientation();
    this._lifetime.abort();
    this._hotSpots.clear();
    this._resizeObserver?.disconnect();
    clearTimeout(this._fadeTimer);
    this._player?.close();
    this._gl?.destroy();
    this._gl = null;
    this._tiles.destroy();
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
  getLens() { return this.w ? this._frame.lens() : this._early?.lens; }
  setLens(name) {
    this._ready(() => {
      const index = LENSES.indexOf(String(name));
      if (index < 0) console.error(`ImageStage viewer: setLens: unknown lens "${name}"; expected one of: ${LENSES.join(', ')}`);
      else this.w.viewer_set_lens(index);
      this._invalidate();
    });
    return this;
  }
  /** 'webgl2' or 'cpu' (for a tiled scene: what draws its tiles). */
  getRenderer() {
    if (this._source?.video) return this._source.gpu ? 'webgl2' : 'cpu';
    return this._tiles.state ? (this._tiles.state.cpu ? 'cpu' : 'webgl2') : this._renderer;
  }
  /** Back to the scene's starting view, over `animated` milliseconds. */
  recenter(animated = 500) {
    if (!finite('recenter', [], animation(animated))) return this;
    this._ready(() => { this.w.viewer_recenter(animated / 1000); this._invalidate(); });
    return this;
  }
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
    if (!finite('seek', [seconds])) return this;
    if (this._player?.video) this._player.seek(seconds); else this._wantSeek = Number(seconds);
    return this;
  }
  /** The video's time now and its length, in seconds. */
  getTime() { return this._player?.time; }
  getDuration() { return this._player?.duration; }
  /** Turns the video's sound on (`false`) or off. */
  setMuted(muted) { this._player?.setMuted(muted, true); return this; }
  isMuted() { return this._player?.video ? this._player.video.muted : undefined; }

  /** The tiles held: count, texture bytes, and the page's JS heap where the browser says. */
  memory() { return this._tiles.memory(); }

  /** The error shown in the view, or null. */
  getError() { return this._error; }
  /** Resolves once the module runs and the config is read (rejects with its error). */
  get ready() { return this._started; }
}
