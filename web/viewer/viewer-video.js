// A video scene's player for the viewer (imagestage-viewer.js, which imports this file only
// when a scene has a video): the `<video>` element (muted until the user turns sound on,
// playsinline, crossOrigin), its controls (play/pause, seek, sound: real buttons and a slider
// with names), its frames (`requestVideoFrameCallback` hands each new frame to the viewer
// once, and nothing arrives while paused) and their WebGL2 texture. Which keys a scene has,
// and their checks, are Swift's (ViewerConfig); this file plays and reports.

import { copyPixels } from './wasm.js';
import { answerGeometry, sphericalStep } from './viewer-frame.js';

/** The texts this file shows; a scene's `strings` override them, as Pannellum's. */
export const STRINGS = {
  play: 'Play', pause: 'Pause', seek: 'Seek', soundOn: 'Turn sound on', soundOff: 'Turn sound off', videoControls: 'Video',
  soundBlocked: 'Playing without sound: the browser allows sound after a click on Play or the sound button.',
  seekNeedsRanges: 'Cannot seek: the server of this video ignores Range requests, which seeking needs.',
  videoNeedsWebGL2: 'This video needs WebGL2: without it, drawing a frame here took %s ms, and 24 frames a second need %s ms or less.',
};

/**
 * Makes room in `pgl` (a PanoramaGL) for a video's frames (`width`×`height`, with the core's
 * `geometry`, drawn from the top-left `eye` [0, 0, width, height] of each frame: one eye of a
 * stereo pair, sampled in place, since the shader's pixels are the eye's): one layer per tile, as few tiles as the texture size allows (split as stills
 * are), without borders or mip levels, since every new frame replaces the last. A video wider
 * than a texture is cut with WebCodecs' `VideoFrame`; where that is missing it throws, saying so.
 */
