"""The board's set-up beside SortableJS's, for bench/web.sh (figures, not pass/fail).

One page (bench/web/setup.html) of 200 and 1000 items made draggable by: the classic board
(items on slots), the board's sortable mode (one list) and SortableJS (Debian's
libjs-sortable, `Sortable.create`, one list). Set-up is the time from the call until the
board is ready (its `ready` promise; SortableJS is ready when `create` returns), module
and wasm compile excluded for all three (the page has imported them). ROUNDS rounds,
implementations interleaved, a fresh page each time.

Usage: setup.py SITE_DIR ROUNDS (SITE_DIR holds web/, sortable/, setup.html).
"""

import functools
import http.server
import statistics
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

site, rounds = sys.argv[1], int(sys.argv[2])


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def end_headers(self):
        # Cross-origin isolation: performance.now() at 5 µs, not 100 µs.
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
options = webdriver.ChromeOptions()
for arg in ["--headless=new", "--no-sandbox", "--window-size=1280,800"]:
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(60)

impls = [("board", "ImageStage board, items on slots"), ("sortable", "ImageStage board, mode: 'sortable'"),
         ("sortablejs", "SortableJS (libjs-sortable), Sortable.create")]
sizes = (200, 1000)
times = {(k, n): [] for k, _ in impls for n in sizes}
for r in range(rounds):
    for n in sizes:
        for key, _ in impls:
            driver.get(f"http://127.0.0.1:{server.server_port}/setup.html?impl={key}&n={n}")
            times[key, n].append(driver.execute_async_script(
                "const done = arguments[0];"
                "const wait = () => window.setupMs !== undefined ? done(window.setupMs) : setTimeout(wait, 10); wait();"))
driver.quit()
print(f"set-up, call to ready, ms: min / median of {rounds} interleaved rounds")
for n in sizes:
    for key, name in impls:
        t = times[key, n]
        print(f"  {n:5d} items  {name:42s} {min(t):8.2f} / {statistics.median(t):8.2f}")
