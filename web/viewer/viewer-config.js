// A config into the module: JSON text read by `JSON.parse`, then the object (or the page's
// own) walked and fed to the core one typed call per value (`viewer_feed_…` in
// ViewerWeb.swift), so the module links no JSON parser. Member names the key table has cross
// as its indices; the rest (scene ids, `strings`' names, a page's own keys) as their bytes;
// URL parameters the same way. Which keys exist, their rules and the messages naming a key's
// path stay Swift's. The answers come back as numbers and UTF-8 bytes (`Records`), so the
// module links no JSON writer either: `getConfig()`'s object is made here.

/**
 * `ViewerKey`'s names (Sources/StageJSON/ViewerKey.swift), by case index: ViewerKeyTests fails
 * when this list and that table differ. The settings' and a tour's keys come first, then a
 * hotspot's from `HOTSPOT_KEYS`, `multiRes`' from `MULTIRES_KEYS`, the URL's from `URL_KEYS`.
 */
export const KEY_NAMES = ('type panorama title author authorURL preview previewTitle previewAuthor firstScene basePath '
  + 'crossOrigin yaw pitch hfov minYaw maxYaw minPitch maxPitch minHfov maxHfov haov vaov vOffset northOffset '
  + 'horizonPitch horizonRoll autoRotate autoRotateInactivityDelay autoRotateStopDelay sceneFadeDuration friction '
  + 'autoLoad compass orientationOnByDefault showZoomCtrl keyboardZoom doubleClickZoom draggable disableKeyboardCtrl '
  + 'showFullscreenCtrl showControls showLensCtrl showRecenterCtrl escapeHTML targetBlank avoidShowingBackground '
  + 'ignoreGPanoXMP mouseZoom dragConfirm backgroundColor strings lens renderer cubeMap multiRes video loop muted '
  + 'autoplay touchPanSpeedCoeffFactor multiResMinHfov hotSpotDebug capturedKeyNumbers animationTimingFunction dynamic '
  + 'dynamicUpdate default scenes hotSpots pitch yaw type text URL sceneId targetPitch targetYaw targetHfov id cssClass '
  + 'draggable attributes scale scaleFactor basePath path fallbackPath extension tileResolution maxLevel cubeResolution '
  + 'config fallback').split(' ');
export const HOTSPOT_KEYS = 69, MULTIRES_KEYS = 84, URL_KEYS = 91;

/** Each scope's names → index: a scene's (and a tour's), a hotspot's, `multiRes`'. */
const SCOPES = [[0, HOTSPOT_KEYS], [HOTSPOT_KEYS, MULTIRES_KEYS], [MULTIRES_KEYS, URL_KEYS]].map(([from, to]) =>
  new Map(KEY_NAMES.slice(from, to).map((n, i) => [n, from + i])));
const [SETTING, HOTSPOT, MULTIRES] = SCOPES;
/** The URL parameters that are not settings (`config`, `fallback`). */
const URL_ONLY = new Map(KEY_NAMES.slice(URL_KEYS).map((n, i) => [n, URL_KEYS + i]));
// (ViewerConfigFeed's limit: deeper is refused there too; a cycle in a page's object stops here.)
const MAX_DEPTH = 256;

/**
 * The config text as an object, or an error naming `source` and, where the text goes wrong,
 * its line and column (V8's own message names neither for most mistakes).
 */
export function parseConfig(text, source) {
  try { return JSON.parse(text); } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // The shortest prefix that is no longer the start of any JSON text: its last character is
    // the first wrong one. (A prefix that only stops early is "end of input", or an error at
    // its very end.) Runs only on a broken file: O(n log n).
    const viable = (n) => {
      try { JSON.parse(text.slice(0, n)); return true; } catch (p) {
        const at = /position (\d+)/.exec(p.message);
        return /end of JSON input/.test(p.message) || (at !== null && Number(at[1]) >= n);
      }
    };
    let lo = 0, hi = text.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (viable(mid + 1)) lo = mid + 1; else hi = mid; }
    const before = text.slice(0, lo).split('\n');
    const where = lo < text.length ? ` (line ${before.length}, column ${before[before.length - 1].length + 1})` : '';
    throw new Error(`${source}: invalid JSON: ${e.message.replace(/ \(line \d+ column \d+\)/, '')}${where}`);
  }
}

/**
 * Feeds `value` (a config, a scene's; with `hotSpot`, one hotspot) to the module `m` (a
 * `bridge`) afresh: objects with their members' names by the key table of the scope they are
 * in, as `JSON.stringify` would write them (functions and `undefined` members left out, in
 * arrays `null`; numbers that are not finite `null`).
 */
