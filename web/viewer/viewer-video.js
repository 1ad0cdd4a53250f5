// A video scene's player for the viewer (imagestage-viewer.js): the `<video>` element (muted
// until the user turns sound on, playsinline, crossOrigin), its controls (play/pause, seek,
// sound: real buttons and a slider with names), and its frames: `requestVideoFrameCallback`
// hands each new frame to the viewer once, and nothing arrives while paused. Which keys a
// scene has, and their checks, are Swift's (ViewerConfig); this file plays and reports.

const ICONS = {
  play: 'M8 5v14l11-7z',
  pause: 'M8 5v14M16 5v14',
  sound: 'M4 9v6h4l5 4V5L8 9zM16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11',
  muted: 'M4 9v6h4l5 4V5L8 9zM16 9l5 6M21 9l-5 6',
};

function svg(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('viewBox', '0 0 24 24');
  s.setAttribute('aria-hidden', 'true');
  s.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name]);
  s.append(path);
  return s;
}

/** Seconds as m:ss. */
const clock = (t) => {
  const s = Math.max(0, Math.floor(Number.isFinite(t) ? t : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** Why a `<video>` failed, in words (MediaError's codes). */
function mediaProblem(url, error) {
  const why = {
    1: 'loading was stopped',
    2: 'a network error',
    3: 'its data could not be decoded',
    4: 'its format or codec is not one this browser plays (WebM with VP9 or AV1 plays almost everywhere)',
  }[error && error.code] || 'an unknown error';
  return `The video ${url} could not be played: ${why}${error && error.message ? ` (${error.message})` : ''}.`;
}

export class VideoPlayer {
  /**
   * `host`: `{ root, string(name), listen(target, type, fn), fire(type, ...args), speak(text) }`
   * from the viewer; the controls go into `root`.
   */
  constructor(host) {
    this.host = host;
    this.video = null;
    this.uploads = 0; // frames handed to `onFrame` (each one texture upload or CPU copy)
    const bar = document.createElement('div');
    bar.className = 'isv-video';
    bar.setAttribute('role', 'group');
    bar.hidden = true;
    const button = (cls, icon) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `isv-button ${cls}`;
      b.append(svg(icon));
      bar.append(b);
      return b;
    };
    this.playButton = button('isv-play', 'play');
    const seek = this.seekBar = document.createElement('input');
    seek.type = 'range';
    seek.className = 'isv-seek';
    seek.min = '0';
    seek.max = '0';
    seek.step = '0.1';
    seek.value = '0';
    bar.append(seek);
    this.timeText = document.createElement('span');
    this.timeText.className = 'isv-time';
    this.timeText.setAttribute('aria-hidden', 'true');
    bar.append(this.timeText);
    this.soundButton = button('isv-sound', 'muted');
    this.bar = bar;
    host.root.append(bar);
    host.listen(this.playButton, 'click', () => (this.video && !this.video.paused ? this.pause() : this.play(true)));
    host.listen(seek, 'input', () => this.seek(Number(seek.value)));
    host.listen(this.soundButton, 'click', () => this.setMuted(!this.video?.muted, true));
  }

  /**
   * Opens `scene.video` (the core's scene: `video`, `loop`, `muted`, `autoplay`,
   * `crossOrigin`); resolves once its first frame is decoded with `{width, height}`, rejects
   * with what went wrong. `onFrame(video)` is called once for every new frame shown.
   */
  open(scene, onFrame) {
    this.close();
    const v = this.video = document.createElement('video');
    this.scene = scene;
    this.onFrame = onFrame;
    this.lastFrame = -1;
    // Muted until the user turns sound on (browsers refuse sound before a click anyway).
    v.muted = true;
    v.defaultMuted = true;
    v.playsInline = true;
    v.setAttribute('playsinline', '');
    v.crossOrigin = scene.crossOrigin === 'use-credentials' ? 'use-credentials' : 'anonymous';
    v.preload = 'auto';
    v.loop = scene.loop === true;
    v.className = 'isv-video-element';
    v.setAttribute('aria-hidden', 'true');
    v.tabIndex = -1;
    // In the document (off the view): some browsers present no frames of a detached element.
    this.host.root.append(v);
    const { host } = this;
    const s = (name) => host.string(name);
    this.playButton.setAttribute('aria-label', s('play'));
    this.seekBar.setAttribute('aria-label', s('seek'));
    this.bar.setAttribute('aria-label', s('videoControls'));
    this.soundButton.setAttribute('aria-label', s('soundOn'));
    this.soundButton.setAttribute('aria-pressed', 'false');
    const on = (type, fn) => host.listen(v, type, () => { if (this.video === v) fn(); });
    on('play', () => { this.showPlaying(true); host.fire('play'); });
    on('pause', () => { this.showPlaying(false); host.fire('pause'); });
    on('ended', () => { this.showPlaying(false); host.fire('ended'); });
    on('timeupdate', () => { this.showTime(); host.fire('timeupdate', v.currentTime); });
    on('durationchange', () => this.showTime());
    on('volumechange', () => this.showSound());
    const ready = new Promise((resolve, reject) => {
      on('loadeddata', () => resolve({ width: v.videoWidth, height: v.videoHeight }));
      on('error', () => reject(new Error(mediaProblem(scene.video, v.error))));
    });
    v.src = scene.video;
    this.bar.hidden = false;
    this.showPlaying(false);
    this.showTime();
    return ready;
  }

  /** Starts handing frames over: each new one once, none while paused. */
  start() {
    const v = this.video;
    if (!v) return;
    const frame = () => {
      if (this.video !== v) return;
      this.uploads++;
      this.onFrame(v);
    };
    if (v.requestVideoFrameCallback) {
      const next = (now, meta) => {
        if (this.video !== v) return;
        // One callback per frame presented; a repeat of the same frame is not uploaded again.
        if (meta.mediaTime !== this.lastFrame) { this.lastFrame = meta.mediaTime; frame(); }
        v.requestVideoFrameCallback(next);
      };
      v.requestVideoFrameCallback(next);
      frame(); // the first frame, decoded before playing
    } else {
      // Without the callback (older browsers): look once a display frame, upload when the
      // time moved (a paused video's does not).
      const poll = () => {
        if (this.video !== v) return;
        if (v.currentTime !== this.lastFrame && v.readyState >= 2) { this.lastFrame = v.currentTime; frame(); }
        requestAnimationFrame(poll);
      };
      poll();
    }
    if (this.scene.autoplay) this.play(false);
  }

  /** Plays; `byUser` (a click) may turn on the sound the config asked for (`muted: false`). */
  play(byUser = false) {
    const v = this.video;
    if (!v) return;
    if (byUser && this.scene.muted === false && !this.soundChosen) v.muted = false;
    const p = v.play();
    p?.catch((e) => {
      if (this.video !== v || e.name === 'AbortError') return;
      if (!v.muted) {
        // Sound before a click is refused: play muted, and say where the sound is.
        v.muted = true;
        v.play().catch(() => {});
        this.host.speak(this.host.string('soundBlocked'));
      } else {
        console.warn(`ImageStage viewer: the video did not start (${e.message})`);
      }
    });
  }

  pause() { this.video?.pause(); }

  /** Moves to `seconds` (clamped to the clip). */
  seek(seconds) {
    const v = this.video;
    if (!v || !Number.isFinite(Number(seconds))) return;
    const d = Number.isFinite(v.duration) ? v.duration : Infinity;
    v.currentTime = Math.min(Math.max(0, Number(seconds)), d);
    this.showTime();
  }

  get time() { return this.video ? this.video.currentTime : undefined; }
  get duration() { return this.video && Number.isFinite(this.video.duration) ? this.video.duration : undefined; }

  setMuted(muted, byUser = false) {
    if (!this.video) return;
    if (byUser) this.soundChosen = true;
    this.video.muted = !!muted;
  }

  showPlaying(playing) {
    const b = this.playButton;
    b.replaceChildren(svg(playing ? 'pause' : 'play'));
    b.setAttribute('aria-label', this.host.string(playing ? 'pause' : 'play'));
    b.title = b.getAttribute('aria-label');
  }

  showTime() {
    const v = this.video;
    if (!v) return;
    const d = Number.isFinite(v.duration) ? v.duration : 0;
    this.seekBar.max = String(d);
    this.seekBar.step = d > 20 ? '1' : '0.1';
    this.seekBar.value = String(v.currentTime);
    const text = `${clock(v.currentTime)} / ${clock(d)}`;
    this.timeText.textContent = text;
    this.seekBar.setAttribute('aria-valuetext', text.replace(' / ', ' of '));
  }

  showSound() {
    const on = !!this.video && !this.video.muted;
    const b = this.soundButton;
    b.replaceChildren(svg(on ? 'sound' : 'muted'));
    b.setAttribute('aria-label', this.host.string(on ? 'soundOff' : 'soundOn'));
    b.setAttribute('aria-pressed', String(on));
    b.title = b.getAttribute('aria-label');
  }

  /** Stops and drops the video (a scene change, destroy). */
  close() {
    const v = this.video;
    this.video = null;
    this.bar.hidden = true;
    if (!v) return;
    v.pause();
    v.removeAttribute('src');
    v.load(); // lets go of the decoder and the network
    v.remove();
  }
}
