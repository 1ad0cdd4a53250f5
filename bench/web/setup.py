"""The board's set-up beside SortableJS's, for bench/web.sh (figures, not pass/fail).

One page (bench/web/setup.html) of 200 and 1000 items made draggable by: the classic board
(items on slots), the board's sortable mode (one list) and SortableJS (Debian's
libjs-sortable, `Sortable.create`, one list). Set-up is the time from the call until the
board is ready (its `ready` promise; SortableJS is ready when `create` returns), module
and wasm compile excluded for all three (the page has imported them). ROUNDS rounds,
implementations interleaved, a fresh page each time.

Usage: setup.py SITE_DIR ROUNDS (SITE_DIR holds web/, sortable/, setup.html).
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
import site_tools  # noqa: E402

site, rounds = sys.argv[1], int(sys.argv[2])
# Cross-origin isolated: performance.now() at 5 µs, not 100 µs. The HTTP cache on, as before.
base, driver = site_tools.start(site, isolated=True, cold=False)
driver.set_script_timeout(60)

impls = [("board", "ImageStage board, items on slots"), ("sortable", "ImageStage board, mode: 'sortable'"),
         ("sortablejs", "SortableJS (libjs-sortable), Sortable.create")]
sizes = (200, 1000)
times = {(k, n): [] for k, _ in impls for n in sizes}
for r in range(rounds):
    for n in sizes:
        for key, _ in impls:
            driver.get(f"{base}setup.html?impl={key}&n={n}")
            times[key, n].append(driver.execute_async_script(
                "const done = arguments[0];"
                "const wait = () => window.setupMs !== undefined ? done(window.setupMs) : setTimeout(wait, 10); wait();"))
driver.quit()
print(f"set-up, call to ready, ms: min / median of {rounds} interleaved rounds")
for n in sizes:
    for key, name in impls:
        t = times[key, n]
        print(f"  {n:5d} items  {name:42s} {min(t):8.2f} / {statistics.median(t):8.2f}")
for n in sizes:
    ratios = [s / b for s, b in zip(times["sortablejs", n], times["sortable", n])]
    print(f"  {n:5d} items  SortableJS ÷ mode: 'sortable', median of per-round ratios:"
          f" {statistics.median(ratios):6.3f}×")
