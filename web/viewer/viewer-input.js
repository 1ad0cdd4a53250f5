// The viewer's input: the page's pointer, wheel and key events on the view, turned into the
// core's (`viewer_pointer`, `viewer_wheel`, `viewer_key`, in CSS pixels of the view and
// seconds), and the page's fullscreen and size changes. What a drag, a pinch, a wheel turn or
// a key does (and whether the config allows it) is Swift's; `mousedown`, `mouseup`,
// `touchstart` and `touchend` are fired here, as Pannellum's.

import { POINTER_KINDS, keyCode, modifiers, wheelDelta } from './input.js';
import { answerNumbers } from './viewer-frame.js';

const now = () => performance.now() / 1000;

/** Feeds one pointer event of `phase` (0 down, 1 move, 2 up, 3 cancel) to the core. */
function pointer(v, phase, e) {
  if (!v._loaded) return;
  if (e.pointerType === 'touch') confirmHint(v, phase, e);
  const r = v._view.getBoundingClientRect();
  if (v.w.viewer_pointer(phase, e.pointerId, POINTER_KINDS[e.pointerType] ?? 0, e.clientX - r.left, e.clientY - r.top,
    e.timeStamp / 1000)) v._invalidate();
}

/**
 * Says "pan with two fingers" when one finger moves along an axis `dragConfirm` keeps for two
 * (the core leaves that axis alone; the page scrolls, where the browser lets it).
 */
function confirmHint(v, phase, e) {
  const touches = v._touches ??= new Map();
  const start = touches.get(e.pointerId), one = touches.size === 1;
  if (phase === 0) touches.set(e.pointerId, [e.clientX, e.clientY]);
  if (phase >= 2) touches.delete(e.pointerId);
  const confirm = v._scene.dragConfirm;
  if (!one || !start || v._fullscreen || !['yaw', 'pitch', 'both'].includes(confirm)) return;
  // A cancel: the browser took the finger to scroll the page (the view's touch-action).
  const cancelled = phase === 3;
  const dx = cancelled || Math.abs(e.clientX - start[0]) > 8, dy = cancelled || Math.abs(e.clientY - start[1]) > 8;
  if (phase !== 1 && !cancelled) return;
  if (confirm === 'yaw' && dx) v._hint('twoTouchXActivate');
  else if (confirm === 'pitch' && dy) v._hint('twoTouchYActivate');
  else if (confirm === 'both' && (dx || dy)) v._hint('twoTouchActivate');
}

/** Carries out a video key the core chose (Space, `,` `.`, `[` `]`: as the app's). */
function videoCommand(v, c) {
  const p = v._player;
  if (!c || !p?.video) return;
  // The core's answer numbers (`viewer_video_command`): [1, 0] play or pause, [2, n] step n
  // frames, [3, s] skip s seconds.
  const [kind, n] = c;
  if (kind === 1) {
    if (p.video.paused || p.video.ended) v.play(); else v.pause();
  } else if (kind === 2) {
    // From the frame shown (its media time), to the middle of the one n frames on.
    v.pause();
    const step = p.frameDuration ?? 1 / 30, shown = p.lastFrame >= 0 ? p.lastFrame : p.time;
    v.seek(Math.max(0, shown + (n + 0.5) * step));
  } else if (kind === 3) {
    v.seek(p.time + n);
  }
}

/** Listens to the page for viewer `v` (through its `_on`: removed by `destroy`). */
export function wireInput(v) {
  const view = v._view;
  v._on(view, 'pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    view.focus({ preventScroll: true });
    view.setPointerCapture(e.pointerId);
    pointer(v, 0, e);
    v._fire(e.pointerType === 'touch' ? 'touchstart' : 'mousedown', e);
    e.preventDefault();
  });
  v._on(view, 'pointermove', (e) => {
    const all = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    for (const c of all.length ? all : [e]) pointer(v, 1, c);
  });
  v._on(view, 'pointerup', (e) => {
    pointer(v, 2, e);
    v._fire(e.pointerType === 'touch' ? 'touchend' : 'mouseup', e);
  });
  v._on(view, 'pointercancel', (e) => pointer(v, 3, e));
  v._on(view, 'dblclick', (e) => {
    if (v._scene.doubleClickZoom === false || !v._loaded) return;
    const d = v.mouseEventToCoords(e);
    if (d) v.lookAt(d[0], d[1], Math.max(v.getHfov() / 2, v.getHfovBounds()[0]), 300);
  });
  // On the whole container, as Pannellum's: the wheel zooms over hotspots and controls too.
  v._on(v._host, 'wheel', (e) => {
    if (!v._loaded) return;
    // `ctrl` asks for Ctrl but in fullscreen; `fullscreenonly` is the core's to refuse.
    const zoom = v._scene.mouseZoom;
    if (zoom === 'false') return;
    if (zoom === 'ctrl' && !e.ctrlKey && !v._fullscreen) { v._hint('ctrlZoomActivate'); return; }
    const r = view.getBoundingClientRect();
    const d = wheelDelta(e);
    if (v.w.viewer_wheel(d.dx, d.dy, d.precise ? 1 : 0, e.clientX - r.left, e.clientY - r.top, now())) {
      e.preventDefault();
      v._invalidate();
    }
  }, { passive: false });
  const key = (e, down) => {
    const code = keyCode(e);
    if (code < 0 || code === 1) return; // Tab is the page's: it reaches the hotspots and controls
    if (v.w.viewer_key(code, modifiers(e), down ? 1 : 0, e.repeat ? 1 : 0, now())) {
      e.preventDefault();
      v._invalidate();
      if (down) videoCommand(v, answerNumbers(v.w, v.w.viewer_video_command()));
    }
  };
  v._on(view, 'keydown', (e) => key(e, true));
  v._on(view, 'keyup', (e) => key(e, false));
  v._on(view, 'blur', () => { v.w.viewer_focus_lost(now()); v._invalidate(); });
}

/** The page's fullscreen changes and the viewer's size changes (after the controls are wired). */
export function wirePage(v) {
  v._on(document, 'fullscreenchange', () => v._fullscreenChanged());
  v._on(document, 'webkitfullscreenchange', () => v._fullscreenChanged());
  v._resizeObserver = new ResizeObserver(() => { if (!v._destroyed) v._resize(); });
  v._resizeObserver.observe(v._root);
}
