// The bridge to a Swift module compiled to wasm (web/shared/WasmBridge.swift's side): compiling
// once per address, an instance per user (each viewer on a page has its own memory, freed
// with it), and text and bytes across the boundary.

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const compiled = new Map(); // address → Promise<WebAssembly.Module>

/** Compiles the module at `url` once, however many instances a page makes. */
export function compile(url) {
  const key = String(url);
  if (!compiled.has(key)) {
    const p = (async () => {
      const response = fetch(key);
      try {
        return await WebAssembly.compileStreaming(response);
      } catch {
        // A server without the application/wasm type (or file:): compile from bytes instead.
        const r = await fetch(key);
        if (!r.ok) throw new Error(`${key}: HTTP ${r.status}`);
        return WebAssembly.compile(await r.arrayBuffer());
      }
    })();
    p.catch(() => compiled.delete(key));
    compiled.set(key, p);
  }
  return compiled.get(key);
}

/** A module instance with its helpers: `exports`, `out(length)`, `withBytes(data, body)`. */
export async function instantiate(url) {
  const module = await compile(url);
  let exports;
  const wasi = wasiImports(() => exports.memory);
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: checkImports(module, wasi, url) });
  exports = instance.exports;
  exports._initialize();
  return bridge(exports);
}

/**
 * The WASI functions the modules import, one by one (`memory()`: the instance's memory, once
 * it runs). Nothing else is answered: `checkImports` refuses a module that wants more.
 */
export function wasiImports(memory) {
  return {
    // Embedded Swift prints through fd_write only on a fatal error: show it.
    fd_write(fd, iovs, count, written) {
      const buffer = memory().buffer, view = new DataView(buffer);
      let text = '', total = 0;
      for (let i = 0; i < count; i++) {
        const ptr = view.getUint32(iovs + i * 8, true), len = view.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(new Uint8Array(buffer, ptr, len));
        total += len;
      }
      view.setUint32(written, total, true);
      console.error(text);
      return 0;
    },
    random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(memory().buffer, ptr, len)); return 0; },
  };
}

/**
 * `wasi` when it has every function `module` imports; otherwise an error naming the first
 * missing import (a module linked against more of libc than this host answers for: a stub
 * answering 0 would have it go on with whatever the call was to return).
 */
export function checkImports(module, wasi, url = 'the module') {
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (from === 'wasi_snapshot_preview1' && kind === 'function' && Object.hasOwn(wasi, name)) continue;
    throw new Error(`${url}: imports ${from}.${name} (${kind}), which this page does not provide`);
  }
  return wasi;
}

/** The helpers around an instance's exports. */
export function bridge(exports) {
  return {
    exports,
    /** The text the last call left in the output buffer. */
    out(length) {
      return decoder.decode(new Uint8Array(exports.memory.buffer, exports.web_out_ptr(), length));
    },
    /** The JSON the last call left in the output buffer. */
    json(length) { return JSON.parse(this.out(length)); },
    /** Copies bytes (or a string) into wasm memory for one call. */
    withBytes(data, body) {
      const bytes = typeof data === 'string' ? encoder.encode(data) : data;
      const ptr = exports.web_alloc(bytes.length);
      new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
      try { return body(ptr, bytes.length); } finally { exports.web_free(ptr); }
    },
    /** Two strings (or byte arrays) for one call. */
    withTwo(a, b, body) { return this.withBytes(a, (pa, na) => this.withBytes(b, (pb, nb) => body(pa, na, pb, nb))); },
  };
}

// (A browser without WebAssembly has no traps: the check must not throw there.)
export const isTrap = (e) => typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError;

/**
 * Copies a decoded image's (or a video's frame's) RGBA pixels to `ptr` in the module's memory (room for
 * width × height × 4 bytes). WebCodecs' `VideoFrame.copyTo` converts straight into wasm
 * memory; a 2D canvas's `getImageData` (an extra full-size copy, 0.6 s for 10800×5400 here)
 * is the fallback where it is missing or refuses.
 */
export async function copyPixels(bitmap, memory, ptr, width = bitmap.width, height = bitmap.height) {
  const target = () => new Uint8Array(memory.buffer, ptr, width * height * 4);
  if (typeof VideoFrame !== 'undefined') {
    let frame = null;
    try {
      frame = new VideoFrame(bitmap, { timestamp: 0 });
      // Smaller than the frame (one eye of a stereo video): its top-left part.
      const part = width < frame.displayWidth || height < frame.displayHeight ? { rect: { x: 0, y: 0, width, height } } : {};
      await frame.copyTo(target(), { format: 'RGBA', colorSpace: 'srgb', ...part });
      return 'VideoFrame';
    } catch {
      // An older browser without format conversion: below.
    } finally {
      frame?.close();
    }
  }
  const c = new OffscreenCanvas(width, height);
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(bitmap, 0, 0);
  target().set(g.getImageData(0, 0, width, height).data);
  return 'canvas';
}
