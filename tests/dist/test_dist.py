"""The web artefacts of `make dist` used as a new user would, in Debian's headless Chromium.

- npm: `npm install --offline` of build/dist's tarball in an empty folder, with the registry
  pointed at a closed port (nothing can be fetched); tsc --strict checks a typed example
  (it compiles) and a wrong one (it fails, naming each mistake); esbuild bundles a small app
  importing `imagestage/viewer` and `imagestage/board` from node_modules, the wasm and CSS are
  copied beside the bundle as the package README says; served, the viewer fires `load` and a
  mouse drop on the board snaps into the other slot.
- zip: unzipped into an empty folder and served as it is: `viewer.html#panorama=…` loads,
  and the example tour follows a link when its hotspot is clicked.

Run by `make dist-test` (after `make dist`); one browser for every case.
"""

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.join(ROOT, "build", "dist")
VERSION = open(os.path.join(ROOT, "VERSION")).read().strip()
DRIVER = None


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def until(script, timeout=20.0, message="condition"):
    end = time.time() + timeout
    while time.time() < end:
        value = DRIVER.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}: {script}")


def offline_env(scratch):
    """npm with its own empty cache and a registry nobody answers at: offline for certain."""
    env = dict(os.environ)
    env.update(npm_config_cache=os.path.join(scratch, ".npm"), npm_config_registry="http://127.0.0.1:9/",
               npm_config_audit="false", npm_config_fund="false", npm_config_update_notifier="false")
    return env


def setUpModule():
    global DRIVER
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--window-size=900,800", "--enable-unsafe-swiftshader",
                "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    DRIVER = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    DRIVER.set_script_timeout(30)


def tearDownModule():
    DRIVER.quit()


class NpmPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tarball = os.path.join(DIST, f"imagestage-web-{VERSION}.tgz")
        cls.scratch = tempfile.mkdtemp(prefix="imagestage-npm-")
        with open(os.path.join(cls.scratch, "package.json"), "w") as f:
            json.dump({"name": "a-site", "version": "1.0.0", "private": True, "type": "module"}, f)
        subprocess.run(["npm", "install", "--offline", "--no-package-lock", cls.tarball], cwd=cls.scratch,
                       env=offline_env(cls.scratch), check=True, capture_output=True, timeout=120)
        cls.package = os.path.join(cls.scratch, "node_modules", "imagestage")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def tsc(self, source):
        folder = os.path.join(self.scratch, "types")
        os.makedirs(folder, exist_ok=True)
        shutil.copy(os.path.join(HERE, "types", "tsconfig.json"), folder)
        shutil.copy(os.path.join(HERE, "types", source), os.path.join(folder, "main.ts"))
        return subprocess.run(["tsc", "-p", folder], cwd=self.scratch, capture_output=True, text=True, timeout=120)

    def test_package_json_says_what_it_is(self):
        with open(os.path.join(self.package, "package.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["name"], meta["version"], meta["license"], meta["type"]),
                         ("imagestage", VERSION, "MIT", "module"))
        for entry in ["./viewer", "./board", "./viewer.classic.js", "./board.classic.js", "./viewer.css",
                      "./imagestage-board.wasm", "./imagestage-sortable.wasm"]:
            self.assertIn(entry, meta["exports"])
        for key in ["types", "sideEffects", "files", "repository", "keywords"]:
            self.assertIn(key, meta)
        # Every file the package lists is in it, and the modules are minified with their maps.
        for name in ["imagestage-viewer.js", "imagestage-viewer.js.map", "imagestage-viewer.wasm",
                     "imagestage-board.wasm", "imagestage-sortable.wasm", "imagestage-viewer.d.ts", "imagestage-board.d.ts", "README.md", "LICENSE",
                     "docs/board.md", "docs/viewer.md", "examples/locations.html", "examples/shortcuts.html",
                     "examples/kanban.html", "examples/art/lake.svg"]:
            self.assertTrue(os.path.exists(os.path.join(self.package, name)), name)
        # The README's bundler recipe copies the sortable mode's wasm too, and says what fetches it.
        with open(os.path.join(self.package, "README.md")) as f:
            readme = f.read()
        self.assertIn("node_modules/imagestage/imagestage-sortable.wasm dist/", readme)
        self.assertIn("mode: 'sortable'", readme)
        self.assertNotIn("@SORTABLE", readme)
        with open(os.path.join(self.package, "imagestage-viewer.js")) as f:
            code = f.read()
        # Lines outside template literals (the bundled shaders' GLSL keeps its own lines).
        code_lines = re.sub(r"`(?:[^`\\]|\\.)*`", "``", code).count("\n")
        self.assertLess(code_lines, len(code) / 2000, "imagestage-viewer.js is not minified")
        # One bundle: the viewer's parts and the shared modules are in it, not imported.
        self.assertNotRegex(code, r"""from ?["']\./""", "imagestage-viewer.js imports modules: not bundled")
        self.assertIn("sourceMappingURL=imagestage-viewer.js.map", code)
        self.assertIn('new URL("imagestage-viewer.wasm",import.meta.url)', code)

    def test_the_manuals_and_the_examples_ship_and_the_examples_run(self):
        # The errors name docs/board.md; the README names both manuals and examples/.
        for name in ["board.md", "viewer.md"]:
            with open(os.path.join(self.package, "docs", name)) as f:
                self.assertIn("## ", f.read())
        server, base = serve(self.package)
        try:
            DRIVER.get(base + "examples/locations.html")
            error = DRIVER.execute_async_script("places.ready.then(() => arguments[0](null), (e) => arguments[0](e.message))")
            self.assertIsNone(error)
            self.assertGreater(DRIVER.execute_script("return document.querySelectorAll('[data-board-item]').length"), 0)
            # The sortable mode from the package as installed: the bundle fetches its own wasm.
            DRIVER.get(base + "examples/kanban.html")
            error = DRIVER.execute_async_script("kanban.ready.then(() => arguments[0](null), (e) => arguments[0](e.message))")
            self.assertIsNone(error)
            self.assertEqual(DRIVER.execute_script("return document.querySelectorAll('[data-board-sortable]').length"), 4)
        finally:
            server.shutdown()
            server.server_close()

    def test_a_typed_example_compiles(self):
        r = self.tsc("ok.ts")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_wrong_use_does_not_compile(self):
        r = self.tsc("wrong.ts")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("'string' is not assignable to type 'number'", r.stdout)
        self.assertIn("'maxDistence' does not exist", r.stdout)

    def test_an_esbuild_bundle_runs_the_viewer_and_the_board(self):
        site = os.path.join(self.scratch, "site")
        os.makedirs(site, exist_ok=True)
        for name in ["app.js", "index.html"]:
            shutil.copy(os.path.join(HERE, "app", name), self.scratch if name == "app.js" else site)
        subprocess.run(["esbuild", "app.js", "--bundle", "--format=esm", "--minify", f"--outdir={site}", "--log-level=warning"],
                       cwd=self.scratch, check=True, timeout=60)
        # What the package README tells esbuild users to do: each component's assets beside the bundle.
        for asset in ["imagestage-board.wasm", "imagestage-sortable.wasm", "imagestage-viewer.wasm", "imagestage-viewer-cpu.wasm", "imagestage-viewer.css"]:
            shutil.copy(os.path.join(self.package, asset), site)
        shutil.copy(os.path.join(ROOT, "build", "web", "sample.jpg"), site)
        server, base = serve(site)
        try:
            DRIVER.get(base + "index.html")
            until("return window.events && window.events.some((e) => e.type === 'load' || e.type === 'error')",
                  message="the viewer's load event")
            self.assertEqual([e["type"] for e in DRIVER.execute_script("return window.events")], ["load"])
            self.assertEqual(DRIVER.execute_script("return window.versions"), [VERSION, VERSION])
            until("return window.boardReady === true", message="the board")
            photo = DRIVER.find_element("css selector", ".photo")
            park = DRIVER.find_element("css selector", '.place[data-id="park"]')
            # Dropped 25 px off the park slot's centre: within 50 px, so it snaps there.
            offset = (park.rect["x"] + 60 + 25 - (photo.rect["x"] + 40), park.rect["y"] + 60 + 10 - (photo.rect["y"] + 40))
            chain = ActionChains(DRIVER, duration=30).move_to_element(photo).click_and_hold()
            for k in range(1, 11):
                chain.move_by_offset(offset[0] / 10, offset[1] / 10)
            chain.release().perform()
            until("return window.events.some((e) => e.type === 'drop')", message="the drop")
            drop = [e for e in DRIVER.execute_script("return window.events") if e["type"] == "drop"][0]
            self.assertEqual((drop["itemId"], drop["slotId"]), ("lake", "park"))
            until("return document.querySelector('.photo').parentElement.dataset.id === 'park'"
                  " && document.querySelector('.photo').style.translate === ''", message="the photo at rest in the park")
            photo_rect, park_rect = photo.rect, park.rect
            self.assertEqual((photo_rect["x"], photo_rect["y"]), (park_rect["x"], park_rect["y"]))
        finally:
            server.shutdown()
            server.server_close()


class StaticZip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="imagestage-zip-")
        with zipfile.ZipFile(os.path.join(DIST, f"imagestage-viewer-{VERSION}.zip")) as z:
            z.extractall(cls.folder)
        cls.server, cls.base = serve(cls.folder)

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_it_holds_the_viewer_an_example_tour_and_a_readme(self):
        names = set(os.listdir(self.folder))
        for name in ["viewer.html", "imagestage-viewer.js", "imagestage-viewer.css", "imagestage-viewer.wasm",
                     "imagestage-viewer.classic.js", "README.md", "LICENSE", "example", "docs"]:
            self.assertIn(name, names)
        self.assertEqual(os.listdir(os.path.join(self.folder, "docs")), ["viewer.md"])
        self.assertEqual(sorted(os.listdir(os.path.join(self.folder, "example"))),
                         ["hills-turned.jpg", "hills.jpg", "tour.json"])

    def test_a_panorama_in_the_hash_loads(self):
        DRIVER.get(self.base + "viewer.html#panorama=example/hills.jpg&autoLoad=true&title=Hills")
        until("return window.viewer && (window.viewer.isLoaded() || window.viewer.getError())", message="load")
        self.assertIsNone(DRIVER.execute_script("return window.viewer.getError()"))

    def test_the_example_tour_follows_a_link(self):
        DRIVER.get(self.base + "viewer.html#config=example/tour.json")
        until("return window.viewer && (window.viewer.isLoaded() || window.viewer.getError())", message="the tour")
        self.assertEqual(DRIVER.execute_script("return window.viewer.getScene()"), "hills")
        spot = until("return [...document.querySelectorAll('.pnlm-hotspot-base')]"
                     ".find((e) => e.textContent.includes('Turn round') && e.getBoundingClientRect().width > 0)",
                     message="the scene link on screen")
        ActionChains(DRIVER).move_to_element(spot).click().perform()
        until("return window.viewer.getScene() === 'turned' && window.viewer.isLoaded()", message="the linked scene")
        self.assertIn("firstScene=turned", DRIVER.current_url)


if __name__ == "__main__":
    unittest.main(verbosity=2)
