"""The page in headless Chromium, for bench/web.sh (figures, not pass/fail):

- navigation → first panorama frame of the bundled sample, WebGL2 and CPU;
- navigation → loaded panorama for 4096×2048, 5400×2700 and 10800×5400 JPEGs given with
  &src= (the demo page) and with viewer.html#panorama= (the embeddable viewer), beside Pannellum's published src/ (unchanged, not shipped) in the same browser,
  interleaved round by round;
- WebGL2 (SwiftShader: no GPU here) and wasm CPU frame times at 1280×720, as slopes.

Usage: browser.py SITE_DIR ROUNDS, where SITE_DIR holds web/ (build/web), pannellum/ (with
src/ and index.html) and images/ (p4096.jpg, p5400.jpg, p10800.jpg). Prints RESULT lines.
"""

import os
import statistics
import sys
import time

import site_tools

site, rounds = sys.argv[1], int(sys.argv[2])


base, driver = site_tools.start(site, ())


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


def viewer(image):
    return navigate(base + f"web/viewer.html#panorama=../images/{image}&autoLoad=true",
                    "window.viewer && window.viewer.loadedAt || null", "window.viewer && window.viewer.getError()")


def pannellum(image):
    return navigate(base + f"pannellum/index.html?src=../images/{image}", "window.loadedAt", "window.loadError")


def report(name, values, unit="ms"):
    print(f"RESULT {name} min {min(values):.1f} median {statistics.median(values):.1f} {unit}", flush=True)


have_pannellum = os.path.isdir(os.path.join(site, "pannellum"))
first = {"webgl2": [], "cpu": []}
sizes = ["p4096.jpg", "p5400.jpg", "p10800.jpg"]
loads = {(who, s): [] for who in ("ours", "viewer", "pannellum") for s in sizes}
for r in range(rounds):
    for kind in first:
        first[kind].append(ours(f"scene=panorama&renderer={kind}"))
    for s in sizes:
        loads[("ours", s)].append(ours(f"scene=panorama&src=../images/{s}"))
        loads[("viewer", s)].append(viewer(s))
        if have_pannellum:
            loads[("pannellum", s)].append(pannellum(s))
for kind, values in first.items():
    report(f"first-frame-{kind}", values)
ours("scene=panorama&renderer=cpu")
steps = driver.execute_script("return imagestage.timings()")
print("RESULT first-frame-steps " + " ".join(f"{k} {v:.0f}" for k, v in sorted(steps.items(), key=lambda kv: kv[1])) + " ms",
      flush=True)
for s in sizes:
    report(f"load-ours-{s}", loads[("ours", s)])
    report(f"load-viewer-{s}", loads[("viewer", s)])
    if not have_pannellum:
        continue
    report(f"load-pannellum-{s}", loads[("pannellum", s)])
    for who in ("ours", "viewer"):
        ratios = [p / o for o, p in zip(loads[(who, s)], loads[("pannellum", s)])]
        print(f"RESULT ratio-pannellum-over-{who}-{s} median {statistics.median(ratios):.2f}", flush=True)

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
