// The numbers the viewer's module leaves every frame in its frame buffer (`viewer_frame`),
// read through one Float64Array: no JSON, nothing allocated per frame. The layout is
// Sources/Scenes/ViewerFrame.swift's `ViewerFrameSlot`; ViewerFrameTests holds this copy
// (the slots and the three name lists) to it.

export const SLOT = {
  yaw: 0, pitch: 1, roll: 2, hfov: 3, lens: 4, mode: 5, source: 6, autoRotating: 7, levelsHorizon: 8, hasPanorama: 9,
  keyYaw: 10, keyPitch: 11, keyRoll: 12, keyHfov: 13, keyLens: 14, keyMode: 15, keyWidth: 16, keyHeight: 17,
  keyGeneration: 18,
  gpuLens: 19, gpuStrip: 20, focal: 21, turn: 22, stripWidth: 23, stripOffset: 24, matrix: 25,
  placementCount: 34, placements: 35,
};
export const LENSES = ['rectilinear', 'stereographic', 'fisheye', 'equirectangular'];
export const MODES = ['perspective', 'strip'];
export const SOURCES = ['none', 'log', 'sensor'];

const KEY_FIRST = SLOT.keyYaw, KEY_END = SLOT.keyGeneration + 1;

/**
 * One module instance's frame buffer. `numbers()` is the Float64Array over it, made again
 * only when the module's memory grew or the buffer moved (more hotspots than it held).
 */
export class FrameNumbers {
  #w;
  #numbers = null;
  #lastKey = new Float64Array(KEY_END - KEY_FIRST);
  #stale = true;

