"""The viewer's declarations (web/viewer/imagestage-viewer.d.ts) against its core, and the
board's event details (web/board/imagestage-board.d.ts) under `tsc --strict`.

Every word a config key's type allows (its string literals and booleans, read from the
.d.ts) loads in the core without a warning, and a word it does not allow is both a type error
(Debian's `tsc --strict`, through `// @ts-expect-error`) and a warning from the core that
names the key. A few values the types allow that the core once refused (cube faces given as
null, hotspots without pitch or yaw) are checked by name.

Needs `make web` (build/web/imagestage-viewer.wasm), node and tsc (node-typescript). Run:
python3 tests/web/test_declarations.py (make web-wasm-test does).
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DTS = os.path.join(ROOT, "web", "viewer", "imagestage-viewer.d.ts")
BOARD_DTS = os.path.join(ROOT, "web", "board", "imagestage-board.d.ts")
WASM = os.path.join(ROOT, "build", "web", "imagestage-viewer.wasm")
CONFIGURE = os.path.join(ROOT, "tests", "web", "wasm", "viewer-configure.mjs")


def interface(text, name):
    """The members of `interface NAME { … }` as {key: type text}."""
    body = re.search(r"export interface " + name + r"(?: extends \w+)? \{\n(.*?)\n\}", text, re.S).group(1)
    return dict(re.findall(r"^  (\w+)\??: ([^;]+);$", body, re.M))


def words(type_text):
    """The string literals and booleans a type allows, as JSON values (only for types made of
    them: `boolean | 'ctrl'`, `'info' | 'scene'`)."""
    literals = re.findall(r"'([^']*)'", type_text)
    rest = re.sub(r"'[^']*'", "", type_text).replace("|", " ").split()
    if not literals or any(r not in ("boolean",) for r in rest):
        return None
    return literals + ([True, False] if "boolean" in rest else [])


# What a scene needs for a key's value to be read as it is (a cube has six faces).
CONTEXT = {
    ("type", "cubemap"): {"cubeMap": ["f.jpg", "r.jpg", "b.jpg", "l.jpg", "u.jpg", "d.jpg"]},
    ("type", "multires"): {"multiRes": {"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 512,
                                        "maxLevel": 3, "cubeResolution": 2048}},
}


def cases():
    """(name, config, allowed) for every word of every key typed by words, and one word
    more for each, which the types refuse."""
    with open(DTS) as f:
        text = f.read()
    # `lens?: Lens` reads as the union `Lens` names.
    aliases = dict(re.findall(r"^export type (\w+) = ([^;]+);$", text, re.M))
    text = re.sub(r"^(  \w+\??: )(\w+);$", lambda m: m.group(1) + aliases.get(m.group(2), m.group(2)) + ";", text,
                  flags=re.M)
    out = []
    for key, type_text in interface(text, "SceneConfig").items():
        allowed = words(type_text)
        if allowed is None:
            continue
        for value in allowed:
            config = {"panorama": "p.jpg", **CONTEXT.get((key, value), {}), key: value}
            out.append((f"{key}: {json.dumps(value)}", config, True))
        out.append((f"{key}: \"sideways\"", {"panorama": "p.jpg", key: "sideways"}, False))
    for key, type_text in interface(text, "HotSpot").items():
        allowed = words(type_text)
        if allowed is None:
            continue
        for value in allowed:
            spot = {"pitch": 1, "yaw": 2, key: value}
            config = {"panorama": "p.jpg", "hotSpots": [spot]}
            if (key, value) == ("type", "scene"):  # a link, in a tour, to a scene there is
                config = {"scenes": {"a": {**config, "hotSpots": [{**spot, "sceneId": "a"}]}}}
            out.append((f"hotSpots[0].{key}: {json.dumps(value)}", config, True))
        out.append((f"hotSpots[0].{key}: \"sideways\"",
                    {"panorama": "p.jpg", "hotSpots": [{"pitch": 1, "yaw": 2, key: "sideways"}]}, False))
    # Allowed by the types and by Pannellum, once refused by the core.
    faces = ["f.jpg", None, "b.jpg", None, "u.jpg", None]
    out.append(("cubeMap with null faces", {"type": "cubemap", "cubeMap": faces}, True))
    out.append(("a hotspot without pitch and yaw", {"panorama": "p.jpg", "hotSpots": [{"text": "here"}]}, True))
    out.append(("a hotspot without yaw", {"panorama": "p.jpg", "hotSpots": [{"pitch": 10}]}, True))
    return out


@unittest.skipUnless(shutil.which("tsc") and shutil.which("node") and os.path.exists(WASM),
                     "needs tsc (node-typescript), node and make web")
class Declarations(unittest.TestCase):
    def test_the_types_allow_what_the_core_loads_and_refuse_what_it_refuses(self):
        all_cases = cases()
        refused = [c[0] for c in all_cases if not c[2]]
        self.assertGreaterEqual(len(refused), 7, f"the unions were read from the .d.ts: {refused}")
        with tempfile.TemporaryDirectory() as tmp:
            # The types: allowed values compile, refused ones are errors (@ts-expect-error
            # fails the compile when the line below it is not one).
            lines = [f"import type {{ ViewerConfig }} from {json.dumps(DTS[:-len('.d.ts')])};"]
            for k, (name, config, allowed) in enumerate(all_cases):
                lines.append(f"// {name}")
                if not allowed:
                    lines.append("// @ts-expect-error")
                lines.append(f"export const c{k}: ViewerConfig = {json.dumps(config)};")
            source = os.path.join(tmp, "configs.ts")
            with open(source, "w") as f:
                f.write("\n".join(lines) + "\n")
            tsc = subprocess.run(["tsc", "--strict", "--noEmit", "--lib", "es2020,dom", source],
                                 capture_output=True, text=True)
            self.assertEqual(tsc.returncode, 0, tsc.stdout + tsc.stderr + "\n" + "\n".join(lines))
            # The core.
            configs = os.path.join(tmp, "configs.json")
            with open(configs, "w") as f:
                json.dump([c for _, c, _ in all_cases], f)
            run = subprocess.run(["node", CONFIGURE, WASM, configs], capture_output=True, text=True, check=True)
            answers = json.loads(run.stdout)
        for (name, config, allowed), answer in zip(all_cases, answers):
            with self.subTest(name):
                self.assertNotIn("error", answer, f"{name}: {answer}")
                key = name.split(":")[0].split(" ")[0].replace("hotSpots[0].", "hotSpots[0].")
                if allowed:
                    self.assertEqual(answer["warnings"], [], f"{name} loads as the types allow")
                else:
                    self.assertTrue(any(key in w for w in answer["warnings"]),
                                    f"{name}: the core refuses it with a warning naming {key}: {answer}")



# Each board event's handler as a --strict page writes it: the fields the event always has
# are read with no `!`, and the ones it may lack (a hover over no slot, an emptied copy) are
# type errors when read as present.
BOARD_HANDLERS = """
import { board } from %(module)s;
import type { BoardDropDetail } from %(module)s;
const b = board('#b', { items: '.i', slots: '.s', ondrop: (e: BoardDropDetail) => { const id: string = e.itemId; } });
b.on('drop', (e) => {
  const item: HTMLElement = e.item, id: string = e.itemId, slot: HTMLElement = e.slot, slotId: string = e.slotId;
  const from: string | null = e.fromId;
  // @ts-expect-error: a drop may come from no slot
  const fromId: string = e.fromId;
});
b.on('pickup', (e) => { const id: string = e.itemId; const p: number | null = e.pointer; });
b.on('hover', (e) => {
  const id: string = e.itemId;
  // @ts-expect-error: a hover may be over no slot
  const slotId: string = e.slotId;
});
b.on('swap', (e) => { const id: string = e.itemId; const s: HTMLElement | null = e.slot; });
b.on('return', (e) => { const id: string = e.itemId; });
b.on('redo', (e) => { const t: 'return' | 'redo' | 'swap' = e.type; });
b.on('cancel', (e) => { const id: string = e.itemId; });
b.on('assign', (e) => {
  const slotId: string = e.slotId;
  // @ts-expect-error: an emptied copy names no item
  const id: string = e.itemId;
});
b.on('status', (e) => { const text: string = e.text; });
document.body.addEventListener('board:drop', (e) => { const id: string = e.detail.itemId; const s: string = e.detail.slotId; });
document.body.addEventListener('board:pickup', (e) => { const id: string = e.detail.itemId; });
"""


@unittest.skipUnless(shutil.which("tsc"), "needs tsc (node-typescript)")
class BoardEventTypes(unittest.TestCase):
    def test_each_event_has_its_own_detail_type_under_strict(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "handlers.ts")
            with open(source, "w") as f:
                f.write(BOARD_HANDLERS % {"module": json.dumps(BOARD_DTS[:-len(".d.ts")])})
            tsc = subprocess.run(["tsc", "--strict", "--noEmit", "--noUnusedLocals", "false", "--lib", "es2020,dom",
                                  source], capture_output=True, text=True)
            self.assertEqual(tsc.returncode, 0, tsc.stdout + tsc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
