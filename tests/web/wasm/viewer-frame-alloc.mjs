// The viewer's frame allocates nothing in its module: the calls a page makes every frame
// (viewer_advance, viewer_view, viewer_gpu_view, viewer_placements, and getYaw's viewer_view)
// run 300 frames of a moving view with hotspots, shown and hidden, and the module's
// allocation count (libc's allocators wrapped by the test link, alloc-counter.c) stays
// where it was after the first frame. Also checks what they wrote against the view asked for.
//
// node tests/web/wasm/viewer-frame-alloc.mjs MODULE.wasm (make web-frame-alloc links it)
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const module = await WebAssembly.compile(bytes);
let memory;
const wasi = {
  random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(memory.buffer, ptr, len)); return 0; },
  fd_write() { throw new Error('the module printed (a fatal error)'); },
};
const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi });
const w = instance.exports;
memory = w.memory;
w._initialize();

const encoder = new TextEncoder();
function withBytes(text, body) {
  const b = encoder.encode(text);
  const p = w.web_alloc(b.length);
  new Uint8Array(memory.buffer, p, b.length).set(b);
  try { return body(p, b.length); } finally { w.web_free(p); }
}

// Twenty hotspots all round (more than the buffer's first room: it grows once, before the
// frames counted), at every lens's edge cases: behind, above, at the seam.
const hotSpots = [];
for (let k = 0; k < 20; k++) hotSpots.push({ pitch: (k % 5) * 20 - 40, yaw: k * 18 - 180, type: 'info', text: `spot ${k}` });
// The config fed as the page feeds it (viewer-config.js; a data: URL: node reads a .js file
// outside a module package as CommonJS).
const configScript = readFileSync(new URL('../../../web/viewer/viewer-config.js', import.meta.url), 'utf8');
const { feedConfig, readOutcome } = await import(`data:text/javascript,${encodeURIComponent(configScript)}`);
feedConfig({ exports: w, withBytes }, { panorama: 'p.jpg', yaw: 10, pitch: 5, hfov: 100, hotSpots });
const answer = withBytes('test', (sp, sn) => w.viewer_configure(sp, sn, 0, 0));
const outcome = readOutcome(w, answer);
if (outcome.error !== null || outcome.warnings.length) throw new Error(`configure: ${JSON.stringify(outcome)}`);
withBytes('p.jpg', (np, nn) => w.viewer_open(0, 0, 4096, 2048, np, nn));
w.viewer_layout(800, 600);

// The page's own reader of the layout (a data: URL: node reads a .js file outside a module package as CommonJS).
const frameScript = readFileSync(new URL('../../../web/viewer/viewer-frame.js', import.meta.url), 'utf8');
const { SLOT } = await import(`data:text/javascript,${encodeURIComponent(frameScript)}`);
let t = 0;
function frame() {
  t += 1 / 60;
  w.viewer_advance(t);
  w.viewer_view(1600, 1200);
  w.viewer_gpu_view(1600, 1200, 4096, 2048);
  w.viewer_placements(0);
  w.viewer_view(1, 1); // getYaw, for the compass
}

let failed = 0;
const check = (name, ok) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`); if (!ok) failed++; };

frame(); // the first frame may grow the buffer for the hotspots
w.viewer_look(170, -30, 60, 3); // a glide through the seam, down and in: every number moves
const before = w.test_allocations();
const yaws = new Set();
let shownSome = false, hiddenSome = false;
for (let k = 0; k < 300; k++) {
  frame();
  const n = new Float64Array(memory.buffer, w.viewer_frame(), SLOT.placements + 40);
  yaws.add(n[SLOT.yaw]);
  for (let h = 0; h < 20; h++) {
    if (Number.isNaN(n[SLOT.placements + 2 * h])) hiddenSome = true; else shownSome = true;
  }
}
const after = w.test_allocations();
check(`300 frames allocate nothing (allocations ${before} before, ${after} after)`, after === before);
check('the frames moved the view', yaws.size > 100);
check('some hotspots shown, some hidden', shownSome && hiddenSome);

// The numbers are the view: after the glide, yaw 170, pitch −30, hfov 60.
const n = new Float64Array(memory.buffer, w.viewer_frame(), SLOT.placements + 40);
w.viewer_view(1600, 1200);
check(`yaw ${n[SLOT.yaw]}, pitch ${n[SLOT.pitch]}, hfov ${n[SLOT.hfov]} after the glide`,
  Math.abs(n[SLOT.yaw] - 170) < 1e-6 && Math.abs(n[SLOT.pitch] + 30) < 1e-6 && Math.abs(n[SLOT.hfov] - 60) < 1e-6);
check('the key holds the frame size', n[SLOT.keyWidth] === 1600 && n[SLOT.keyHeight] === 1200 && n[SLOT.hasPanorama] === 1);
w.viewer_gpu_view(1600, 1200, 4096, 2048);
// The shader's focal length: half the width over tan(hfov / 2) for the rectilinear lens.
const focal = 800 / Math.tan((60 / 2) * Math.PI / 180);
check(`focal ${n[SLOT.focal]} = ${focal}`, Math.abs(n[SLOT.focal] - focal) < 1e-6);
// The axes are orthonormal.
const col = (k) => [0, 1, 2].map((i) => n[SLOT.matrix + 3 * k + i]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
check('the camera axes are orthonormal', [0, 1, 2].every((i) => [0, 1, 2].every((j) =>
  Math.abs(dot(col(i), col(j)) - (i === j ? 1 : 0)) < 1e-9)));
process.exit(failed ? 1 : 0);
