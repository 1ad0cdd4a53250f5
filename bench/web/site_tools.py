"""A static server for a bench site and a headless Chromium (the HTTP cache off unless asked),
shared by the browser benches (browser.py, tiles.py, board.py, setup.py, sortable.py)."""

import functools
import gzip
import http.server
import os
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


class IsolatedHandler(Handler):
    """Cross-origin isolated (COOP/COEP): performance.now() at 5 µs, not 100 µs."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


class ShippedHandler(Handler):
    """As a host serves what ships: `web/…` from `shipped` (make web-min's minified files)
    where it has the file, gzip-encoded (-6, once per file) for a browser that asks."""

    shipped = None
    cache = {}

    def translate_path(self, path):
        plain = path.split("?")[0].split("#")[0]
        if self.shipped and plain.startswith("/web/"):
            candidate = os.path.join(self.shipped, plain[len("/web/"):])
            if os.path.isfile(candidate):
                return candidate
        return super().translate_path(path)

    def send_head(self):
        path = self.translate_path(self.path)
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not os.path.isfile(path):
            return super().send_head()
        if path not in self.cache:
            with open(path, "rb") as f:
                self.cache[path] = gzip.compress(f.read(), 6)
        body = self.cache[path]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io
        return io.BytesIO(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


def start(site, extra_args=(), shipped=None, isolated=False, cold=True):
    """Serves `site` on a free port; returns (base URL, driver). With `cold`, every navigation
    starts with the HTTP cache off. With `shipped` (a folder), as a host serves what ships:
    ShippedHandler. With `isolated`, the pages are cross-origin isolated (IsolatedHandler)."""
    handler = Handler
    if shipped:
        handler = type("Shipped", (ShippedHandler,), {"shipped": shipped, "cache": {}})
    if isolated:
        handler = type("Isolated", (IsolatedHandler, handler), {})
    server = Server(("127.0.0.1", 0), functools.partial(handler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--window-size=1280,800", "--enable-unsafe-swiftshader",
                "--force-device-scale-factor=1", *extra_args]:
        options.add_argument(arg)
    # The driver from Debian: Selenium Manager never tries a download.
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if cold:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return f"http://127.0.0.1:{server.server_port}/", driver
