// The viewer's controls: the toolbar's buttons (zoom, fullscreen, motion, lens, recentre), the
// compass and the title box, as DOM over the view. Which ones a scene shows (its showZoomCtrl,
// showFullscreenCtrl, …, compass) is the core's answer, read by `show`; a press calls the
// core (zoom, lens, recentre) or the viewer's API (fullscreen, motion). Pannellum's class names
// sit beside ours, so a page's styles for them still apply.

import { STRINGS, el, safeURL } from './viewer-dom.js';

/** The lenses' names, as the lens button and the live region say them. */
export const LENS_NAMES = { rectilinear: 'Normal lens', stereographic: 'Stereographic lens', fisheye: 'Little planet (fisheye)',
  equirectangular: 'Equirectangular lens' };

/** The controls' pictures: SVG paths on a 24-unit grid, drawn in the button's colour. */
const ICONS = {
  'zoom-in': 'M5 12h14M12 5v14',
  'zoom-out': 'M5 12h14',
  fullscreen: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  motion: 'M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM11 18h2',
  lens: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM3 12h18M12 3c3 3 3 15 0 18',
  recenter: 'M12 4a8 8 0 1 0 8 8M12 2v5M12 17v5M2 12h5M17 12h5M12 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4z',
};

// Pannellum's classes for the buttons it has too.
const PNLM = { 'zoom-in': 'pnlm-zoom-in', 'zoom-out': 'pnlm-zoom-out',
  fullscreen: 'pnlm-fullscreen-toggle-button pnlm-fullscreen-toggle-button-inactive', motion: 'pnlm-orientation-button pnlm-orientation-button-inactive' };

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

/** The title box, the compass and the toolbar of one viewer (`viewer`: its host, a Viewer). */
export class Controls {
  constructor(viewer) {
    this.viewer = viewer;
    const info = this.info = el('div', 'isv-info pnlm-panorama-info', { hidden: '' });
    this.title = el('div', 'isv-title pnlm-title-box');
    this.author = el('div', 'isv-author pnlm-author-box');
    info.append(this.title, this.author);
    const bar = this.bar = el('div', 'isv-controls pnlm-controls-container', { role: 'toolbar', 'aria-label': 'Panorama controls' });
    const button = (name, label) => {
      const pnlm = PNLM[name] ? ` ${PNLM[name]} pnlm-controls pnlm-control` : '';
      const b = el('button', `isv-button isv-${name}${pnlm}`, { type: 'button', 'aria-label': label, title: label });
      b.append(icon(name));
      bar.append(b);
      return b;
    };
    // In this order in the toolbar (and so in the Tab order).
    this.buttons = {
      zoomIn: button('zoom-in', STRINGS.zoomIn),
      zoomOut: button('zoom-out', STRINGS.zoomOut),
      fullscreen: button('fullscreen', STRINGS.fullscreen),
      motion: button('motion', STRINGS.motionOn),
      lens: button('lens', STRINGS.lens),
      recenter: button('recenter', STRINGS.recenter),
    };
    this.buttons.motion.hidden = true;
    this.compass = el('div', 'isv-compass pnlm-compass pnlm-controls pnlm-control', { hidden: '', 'aria-hidden': 'true' });
    this.compass.append(needle());
    this.lensAllowed = true;
  }

  /** What each button does; called once the module runs. */
  wire() {
    const v = this.viewer, b = this.buttons;
    const press = (button, fn) => v._on(button, 'click', (e) => { fn(e); v._invalidate(); });
    press(b.zoomIn, () => { v.w.viewer_zoom_step(-1); });
    press(b.zoomOut, () => { v.w.viewer_zoom_step(1); });
    press(b.fullscreen, () => v.toggleFullscreen());
    press(b.lens, () => {
      v.w.viewer_cycle_lens();
      v._speak(LENS_NAMES[v.getLens()] || v.getLens());
    });
    press(b.recenter, () => { v.w.viewer_recenter(0.5); v._speak('Back to the starting view.'); });
    press(b.motion, () => (v.isOrientationActive() ? v.stopOrientation() : v.startOrientation()));
    if (v.isOrientationSupported()) b.motion.hidden = false;
  }

  /** Shows what the core's scene `s` asks for: which controls, its title and author, the compass. */
  show(s) {
    const v = this.viewer, b = this.buttons;
    const shown = (flag) => flag !== false;
    this.bar.hidden = !shown(s.showControls);
    b.zoomIn.hidden = b.zoomOut.hidden = !shown(s.showZoomCtrl);
    this.lensAllowed = shown(s.showLensCtrl);
    b.recenter.hidden = !shown(s.showRecenterCtrl);
    b.fullscreen.hidden = !shown(s.showFullscreenCtrl);
    this.title.textContent = s.title || '';
    this.author.replaceChildren();
    if (s.author) {
      const byline = v._string('bylineLabel', '\u0000').split('\u0000');
      const url = s.authorURL && safeURL(s.authorURL);
      let name = document.createTextNode(s.author);
      if (url) {
        name = el('a', '', { href: url, target: '_blank', rel: 'noopener noreferrer' });
        name.textContent = s.author;
      }
      this.author.append(byline[0] || '', name, byline[1] || '');
    }
    this.info.hidden = !s.title && !s.author;
    this.compass.hidden = !s.compass;
  }

  /** The lens button, where the scene allows it (`on`: the source can change lens; tiles cannot). */
  showLens(on) { this.buttons.lens.hidden = !(on && this.lensAllowed); }

  /** The lens button's name says the lens in use. */
  lensInUse(lens) {
    this.buttons.lens.setAttribute('aria-label', `${this.viewer._string('lens')} (now: ${LENS_NAMES[lens] || lens})`);
  }

  fullscreen(on) {
    const b = this.buttons.fullscreen;
    b.setAttribute('aria-label', this.viewer._string(on ? 'exitFullscreen' : 'fullscreen'));
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('pnlm-fullscreen-toggle-button-active', on);
    b.classList.toggle('pnlm-fullscreen-toggle-button-inactive', !on);
  }

  motion(on) {
    const b = this.buttons.motion;
    b.setAttribute('aria-pressed', String(on));
    b.classList.replace(on ? 'pnlm-orientation-button-inactive' : 'pnlm-orientation-button-active',
      on ? 'pnlm-orientation-button-active' : 'pnlm-orientation-button-inactive');
    b.setAttribute('aria-label', this.viewer._string(on ? 'motionOff' : 'motionOn'));
  }

  /** Turns the compass for a view at `yaw` degrees, the scene's north `northOffset` from it. */
  turnCompass(yaw, northOffset) { this.compass.style.transform = `rotate(${-(yaw + (northOffset || 0))}deg)`; }
}