export function videoTexture(pgl, width, height, geometry, eye = [0, 0, width, height]) {
  const gl = pgl.gl, limit = pgl.limit;
  const grid = [Math.ceil(width / limit), Math.ceil(height / limit)];
  if (grid[0] * grid[1] > 1 && typeof VideoFrame === 'undefined') {
    throw new Error(`This video is ${width}×${height} pixels, but this device's textures stop at ${limit}; ` +
      'splitting its frames needs WebCodecs (VideoFrame), which this browser lacks.');
  }
  // Even tile sides: a 4:2:0 frame's crop starts on a chroma sample.
  const tile = [Math.ceil(width / grid[0] / 2) * 2, Math.ceil(height / grid[1] / 2) * 2];
  const A = gl.TEXTURE_2D_ARRAY;
  if (pgl.texture) gl.deleteTexture(pgl.texture);
  pgl.texture = gl.createTexture();
  gl.bindTexture(A, pgl.texture);
  gl.texStorage3D(A, 1, gl.RGBA8, tile[0], tile[1], grid[0] * grid[1]);
  for (const [k, v] of [[gl.TEXTURE_MAX_LEVEL, 0], [gl.TEXTURE_MIN_FILTER, gl.LINEAR], [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
    [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE], [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE]]) gl.texParameteri(A, k, v);
  pgl.mipmapsPending = false;
  pgl.source = { width: eye[2], height: eye[3], frame: [width, height], geometry, grid, tile, layer: tile, pad: 0 };
}

/** Uploads the frame `video` shows now into the texture `videoTexture` made in `pgl`. */
export function uploadFrame(pgl, video) {
  const gl = pgl.gl, p = pgl.source, A = gl.TEXTURE_2D_ARRAY;
  gl.bindTexture(A, pgl.texture);
  if (p.grid[0] * p.grid[1] === 1) {
    gl.texSubImage3D(A, 0, 0, 0, 0, p.frame[0], p.frame[1], 1, gl.RGBA, gl.UNSIGNED_BYTE, video);
    return;
  }
  const frame = new VideoFrame(video);
  try {
    for (let ty = 0; ty < p.grid[1]; ty++) {
      for (let tx = 0; tx < p.grid[0]; tx++) {
        const x = tx * p.tile[0], y = ty * p.tile[1];
        const width = Math.min(p.tile[0], p.frame[0] - x), height = Math.min(p.tile[1], p.frame[1] - y);
        const part = new VideoFrame(frame, { visibleRect: { x, y, width, height } });
        try {
          gl.texSubImage3D(A, 0, 0, 0, ty * p.grid[0] + tx, width, height, 1, gl.RGBA, gl.UNSIGNED_BYTE, part);
        } finally { part.close(); }
      }
    }
  } finally { frame.close(); }
}

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

/** A sample entry's codec (MP4SphericalReader's `codec`: `hvc1.1.6.L93.B0`, `vp09`…) by name. */
function codecName(codec) {
  const names = { hvc1: 'HEVC', hev1: 'HEVC', avc1: 'H.264', avc3: 'H.264', av01: 'AV1', vp09: 'VP9', vp08: 'VP8' };
  const type = String(codec ?? '').split('.')[0];
  return names[type] ?? (type ? `'${type}'` : '');
}

/**
 * Why a `<video>` failed, in words (MediaError's codes); `codec`: the MP4's sample entry's,
 * when it was read (named in the codec message).
 */
function mediaProblem(url, error, codec) {
  // The codec's name, and its full string where there is one (what canPlayType was asked).
  const name = error && error.code === 4 && codec ? codecName(codec) + (codec.includes('.') ? `: ${codec}` : '') : '';
  const why = {
    1: 'loading was stopped',
    2: 'a network error',
    3: 'its data could not be decoded',
    4: `its format or codec is not one this browser plays (${name ? `${name}; ` : ''}WebM with VP9 or AV1 plays almost everywhere)`,
  }[error && error.code] || 'an unknown error';
  return `The video ${url} could not be played: ${why}${error && error.message ? ` (${error.message})` : ''}.`;
}

/**
 * Whether this browser says it cannot play an MP4 of `codec` (a full RFC 6381 string from the
 * sample entry's config box): `canPlayType` answers "" for a codec it lacks. A bare type
 * (`vp09`) is not asked: browsers answer "" for codec strings without their parameters.
 */
function cannotPlay(codec) {
  if (!codec || !codec.includes('.')) return false;
  return document.createElement('video').canPlayType(`video/mp4; codecs="${codec}"`) === '';
}

/**
 * What a `<video>` that failed to load or to be recognised (a network error, or "not
 * supported", which Chromium also says for a 404) really met: the server is asked once (HEAD,
 * with the video's credentials), so a missing file says so as a still's does. The codec
 * message stays for a file that is there, and for a server that refuses HEAD.
 */
export async function videoProblem(url, error, crossOrigin, codec) {
  if (error && (error.code === 2 || error.code === 4)) {
    let response;
    try {
      response = await fetch(url, { method: 'HEAD', credentials: crossOrigin === 'use-credentials' ? 'include' : 'same-origin' });
    } catch (e) {
      return `The video ${url} could not be fetched (${e.message}: the network, or the server does not allow this page to read it).`;
    }
    if (!response.ok && response.status !== 405 && response.status !== 501) {
      return `The video ${url} could not be loaded: HTTP ${response.status} ${response.statusText}`.trim() + '.';
    }
  }
  return mediaProblem(url, error, codec);
}

export class VideoPlayer {
  /**
   * `host`: `{ root, string(name), listen(target, type, fn, signal?), fire(type, ...args), speak(text) }`
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
    // A few seconds' word in the view (a seek the server cannot serve).
    this.notice = document.createElement('div');
    this.notice.className = 'isv-video-notice';
    this.notice.hidden = true;
    host.root.append(this.notice);
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
    // The element's listeners leave with it (`close`).
    this.opened = new AbortController();
    const on = (type, fn) => host.listen(v, type, () => { if (this.video === v) fn(); }, this.opened.signal);
    on('play', () => { this.showPlaying(true); host.fire('play'); });
    on('pause', () => { this.showPlaying(false); host.fire('pause'); });
    on('ended', () => { this.showPlaying(false); host.fire('ended'); });
    on('timeupdate', () => { this.showTime(); host.fire('timeupdate', v.currentTime); });
    on('durationchange', () => this.showTime());
    on('volumechange', () => this.showSound());
    const ready = new Promise((resolve, reject) => {
      on('loadeddata', () => resolve({ width: v.videoWidth, height: v.videoHeight }));
      // Kept as MediaError's fields: the caller words it, knowing the codec by then.
      on('error', () => reject({ code: v.error?.code, message: v.error?.message ?? '' }));
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
        if (meta.mediaTime !== this.lastFrame) {
          // The clip's frame time (for frame steps): the median of the last gaps between two
          // frames presented one after the other while playing (a seek or a drop is an outlier).
          const gap = meta.mediaTime - this.lastFrame;
          if (!v.paused && meta.presentedFrames === this.presented + 1 && gap > 0.001 && gap < 0.2) {
            this.gaps = [...(this.gaps ?? []).slice(-8), gap];
            this.frameDuration = [...this.gaps].sort((a, b) => a - b)[this.gaps.length >> 1];
          }
          this.presented = meta.presentedFrames;
          this.lastFrame = meta.mediaTime;
          frame();
        }
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
    const target = Math.min(Math.max(0, Number(seconds)), d);
    v.currentTime = target;
    this.showTime();
    // A server that ignores Range requests (answered 200 to one): the browser cannot seek, and
    // the time stays. Said in the view when the seek did not move, rather than nothing.
    if (this.rangesIgnored) {
      clearTimeout(this.seekCheck);
      this.seekCheck = setTimeout(() => {
        if (this.video === v && Math.abs(v.currentTime - target) > 1) this.tell(this.host.string('seekNeedsRanges'));
      }, 1000);
    }
  }

  /** Shows `text` in the view for a few seconds, and speaks it. */
  tell(text) {
    this.notice.textContent = text;
    this.notice.hidden = false;
    this.host.speak(text);
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.notice.hidden = true; }, 4000);
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
    this.rangesIgnored = false;
    this.notice.hidden = true;
    clearTimeout(this.seekCheck);
    clearTimeout(this.noticeTimer);
    this.opened?.abort();
    this.opened = null;
    if (!v) return;
    v.pause();
    v.removeAttribute('src');
    v.load(); // lets go of the decoder and the network
    v.remove();
  }
}

