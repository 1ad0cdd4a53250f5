"""The board's sortable mode beside SortableJS 1.14 (Debian's libjs-sortable), for
bench/web.sh (figures, not pass/fail; issue 38's "Speed and weight").

1. Two pages, each made sortable by one library that alone it fetches, served as a host
   serves what ships (web-min's files, gzip-encoded), the HTTP cache off:
   bench/web/kanban.html (web/board/examples/kanban.html's three columns) and
   bench/web/gallery.html (12 photos in a CSS grid). For each: weight (every file the page
   fetched, gzip -9'd one by one as scripts/web-weights does), ready (navigation start to the
   library ready: the board's `ready`, SortableJS's `create` returned) and set-up (the call to
   ready, the library's script already loaded; the board's wasm is fetched and compiled
   within it).
2. Per move while the neighbours make room (bench/web/moves.html): a list of 200 and of 1000
   items wrapping in rows; one item picked up in the middle of the list and moved by real CDP
   input (Input.dispatchMouseEvent) over the next MOVES items' places, one place per move, so
   each move moves the insertion point by one. Each move is timed in the page from its input
   event's timeStamp to (a) the library's own "the insertion point moved" callback (the
   board's `sort`, SortableJS's `onChange`: the DOM or the transforms written by then) and
   (b) the end of the first frame rendered after it (a message posted from a
   requestAnimationFrame callback runs once that frame's style, layout and paint are done).
   The same clock, listeners and frame loop run for every library; each library reacts in its
   own way (the board at each pointer move, SortableJS at each HTML5 dragover, or with
   forceFallback on a 50 ms timer), and that is what a user sees. One leaning: an HTML5
   drag's dragenter/dragover is stamped when the renderer makes it, a pointer move when the
   browser takes the input, so SortableJS's HTML5 drag is timed from a little later. The next
   move is sent 50 ms after the last was recorded (or 300 ms passed: a move with no sort counts
   as missed): SortableJS ignores drag events for 30 ms after each insert, and where a mouse
   would send more, CDP sends nothing. "landed" counts the drags whose item ended where
   SortableJS puts it, "restarted" the drags started again because the library never said
   `start` (a press lost under load).

ROUNDS rounds, implementations interleaved within each, a fresh page each time; min and median
(of all moves for per move: median and p99, and the min of the rounds' medians), and the
median of per-round ratios against the board.

Usage: sortable.py SITE_DIR SHIPPED_DIR ROUNDS [MOVES]
  SITE_DIR holds web/ (build/web), sortable/ (Debian's libjs-sortable), kanban.html,
  gallery.html and moves.html; SHIPPED_DIR is make web-min's build/web-min.
"""

import gzip
import os
import statistics
import sys
import time
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(__file__))
import site_tools  # noqa: E402

site, shipped, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
moves = int(sys.argv[4]) if len(sys.argv) > 4 else 60
base, driver = site_tools.start(site, shipped=shipped, isolated=True)
driver.set_script_timeout(60)

WAIT = "const [name, done] = arguments; const t0 = performance.now();" \
       "const poll = () => window[name] !== undefined || performance.now() - t0 > 20000 ? done(window[name] ?? null)" \
       " : setTimeout(poll, 5); poll();"
IMPLS = [("board", "board, mode: 'sortable'"), ("sortablejs", "SortableJS, HTML5 drag"),
         ("fallback", "SortableJS, forceFallback")]


def on_disk(path):
    """The file a page's URL path was served from (ShippedHandler's rule: web-min first)."""
    if path.startswith("/web/") and os.path.isfile(os.path.join(shipped, path[len("/web/"):])):
        return os.path.join(shipped, path[len("/web/"):])
    return os.path.join(site, path.lstrip("/"))


def p99(values):
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * 0.99))]


def ratio_line(label, per_round, key):
    """The median of per-round ratios of `key`'s figure to the board's."""
    ratios = [r[key] / r["board"] for r in per_round if r.get(key) and r.get("board")]
    return f"  {label:48s} ÷ board, median of per-round ratios: {statistics.median(ratios):6.2f}×" if ratios else ""


print(f"CPU: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, "
      f"{os.cpu_count()} cores; load average {' '.join(open('/proc/loadavg').read().split()[:3])}")

# 1. Kanban and gallery: weight, ready, set-up.
pages = ("kanban", "gallery")
pageimpls = [IMPLS[0], ("sortablejs", "SortableJS 1.14")]  # one page for both of its drags
ready = {(p, k): [] for p in pages for k, _ in pageimpls}
setup = {(p, k): [] for p in pages for k, _ in pageimpls}
fetched = {}
for key, _ in pageimpls:  # warm-up, not counted: the browser's first navigations are slower
    driver.get(f"{base}kanban.html?impl={key}")
    driver.execute_async_script(WAIT, "bench")
for r in range(rounds):
    for p in pages:
        for key, _ in pageimpls:
            driver.get(f"{base}{p}.html?impl={key}")
            b = driver.execute_async_script(WAIT, "bench")
            assert b, f"{p} with {key}: never ready"
            ready[p, key].append(b["readyMs"])
            setup[p, key].append(b["setupMs"])
            fetched[p, key] = [f"/{p}.html"] + driver.execute_script(
                "return performance.getEntriesByType('resource').map((e) => e.name)")
print()
print(f"-- kanban and gallery pages, each library alone, what ships (gzip-encoded, HTTP cache off); "
      f"ms: min / median of {rounds} interleaved rounds")
print(f"  {'page':8s} {'library':30s} {'weight gzip -9':>15s} {'of it the library':>18s}"
      f" {'ready':>17s} {'set-up':>17s}")
