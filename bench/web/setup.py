"""The board's set-up beside SortableJS's, for bench/web.sh (figures, not pass/fail).

One page (bench/web/setup.html) of 200 and 1000 items made draggable by: the classic board
(items on slots), the board's sortable mode (one list) and SortableJS (Debian's
libjs-sortable, `Sortable.create`, one list). ROUNDS rounds, implementations interleaved, a
fresh page each time, the HTTP cache on. Each page gives:
- set-up: the call until the board takes input (its `ready` promise; SortableJS is ready
  when `create` returns). Each module is imported before the call, as SortableJS's script
  is loaded; the board's wasm is fetched, compiled and started within the call;
- the frame after it: the call until the next frame has been drawn (the style, layout and
  paint the set-up's DOM writes left for it);
- the page's ready time: navigation start until the board takes input;
- a second board on the same items (the first destroyed): the module compiled already
  (wasm.js compiles each module once a page), the style sheet added;
- the phases of the board's set-up, from its User Timing marks (imagestage-board:*), each
  the time since the one before: checked (options and selectors), read (the container, items
  and slots found, every box read), described (items and slots marked and named, the live
  region added), wasm (waiting for the module, fetched and compiled off the main thread beside
  those; the browser draws a frame in this wait, with the restyle and repaint the marks
  cause), created (the description packed, board_create), listening (listeners and
  observers), ready (elements placed, board_layout). The sortable mode reads no box at
  set-up (its first press measures): read is its lists found, described its items marked,
  created nothing (its engine starts at the first need).

Usage: setup.py SITE_DIR ROUNDS [WEB_DIR...] (SITE_DIR holds web/, sortable/, setup.html).
WEB_DIRs (directories in SITE_DIR, each a build/web) compare builds of the board, interleaved
in each round: e.g. `before` (a copy of build/web from main) and `web` (this branch).
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
import site_tools  # noqa: E402

site, rounds = sys.argv[1], int(sys.argv[2])
builds = sys.argv[3:] or ["web"]
# Cross-origin isolated: performance.now() at 5 µs, not 100 µs. The HTTP cache on, as before.
base, driver = site_tools.start(site, isolated=True, cold=False)
driver.set_script_timeout(60)

impls = [(f"{impl}@{web}", f"{name}{f' [{web}]' if len(builds) > 1 else ''}") for web in builds
         for impl, name in (("board", "ImageStage board, items on slots"), ("sortable", "ImageStage board, mode: 'sortable'"))]
impls.append(("sortablejs", "SortableJS (libjs-sortable), Sortable.create"))
sizes = (200, 1000)
figures = ("setup", "frame", "page", "second", "secondFrame")
results = {(k, n): [] for k, _ in impls for n in sizes}
for r in range(rounds):
    for n in sizes:
        for key, _ in impls:
            impl, _, web = key.partition("@")
            driver.get(f"{base}setup.html?impl={impl}&n={n}&web={web or 'web'}")
            results[key, n].append(driver.execute_async_script(
                "const done = arguments[0];"
                "const wait = () => window.result !== undefined ? done(window.result) : setTimeout(wait, 10); wait();"))
driver.quit()


def cell(values):
    return f"{min(values):7.2f} / {statistics.median(values):7.2f}"


print(f"set-up, ms: min / median of {rounds} interleaved rounds")
print(f"  {'':56s} {'call to ready':>17s} {'to next frame':>17s} {'page ready':>17s}"
      f" {'2nd board':>17s} {'2nd, next frame':>17s}")
for n in sizes:
    for key, name in impls:
        rs = results[key, n]
        print(f"  {n:5d} items  {name:44s} " + " ".join(f"{cell([x[k] for x in rs]):>17s}" for k in figures))
for n in sizes:
    for web in builds:
        ratios = [s["setup"] / b["setup"] for s, b in zip(results["sortablejs", n], results[f"sortable@{web}", n])]
        print(f"  {n:5d} items  SortableJS ÷ mode: 'sortable'{f' [{web}]' if len(builds) > 1 else ''}, call to ready,"
              f" median of per-round ratios: {statistics.median(ratios):6.3f}×")
if len(builds) > 1:
    for n in sizes:
        for impl in ("board", "sortable"):
            for web in builds[1:]:
                ratios = [a["setup"] / b["setup"] for a, b in zip(results[f"{impl}@{web}", n], results[f"{impl}@{builds[0]}", n])]
                print(f"  {n:5d} items  {impl} [{web}] ÷ [{builds[0]}], call to ready, median of per-round ratios:"
                      f" {statistics.median(ratios):6.3f}×")
for which, label in (("phases", "the first board"), ("secondPhases", "the second board")):
    print(f"phases of {label}'s set-up (User Timing marks), ms: min / median")
    for n in sizes:
        for key, name in impls[:-1]:
            rs = results[key, n]
            phases = [p for p in ("checked", "read", "described", "wasm", "created", "listening", "ready") if p in rs[0][which]]
            print(f"  {n:5d} items  {name:44s} " + "  ".join(f"{p} {cell([x[which].get(p, 0) for x in rs])}" for p in phases))