export function feedConfig(m, value, hotSpot = false) {
  const w = m.exports;
  w.viewer_feed_begin();
  const walk = (v, names, depth) => {
    if (depth > MAX_DEPTH) throw new Error(`the config nests deeper than ${MAX_DEPTH} (does it refer to itself?)`);
    switch (typeof v) {
      case 'number': w.viewer_feed_number(v); return;
      case 'boolean': w.viewer_feed_flag(v ? 1 : 0); return;
      case 'string': m.withBytes(v, (p, n) => w.viewer_feed_text(p, n)); return;
      case 'bigint': m.withBytes(String(v), (p, n) => w.viewer_feed_text(p, n)); return;
      case 'object': break;
      default: w.viewer_feed_null(); return;
    }
    if (v === null) { w.viewer_feed_null(); return; }
    const isArray = Array.isArray(v);
    w.viewer_feed_open(isArray ? 1 : 0);
    if (isArray) {
      // A tour's `hotSpots` entries are hotspots; other arrays hold plain values.
      for (const x of v) walk(x, names === 'hotSpots' ? HOTSPOT : null, depth + 1);
    } else {
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        const index = names instanceof Map ? names.get(k) : undefined;
        if (index !== undefined) w.viewer_feed_key(index);
        else m.withBytes(k, (p, n) => w.viewer_feed_name(p, n));
        // What the member holds: a tour's `default` and each of `scenes` are settings, …
        let inner = null;
        if (names === SETTING) {
          inner = k === 'default' ? SETTING : k === 'scenes' ? 'scenes' : k === 'hotSpots' ? 'hotSpots'
            : k === 'multiRes' ? MULTIRES : null;
        } else if (names === 'scenes') inner = SETTING;
        walk(x, inner, depth + 1);
      }
    }
    w.viewer_feed_close();
  };
  walk(value, hotSpot ? HOTSPOT : SETTING, 0);
}

/**
 * Feeds the page's URL parameters (`[name, value]` pairs, in order) to the module `m`: a
 * name the key table has among a config's keys and the URL's as its index, any other as its
 * bytes (the core says it is not a viewer parameter), each value as its text.
 */
export function feedParameters(m, parameters) {
  for (const [name, value] of parameters) {
    const n = String(name), index = SETTING.get(n) ?? URL_ONLY.get(n) ?? -1;
    m.withTwo(index < 0 ? n : '', String(value), (np, nn, vp, vn) => m.exports.viewer_feed_parameter(index, np, nn, vp, vn));
  }
}

// ------------------------------------------------------------ back out
// The answers longer than a few numbers (the scene, getConfig's parts, a config's warnings)
// come back as records, which the readers below turn into the objects the viewer uses.

const decoder = new TextDecoder();

/**
 * The records an export left at `viewer_records` (`count` numbers) and `viewer_record_bytes`
 * (their texts' UTF-8 bytes, one after another), read in the order ViewerWeb.swift wrote
 * them (its `record…` functions say the layouts; `readScene`, `readConfig` and `readOutcome`
 * below follow them).
 */
export class Records {
  constructor(w, count) {
    // The addresses first: the first call may allocate the room (a Swift global, made on
    // first use), growing the memory and detaching a buffer taken before it.
    const at = w.viewer_records(), bytesAt = w.viewer_record_bytes();
    this.n = new Float64Array(w.memory.buffer, at, count);
    this.bytes = new Uint8Array(w.memory.buffer, bytesAt);
    this.at = 0;
    this.byteAt = 0;
  }

  num() { return this.n[this.at++]; }
  /** 1 or 0 as a boolean; NaN as null. */
  flag() { const x = this.num(); return Number.isNaN(x) ? null : x === 1; }
  /** A text, or null for none. */
  text() {
    const length = this.num();
    if (length < 0) return null;
    const s = decoder.decode(this.bytes.subarray(this.byteAt, this.byteAt + length));
    this.byteAt += length;
    return s;
  }
  /** A count, then that many of `read`'s. */
  list(read) {
    const out = [];
    for (let k = this.num(); k > 0; k--) out.push(read());
    return out;
  }

  /** The settings `recordSettings` wrote, by name (`KEY_NAMES`), as Pannellum has them. */
  settings() {
    const s = {};
    for (let k = this.num(); k > 0; k--) {
      const name = KEY_NAMES[this.num()];
      s[name] = this.value();
    }
    return s;
  }