  constructor(exports) { this.#w = exports; }

  numbers() {
    const w = this.#w, ptr = w.viewer_frame();
    const n = this.#numbers;
    if (!n || n.buffer !== w.memory.buffer || n.byteOffset !== ptr) {
      // The room after the address: the module's own allocation (grown with its hotspots).
      this.#numbers = new Float64Array(w.memory.buffer, ptr, (w.memory.buffer.byteLength - ptr) >> 3);
    }
    return this.#numbers;
  }

  /** Writes the view for a `width`×`height` frame (`viewer_view`); answers the numbers. */
  view(width, height) {
    this.#w.viewer_view(width, height);
    return this.numbers();
  }

  yaw() { return this.view(1, 1)[SLOT.yaw]; }
  pitch() { return this.view(1, 1)[SLOT.pitch]; }
  hfov() { return this.view(1, 1)[SLOT.hfov]; }
  lens() { return LENSES[this.view(1, 1)[SLOT.lens]]; }

  /** Whether the key the last `view` wrote differs from the one `keep` was last given. */
  keyChanged() {
    if (this.#stale) return true;
    const n = this.numbers(), last = this.#lastKey;
    for (let k = KEY_FIRST; k < KEY_END; k++) if (!Object.is(n[k], last[k - KEY_FIRST])) return true;
    return false;
  }

  /** Remembers the key the last `view` wrote (the frame drawn for it). */
  keep() {
    const n = this.numbers(), last = this.#lastKey;
    for (let k = KEY_FIRST; k < KEY_END; k++) last[k - KEY_FIRST] = n[k];
    this.#stale = false;
  }

  /** Forgets the frame drawn: the next one is drawn whatever its key. */
  forget() { this.#stale = true; }

  /**
   * Writes the WebGL2 shader's numbers for a `width`×`height` frame of a `sourceWidth`×
   * `sourceHeight` image (`viewer_gpu_view`) into one object kept for every frame (what
   * panorama-gl.js's `render` reads); null before a scene is open.
   */
  gpuView(width, height, sourceWidth, sourceHeight) {
    if (!this.#w.viewer_gpu_view(width, height, sourceWidth, sourceHeight)) return null;
    const n = this.numbers(), v = this.#gpu;
    v.mode = n[SLOT.gpuStrip] ? 'strip' : 'perspective';
    v.lensIndex = n[SLOT.gpuLens];
    for (let k = 0; k < 9; k++) v.matrix[k] = n[SLOT.matrix + k];
    v.focal = n[SLOT.focal];
    v.turn = n[SLOT.turn];
    v.stripWidth = n[SLOT.stripWidth];
    v.stripOffset = n[SLOT.stripOffset];
    return v;
  }

  #gpu = { mode: 'perspective', lensIndex: 0, matrix: new Float32Array(9), focal: 0, turn: 0, stripWidth: 0, stripOffset: 0 };
}

/**
 * The numbers a small answer left at `viewer_answer_numbers` (`count` of them, from the
 * export that wrote them: bounds, a direction, a hotspot's place, the tiles held), copied;
 * null for none.
 */
export function answerNumbers(w, count) {
  return count > 0 ? Array.from(new Float64Array(w.memory.buffer, w.viewer_answer_numbers(), count)) : null;
}

// The geometry `viewer_open`, `viewer_open_video` and `viewer_open_tiles` leave in the answer
// numbers: Sources/Scenes/ViewerFrame.swift's `ViewerGeometrySlot` (ViewerFrameTests holds
// this copy to it), and the projections by index (`SourceProjection`'s raw values).
export const GEOMETRY = {
  projection: 0, fullWidth: 1, fullHeight: 2, croppedLeft: 3, croppedTop: 4, croppedWidth: 5, croppedHeight: 6,
  wraps: 7, eyeX: 8, eyeY: 9, eyeWidth: 10, eyeHeight: 11,
};
export const PROJECTIONS = ['equirect', 'cylindrical'];

// A step of the video's metadata reader (`viewer_spherical_begin`, `viewer_spherical_feed`):
// `ViewerSphericalSlot`, its stereo layouts and projections by index, held alike by
// ViewerFrameTests.
export const SPHERICAL = {
  step: 0, offset: 1, count: 2, codecLength: 3, stereo: 4, projection: 5, yaw: 6, pitch: 7, roll: 8,
  cropTop: 9, cropBottom: 10, cropLeft: 11, cropRight: 12,
};
export const STEREOS = ['mono', 'top-bottom', 'left-right'];
export const VIDEO_PROJECTIONS = ['equirectangular', 'cubemap', 'mesh', 'other'];

/**
 * The step a spherical export answered (`length`: its text's), as `{ need: [offset, count] }`,
 * or `{ codec, video }` (`video`: source, stereo, projection, yaw, pitch, roll degrees, crop),
 * or `{ codec, reason }`.
 */
export function sphericalStep(m, length) {
  const n = new Float64Array(m.exports.memory.buffer, m.exports.viewer_answer_numbers(), 13);
  const S = SPHERICAL;
  if (n[S.step] === 0) return { need: [n[S.offset], n[S.count]] };
  // The codec's bytes first, then the source's or the reason's.
  const bytes = new Uint8Array(m.exports.memory.buffer, m.exports.web_out_ptr(), length);
  const cut = Number.isNaN(n[S.codecLength]) ? 0 : n[S.codecLength], decoder = new TextDecoder();
  const codec = Number.isNaN(n[S.codecLength]) ? null : decoder.decode(bytes.subarray(0, cut));
  const rest = decoder.decode(bytes.subarray(cut));
  if (n[S.step] === 2) return { codec, reason: rest };
  return {
    codec,
    video: {
      source: rest, stereo: STEREOS[n[S.stereo]], projection: VIDEO_PROJECTIONS[n[S.projection]],
      yaw: n[S.yaw], pitch: n[S.pitch], roll: n[S.roll], crop: [n[S.cropTop], n[S.cropBottom], n[S.cropLeft], n[S.cropRight]],
    },
  };
}

/**
 * The image's geometry an open export answered (`count` numbers; null for none), as the
 * renderers take it: `projection`, the full and cropped sizes, `wraps`, and for a video `eye`.
 */
export function answerGeometry(w, count) {
  const n = answerNumbers(w, count);
  if (!n) return null;
  const g = { projection: PROJECTIONS[n[GEOMETRY.projection]], wraps: n[GEOMETRY.wraps] === 1 };
  for (const k of ['fullWidth', 'fullHeight', 'croppedLeft', 'croppedTop', 'croppedWidth', 'croppedHeight']) {
    g[k] = n[GEOMETRY[k]];
  }
  if (!Number.isNaN(n[GEOMETRY.eyeWidth])) {
    g.eye = [n[GEOMETRY.eyeX], n[GEOMETRY.eyeY], n[GEOMETRY.eyeWidth], n[GEOMETRY.eyeHeight]];
  }
  return g;
}
