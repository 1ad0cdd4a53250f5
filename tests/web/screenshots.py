"""Screenshots of the three scenes in a phone-sized viewport (390×844 CSS px, 2× pixels),
taken by headless Chromium: `build/venv/bin/python tests/web/screenshots.py [OUT_DIR]`
(default docs/screenshots). Builds nothing: run `make web` first."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import test_web as T  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(T.ROOT, "docs", "screenshots")
os.makedirs(out, exist_ok=True)
T.setUpModule()
page = T.PAGE
page.cdp("Emulation.setDeviceMetricsOverride", {
    "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True,
    "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
# A phone: a touch screen whose main pointer is a finger (touch wording, Undo and Redo).
page.cdp("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
page.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "pointer", "value": "coarse"}, {"name": "hover", "value": "none"}]})
for scene in ("locations", "shortcuts", "panorama"):
    page.load(f"?scene={scene}")
    if scene == "shortcuts":
        layout = page.layout()
        page.drag([T.centre(layout["items"][1]["frame"]), T.centre(layout["slots"][0]["frame"])], kind="touch")
    if scene == "panorama":
        page.orient(20, 95, 0, seconds=1.0)
    time.sleep(0.6)
    path = os.path.join(out, f"web-{scene}.png")
    page.driver.save_screenshot(path)
    print("wrote", path)
# The embeddable viewer on the phone: Pannellum's tour example (its photo of Jordan Pond),
# then Pannellum's iframe example on a desktop-sized page.
page.driver.get(page.base + "viewer.html#config=pannellum/examples/example-tour.json&autoLoad=true")
page.until("return window.viewer && viewer.isLoaded()", timeout=20, message="the tour")
time.sleep(0.8)
path = os.path.join(out, "viewer-phone.png")
page.driver.save_screenshot(path)
print("wrote", path)
page.cdp("Emulation.setEmulatedMedia", {"features": []})
page.cdp("Emulation.setTouchEmulationEnabled", {"enabled": False})
page.cdp("Emulation.setDeviceMetricsOverride", {"width": 520, "height": 420, "deviceScaleFactor": 1, "mobile": False})
page.driver.get(page.base + "pannellum/examples/example.htm")
page.driver.switch_to.frame(page.driver.find_element("tag name", "iframe"))
page.until("return document.querySelector('.isv-load:not([hidden]) .isv-load-button')", timeout=10, message="the button").click()
page.until("return viewer.isLoaded()", timeout=20, message="loaded")
page.js("viewer.lookAt(-5, 40, 90, false)")
page.driver.switch_to.default_content()
time.sleep(0.8)
path = os.path.join(out, "viewer-iframe.png")
page.driver.save_screenshot(path)
print("wrote", path)
T.tearDownModule()