for p in pages:
    for key, label in pageimpls:
        # What it fetched and got (a favicon.ico the site lacks is a 404, no weight).
        paths = sorted(u for u in {urlparse(u).path for u in fetched[p, key]} if os.path.isfile(on_disk(u)))
        sizes = {u: len(gzip.compress(open(on_disk(u), "rb").read(), 9)) for u in paths}
        total = sum(sizes.values())
        library = total - sizes[f"/{p}.html"]
        print(f"  {p:8s} {label:30s} {total / 1024:12.1f} KB {library / 1024:15.1f} KB"
              f" {min(ready[p, key]):8.1f} / {statistics.median(ready[p, key]):6.1f}"
              f" {min(setup[p, key]):8.2f} / {statistics.median(setup[p, key]):6.2f}")
        print(f"  {'':8s}   fetched: {', '.join(f'{u} {s / 1024:.1f}' for u, s in sizes.items())}")
    for what, table in (("ready", ready), ("set-up", setup)):
        per_round = [{k: table[p, k][r] for k, _ in pageimpls} for r in range(rounds)]
        print(ratio_line(f"{p}, {what}: SortableJS", per_round, "sortablejs"))


# 2. Per move while the neighbours make room.
def mouse(kind, x, y, buttons=1):
    event = {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons}
    if kind in ("mousePressed", "mouseReleased"):
        event["clickCount"] = 1
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", event)


def one_drag(key, n):
    """One drag on a fresh page: (records, moves missed, landed, drags that never started)."""
    for tries in range(3):
        got = one_try(key, n)
        if got:
            return (*got, tries)
    raise SystemExit(f"moves.html {key} {n}: the drag never started in 3 tries")


def one_try(key, n):
    driver.get(f"{base}moves.html?impl={key}&n={n}")
    assert driver.execute_async_script(WAIT, "benchReady"), f"moves.html {key} {n}: never ready"
    centres = driver.execute_script(
        "return [...document.querySelectorAll('.item')].map((el) => { const r = el.getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2]; })")
    per_row = sum(1 for c in centres if c[1] == centres[0][1])
    start = (n // 2) // per_row * per_row  # the first item of a row in the middle of the list
    x, y = centres[start]
    mouse("mouseMoved", x, y, 0)
    mouse("mousePressed", x, y)
    for dx in (4, 8, 2):  # past every library's drag threshold, still over its own place
        mouse("mouseMoved", x + dx, y)
        time.sleep(0.05)
    started = driver.execute_async_script(
        "const done = arguments[0]; const t0 = performance.now();"
        "const poll = () => started || performance.now() - t0 > 2000 ? done(started) : setTimeout(poll, 5); poll();")
    if not started:  # under load a press can be missed: release, count it, start again
        mouse("mouseReleased", x, y, 0)
        return None
    time.sleep(0.2)
    missed = 0
    for k in range(1, moves + 1):
        before = driver.execute_script("arm(); return records.length")
        mouse("mouseMoved", *centres[start + k])
        got = driver.execute_async_script(
            "const [count, done] = arguments; const t0 = performance.now();"
            "const poll = () => records.length > count || performance.now() - t0 > 300 ? done(records.length > count)"
            " : setTimeout(poll, 2); poll();", before)
        missed += not got
        # SortableJS ignores drag events for 30 ms after each insert (its `_silent`): a mouse
        # would send another event later, CDP sends nothing more, so the next move waits.
        time.sleep(0.05)
    mouse("mouseReleased", *centres[start + moves], 0)
    time.sleep(0.3)
    records = driver.execute_script("return records")
    moved = driver.execute_script("return order()")[start + moves] == f"i{start}"
    return records, missed, moved


sizes = (200, 1000)
frames = {(k, n): [] for k, _ in IMPLS for n in sizes}
sorts = {(k, n): [] for k, _ in IMPLS for n in sizes}
round_medians = {(k, n): [] for k, _ in IMPLS for n in sizes}
misses = {(k, n): 0 for k, _ in IMPLS for n in sizes}
landed = {(k, n): 0 for k, _ in IMPLS for n in sizes}
restarts = {(k, n): 0 for k, _ in IMPLS for n in sizes}
for r in range(rounds):
    for n in sizes:
        for key, _ in IMPLS:
            records, missed, moved, tries = one_drag(key, n)
            restarts[key, n] += tries
            frames[key, n] += [x["frame"] for x in records]
            sorts[key, n] += [x["sorted"] for x in records]
            round_medians[key, n].append(statistics.median(x["frame"] for x in records) if records else None)
            misses[key, n] += missed
            landed[key, n] += moved
print()
print(f"-- per move while the neighbours make room: real CDP mouse input, {moves} moves a drag, one drag a round;"
      f" ms from the input event: median / p99 of every move, min of the {rounds} rounds' medians")
print(f"  {'items':>5s} {'library':30s} {'to its sort callback':>22s} {'to the frame rendered':>32s}  missed  landed  restarted")
for n in sizes:
    for key, label in IMPLS:
        s, f = sorts[key, n], frames[key, n]
        if not f:
            print(f"  {n:5d} {label:30s} no move gave a sort")
            continue
        rm = [m for m in round_medians[key, n] if m is not None]
        print(f"  {n:5d} {label:30s} {statistics.median(s):9.2f} / {p99(s):8.2f}"
              f" {statistics.median(f):9.2f} / {p99(f):8.2f}  (min {min(rm):6.2f})"
              f"  {misses[key, n]:4d}/{moves * rounds}  {landed[key, n]}/{rounds}  {restarts[key, n]}")
    for key, label in IMPLS[1:]:
        per_round = [{k: round_medians[k, n][r] for k, _ in IMPLS} for r in range(rounds)]
        print(ratio_line(f"{n} items, frame: {label}", per_round, key))
driver.quit()