/**
 * Reads the spherical metadata of the video at `url` (an MP4 or MOV: Spherical Video V2's
 * st3d/sv3d, V1's XML) with the core's box reader (MP4SphericalReader), fetching with `Range:`
 * requests the few ranges it asks for: the first 64 KB, then the moov box, wherever it is.
 * Resolves with `{ video, codec, rangesIgnored }`: the metadata it found, or null, telling the
 * console why (a cross-origin refusal, a WebM, no metadata): the video then plays as it is; the
 * sample entry's codec (MP4SphericalReader's), where it was read; and whether the server
 * answered a Range request with the whole file (200), which leaves the browser unable to seek.
 * A WebM's boxes are not read, but one Range request of a byte still asks the server that.
 */
export async function readSpherical(m, w, url, crossOrigin, current) {
  const credentials = crossOrigin === 'use-credentials' ? 'include' : 'same-origin';
  const found = { video: null, codec: null, rangesIgnored: false };
  const why = (text) => {
    console.info(`ImageStage viewer: ${url}: ${text}; the video is shown as one equirectangular picture.`);
    return found;
  };
  // WebM and Matroska carry their own boxes (not read here yet): only whether ranges work.
  if (/\.(webm|mkv)$/i.test(String(url).split(/[?#]/)[0])) {
    try { await fetchRange(url, 0, 1, credentials, found); } catch { /* the video's own load says what is wrong */ }
    return why('a WebM or Matroska file, whose metadata is not read yet');
  }
  try {
    let total = -1;
    let step = sphericalStep(m, w.viewer_spherical_begin(-1));
    for (let reads = 0; step.need && reads < 80; reads++) {
      const [offset, count] = step.need;
      const range = await fetchRange(url, offset, count, credentials, found);
      if (!current()) return found;
      if (range.total != null) total = range.total;
      step = m.withBytes(range.bytes, (p, n) => sphericalStep(m, w.viewer_spherical_feed(p, n, total)));
    }
    found.codec = step.codec ?? null;
    found.video = step.video ?? null;
    return step.video ? found : why(step.reason ? `no spherical metadata read (${step.reason})` : 'the box reader did not finish');
  } catch (e) {
    return why(`its spherical metadata could not be read (${e.message})`);
  }
}

/** URLs whose server was said to ignore Range requests: the console says it once a page. */
const toldNoRanges = new Set();

/** Bytes `offset`… (`count` of them, fewer at the file's end) of `url`, and the file's size when told. */
async function fetchRange(url, offset, count, credentials, found) {
  const r = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + count - 1}` }, credentials });
  if (r.status === 200 && !found.rangesIgnored) {
    found.rangesIgnored = true;
    if (!toldNoRanges.has(r.url)) {
      toldNoRanges.add(r.url);
      console.warn(`ImageStage viewer: ${url}: the server ignores Range requests (it answered one with the whole ` +
        'file, as python3 -m http.server does), so the browser cannot seek in this video. Serve it with a server ' +
        'that honours them: serve.py beside viewer.html, npx http-server, nginx or caddy.');
    }
  }
  if (r.status === 206) {
    const m = /bytes (\d+)-\d+\/(\d+|\*)/.exec(r.headers.get('Content-Range') || '');
    if (!m || Number(m[1]) !== offset) {
      r.body?.cancel().catch(() => {});
      throw new Error(`the server answered another range (${r.headers.get('Content-Range')})`);
    }
    // A server may send more than was asked for (to the file's end): read what was asked, then stop.
    const { bytes } = await readUpTo(r.body, 0, count);
    return { bytes, total: m[2] === '*' ? null : Number(m[2]) };
  }
  if (r.status === 416) return { bytes: new Uint8Array(0), total: null };
  if (r.status !== 200) throw new Error(`HTTP ${r.status} for a Range request`);
  // The whole file: read only up to the range's end, then stop the download.
  if (offset > 64 << 20) {
    r.body?.cancel().catch(() => {});
    throw new Error(`the server ignores Range requests, and the metadata is ${Math.round(offset / 1048576)} MB in`);
  }
  const { bytes, at } = await readUpTo(r.body, offset, count);
  return { bytes, total: bytes.length < count ? at : null };
}

/**
 * Bytes `offset`… (`count` of them) of a response's body, reading no further than their end:
 * the rest of the download is cancelled. Answers them and how far the body was read.
 */
async function readUpTo(body, offset, count) {
  const reader = body.getReader(), out = new Uint8Array(count);
  let at = 0, got = 0;
  try {
    while (got < count) {
      const { done, value } = await reader.read();
      if (done) break;
      const from = Math.max(offset - at, 0), to = Math.min(value.length, offset + count - at);
      if (to > from) { out.set(value.subarray(from, to), got); got += to - from; }
      at += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return { bytes: out.subarray(0, got), at };
}

/**
 * Opens the viewer `v`'s video scene: the `<video>` element's frames go to a WebGL2 texture
 * (`gpu`), or to the wasm CPU renderer (asked for, or no WebGL2) as long as it keeps 24 frames
 * a second at the viewer's size. `load` fires when the first frame is drawn.
 */
export async function openVideo(v, gpu, fade, ticket) {
  const s = v._scene;
  v._controls.showLens(true);
  if (!gpu) await v._useCPU();
  if (v._destroyed || ticket !== v._ticket) return;
  const player = v._player ??= new VideoPlayer({
    root: v._root,
    string: (name) => v._string(name),
    listen: (target, type, fn, signal) => v._on(target, type, fn, { signal }),
    fire: (type, ...args) => v._fire(type, ...args),
    speak: (text) => v._speak(text),
  });
  v._root.classList.add('isv-has-video');
  // The metadata is read while the video loads; the first frame waits for both.
  const current = () => !v._destroyed && ticket === v._ticket;
  const spherical = readSpherical(v.m, v.w, s.video, s.crossOrigin, current);
  let size, failed;
  try {
    size = await player.open(s, (video) => videoFrame(v, video));
  } catch (e) {
    failed = e;
  }
  if (v._destroyed || ticket !== v._ticket) return;
  const found = await spherical;
  if (v._destroyed || ticket !== v._ticket) return;
  // A codec the browser says it lacks (HEVC in most), or a clip that loads with no picture
  // (Chromium plays an HEVC clip's AAC alone, 0×0): the codec message, before anything plays.
  if (!failed && (size.width === 0 || size.height === 0 || cannotPlay(found.codec))) failed = { code: 4, message: '' };
  if (failed) {
    const message = failed instanceof Error ? failed.message
      : await videoProblem(s.video, failed, s.crossOrigin === 'use-credentials' ? 'use-credentials' : 'anonymous', found.codec);
    if (ticket === v._ticket && !v._destroyed) { player.close(); v._fail(new Error(message), false); }
    return;
  }
  v._spherical = found.video;
  player.rangesIgnored = found.rangesIgnored;
  v._loading.hidden = true;
  if (v._error) v._clearError();
  if (fade) v._snapshot();
  const name = decodeURIComponent(String(s.video).split('/').pop().split('?')[0]);
  // With metadata, the core opens one eye of a stereo frame, with its crop.
  const geometry = v.m.withBytes(name, (np, nn) => answerGeometry(v.w, v.w.viewer_open_video(size.width, size.height, np, nn)));
  const eye = geometry.eye;
  v.w.viewer_layout(v._size.width, v._size.height);
  v._source = { video: true, gpu, width: eye[2], height: eye[3], geometry, cpuTimes: [] };
  if (gpu) {
    try { videoTexture(v._gl, size.width, size.height, geometry, eye); } catch (e) {
      player.close();
      v._fail(e, false);
      return;
    }
  }
  v._frame.forget();
  v._loaded = true;
  v._root.classList.add('isv-loaded');
  player.start();
  if (v._wantPlay) player.play(true);
  if (v._wantSeek != null) player.seek(v._wantSeek);
  v._wantPlay = false;
  v._wantSeek = null;
  v._placeHotSpots(true);
  v._invalidate();
  await new Promise((r) => requestAnimationFrame(r));
  if (v._destroyed || ticket !== v._ticket) return;
  v._loadDone(fade);
}

/** A new frame of the video: uploaded to the texture, or copied to the CPU renderer. */
function videoFrame(v, video) {
  const src = v._source;
  if (v._destroyed || !src || !src.video) return;
  if (src.gpu) {
    uploadFrame(v._gl, video);
    v._invalidate();
  } else if (!src.busy) {
    cpuFrame(v, video, src); // a frame that arrives while the last is copied is dropped
  }
}

/**
 * The CPU renderer's frame: copied into wasm memory and drawn. Measured over the first eight:
 * a CPU that cannot keep 24 a second at the viewer's size says video needs WebGL2.
 */
async function cpuFrame(v, video, src) {
  src.busy = true;
  const t0 = performance.now();
  const w = v.w;
  const ptr = w.web_panorama_buffer(src.width, src.height);
  if (ptr) await copyPixels(video, w.memory, ptr, src.width, src.height);
  src.busy = false;
  if (v._destroyed || v.w !== w || v._source !== src || !ptr) return;
  w.viewer_commit();
  v._frame.forget();
  v._draw();
  const times = src.cpuTimes;
  if (times.length < 8) {
    times.push(performance.now() - t0);
    if (times.length === 8) {
      const median = [...times].sort((a, b) => a - b)[4];
      const budget = v._options.cpuFrameBudget ?? 1000 / 24; // the test page's option makes it small
      if (median > budget) {
        v._player.close();
        v._fail(new Error(v._string('videoNeedsWebGL2', Math.round(median), Math.floor(budget))), false);
      }
    }
  }
}
