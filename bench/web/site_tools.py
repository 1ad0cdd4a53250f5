"""A static server for a bench site and a headless Chromium with the HTTP cache off, shared
by the browser benches (browser.py, tiles.py)."""

import functools
import http.server
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


def start(site, extra_args=()):
    """Serves `site` on a free port; returns (base URL, driver). Every navigation starts cold."""
    server = Server(("127.0.0.1", 0), functools.partial(Handler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--window-size=1280,800", "--enable-unsafe-swiftshader",
                "--force-device-scale-factor=1", *extra_args]:
        options.add_argument(arg)
    # The driver from Debian: Selenium Manager never tries a download.
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return f"http://127.0.0.1:{server.server_port}/", driver
