// wasm.js answers only the WASI functions it lists (`wasiImports`): every shipped module
// instantiates with them, and a module that imports anything else is refused before it
// runs, with the import's name (it once got a stub answering 0 for any name).
//
// node tests/web/wasm/wasi-imports.mjs build/web/*.wasm
import { readFileSync } from 'node:fs';

const source = readFileSync(new URL('../../../web/shared/wasm.js', import.meta.url), 'utf8');
const { checkImports, wasiImports } = await import(`data:text/javascript,${encodeURIComponent(source)}`);

let failed = 0;
const check = (name, ok) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`); if (!ok) failed++; };

for (const file of process.argv.slice(2)) {
  const module = await WebAssembly.compile(readFileSync(file));
  let error = null;
  try { checkImports(module, wasiImports(() => null), file); } catch (e) { error = e; }
  const wanted = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`).join(', ');
  check(`${file} (imports ${wanted || 'nothing'}) is given every import`, error === null);
}

/** A module importing one function, `from`.`name`, of type () → (). */
function importing(from, name) {
  const text = (s) => [s.length, ...new TextEncoder().encode(s)];
  const section = (id, body) => [id, body.length, ...body];
  const types = section(1, [1, 0x60, 0, 0]);
  const imports = section(2, [1, ...text(from), ...text(name), 0, 0]);
  return new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...types, ...imports]));
}

for (const [from, name] of [['wasi_snapshot_preview1', 'fd_read'], ['wasi_snapshot_preview1', 'proc_exit'],
  ['wasi_snapshot_preview1', 'toString'], ['env', 'random_get']]) {
  let message = '';
  try { checkImports(importing(from, name), wasiImports(() => null), 'test.wasm'); } catch (e) { message = e.message; }
  check(`a module importing ${from}.${name} is refused by name (${message})`,
    message.includes(`test.wasm: imports ${from}.${name}`));
}
process.exit(failed ? 1 : 0);
