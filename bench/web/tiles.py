"""Time to first frame in headless Chromium, tiled against untiled (for bench/tiles.sh).

The embeddable viewer (viewer.html) opening, cold (HTTP cache off, a fresh navigation):
- the untiled JPEG (`#panorama=`): navigation until its `load` (the whole image fetched,
  decoded and uploaded);
- its pyramid from `imagestage pano tiles` (`#config=`): navigation until `load` (the
  coarsest level in and drawn; finer tiles follow), and the tiles and texture bytes held
  once the view has settled;
- any further pyramid given (e.g. 32000×16000, which does not load untiled at all).
ROUNDS interleaved rounds; min / median, and the median of per-round ratios.

Usage: tiles.py SITE_DIR ROUNDS IMAGE.jpg TILES_DIR [MORE_TILES_DIR...] (paths under SITE_DIR).
"""

import statistics
import sys
import time

import site_tools

site, rounds, image, tiles, more = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]


base, driver = site_tools.start(site, ["--enable-precise-memory-info"])


def load(fragment, timeout=60):
    driver.get("about:blank")
    driver.get(base + "web/viewer.html#" + fragment)
    end = time.time() + timeout
    while time.time() < end:
        value, problem = driver.execute_script(
            "return [window.viewer && window.viewer.loadedAt || null, window.viewer && window.viewer.getError()]")
        if problem:
            raise RuntimeError(f"{fragment}: {problem}")
        if value is not None:
            return value
        time.sleep(0.01)
    raise RuntimeError(f"{fragment}: not loaded after {timeout} s")


def settled_memory():
    last, since = None, time.time()
    while time.time() - since < 1.0:
        m = driver.execute_script("return window.viewer.memory()")
        if m["tiles"] != (last or {}).get("tiles"):
            last, since = m, time.time()
        time.sleep(0.05)
    return last


cases = [("untiled " + image.split("/")[-1], f"panorama=../{image}&autoLoad=true")]
for t in [tiles] + more:
    cases.append(("tiled " + t.split("/")[-1], f"config=../{t}/config.json&autoLoad=true"))
times = {name: [] for name, _ in cases}
memory = {}
for r in range(rounds):
    for name, fragment in cases:
        times[name].append(load(fragment))
        if name.startswith("tiled"):
            memory[name] = settled_memory()
for name, _ in cases:
    v = times[name]
    extra = ""
    if name in memory:
        m = memory[name]
        extra = f"  then {m['tiles']} tiles, {m['textureBytes'] / 2**20:.1f} MB textures, JS heap {m['jsHeapBytes'] / 2**20:.1f} MB"
    print(f"{name:34} first frame ms min {min(v):7.1f} median {statistics.median(v):7.1f}{extra}", flush=True)
untiled, tiled = cases[0][0], cases[1][0]
ratio = statistics.median(u / t for u, t in zip(times[untiled], times[tiled]))
print(f"untiled / tiled (same image): {ratio:.1f}x", flush=True)
driver.quit()
