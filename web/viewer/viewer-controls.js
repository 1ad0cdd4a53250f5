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
  more: 'M5 12h0M12 12h0M19 12h0',
};

/** A touch button's square and the gap between two (imagestage-viewer.css). */
const TOUCH_BUTTON = 44 + 4;

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
    const button = (name, label, into = bar) => {
      const pnlm = PNLM[name] ? ` ${PNLM[name]} pnlm-controls pnlm-control` : '';
      const b = el('button', `isv-button isv-${name}${pnlm}`, { type: 'button', 'aria-label': label, title: label });
      b.append(icon(name));
      into.append(b);
      return b;
    };
    // On a short touch screen the toolbar is a row of zoom, fullscreen and "more", which
    // opens the rest in the same row (`fold`): six 44-px buttons in a column would cover
    // most of a phone's landscape view. Elsewhere "more" is not shown and the menu's
    // buttons sit in the column as any other. Either way the DOM order is the Tab order.
    this.menu = el('div', 'isv-more-menu', { id: `isv-more-${++Controls.count}`, role: 'group' });
    // In this order in the toolbar (and so in the Tab order).
    this.buttons = {
      zoomIn: button('zoom-in', STRINGS.zoomIn),
      zoomOut: button('zoom-out', STRINGS.zoomOut),
      fullscreen: button('fullscreen', STRINGS.fullscreen),
      more: button('more', STRINGS.moreControls),
      motion: button('motion', STRINGS.motionOn, this.menu),
      lens: button('lens', STRINGS.lens, this.menu),
      recenter: button('recenter', STRINGS.recenter, this.menu),
    };
    bar.append(this.menu);
    this.buttons.more.setAttribute('aria-expanded', 'false');
    this.buttons.more.setAttribute('aria-controls', this.menu.id);
    this.menu.setAttribute('aria-label', STRINGS.moreControls);
    this.compact = false;
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
    press(b.more, () => this.open(b.more.getAttribute('aria-expanded') !== 'true'));
    // Escape in the open menu closes it and gives the focus back to "more".
    v._on(this.bar, 'keydown', (e) => {
      if (e.key !== 'Escape' || !this.compact || b.more.getAttribute('aria-expanded') !== 'true') return;
      e.stopPropagation();
      this.open(false);
      b.more.focus();
    });
    if (v.isOrientationSupported()) b.motion.hidden = false;
    this.fold();
  }

  /** Opens or closes the "more" menu. */
  open(on) {
    this.buttons.more.setAttribute('aria-expanded', String(on));
    this.menu.classList.toggle('isv-open', on);
  }

  /**
   * Folds the toolbar into a row with a "more" menu where its column of touch-sized buttons
   * would take more than half the view's height (a phone held sideways); unfolds it
   * elsewhere. Called on every resize and whenever a button is shown or hidden.
   */
  fold() {
    const v = this.viewer, b = this.buttons;
    const size = v._size;
    const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    const inMenu = [b.motion, b.lens, b.recenter].filter((x) => !x.hidden).length;
    const shown = [b.zoomIn, b.zoomOut, b.fullscreen].filter((x) => !x.hidden).length + inMenu;
    const compact = !!(coarse && size && inMenu > 0 && shown * TOUCH_BUTTON > size.height / 2);
    if (compact !== this.compact) {
      this.compact = compact;
      v._root.classList.toggle('isv-compact', compact);
      if (!compact) this.open(false);
    }
    b.more.hidden = !compact;
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
    this.fold();
  }

  /** The lens button, where the scene allows it (`on`: the source can change lens; tiles cannot). */
  showLens(on) {
    this.buttons.lens.hidden = !(on && this.lensAllowed);
    this.fold();
  }

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

/** Viewers made on this page: each one's menu gets its own id. */
Controls.count = 0;
