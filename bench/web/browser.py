"""The page in headless Chromium, for bench/web.sh (figures, not pass/fail):

- navigation → first panorama frame of the bundled sample, WebGL2 and CPU;
- navigation → loaded panorama (the viewer's `load` event) for 4096×2048, 5400×2700 and
  10800×5400 JPEGs: the demo page (&src=), and the viewer in each setup a page uses beside
  Pannellum's published src/ (unchanged, not shipped) in the same setup: standalone
  (viewer.html#panorama= against src/standalone/pannellum.htm#panorama=), embedded by script
  tags (embed-classic.html: Pannellum's two tags swapped for ours, against its own tags) and
  as an ES module (embed-module.html; Pannellum has no module, so against its script tags),
  interleaved round by round, the HTTP cache off;
- WebGL2 (SwiftShader: no GPU here) and wasm CPU frame times at 1280×720, as slopes.

Served as a host serves what ships, as phone.py does: web/… from web-min/ (make web-min: the
bundles) where it has the file, build/web otherwise (the demo page), every response
gzip-encoded, Pannellum's src/ too. (Until 2026-12-03 this served build/web's modules one by
one, uncompressed: figures from before are not comparable.)

Usage: browser.py SITE_DIR ROUNDS, where SITE_DIR holds web/ (build/web), web-min/
(build/web-min), pannellum/ (with src/ and index.html) and images/ (p4096.jpg, p5400.jpg,
p10800.jpg). Prints RESULT lines.
"""

import os
import statistics
import sys
import time

import site_tools

site, rounds = sys.argv[1], int(sys.argv[2])


base, driver = site_tools.start(site, (), shipped=os.path.join(site, "web-min"))


# Every page: Pannellum's `pannellum.viewer` (and our classic script's, which offers the same)
# wrapped as it is defined, so its `load` time and errors are read the same way for both.
driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
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
"""})


def navigate(url, done, error="null", timeout=30):
    """Milliseconds from navigation start to `done` (a JS expression giving performance.now())."""
    driver.get("about:blank")
    driver.get(url)
    end = time.time() + timeout
    while time.time() < end:
        value, problem = driver.execute_script(f"return [{done}, {error}]")
        if problem:
            raise RuntimeError(f"{url}: {problem}")
        if value is not None:
            return value
        time.sleep(0.01)
    raise RuntimeError(f"{url}: not loaded after {timeout} s")


def ours(query):
    return navigate(base + "web/index.html?" + query, "window.imagestage && imagestage.readyAt")


LOADED = "window.benchLoadedAt ?? (window.viewer && window.viewer.loadedAt) ?? null"
FAILED = "window.benchError || (window.viewer && window.viewer.getError && window.viewer.getError()) || null"
# (who, setup) → the page's address for an image in images/.
SETUPS = {
    ("viewer", "standalone"): lambda i: f"web/viewer.html#panorama=../images/{i}&autoLoad=true",
    ("pannellum", "standalone"): lambda i: f"pannellum/src/standalone/pannellum.htm#panorama=../../../images/{i}&autoLoad=true",
    ("viewer", "script tags"): lambda i: f"embed-classic.html?src=images/{i}",
    ("pannellum", "script tags"): lambda i: f"pannellum/index.html?src=../images/{i}",
    ("viewer", "ES module"): lambda i: f"embed-module.html?src=images/{i}",
}


def load(who, setup, image):
    return navigate(base + SETUPS[(who, setup)](image), LOADED, FAILED)


def report(name, values, unit="ms"):
    print(f"RESULT {name} min {min(values):.1f} median {statistics.median(values):.1f} {unit}", flush=True)


have_pannellum = os.path.isdir(os.path.join(site, "pannellum"))
first = {"webgl2": [], "cpu": []}
sizes = ["p4096.jpg", "p5400.jpg", "p10800.jpg"]
setups = [k for k in SETUPS if have_pannellum or k[0] != "pannellum"]
loads = {(k, s): [] for k in [("demo page", "")] + setups for s in sizes}
for r in range(rounds):
    for kind in first:
        first[kind].append(ours(f"scene=panorama&renderer={kind}"))
    for s in sizes:
        loads[(("demo page", ""), s)].append(ours(f"scene=panorama&src=../images/{s}"))
        for k in setups:
            loads[(k, s)].append(load(*k, s))
for kind, values in first.items():
    report(f"first-frame-{kind}", values)
ours("scene=panorama&renderer=cpu")
steps = driver.execute_script("return imagestage.timings()")
print("RESULT first-frame-steps " + " ".join(f"{k} {v:.0f}" for k, v in sorted(steps.items(), key=lambda kv: kv[1])) + " ms",
      flush=True)
print("navigation → load, ms (min / median of the rounds); ratio: the median of the rounds' Pannellum ÷ ours "
      "(> 1: ours is faster), in the same setup (the ES module against Pannellum's script tags)", flush=True)
for s in sizes:
    report(f"load-demo-page-{s}", loads[(("demo page", ""), s)])
    for setup in ("standalone", "script tags", "ES module"):
        ours_k, theirs = ("viewer", setup), ("pannellum", "script tags" if setup == "ES module" else setup)
        report(f"load-viewer-{setup.replace(' ', '-')}-{s}", loads[(ours_k, s)])
        if (theirs, s) not in loads:
            continue
        if setup != "ES module":
            report(f"load-pannellum-{setup.replace(' ', '-')}-{s}", loads[(theirs, s)])
        ratios = [p / o for o, p in zip(loads[(ours_k, s)], loads[(theirs, s)])]
        print(f"RESULT ratio-pannellum-over-viewer-{setup.replace(' ', '-')}-{s} median {statistics.median(ratios):.2f} "
              f"min {min(ratios):.2f}", flush=True)

# Frame times as slopes: 5 and 25 frames, interleaved, on the 8192×4096 image.
ours("scene=panorama&renderer=webgl2&reference=1&src=../images/p8192.jpg")
for kind in ("webgl2", "cpu"):
    slopes = []
    for r in range(rounds):
        short = driver.execute_script("return imagestage.bench.timeFrames(arguments[0], 5, 1280, 720)", kind)
        long = driver.execute_script("return imagestage.bench.timeFrames(arguments[0], 25, 1280, 720)", kind)
        slopes.append((long - short) / 20 * 1000)
    report(f"frame-{kind}-1280x720", slopes, "ms/frame")
driver.quit()
