"""The board component's work per pointer move, for bench/web.sh (figures, not pass/fail).

A page of 1000 items on 1000 slots (bench/web/board.html), one item dragged 300 moves per
round by: ImageStage's board (imagestage-board.js and its wasm), jQuery UI's draggable
with `snap` and droppable slots (Debian's libjs-jquery-ui), and a plain-JS nearest-slot
loop. Each move is a dispatched event timed with performance.now() around the handlers it
runs (what runs on the main thread for it). ROUNDS rounds, implementations interleaved.

Usage: board.py SITE_DIR ROUNDS (SITE_DIR holds web/, jquery/, jquery-ui/, board.html).
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
import site_tools  # noqa: E402

site, rounds = sys.argv[1], int(sys.argv[2])
# Cross-origin isolated: performance.now() at 5 µs, not 100 µs. The HTTP cache on, as before.
base, driver = site_tools.start(site, isolated=True, cold=False)
driver.set_script_timeout(120)

impls = [("imagestage", "ImageStage board (wasm engine)"), ("jqueryui", "jQuery UI draggable+droppable, snap"),
         ("plain", "plain JS nearest-slot loop")]
times = {k: [] for k, _ in impls}
medians = {k: [] for k, _ in impls}
for r in range(rounds):
    for key, _ in impls:
        driver.get(f"{base}board.html?impl={key}")
        driver.execute_async_script("const done = arguments[0];"
                                    "const wait = () => window.benchReady ? done() : setTimeout(wait, 20); wait();")
        # Three items: from the top left, the middle and late in the list.
        for n in (41, 500, 960):
            t, moved = driver.execute_async_script("run(arguments[0], arguments[1]).then(arguments[2])", n, 300)
            assert moved, f"{key}: the item did not follow the pointer"
            times[key] += t
            medians[key].append(statistics.median(t))
        isolated = driver.execute_script("return crossOriginIsolated")
driver.quit()


def p99(values):
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * 0.99))]


print(f"timer resolution: {'5 µs (cross-origin isolated)' if isolated else '100 µs'}")
print(f"per pointer move, 1000 items on 1000 slots, {rounds} rounds × 3 drags × 300 moves (ms; aim: median < 0.5, p99 < 2)")
for key, label in impls:
    v = times[key]
    print(f"  {label:38} median {statistics.median(v):6.3f}  p99 {p99(v):6.3f}  max {max(v):6.2f}"
          f"  (round medians min {min(medians[key]):.3f})")
base = statistics.median(times["imagestage"])
for key, label in impls[1:]:
    print(f"  {label:38} ÷ ImageStage, median: {statistics.median(times[key]) / base:5.2f}×")
