// Reads each config of a JSON list with the viewer's module (fed by viewer-config.js's
// feedConfig, then viewer_configure, as the page does) and prints what the core said of each
// (read by viewer-config.js's readOutcome): `{"error": …}` or `{"warnings": […]}`, one JSON list. tests/web/test_declarations.py holds the types to these answers.
//
// node tests/web/wasm/viewer-configure.mjs MODULE.wasm CONFIGS.json
import { readFileSync } from 'node:fs';

const module = await WebAssembly.compile(readFileSync(process.argv[2]));
const configs = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const encoder = new TextEncoder();
// (A data: URL: node reads a .js file outside a module package as CommonJS.)
const configScript = readFileSync(new URL('../../../web/viewer/viewer-config.js', import.meta.url), 'utf8');
const { feedConfig, readOutcome } = await import(`data:text/javascript,${encodeURIComponent(configScript)}`);
const answers = [];
for (const config of configs) {
  // A fresh instance for each: one config's state never reaches the next.
  let memory;
  const wasi = { random_get(p, n) { crypto.getRandomValues(new Uint8Array(memory.buffer, p, n)); return 0; } };
  const { exports: w } = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi });
  memory = w.memory;
  w._initialize();
  const withBytes = (text, body) => {
    const b = encoder.encode(text), p = w.web_alloc(b.length);
    new Uint8Array(memory.buffer, p, b.length).set(b);
    try { return body(p, b.length); } finally { w.web_free(p); }
  };
  feedConfig({ exports: w, withBytes }, config);
  const length = withBytes('config', (sp, sn) => w.viewer_configure(sp, sn, 0, 0));
  const { error, warnings } = readOutcome(w, length);
  answers.push(error !== null ? { error } : { warnings });
}
console.log(JSON.stringify(answers));
