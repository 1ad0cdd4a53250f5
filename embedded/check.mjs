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
  ['heading of a tilted, rolled device', e.pano_yaw_from_attitude(123, 30, 20), 123],
  ['heading past the wrap', e.pano_yaw_from_attitude(-170, -10, 90), -170],
  ['motion log parsed in the core', e.pano_parse_log(), 2],
];
// The sample's compass letters (stroke glyphs 4° to 9° below the horizon): a red N at yaw 0 (its
// diagonal crosses the centre column half way down, 6.5° below), a white E at yaw 90 (its middle bar, on this 512-px sample brightest at 6.25°).
const rgb = (v) => [v & 255, (v >> 8) & 255, (v >> 16) & 255];
const [nr, ng] = rgb(e.pano_render_center(0, -6.5));
const [er, eg, eb] = rgb(e.pano_render_center(90, -6.25));
checks.push(['north letter is red at yaw 0', nr > ng + 60 ? 1 : 0, 1]);
checks.push(['east letter is white at yaw 90', er > 200 && eg > 200 && eb > 200 ? 1 : 0, 1]);
// The four-pixel path with its 32.32 stepping, where Int is 32 bits: close to the exact view.
const psnr = e.pano_grid_psnr() / 100;
checks.push([`blocks match 2×2 blocks (PSNR ${psnr} dB > 35)`, psnr > 35 ? 1 : 0, 1]);
const aliased = e.pano_mip_spread(0) / 100, averaged = e.pano_mip_spread(1) / 100;
checks.push([`stripes alias without mip levels (spread ${aliased} > 40)`, aliased > 40 ? 1 : 0, 1]);
checks.push([`and average to grey with them (spread ${averaged} < 3)`, averaged < 3 ? 1 : 0, 1]);
// The scene layer: a drop 80 pt beside a big slot's centre lands in it; a sideways scroll
// never zooms, a notch away zooms in 10 %.
checks.push(['scene layer: a drop inside a big slot lands', e.scenes_drop_beside_slot1(80), 1]);
checks.push(['scene layer: a drop far outside goes home', e.scenes_drop_beside_slot1(2000), 0]);
checks.push(['scene layer: a sideways scroll keeps the zoom', e.scenes_hfov_after_wheel(3, 0), 90]);
checks.push(['scene layer: one notch zooms in 10 %', Math.round(e.scenes_hfov_after_wheel(0, 1) * 1e6) / 1e6, 81]);
let failed = 0;
for (const [name, got, want] of checks) {
  const ok = Math.abs(got - want) < 1e-9;
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${got} (want ${want})`);
}
process.exit(failed ? 1 : 0);
