// The wasm CPU renderer under node (V8, as in Chromium), for bench/web.sh:
// node bench/web/cpu.mjs MODULE.wasm RAW.rgba WIDTH HEIGHT OUT_W OUT_H FRAMES
// Hands the RGBA pixels to the page's module as the page does, renders one frame, then
// prints the seconds FRAMES more frames took, yaw 1° further each (the same views as
// `pano-bench --frames`).
import { readFileSync } from 'node:fs';

const [wasmPath, rawPath, w, h, ow, oh, frames] = process.argv.slice(2);
const width = Number(w), height = Number(h), outW = Number(ow), outH = Number(oh), n = Number(frames);
let memory;
const wasi = new Proxy({
  random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(memory.buffer, ptr, len)); return 0; },
}, { get: (t, k) => t[k] || (() => 0) });
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { wasi_snapshot_preview1: wasi });
const e = instance.exports;
memory = e.memory;
e._initialize();
e.web_start(2, 0);
e.web_layout(outW, outH + 44, 0);
const name = new TextEncoder().encode('bench');
const np = e.web_alloc(name.length);
new Uint8Array(memory.buffer, np, name.length).set(name);
e.web_open_panorama(0, 0, width, height, np, name.length);
const raw = readFileSync(rawPath);
const ptr = e.web_panorama_buffer(width, height);
new Uint8Array(memory.buffer, ptr, raw.length).set(raw);
e.web_panorama_commit();
e.web_panorama_mip_levels();
const setYaw = (k) => e.web_set_camera(k, 0, 90, 0, 0);
setYaw(0);
e.web_render_cpu(outW, outH);
const start = performance.now();
for (let k = 1; k <= n; k++) {
  setYaw(k);
  e.web_render_cpu(outW, outH);
}
console.log((performance.now() - start) / 1000);
