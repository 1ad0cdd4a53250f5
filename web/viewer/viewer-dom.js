// What the viewer's parts (imagestage-viewer.js and its viewer-*.js modules) share to build
// their DOM: Pannellum's texts, the element helper, and the one check on addresses a config
// can turn into links. Nothing from a config or a URL is ever parsed as HTML.

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
  // Ours: the controls' accessible names.
  zoomIn: 'Zoom in', zoomOut: 'Zoom out', fullscreen: 'Fullscreen', exitFullscreen: 'Exit fullscreen',
  motionOn: 'Use motion', motionOff: 'Stop using motion', lens: 'Change lens', recenter: 'Recentre',
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
