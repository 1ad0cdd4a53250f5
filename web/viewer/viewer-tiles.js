// A tiled (multires) scene in the viewer: no image, tiles fetched as the core's plan asks
// (`viewer_tile_plan`: which to fetch, which to drop, the level, each tile's place), each
// drawn as it arrives, by WebGL2 (tiles-gl.js) or by the wasm CPU renderer from the same
// plan. What to fetch, retry, drop or give up on is Swift's (the tile pyramid's cache); this
// file fetches, decodes and uploads.

import { TileGL } from './tiles-gl.js';
import { answerGeometry, answerNumbers } from './viewer-frame.js';

/** A decoded tile's RGBA bytes, read back through a 2D canvas (synchronously). */
function tilePixels(bitmap) {
  const c = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(bitmap, 0, 0);
  return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
}

/** The tiles of one viewer's tiled scenes (`viewer`: its host, a Viewer). */
export class Tiles {
  constructor(viewer) {
    this.viewer = viewer;
    this.gl = null; // the TileGL, made for the first tiled scene drawn on the GPU
    this.glFailed = false;
    /** The open tiled scene's: `{ ticket, baseSettled, fade, first, loadFired, failures, cpu, drawnLevel }`, or null. */
    this.state = null;
  }

  /**
   * Opens the shown tiled scene. `load` fires when the coarsest level is in: from then on
   * every direction shows something.
   */
  async open(fade, ticket) {
    const v = this.viewer;
    // The GPU draws tiles unless the CPU renderer was asked for; without WebGL2 the wasm CPU
    // renderer draws them from the same plan.
    const cpu = (v._scene.renderer || v._options.renderer) === 'cpu';
    if (!this.gl && !cpu && !this.glFailed) {
      try { this.gl = TileGL.create(); } catch (e) {
        this.glFailed = true;
        console.warn(`ImageStage viewer: ${e.message}; drawing the tiles on the CPU`);
      }
    }
    const gpu = !cpu && this.gl;
    if (!gpu) await v._useCPU();
    if (v._destroyed || ticket !== v._ticket) return;
    if (fade) v._snapshot();
    if (this.gl) this.gl.clear();
    const geometry = answerGeometry(v.w, v.w.viewer_open_tiles(gpu ? 384 : 0));
    v.w.viewer_layout(v._size.width, v._size.height);
    v._source = { tiled: true, width: geometry.croppedWidth, height: geometry.croppedHeight, geometry };
    this.state = { ticket, baseSettled: 0, fade, first: !v._loaded, loadFired: false, failures: 0, cpu: !gpu };
    v._controls.showLens(false); // tiles are drawn through the normal lens
    v._loading.hidden = true;
    if (v._error) v._clearError();
    v._frame.forget();
    v._loaded = true;
    v._root.classList.add('isv-loaded');
    v._placeHotSpots(true);
    v._invalidate();
  }

  /** Another scene replaces the tiled one. */
  close() { this.state = null; }

  destroy() {
    this.gl?.destroy();
    this.gl = null;
    this.state = null;
  }

