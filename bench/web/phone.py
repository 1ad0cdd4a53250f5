"""Load time on a phone-sized screen, for bench/web.sh (figures, not pass/fail).

Chromium's mobile emulation over CDP: a 390×844 CSS-pixel screen at 3 device pixels per CSS
pixel, touch, a mobile user agent; the network throttled as Lighthouse's mobile run does
("slow 4G": 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and the CPU slowed 4×, the
HTTP cache off; served as a host serves what ships (make web-min's minified files, every
response gzip-encoded). Navigation → `load` of the 4096×2048 panorama in our standalone viewer and
Pannellum's (its published src/standalone), interleaved round by round; navigation → the
board example (locations.html) ready. Prints RESULT lines with min and median.

Usage: phone.py SITE_DIR ROUNDS (the site browser.py uses: web/, pannellum/, images/, and
web-min/: build/web-min).
"""

import os
import statistics
import sys
import time

import site_tools

site, rounds = sys.argv[1], int(sys.argv[2])
# Served as a host serves what ships: make web-min's files, everything gzip-encoded
# (Pannellum's src/ too, as published: unminified).
base, driver = site_tools.start(site, (), shipped=os.path.join(site, "web-min"))
cdp = driver.execute_cdp_cmd
cdp("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
cdp("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
cdp("Network.setUserAgentOverride", {"userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                                                  "(KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36"})
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
cdp("Network.emulateNetworkConditions", NETWORK)
cdp("Emulation.setCPUThrottlingRate", {"rate": 4})
cdp("Page.addScriptToEvaluateOnNewDocument", {"source": """
  window.benchLoadedAt = null; window.benchError = null;
  let real;
  Object.defineProperty(window, 'pannellum', { configurable: true, get() { return real; }, set(v) {
    real = v && Object.assign({}, v, { viewer(...args) {
      const x = v.viewer(...args);
      x.on('load', () => { if (window.benchLoadedAt == null) window.benchLoadedAt = performance.now(); });
      x.on('error', (e) => { window.benchError = String(e); });
      return x;
    } });
  } });
  window.benchReadyAt = null;
  let board;
  Object.defineProperty(window, 'places', { configurable: true, get() { return board; }, set(v) {
    board = v;
    v.ready.then(() => { window.benchReadyAt = performance.now(); });
  } });
"""})


def navigate(url, done, error="null", timeout=120):
    driver.get("about:blank")
    driver.get(url)
    end = time.time() + timeout
    while time.time() < end:
        value, problem = driver.execute_script(f"return [{done}, {error}]")
        if problem:
            raise RuntimeError(f"{url}: {problem}")
        if value is not None:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"{url}: not loaded after {timeout} s")


LOADED = "window.benchLoadedAt ?? (window.viewer && window.viewer.loadedAt) ?? null"
FAILED = "window.benchError || (window.viewer && window.viewer.getError && window.viewer.getError()) || null"
BOARD_READY = "window.benchReadyAt"  # the example's board's `ready` (its engine running)
PAGES = {
    "viewer-standalone-p4096.jpg": ("web/viewer.html#panorama=../images/p4096.jpg&autoLoad=true", LOADED, FAILED),
    "pannellum-standalone-p4096.jpg": (
        "pannellum/src/standalone/pannellum.htm#panorama=../../../images/p4096.jpg&autoLoad=true", LOADED, FAILED),
    "viewer-script-tags-p4096.jpg": ("embed-classic.html?src=images/p4096.jpg", LOADED, FAILED),
    "pannellum-script-tags-p4096.jpg": ("pannellum/index.html?src=../images/p4096.jpg", LOADED, FAILED),
    "board-example-locations": ("web/examples/locations.html", BOARD_READY, "null"),
}
times = {k: [] for k in PAGES}
for r in range(rounds):
    for name, (url, done, error) in PAGES.items():
        times[name].append(navigate(base + url, done, error))
print("navigation → load (board: → ready), ms on the emulated phone (min / median of the rounds)", flush=True)
for name, values in times.items():
    print(f"RESULT phone-{name} min {min(values):.0f} median {statistics.median(values):.0f} ms", flush=True)
for setup in ("standalone", "script-tags"):
    ours, theirs = times[f"viewer-{setup}-p4096.jpg"], times[f"pannellum-{setup}-p4096.jpg"]
    print(f"RESULT phone-ratio-pannellum-over-viewer-{setup} median "
          f"{statistics.median(p / o for o, p in zip(ours, theirs)):.2f}", flush=True)
driver.quit()
