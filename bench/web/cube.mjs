// The cube renderers in wasm under node (V8, as in Chromium), for bench/cube.sh:
// node bench/web/cube.mjs MODULE.wasm FACE WIDTH HEIGHT ROUNDS PITCH
// Times each case as a slope, (40 frames − 10 frames) / 30, the cases interleaved round by
// round; prints `RESULT wasm CASE MS` per round.
import { readFileSync } from 'node:fs';

const [wasmPath, face, w, h, rounds, pitch] = process.argv.slice(2);
let memory;
const wasi = new Proxy({
  random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(memory.buffer, ptr, len)); return 0; },
}, { get: (t, k) => t[k] || (() => 0) });
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { wasi_snapshot_preview1: wasi });
const e = instance.exports;
memory = e.memory;
e._initialize();
e.bench_cube_setup(Number(face));
const names = ['equirectangular', 'cube-reference', 'cube-stepped', 'tiled-reference', 'tiled-stepped'];
const width = Number(w), height = Number(h), p = Number(pitch);
let first = 0;
const time = (c, n) => {
  const start = performance.now();
  e.bench_cube_render(c, width, height, n, first, p);
  first += n;
  return performance.now() - start;
};
for (let r = 0; r < Number(rounds); r++) {
  names.forEach((name, c) => {
    time(c, 1);
    const short = time(c, 10), long = time(c, 40);
    console.log(`RESULT wasm ${name} ${((long - short) / 30).toFixed(3)}`);
  });
}