  /** A setting's value (`recordValue`). */
  value() {
    switch (this.num()) {
      case 0: return this.num();
      case 1: return this.flag();
      case 2: return this.text();
      case 3: return this.list(() => this.num());
      case 4: { const t = {}; for (let k = this.num(); k > 0; k--) { const name = this.text(); t[name] = this.text(); } return t; }
      case 5: return this.list(() => this.text());
      default: {
        const m = {}, base = this.text(), path = this.text(), fallback = this.text();
        if (base !== null) m.basePath = base;
        m.path = path;
        if (fallback !== null) m.fallbackPath = fallback;
        return Object.assign(m, { extension: this.text(), tileResolution: this.num(), maxLevel: this.num(), cubeResolution: this.num() });
      }
    }
  }

  /** A hotspot (`recordHotSpot`) as Pannellum's config entry. */
  hotSpot() {
    const h = { pitch: this.num(), yaw: this.num(), type: this.flag() ? 'scene' : 'info' };
    const optional = (key, v) => { if (v !== null) h[key] = v; };
    optional('text', this.text());
    optional('URL', this.text());
    optional('sceneId', this.text());
    for (const key of ['targetPitch', 'targetYaw', 'targetHfov']) {
      const kind = this.num(), d = this.num();
      if (kind) h[key] = [, d, 'same', 'sameAzimuth'][kind];
    }
    optional('id', this.text());
    optional('cssClass', this.text());
    if (this.flag()) h.draggable = true;
    return h;
  }
}

/** `viewer_configure`'s or `viewer_add_scene`'s outcome: `{ error, warnings }`. */
export function readOutcome(w, count) {
  const r = new Records(w, count);
  return { error: r.text(), warnings: r.list(() => r.text()) };
}

/**
 * The shown scene (`viewer_scene`): its settings by name (`mouseZoom` and `dragConfirm` as
 * "true", "false" or their word) with its id, image, problem, tiled, preview, video, strings,
 * hotSpots (each with its index and accessible name), order, linked and scenes.
 */
export function readScene(w, count) {
  const r = new Records(w, count);
  const id = r.text(), s = r.settings();
  for (const k of ['mouseZoom', 'dragConfirm']) if (typeof s[k] === 'boolean') s[k] = String(s[k]);
  Object.assign(s, { id, image: r.text(), problem: r.text(), tiled: r.flag(), preview: r.text(), video: r.text() });
  s.strings ??= {};
  s.hotSpots = r.list(() => {
    const h = r.hotSpot();
    return {
      index: 0, id: h.id ?? null, kind: h.type, text: h.text ?? null, url: h.URL ?? null, sceneId: h.sceneId ?? null,
      cssClass: h.cssClass ?? null, draggable: !!h.draggable, name: r.text(), yaw: h.yaw, pitch: h.pitch,
    };
  });
  s.hotSpots.forEach((h, k) => { h.index = k; });
  s.order = r.list(() => r.num());
  s.linked = r.list(() => ({ id: r.text(), image: r.text() }));
  s.scenes = r.list(() => r.text());
  return s;
}

/**
 * `getConfig()`'s object, as Pannellum's (`viewer_config`): the shown scene's settings, the
 * view now and the limits in use, Pannellum's defaults where the scene sets none, its
 * hotspots, its id (`scene`) and a tour's `scenes` by id.
 */
export function readConfig(w, count) {
  const r = new Records(w, count);
  const view = { yaw: r.num(), pitch: r.num(), hfov: r.num() };
  const limits = {};
  for (const k of ['Yaw', 'Pitch', 'Hfov']) { limits[`min${k}`] = r.num(); limits[`max${k}`] = r.num(); }
  const c = r.settings();
  for (const k of [...Object.keys(view), ...Object.keys(limits)]) delete c[k];
  Object.assign(c, view, limits);
  const hotSpots = r.list(() => r.hotSpot());
  for (let k = r.num(); k > 0; k--) {
    const name = KEY_NAMES[r.num()], value = r.value();
    if (!(name in c)) c[name] = value;
  }
  c.hotSpots = hotSpots;
  const scene = r.text();
  if (scene) c.scene = scene;
  const sceneCount = r.num();
  if (sceneCount > 0) {
    c.scenes = {};
    for (let k = 0; k < sceneCount; k++) {
      const id = r.text(), s = r.settings();
      s.hotSpots = r.list(() => r.hotSpot());
      c.scenes[id] = s;
    }
  }
  return c;
}
