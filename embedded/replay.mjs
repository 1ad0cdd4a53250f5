// Replays the fuzzer's corpus for the pure-Swift readers (JSON, scenarios, saved states,
// restores into the scene layer) through the Embedded wasm build: a trap only 32-bit code
// has (an `Int` conversion past 2^31, say) fails here, where the native fuzzer never sees it.
// Usage: node embedded/replay.mjs stage.wasm fuzz/corpus Tests/Scenarios
// Files in a corpus folder start with the reader's selector byte (fuzz/PortableReaders.swift);
// a scenarios folder's JSON files are replayed as JSON and as scenarios, as fuzz/run.sh seeds them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [wasmPath, corpus, scenarios] = process.argv.slice(2);
const module = await WebAssembly.compile(readFileSync(wasmPath));
const stub = new Proxy({}, { get: () => () => 0 });
let exports = null;
const fresh = async () => { exports = (await WebAssembly.instantiate(module, { wasi_snapshot_preview1: stub })).exports; };

const inputs = [];
for (const name of readdirSync(corpus).sort()) inputs.push([name, readFileSync(join(corpus, name))]);
if (scenarios) {
  for (const name of readdirSync(scenarios).filter((n) => n.endsWith('.json')).sort()) {
    const text = readFileSync(join(scenarios, name));
    inputs.push([`${name} as JSON`, Buffer.concat([Buffer.from([0]), text])]);
    inputs.push([`${name} as a scenario`, Buffer.concat([Buffer.from([1]), text])]);
  }
}

await fresh();
let run = 0, traps = 0;
const started = performance.now();
for (const [name, bytes] of inputs) {
  const ptr = exports.replay_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    run += exports.replay_input(ptr, bytes.length);
    exports.replay_free(ptr);
  } catch (e) {
    traps++;
    console.log(`TRAP ${name}: ${e.message}`);
    await fresh(); // the instance's state is not to be trusted after a trap
  }
}
const ms = Math.round(performance.now() - started);
console.log(`${traps ? 'FAIL' : 'ok  '} replayed ${run} of ${inputs.length} inputs through the wasm readers in ${ms} ms, ${traps} traps`);
process.exit(traps || run === 0 ? 1 : 0);