  /** Fetches and decodes one tile of the plan; a failure is the core's to retry or give up. */
  async fetch(entry, state) {
    const v = this.viewer;
    const [level, face, x, y] = entry.id.split('/').map(Number);
    if (entry.url == null) {
      // A cube face given as null (Pannellum's partial cube): nothing to fetch, the
      // background colour shows there.
      v.w.viewer_tile_loaded(level, face, x, y);
      if (level === 1) state.baseSettled++;
      v._invalidate();
      return;
    }
    let bitmap;
    try {
      const response = await fetch(new URL(entry.url, location.href).href,
        { credentials: v._scene.crossOrigin === 'use-credentials' ? 'include' : 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      try { bitmap = await createImageBitmap(blob); } catch { throw new Error(`not an image (${blob.type || 'unknown type'}, ${blob.size} bytes)`); }
    } catch (e) {
      if (v._destroyed || state !== this.state) return;
      const again = v.w.viewer_tile_failed(level, face, x, y);
      state.failures++;
      if (level === 1 && !again) state.baseSettled++;
      if (!again && level === 1 && v._scene.type === 'cubemap') {
        // A cube's face has no coarser level behind it: said in the view, naming the file, as
        // Pannellum's fileAccessError does, not a black wall.
        console.warn(`ImageStage viewer: cube face ${entry.url} failed (${e.message})`);
        state.broken = true;
        v._fail(new Error(v._string('fileAccessError', entry.url)), false);
        return;
      }
      console.warn(`ImageStage viewer: tile ${entry.url} failed (${e.message}); ${again ? 'trying again'
        : level === 1 ? 'that part of the view stays empty' : 'showing the coarser level there'}`);
      // A moment before the retry, so a server that is down is not hammered.
      setTimeout(() => v._invalidate(), again ? 300 : 0);
      return;
    }
    if (v._destroyed || state !== this.state) { bitmap.close(); return; }
    if (state.cpu) {
      // Decoded and copied in one go (no await), so no other tile takes the buffer meanwhile.
      const rgba = tilePixels(bitmap);
      const ptr = v.w.web_panorama_buffer(bitmap.width, bitmap.height);
      bitmap.close();
      if (!ptr) { v.w.viewer_tile_failed(level, face, x, y); return; }
      new Uint8Array(v.w.memory.buffer, ptr, rgba.length).set(rgba);
      v.w.viewer_tile_pixels(level, face, x, y);
      v._frame.forget();
    } else {
      this.gl.add(entry.id, bitmap);
      v.w.viewer_tile_loaded(level, face, x, y);
    }
    if (level === 1) state.baseSettled++;
    v._invalidate();
  }

  /**
   * What the viewer holds, as `ViewerMemory` declares it: every field on either renderer
   * (0 where that renderer holds none), so a page reads the same shape on both.
   */
  memory() {
    const v = this.viewer;
    const heap = performance.memory ? performance.memory.usedJSHeapSize : null;
    const wasmBytes = v.w ? v.w.memory.buffer.byteLength : 0;
    if (this.state && this.state.cpu) {
      const [tiles, tileBytes] = answerNumbers(v.w, v.w.viewer_tile_memory());
      return { tiles, textureBytes: 0, tileBytes, wasmBytes, jsHeapBytes: heap };
    }
    return { tiles: this.gl ? this.gl.textures.size : 0, textureBytes: this.gl ? this.gl.textureBytes : 0, tileBytes: 0,
      wasmBytes, jsHeapBytes: heap };
  }

  async ready(state) {
    const v = this.viewer;
    state.loadFired = true;
    await new Promise((r) => requestAnimationFrame(r));
    if (v._destroyed || state !== this.state) return;
    v._loadDone(state.fade, state.first);
  }

  /** Draws this frame's `view` at `pw`×`ph` device pixels: the plan's tiles fetched, dropped, drawn. */
  draw(view, pw, ph) {
    const v = this.viewer, tiles = this.state;
    const plan = readPlan(v, v.w.viewer_tile_plan(pw, ph));
    for (const entry of plan.fetch) this.fetch(entry, tiles);
    if (tiles.cpu) {
      // The core dropped the evicted tiles' pixels while planning.
      if (v._frame.keyChanged() || plan.level !== tiles.drawnLevel) {
        const ptr = v.w.viewer_render_tiles(pw, ph);
        if (ptr) v._ctx.putImageData(new ImageData(new Uint8ClampedArray(v.w.memory.buffer, ptr, pw * ph * 4), pw, ph), 0, 0);
        tiles.drawnLevel = plan.level;
      }
    } else {
      for (const id of plan.evict) this.gl.drop(id);
      this.gl.render(plan, pw, ph, v._scene.backgroundColor || [0, 0, 0]);
      v._ctx.drawImage(this.gl.canvas, 0, 0, v._canvas.width, v._canvas.height);
    }
    v._frame.keep();
    v._placeHotSpots();
    // The coarsest level in (or given up on): every direction shows what it can.
    if (!tiles.loadFired && !tiles.broken && tiles.baseSettled >= 6) this.ready(tiles);
    return view;
  }
}

/**
 * The plan `viewer_tile_plan` left at `viewer_tile_numbers` (`count` numbers, laid out as
 * ViewerWeb.swift says there), as `{ level, focal, fetch: [{ id, url }], evict: [id],
 * draw: [{ id, polygon }] }`; ids are "level/face/x/y".
 */
function readPlan(v, count) {
  // A copy: the fetches below call into the module, which may grow its memory.
  const n = new Float64Array(v.w.memory.buffer, v.w.viewer_tile_numbers(), count).slice();
  let at = 5;
  const tile = () => n.subarray(at, (at += 4));
  const fetch = [], evict = [], draw = [];
  for (let k = 0; k < n[2]; k++) {
    const t = tile(), length = v.w.viewer_tile_url(t[0], t[1], t[2], t[3]);
    fetch.push({ id: t.join('/'), url: length < 0 ? null : v.m.out(length) });
  }
  for (let k = 0; k < n[4]; k++) evict.push(tile().join('/'));
  for (let k = 0; k < n[3]; k++) {
    const id = tile().join('/'), points = n[at++];
    draw.push({ id, polygon: n.subarray(at, (at += points * 5)) });
  }
  return { level: n[0], focal: n[1], fetch, evict, draw };
}
