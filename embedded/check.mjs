// Runs the Embedded Swift build of the Stage core under node and checks its answers.
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const stub = new Proxy({}, { get: () => () => 0 });
const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: stub });
const e = instance.exports;
const checks = [
  ['drop near slot 1 snaps to it', e.stage_drop_slot(150, 70), 1],
  ['drop near slot 2 snaps to it', e.stage_drop_slot(250, 55), 2],
  ['drop far away returns to slot 0', e.stage_drop_slot(160, 400), 0],
  ['half way through the 0.2 s ease-in-out snap', e.stage_center_x_after_release(0.1), 155],
  ['snap finished', e.stage_center_x_after_release(0.5), 160],
];
let failed = 0;
for (const [name, got, want] of checks) {
  const ok = Math.abs(got - want) < 1e-9;
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${got} (want ${want})`);
}
process.exit(failed ? 1 : 0);
