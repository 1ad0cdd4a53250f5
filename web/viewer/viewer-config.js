// A config into the module: JSON text read by `JSON.parse`, then the object (or the page's
// own) walked and fed to the core one typed call per value (`viewer_feed_…` in
// ViewerWeb.swift), so the module links no JSON parser. Member names the key table has cross
// as its indices; the rest (scene ids, `strings`' names, a page's own keys) as their bytes.
// Which keys exist, their rules and the messages naming a key's path stay Swift's.

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
