// What the viewer's parts (imagestage-viewer.js and its viewer-*.js modules) share to build
// their DOM: Pannellum's texts, the element helper, and the one check on addresses a config
// can turn into links. Nothing from a config or a URL is parsed as HTML into the page: a
// hotspot's text goes through safeHTML's inert parse and its short list of elements.

/** Pannellum's texts (its `strings`), in plain text: `<br>` in a site's own becomes a line break. */
export const STRINGS = {
  loadButtonLabel: 'Click to\nLoad\nPanorama',
  loadingLabel: 'Loading…',
  bylineLabel: 'by %s',
  noPanoramaError: 'No panorama image was specified.',
  fileAccessError: 'The file %s could not be accessed.',
  malformedURLError: 'There is something wrong with the panorama URL.',
  genericWebGLError: 'Your browser does not have the necessary WebGL support to display this panorama.',
  textureSizeError: 'This panorama is too big for your device! It\'s %spx wide, but your device only supports images up to %spx wide.',
  unknownError: 'Unknown error. Check developer console.',
  // Ours: said in the view where the browser has no WebAssembly (turned off, Lockdown Mode, JIT-less).
  noWebAssemblyError: 'Your browser does not have the WebAssembly support needed to display this panorama.',
  // Ours: the controls' accessible names.
  zoomIn: 'Zoom in', zoomOut: 'Zoom out', fullscreen: 'Fullscreen', exitFullscreen: 'Exit fullscreen',
  motionOn: 'Use motion', motionOff: 'Stop using motion', lens: 'Change lens', recenter: 'Recentre',
  moreControls: 'More controls',
  // Said a moment where the config asks for two fingers (`dragConfirm`) or Ctrl (`mouseZoom`).
  twoTouchActivate: 'Pan with two fingers.', twoTouchXActivate: 'Pan sideways with two fingers.',
  twoTouchYActivate: 'Pan up or down with two fingers.', ctrlZoomActivate: 'Hold Ctrl to zoom with the wheel.',
  viewLabel: 'Panorama viewer: drag or use the arrows to look around, plus and minus zoom, L changes the lens.',
};

export function el(tag, className, attrs = {}) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Only web addresses become links (no `javascript:`), resolved against the page. */
export function safeURL(url) {
  try {
    const u = new URL(url, location.href);
    return /^(https?|mailto):$/.test(u.protocol) ? u.href : null;
  } catch { return null; }
}

/**
 * The view a config starts on, read without the module (Pannellum's answers before its
 * panorama loads): the first scene's `yaw`, `pitch`, `hfov` and the rest over `default` and
 * the top level, a page's URL parameters (`[name, value]` pairs) over those, else
 * Pannellum's defaults. The getters answer these until the module runs, and for good where
 * the browser has no WebAssembly. `config` is an object or its JSON text.
 */
export function startingView(config, parameters = []) {
  let c = config;
  if (typeof c === 'string') { try { c = JSON.parse(c); } catch { c = null; } }
  if (!c || typeof c !== 'object' || Array.isArray(c)) c = {};
  const object = (x) => (x && typeof x === 'object' && !Array.isArray(x) ? x : {});
  const scenes = object(c.scenes);
  const asked = parameters.filter(([n]) => n === 'firstScene').map(([, v]) => v).pop();
  const first = asked ?? object(c.default).firstScene ?? c.firstScene ?? Object.keys(scenes)[0];
  const s = { ...object(c.default), ...c, ...object(scenes[first]) };
  for (const [name, value] of parameters) s[name] = value;
  const n = (key, fallback) => {
    const v = s[key] == null || s[key] === '' ? NaN : Number(s[key]);
    return Number.isFinite(v) ? v : fallback;
  };
  return {
    pitch: n('pitch', 0), yaw: n('yaw', 0), hfov: n('hfov', 100),
    pitchBounds: [n('minPitch', -90), n('maxPitch', 90)], yawBounds: [n('minYaw', -180), n('maxYaw', 180)],
    hfovBounds: [n('minHfov', 50), n('maxHfov', 120)], northOffset: n('northOffset', 0),
    horizonRoll: n('horizonRoll', 0), horizonPitch: n('horizonPitch', 0),
    scene: typeof first === 'string' ? first : undefined, lens: typeof s.lens === 'string' ? s.lens : 'rectilinear',
    strings: object(s.strings),
  };
}

// Hotspot text is HTML in Pannellum (unless its `escapeHTML`): shown here through the
// browser's own parser, keeping only these elements (HTML's, not SVG's or MathML's).
const KEPT = new Set(['b', 'i', 'em', 'strong', 'br', 'p', 'span', 'a']);
// Dropped with what they hold (code, styles, other vocabularies), not only their tags.
const DROPPED_WHOLE = new Set(['script', 'style', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'noscript',
  'noembed', 'noframes', 'title', 'textarea', 'select', 'xmp', 'head']);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Only http(s) links (a relative address resolves to the page's own scheme). */
function linkURL(href) {
  try {
    const u = new URL(href, location.href);
    return /^https?:$/.test(u.protocol) ? u.href : null;
  } catch { return null; }
}

/**
 * `html` (a hotspot's text) parsed by the browser into an inert document (no script runs, no
 * image loads) and rebuilt from the safe subset: `b i em strong br p span`, and `a` with an
 * http(s) or relative `href` (opened in a new tab, `noopener`). Any other element is dropped
 * (its text kept, except for script, style, svg and their like), and every attribute but
 * `a`'s `href`. Answers the fragment to show, its text (for an accessible name), and the
 * names of what was dropped (for a console warning).
 */
export function safeHTML(html) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const dropped = new Set();
  let text = '';
  const copy = (from, into) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        into.append(node.data);
        text += node.data;
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue; // comments
      const tag = node.localName;
      if (node.namespaceURI !== HTML_NS || !KEPT.has(tag)) {
        dropped.add(`<${tag}>`);
        for (const a of node.attributes) dropped.add(a.name);
        if (node.namespaceURI === HTML_NS && !DROPPED_WHOLE.has(tag)) copy(node, into); // its text stays
        continue;
      }
      let element = document.createElement(tag);
      for (const a of node.attributes) if (!(tag === 'a' && a.name === 'href')) dropped.add(a.name);
      if (tag === 'a') {
        const href = node.hasAttribute('href') ? linkURL(node.getAttribute('href')) : null;
        if (href) Object.assign(element, { href, target: '_blank', rel: 'noopener noreferrer' });
        else {
          if (node.hasAttribute('href')) dropped.add(`href="${node.getAttribute('href')}"`);
          element = document.createElement('span'); // a link that goes nowhere safe is its text
        }
      }
      if (tag === 'br' || tag === 'p') text += ' ';
      copy(node, element);
      into.append(element);
    }
  };
  const fragment = document.createDocumentFragment();
  copy(doc.body, fragment);
  return { fragment, text: text.replace(/\s+/g, ' ').trim(), dropped: [...dropped] };
}
