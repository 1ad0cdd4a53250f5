"""The board component (build/web/imagestage-board.js) on plain pages, in the same headless
Chromium as test_web.py, which runs these too (its PAGE is shared through `use`). Real
input only: WebDriver mouse and touch actions, real keys; reduced motion through CDP.

Pages: tests/web/pages/board.html (the tests write its board and options) and the
examples in build/web/examples/.
"""

import json
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

web = None  # test_web, set by use()


def use(module):
    global web
    web = module


def page():
    return web.PAGE


def grid(slots=6, items=None, item_class="item"):
    """Board HTML: `slots` slots s1…sN; `items` maps an item id to the slot it starts in."""
    items = items or {"a": "s1"}
    cells = []
    for n in range(1, slots + 1):
        inside = "".join(f'<div class="{item_class}" data-id="{i}">{i.upper()}</div>'
                         for i, s in items.items() if s == f"s{n}")
        cells.append(f'<div class="slot" data-id="s{n}">{inside}</div>')
    return "".join(cells)


def make(html, options, wrap="", board_class="grid"):
    p = page()
    if not p.js("return location.pathname.endsWith('/pages/board.html') && window.boardReady === true"):
        p.driver.get(p.base + "pages/board.html")
        p.until("return window.boardReady === true", message="the board test page")
    return p.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "make(arguments[0], arguments[1], arguments[2], arguments[3]).then(done);", html, options, wrap, board_class)


def centre(selector):
    return page().js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                     "return [r.left + r.width / 2, r.top + r.height / 2];", selector)


def events(kind=None):
    return [e for e in page().js("return window.events") if kind is None or e["type"] == kind]


def path(a, b, steps=10):
    return [a] + [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps) for k in range(1, steps + 1)]


def touch_drag(points, hold=0.35, step_ms=30):
    """A finger that holds still for `hold` seconds, then moves along `points`."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(page().driver, mouse=finger, duration=step_ms)
    actions.pointer_action.move_to_location(int(points[0][0]), int(points[0][1]))
    actions.pointer_action.pointer_down()
    if hold:
        actions.pointer_action.pause(hold)
    for x, y in points[1:]:
        actions.pointer_action.move_to_location(int(x), int(y))
    actions.pointer_action.pointer_up()
    actions.perform()


def open_example(name, board_variable):
    """An example page from a clean start (nothing stored), once its board runs."""
    p = page()
    p.driver.get(p.base + "examples/" + name)
    p.js("localStorage.clear()")
    p.driver.get(p.base + "examples/" + name)
    p.driver.execute_async_script(f"{board_variable}.ready.then(() => arguments[0]())")


def parent_of(selector):
    return page().js("const p = document.querySelector(arguments[0]).parentElement; return p.dataset.id || p.id",
                     selector)


def still_scroll(timeout=5.0):
    """Waits until the page's scroll position stays put three frames in a row (a fling ended)."""
    if not page().driver.execute_async_script(
            "const end = performance.now() + arguments[0], done = arguments[1]; let last = null, still = 0;"
            "const step = () => { still = scrollY === last ? still + 1 : 0; last = scrollY;"
            "  if (still >= 3) done(true); else if (performance.now() > end) done(false); else requestAnimationFrame(step); };"
            "requestAnimationFrame(step);", timeout * 1000):
        raise AssertionError("timed out waiting for the page's scrolling to stop")


def settled(timeout=3.0):
    page().until("return !document.querySelector('.board-lifted') && !document.querySelector('.board-ghost')",
                 timeout=timeout, message="the board at rest")


def state():
    return json.loads(page().js("return b.state()"))


def slot_of(item):
    return {i["id"]: i.get("slot") for i in state()["items"]}[item]


def spoken():
    return page().js("return b.live.textContent")


class BoardLocations(unittest.TestCase):
    def test_a_drop_in_range_snaps_and_one_outside_returns(self):
        # The seed's exact rule: within 50 px of a slot's centre, nothing else.
        self.assertEqual(make(grid(), {"items": ".item", "slots": ".slot", "maxDistance": 50, "snapInside": False,
                                       "status": "#status"}), "ok")
        s2 = centre('[data-id="s2"]')
        page().drag(path(centre('[data-id="a"]'), (s2[0] + 30, s2[1] + 20)))
        start = time.time()
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s2")
        self.assertLess(time.time() - start, 1.0)  # a 0.2 s snap, not a long glide
        self.assertEqual(slot_of("a"), "s2")
        self.assertEqual(page().js("return document.querySelector('#status').textContent"), "location #s2")
        # The item sits in the slot as the page lays it out: no translate left behind.
        self.assertEqual(page().js("return document.querySelector('[data-id=a]').style.translate"), "")
        a, s = centre('[data-id="a"]'), centre('[data-id="s2"]')
        self.assertLess(abs(a[0] - s[0]) + abs(a[1] - s[1]), 1)
        # 55 px right of s3's centre, in the gap: out of range, back to s2.
        s3 = centre('[data-id="s3"]')
        page().drag(path(centre('[data-id="a"]'), (s3[0] + 55, s3[1] + 45)))
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s2")
        kinds = [e["type"] for e in events()]
        self.assertIn("drop", kinds)
        self.assertEqual(events("return")[-1]["slot"], "s2")
        self.assertEqual(events("drop")[0]["slot"], "s2")

    def test_a_full_slot_swaps_and_undo_puts_them_back(self):
        make(grid(items={"a": "s1", "b": "s2"}), {"items": ".item", "slots": ".slot"})
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        settled()
        self.assertEqual((parent_of('[data-id="a"]'), parent_of('[data-id="b"]')), ("s2", "s1"))
        self.assertEqual(events("swap")[0]["item"], "b")
        self.assertIn("Swapped", spoken())
        page().js("b.undo()")
        settled()
        self.assertEqual((parent_of('[data-id="a"]'), parent_of('[data-id="b"]')), ("s1", "s2"))
        self.assertTrue(events("change"))

    def test_two_fingers_drag_two_items_at_once(self):
        make(grid(items={"a": "s1", "b": "s2"}), {"items": ".item", "slots": ".slot"})
        a0, b0 = centre('[data-id="a"]'), centre('[data-id="b"]')
        a1, b1 = centre('[data-id="s4"]'), centre('[data-id="s5"]')
        actions = ActionBuilder(page().driver, mouse=PointerInput(interaction.POINTER_TOUCH, "f1"), duration=30)
        actions.add_pointer_input(interaction.POINTER_TOUCH, "f2")
        f1, f2 = actions.pointer_inputs
        f1.create_pointer_move(x=int(a0[0]), y=int(a0[1]), duration=0)
        f2.create_pointer_move(x=int(b0[0]), y=int(b0[1]), duration=0)
        f1.create_pointer_down(button=0)
        f2.create_pointer_down(button=0)
        f1.create_pause(0.35)
        f2.create_pause(0.35)
        for k in range(1, 11):
            f1.create_pointer_move(x=int(a0[0] + (a1[0] - a0[0]) * k / 10), y=int(a0[1] + (a1[1] - a0[1]) * k / 10),
                                   duration=30)
            f2.create_pointer_move(x=int(b0[0] + (b1[0] - b0[0]) * k / 10), y=int(b0[1] + (b1[1] - b0[1]) * k / 10),
                                   duration=30)
        f1.create_pointer_up(button=0)
        f2.create_pointer_up(button=0)
        actions.perform()
        # Without releasing them, chromedriver's later touch actions never reach the page.
        actions.clear_actions()
        settled()
        self.assertEqual((parent_of('[data-id="a"]'), parent_of('[data-id="b"]')), ("s4", "s5"))
        self.assertEqual(len({e["item"] for e in events("pickup")}), 2)

    def test_keyboard_pick_up_move_drop_and_cancel_with_the_live_region(self):
        make(grid(), {"items": ".item", "slots": ".slot"})
        item = page().driver.find_element("css selector", '[data-id="a"]')
        self.assertEqual(item.get_attribute("role"), "button")
        self.assertEqual(item.get_attribute("aria-roledescription"), "draggable")
        self.assertEqual(page().driver.find_element("css selector", '[data-id="s3"]').get_attribute("aria-label"),
                         "location #s3")
        item.send_keys(Keys.SPACE)
        self.assertIn("Picked up A, in location #s1", spoken())
        item.send_keys(Keys.ARROW_RIGHT)
        self.assertIn("A is over location #s2", spoken())
        item.send_keys(Keys.ARROW_RIGHT)
        item.send_keys(Keys.SPACE)
        self.assertIn("A was dropped on location #s3", spoken())
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s3")
        # The focus stays on the item after it moved into its new slot.
        self.assertEqual(page().js("return document.activeElement.dataset.id"), "a")
        item.send_keys(Keys.SPACE)
        item.send_keys(Keys.ARROW_LEFT)
        item.send_keys(Keys.ESCAPE)
        self.assertIn("Movement cancelled. A returned to location #s3", spoken())
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s3")
        self.assertEqual(events("cancel")[-1]["item"], "a")

    def test_strings_in_the_pages_language(self):
        make(grid(), {"items": ".item", "slots": ".slot", "strings": {
            "pickedUp": "{item} pris. Flèches pour déplacer, Espace pour poser.", "location": "case {id}",
            "itemInSlot": "{item} dans {slot}", "draggable": "déplaçable"}})
        item = page().driver.find_element("css selector", '[data-id="a"]')
        self.assertEqual(item.get_attribute("aria-roledescription"), "déplaçable")
        # A slot with no name of the page's is labelled by the same template the engine's phrases use.
        self.assertEqual(page().driver.find_element("css selector", '[data-id="s3"]').get_attribute("aria-label"),
                         "case s3")
        item.send_keys(Keys.SPACE)
        self.assertEqual(spoken(), "A dans case s1 pris. Flèches pour déplacer, Espace pour poser.")
        item.send_keys(Keys.ESCAPE)

    def test_a_template_name_that_is_no_value_stays_as_written(self):
        # As Stage's Phrases.fill leaves it: not Object.prototype's `constructor` ("function
        # Object() { [native code] }") or `__proto__` ("[object Object]") through `in`.
        make(grid(), {"items": ".item", "slots": ".slot", "strings": {
            "pickedUp": "{item} {constructor} {__proto__} {toString}", "itemInSlot": "{item}"}})
        item = page().driver.find_element("css selector", '[data-id="a"]')
        item.send_keys(Keys.SPACE)
        self.assertEqual(spoken(), "A {constructor} {__proto__} {toString}")
        item.send_keys(Keys.ESCAPE)

    def test_a_page_resize_reflows_the_grid_and_every_item_stays_in_its_slot(self):
        make(grid(slots=8, items={"a": "s1", "b": "s4", "c": "s7"}), {"items": ".item", "slots": ".slot"})
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s6"]')))
        settled()
        try:
            for width in (480, 900):
                was = page().js("return innerWidth")
                page().driver.set_window_size(width, 700)
                page().until(f"return innerWidth !== {was}", message="the new window size")
                # Its resize event and the ResizeObserver come in one frame, the measure they ask for in the next.
                page().frames(4)
                for item, slot in (("a", "s6"), ("b", "s4"), ("c", "s7")):
                    i, s = centre(f'[data-id="{item}"]'), centre(f'[data-id="{slot}"]')
                    self.assertLess(abs(i[0] - s[0]) + abs(i[1] - s[1]), 1, (width, item))
                # And the engine measured the new layout: a drag lands where the slot is now.
            s2 = centre('[data-id="s2"]')
            page().drag(path(centre('[data-id="b"]'), s2))
            settled()
            self.assertEqual(parent_of('[data-id="b"]'), "s2")
        finally:
            page().driver.set_window_size(900, 700)

    def test_elements_added_while_the_page_runs(self):
        make(grid(slots=3), {"items": ".item", "slots": ".slot"})
        page().js("const s = document.createElement('div'); s.className = 'slot'; s.dataset.id = 'new';"
                  "document.getElementById('board').append(s);"
                  "const i = document.createElement('div'); i.className = 'item'; i.dataset.id = 'z'; i.textContent = 'Z';"
                  "document.querySelector('[data-id=s2]').append(i);")
        page().until("return document.querySelector('[data-id=z]').hasAttribute('data-board-item')",
                     message="the new item taken in")
        page().drag(path(centre('[data-id="z"]'), centre('[data-id="new"]')))
        settled()
        self.assertEqual(parent_of('[data-id="z"]'), "new")
        self.assertEqual(slot_of("a"), "s1")  # what was there keeps its place

    def test_a_scrolled_container_and_auto_scroll_at_its_edge(self):
        make(grid(slots=24, items={"a": "s9"}), {"items": ".item", "slots": ".slot"}, board_class="grid scroller")
        scroller = "document.getElementById('board')"
        limit = page().js(f"return {scroller}.scrollHeight - {scroller}.clientHeight")
        # Scrolled by the page first: a drop still lands on the slot under the pointer.
        page().js(f"{scroller}.scrollTop = 90")
        page().frames()  # the scroll event comes at the next frame, the board's measure at the one after
        page().drag(path(centre('[data-id="s9"]'), centre('[data-id="s17"]')), step_ms=20)
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s17")
        page().js(f"{scroller}.scrollTop = 0")
        page().frames()
        # Held at the bottom edge, the container scrolls, and no further than its content.
        box = page().js(f"return {scroller}.getBoundingClientRect().toJSON()")
        a = centre('[data-id="a"]')
        mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
        actions = ActionBuilder(page().driver, mouse=mouse, duration=30)
        actions.pointer_action.move_to_location(int(a[0]), int(a[1]))
        actions.pointer_action.pointer_down()
        for x, y in path(a, (a[0], box["bottom"] - 8))[1:]:
            actions.pointer_action.move_to_location(int(x), int(y))
        actions.pointer_action.pause(1.5)
        actions.perform()
        self.assertEqual(page().js(f"return {scroller}.scrollTop"), limit)
        # Then over a slot the scroll brought into view, and drop there.
        actions = ActionBuilder(page().driver, mouse=mouse, duration=30)
        actions.pointer_action.move_to_location(int(a[0] - 120), int(box["bottom"] - 100))
        actions.perform()
        over = page().js("return document.querySelector('[data-board-over]')?.dataset.id")
        actions = ActionBuilder(page().driver, mouse=mouse, duration=30)
        actions.pointer_action.pointer_up()
        actions.perform()
        settled()
        self.assertEqual(over, "s23")  # row 4, column 2, in view only after the scroll
        self.assertEqual(parent_of('[data-id="a"]'), over)

    def test_a_transformed_ancestor(self):
        make(grid(), {"items": ".item", "slots": ".slot"}, wrap="scaled")
        s3 = centre('[data-id="s3"]')
        page().drag(path(centre('[data-id="a"]'), (s3[0] + 10, s3[1] + 5)))
        # Mid-way checks are for the eye; the landing is the test.
        settled()
        self.assertEqual(parent_of('[data-id="a"]'), "s3")
        a = centre('[data-id="a"]')
        self.assertLess(abs(a[0] - s3[0]) + abs(a[1] - s3[1]), 1)

    def test_reduced_motion_lands_at_once(self):
        page().cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            make(grid(), {"items": ".item", "slots": ".slot"})
            page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
            # No animation frame needed: the drop itself puts it there.
            self.assertEqual(parent_of('[data-id="a"]'), "s2")
            self.assertFalse(page().js("return !!document.querySelector('.board-lifted')"))
        finally:
            page().cdp("Emulation.setEmulatedMedia", {"features": []})

    def test_reduced_motion_turned_on_while_the_board_runs_lands_at_once(self):
        # The page's media listener sets the engine's reducedMotion by its key (engineKey).
        make(grid(), {"items": ".item", "slots": ".slot"})
        page().cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            page().until("return matchMedia('(prefers-reduced-motion: reduce)').matches", message="the emulated media")
            page().js("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
            self.assertEqual(parent_of('[data-id="a"]'), "s2")
            self.assertFalse(page().js("return !!document.querySelector('.board-lifted')"))
        finally:
            page().cdp("Emulation.setEmulatedMedia", {"features": []})

    def test_bad_options_name_the_option(self):
        cases = [
            ({"items": ".item", "slots": ".nothing"}, 'slots: ".nothing" matches nothing inside div#board'),
            ({"items": ".item", "slots": ".slot", "mode": "grid"},
             'mode: unknown value "grid"; expected one of: locations, shortcuts'),
            ({"items": ".item", "slots": ".slot", "maxDistence": 40}, "maxDistence: not an option"),
            ({"items": ".item", "slots": ".slot", "maxDistance": "far"}, "maxDistance: expected a number"),
        ]
        for options, message in cases:
            result = make(grid(), options)
            self.assertIn(message, result)
            self.assertIn(message, events("error")[-1]["message"])
        # A slot with no size: named by its element.
        result = make(grid() + '<div class="slot" data-id="flat" style="height:0"></div>', {"items": ".item", "slots": ".slot"})
        self.assertIn('slots[6] (div.slot[data-id="flat"]): has zero size (', result)
        result = make(grid().replace('data-id="s2"', 'data-id="s2" data-capacity="1.5"'), {"items": ".item", "slots": ".slot"})
        self.assertIn('slots[1] (div.slot[data-id="s2"]).capacity: expected an integer, found 1.5', result)
        logs = [entry["message"] for entry in page().driver.get_log("browser")]
        self.assertTrue(any("has zero size" in m for m in logs), logs)

    size = (360, 740)  # for web.PhoneScreen

    def test_a_touch_that_does_not_hold_scrolls_the_page(self):
        web.PhoneScreen.setUp(self)
        try:
            make(grid(slots=30, items={"a": "s9"}), {"items": ".item", "slots": ".slot"})
            page().js("window.scrollTo(0, 0)")
            a = centre('[data-id="a"]')
            # A quick swipe up that starts on the item: the page scrolls, nothing is picked up.
            touch_drag(path(a, (a[0], a[1] - 250), steps=6), hold=0, step_ms=16)
            still_scroll()
            self.assertGreater(page().js("return scrollY"), 50)
            self.assertEqual(events("pickup"), [])
            self.assertEqual(parent_of('[data-id="a"]'), "s9")
            # A held touch drags instead, and the page stays where it is. (The swipe's fling ended
            # above: on a loaded machine it was still scrolling after the scrollTo.)
            page().js("window.scrollTo(0, 0)")
            page().frames()
            self.assertEqual(page().js("return scrollY"), 0)
            touch_drag(path(centre('[data-id="a"]'), centre('[data-id="s12"]')))
            settled()
            self.assertEqual(parent_of('[data-id="a"]'), "s12")
            self.assertEqual(page().js("return scrollY"), 0)
        finally:
            web.PhoneScreen.tearDown(self)


class BoardShortcuts(unittest.TestCase):
    def test_a_ghost_assigns_a_copy_and_a_miss_flies_home(self):
        html = ('<div class="palette"><div class="item" data-id="mail">M</div><div class="item" data-id="cam">C</div></div>'
                '<div class="grid"><div class="slot" data-id="d1"></div><div class="slot" data-id="d2"></div></div>')
        self.assertEqual(make(html, {"items": ".item", "slots": ".slot", "mode": "shortcuts"}, board_class=""), "ok")
        m, d2 = centre('[data-id="mail"]'), centre('[data-id="d2"]')
        finger = PointerInput(interaction.POINTER_MOUSE, "mouse")
        actions = ActionBuilder(page().driver, mouse=finger, duration=30)
        actions.pointer_action.move_to_location(int(m[0]), int(m[1]))
        actions.pointer_action.pointer_down()
        for x, y in path(m, d2)[1:]:
            actions.pointer_action.move_to_location(int(x), int(y))
        actions.perform()
        ghost = page().js("const g = document.querySelector('.board-ghost').getBoundingClientRect();"
                          "return [g.left + g.width / 2, g.top + g.height / 2]")
        self.assertLess(abs(ghost[0] - d2[0]) + abs(ghost[1] - d2[1]), 2)
        self.assertEqual(centre('[data-id="mail"]'), m)  # the source stays
        actions = ActionBuilder(page().driver, mouse=finger, duration=30)
        actions.pointer_action.pointer_up()
        actions.perform()
        copy = page().js("return document.querySelector('[data-id=d2] > [data-board-copy]')?.dataset.boardCopy")
        self.assertEqual(copy, "mail")
        self.assertFalse(page().js("return !!document.querySelector('.board-ghost')"))
        self.assertEqual(events("drop")[-1], {"type": "drop", "item": "mail", "slot": "d2", "text": None, "message": None})
        # A miss: the ghost flies home in 0.5 s, then goes.
        c = centre('[data-id="cam"]')
        page().drag(path(c, (c[0] + 300, c[1] + 300)))
        ghost = ("const g = document.querySelector('.board-ghost')?.getBoundingClientRect();"
                 "return g ? [g.left + g.width / 2, g.top + g.height / 2] : null")
        dropped = page().js(ghost)
        self.assertIsNotNone(dropped)
        # On its way: moved from where it was dropped (or gone), yet not home.
        page().until(f"const at = (() => {{ {ghost} }})(); return !at || at[0] !== {dropped[0]} || at[1] !== {dropped[1]}",
                     message="the ghost's flight")
        halfway = page().js(ghost)
        self.assertIsNotNone(halfway)
        self.assertGreater(abs(halfway[0] - c[0]), 5)
        settled(timeout=2)
        self.assertEqual(events("return")[-1]["item"], "cam")
        self.assertEqual(page().js("return document.querySelectorAll('[data-board-copy]').length"), 1)


class BoardOptions(unittest.TestCase):
    def test_accepts_by_function_and_by_data_attributes(self):
        html = grid(items={"a": "s1", "b": "s2"}).replace('data-id="s3"', 'data-id="s3" data-accepts="red"')
        html = html.replace('data-id="b"', 'data-id="b" data-tags="red"')
        page().js("window.noS4 = (item, slot) => slot.dataset.id !== 's4'")
        make(html, {"items": ".item", "slots": ".slot", "swap": False})
        page().js("b.destroy()")
        page().driver.execute_async_script(
            "const done = arguments[0]; window.events = [];"
            "window.b = boardModule.board('#board', {items: '.item', slots: '.slot', accepts: noS4});"
            "b.ready.then(() => done())")
        # a has no "red" tag: s3 refuses it; s4 refuses everyone (the function); b may go to s3.
        for item, slot, lands in (("a", "s3", "s1"), ("a", "s4", "s1"), ("b", "s3", "s3")):
            page().drag(path(centre(f'[data-id="{item}"]'), centre(f'[data-id="{slot}"]')))
            settled()
            self.assertEqual(parent_of(f'[data-id="{item}"]'), lands, (item, slot))

    def test_placement_event_leaves_the_dom_to_the_page(self):
        make(grid(), {"items": ".item", "slots": ".slot", "placement": "event"})
        page().js("window.placed = []; b.on('place', (e) => { placed.push([e.itemId, e.slotId]); e.slot.append(e.item); })")
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s5"]')))
        settled()
        self.assertEqual(page().js("return placed"), [["a", "s5"]])
        self.assertEqual(parent_of('[data-id="a"]'), "s5")  # the page's own handler moved it
        a, s = centre('[data-id="a"]'), centre('[data-id="s5"]')
        self.assertLess(abs(a[0] - s[0]) + abs(a[1] - s[1]), 1)

    def test_a_shortcut_dragged_off_the_slots_is_removed(self):
        html = ('<div class="palette"><div class="item" data-id="mail">M</div></div>'
                '<div class="grid"><div class="slot" data-id="d1"></div><div class="slot" data-id="d2"></div></div>')
        make(html, {"items": ".item", "slots": ".slot", "mode": "shortcuts", "contentDraggable": True}, board_class="")
        page().drag(path(centre('[data-id="mail"]'), centre('[data-id="d1"]')))
        settled()
        page().drag(path(centre('[data-id="d1"] [data-board-copy]'), centre('[data-id="d2"]')))
        settled()
        copies = page().js("return [...document.querySelectorAll('[data-board-copy]')].map(c => c.parentElement.dataset.id)")
        self.assertEqual(copies, ["d2"])
        d2 = centre('[data-id="d2"]')
        page().drag(path(d2, (d2[0] + 400, d2[1] + 200)))
        settled()
        self.assertEqual(page().js("return document.querySelectorAll('[data-board-copy]').length"), 0)
        self.assertIn("Removed M from", spoken())
        page().js("b.undo()")
        self.assertEqual(page().js("return document.querySelector('[data-id=d2] [data-board-copy]')?.dataset.boardCopy"),
                         "mail")

    def test_ids_match_as_the_dom_matches_them_scalar_for_scalar(self):
        # "é" precomposed and "e" + a combining acute: canonically equivalent, two ids to the
        # DOM (querySelector tells them apart), so two items to the board too (the web
        # modules compare strings by scalars, web/shared/WasmMemory.swift).
        nfc, nfd = "\u00e9", "e\u0301"
        make(grid(items={nfc: "s1", nfd: "s2"}), {"items": ".item", "slots": ".slot"})
        self.assertEqual(events("error"), [])
        self.assertEqual(slot_of(nfc), "s1")
        self.assertEqual(slot_of(nfd), "s2")
        page().drag(path(centre(f'[data-id="{nfd}"]'), centre('[data-id="s4"]')))
        settled()
        self.assertEqual(parent_of(f'[data-id="{nfd}"]'), "s4")
        self.assertEqual(parent_of(f'[data-id="{nfc}"]'), "s1")
        self.assertEqual(slot_of(nfd), "s4")

    def test_the_module_refuses_a_description_that_does_not_add_up(self):
        # board_create reads numbers and a string buffer (web/board/BoardWeb.swift): a record
        # that ends early, or names bytes outside the buffer, is refused; it reads nothing past
        # what the caller passed.
        make(grid(), {"items": ".item", "slots": ".slot"})
        answers = page().js("""
            const w = b.wasm, x = w.exports;
            const create = (strings, records, frames, slots, items) => (x.board_options(0), w.out(
              w.withBytes(new TextEncoder().encode(strings), (ps, ns) =>
                w.withBytes(new Uint8Array(new Int32Array(records).buffer), (pr) =>
                  w.withBytes(new Uint8Array(new Float64Array(frames).buffer), (pf) =>
                    x.board_create(ps, ns, pr, records.length, pf, slots, items, 99, 99, 0))))));
            return [
              create('s1', [0, 2, 0, -1, -1, -1], [0, 0, 10, 10, 1], 1, 0),  // one slot "s1": fine
              create('s1', [0, 9, 0, -1, -1, -1], [0, 0, 10, 10, 1], 1, 0),  // its id runs past the buffer
              create('s1', [0, 2, 0, -1], [0, 0, 10, 10, 1], 1, 0),  // its record ends early
              create('s1', [0, 2, 0, -1, -1, 9], [0, 0, 10, 10, 1], 1, 0),  // accepts: 9 entries, none given
              create('s1', [0, 2, 0, -1, -1, -1], [0, 0, 10, 10, 1.5], 1, 0),  // capacity 1.5
              create('s1s1', [0, 2, 0, -1, -1, -1, 2, 2, 0, -1, -1, -1], [0, 0, 10, 10, 20, 0, 10, 10, 1, 1], 2, 0),
            ];""")
        self.assertEqual(answers[0], "")
        # The page names a wrong capacity by its element (#boxProblem); the module refuses it without words.
        self.assertEqual(answers[1:5], ["the board's description is malformed"] * 4)
        self.assertEqual(answers[5], 'slots[1].id: duplicate id "s1"')

    def test_the_module_refuses_restore_counts_that_do_not_add_up(self):
        # board_restore takes pairs of indices and their counts (web/board/BoardWeb.swift): counts
        # whose sum or offsets overflow 32 bits trapped the module; they are refused with words,
        # and the board still answers after.
        make(grid(), {"items": ".item", "slots": ".slot"})
        answers = page().js("""
            const w = b.wasm, x = w.exports;
            const restore = (placements, contents) => w.out(
              w.withBytes(new Uint8Array(new Int32Array([0, 1, 0]).buffer), (p) => x.board_restore(p, placements, contents)));
            return [restore(2147483647, 1), restore(1 << 30, 0), restore(-1, 0), restore(1, 0)];""")
        self.assertEqual(answers[:3], ["the state's numbers are malformed"] * 3)
        self.assertEqual(answers[3], "")
        self.assertEqual(events("error"), [])

    def test_the_classic_script(self):
        p = page()
        p.driver.get(p.base + "pages/board-classic.html")
        p.until("return window.classicState", message="the classic board")
        self.assertIn('"slot":"s1"', p.js("return classicState"))
        p.drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        p.until("return document.querySelector('[data-id=s2] [data-id=a]')", message="the drop")

    def test_a_failing_engine_stops_the_board_and_keeps_the_page(self):
        make(grid(), {"items": ".item", "slots": ".slot", "persist": "localStorage", "persistKey": "trap"})
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        settled()
        saved = page().js("return localStorage.getItem('imagestage.board.trap')")
        # The engine traps on the next move (a WebAssembly trap, as a bug in Swift would).
        page().js("b.x = { ...b.x, board_pointer: () => { throw new WebAssembly.RuntimeError('unreachable'); } }")
        s4 = centre('[data-id="s4"]')
        page().drag(path(centre('[data-id="a"]'), s4))
        page().until("return window.events.some((e) => e.type === 'error')", message="the error event")
        self.assertIn("ImageStage board stopped: the engine failed", events("error")[-1]["message"])
        self.assertEqual(parent_of('[data-id="a"]'), "s2")
        self.assertEqual(page().js("return document.querySelector('[data-id=a]').style.translate"), "")
        self.assertEqual(page().js("return localStorage.getItem('imagestage.board.trap')"), saved)
        page().js("localStorage.removeItem('imagestage.board.trap')")


class BoardPersistence(unittest.TestCase):
    def test_state_and_restore_across_a_reload_and_a_corrupt_value_kept_aside(self):
        p = page()
        open_example("locations.html", "places")
        p.drag(path(centre('[data-id="home"] img'), centre('[data-id="town"]')))
        p.until("return !document.querySelector('.board-lifted') && document.querySelector('[data-id=town] img')",
                message="the lake in town")
        saved = p.js("return localStorage.getItem('imagestage.board.places')")
        self.assertIn('"slot":"town"', saved)
        for _ in range(2):  # reload twice, as users do
            p.driver.refresh()
            p.driver.execute_async_script("places.ready.then(() => arguments[0]())")
            self.assertEqual(p.js("return document.querySelector('[data-id=town] img')?.alt"), "Lake")
            self.assertEqual(p.js("return document.querySelector('[data-id=home] img')"), None)
        # restore() takes a state line back; a bad one is an error naming the field.
        state = json.loads(p.js("return places.state()"))
        state["items"][0]["slot"] = "park"
        p.js("places.restore(arguments[0])", json.dumps(state))
        self.assertEqual(p.js("return document.querySelector('[data-id=park] img')?.alt"), "Lake")
        error = p.js("try { places.restore('{\"items\": 3}'); } catch (e) { return e.message; }")
        self.assertIn("items: expected an array", error)
        # A corrupt stored value: kept aside, the page's own layout used, the console told.
        p.js("localStorage.setItem('imagestage.board.places', '{\"items\": [{\"id\": 1')")
        p.driver.refresh()
        p.driver.execute_async_script("places.ready.then(() => arguments[0]())")
        self.assertEqual(p.js("return document.querySelector('[data-id=home] img')?.alt"), "Lake")
        keys = p.js("return Object.keys(localStorage)")
        aside = [k for k in keys if k.startswith("imagestage.board.places.corrupt-")]
        self.assertEqual(len(aside), 1, keys)
        self.assertEqual(p.js("return localStorage.getItem(arguments[0])", aside[0]), '{"items": [{"id": 1')
        logs = [entry["message"] for entry in p.driver.get_log("browser")]
        self.assertTrue(any("does not read" in m for m in logs), logs)


    def test_a_stored_board_too_big_for_a_second_copy_is_set_aside_once(self):
        """A stored board that does not read and that storage has no room to copy (it was left
        in place, read and refused at every load): set aside once; later loads find nothing."""
        p = page()
        open_example("locations.html", "places")
        try:
            filled = p.js(
                "localStorage.clear();"
                "localStorage.setItem('imagestage.board.places', '{\"items\": [' + 'x'.repeat(2000000));"
                "let lo = 0, hi = 12000000;"  # the rest of the quota, filled: no room for a second copy
                "while (hi - lo > 4096) { const mid = (lo + hi) >> 1;"
                "  try { localStorage.setItem('filler', 'y'.repeat(mid)); lo = mid; } catch { hi = mid; } }"
                "localStorage.setItem('filler', 'y'.repeat(lo));"
                "try { localStorage.setItem('probe', 'z'.repeat(2000012)); return false; } catch { return true; }")
            self.assertTrue(filled, "storage has no room for a second copy")
            p.driver.refresh()
            p.driver.execute_async_script("places.ready.then(() => arguments[0]())")
            self.assertEqual(p.js("return document.querySelector('[data-id=home] img')?.alt"), "Lake", "the page's own layout")
            self.assertFalse(p.js("return localStorage.getItem('imagestage.board.places') !== null"), "not left to be read again")
            aside = [k for k in p.js("return Object.keys(localStorage)") if k.startswith("imagestage.board.places.corrupt-")]
            self.assertEqual(len(aside), 1, "kept aside in the room it left")
            self.assertEqual(p.js("return localStorage.getItem(arguments[0]).length", aside[0]), 2000011)
            p.driver.get_log("browser")
            p.driver.refresh()
            p.driver.execute_async_script("places.ready.then(() => arguments[0]())")
            logs = [entry["message"] for entry in p.driver.get_log("browser")]
            self.assertFalse(any("does not read" in m for m in logs), f"read once, not at every load: {logs}")
        finally:
            p.js("localStorage.clear()")


class BoardAsThePageMadeIt(unittest.TestCase):
    """Issue 38's fixes for every mode: what the page wrote (its roles, names, fields, saved
    order and markup) stays the page's, and the board says what is wrong in the page's words."""

    def test_a_swap_says_where_the_dropped_item_is_now(self):
        make(grid(items={"a": "s1", "b": "s3"}), {"items": ".item", "slots": ".slot"})
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s3"]')))
        settled()
        self.assertEqual(slot_of("a"), "s3")
        self.assertEqual(spoken(), "Swapped A with B, now in location #s3.")

    def test_announcements_come_from_the_pages_templates_and_hook(self):
        # The engine sends codes with indices; the page's `strings` and `announcements` make the words.
        make(grid(items={"a": "s1", "b": "s3"}).replace('data-id="s3"', 'data-id="s3" aria-label="the top shelf"'),
             {"items": ".item", "slots": ".slot", "strings": {
                 "swapped": "{item} échangé avec {other}, maintenant en {slot} (place {position})."}})
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s3"]')))
        settled()
        self.assertEqual(spoken(), "A échangé avec B, maintenant en the top shelf (place 3).")
        page().js("b.destroy()")
        page().driver.execute_async_script(
            "const done = arguments[0]; window.events = []; window.heard = [];"
            "window.b = boardModule.board('#board', {items: '.item', slots: '.slot', announcements: {"
            "  onDragStart: (e) => { heard.push(['start', e.code, e.itemId, e.slotId]); return `Took ${e.itemId}`; },"
            "  onDragOver: (e) => { heard.push(['over', e.code, e.slotId, e.position]); return undefined; },"
            "  dropped: (e) => e.text + ' ✓' }});"
            "b.ready.then(() => done())")
        item = page().driver.find_element("css selector", '[data-id="b"]')
        item.send_keys(Keys.SPACE)
        self.assertEqual(spoken(), "Took b")
        item.send_keys(Keys.ARROW_RIGHT)
        self.assertEqual(spoken(), "Took b", "undefined from the hook says nothing")
        item.send_keys(Keys.SPACE)
        self.assertEqual(spoken(), "B was dropped on location #s2. ✓")
        self.assertEqual(page().js("return heard"), [["start", "pickedUp", "b", "s1"], ["over", "over", "s2", 2]])

    def test_a_bad_announcements_option_is_named(self):
        make(grid(), {"items": ".item", "slots": ".slot"})
        page().js("b.destroy()")
        message = page().driver.execute_async_script(
            "const done = arguments[0];"
            "try { boardModule.board('#board', {items: '.item', slots: '.slot', announcements: {onDragMove: () => ''}})"
            "  .ready.then(() => done('started'), (e) => done(e.message)); } catch (e) { done(e.message); }")
        self.assertIn("announcements.onDragMove", message)
        self.assertIn("onDragOver", message)

    def test_an_empty_board_starts_and_follows_its_last_item_leaving_and_coming_back(self):
        p = page()
        make("", {"items": ".item", "slots": ".slot"})  # the test page, to clear its storage
        p.js("localStorage.clear()")
        html = "".join(f'<div class="slot" data-id="s{n}"></div>' for n in range(1, 4))
        options = {"items": ".item", "slots": ".slot", "persist": "localStorage", "persistKey": "comes-and-goes"}
        self.assertEqual(make(html, options), "ok")
        self.assertEqual(state()["items"], [])
        add = "document.querySelector('[data-id=s1]').insertAdjacentHTML('beforeend', '<div class=\"item\" data-id=\"a\">A</div>')"
        p.js(add)
        p.until("return b.state().includes('\"id\":\"a\"')", message="the added item in the state")
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        settled()
        self.assertEqual(len(events("change")), 1)
        # The last item leaves: the state follows.
        p.js("document.querySelector('[data-id=a]').remove()")
        p.until("return !b.state().includes('\"id\":\"a\"')", message="the state without the removed item")
        # It comes back where the page puts it; the first move is a change, and it is saved.
        p.js(add)
        p.until("return b.state().includes('\"id\":\"a\",\"slot\":\"s1\"')", message="the item back in s1")
        page().drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        settled()
        self.assertEqual(len(events("change")), 2)
        self.assertIn('"id":"a","slot":"s2"', p.js("return localStorage.getItem('imagestage.board.comes-and-goes')"))
        self.assertEqual(events("error"), [])

    def test_errors_name_what_is_wrong_all_at_once(self):
        p = page()
        make(grid(), {"items": ".item", "slots": ".slot"})
        p.js("b.destroy()")
        for given, message in (("'#nope'", 'container: "#nope" matches nothing on the page'),
                               ("'#'", 'container: "#" is not a valid selector'),
                               ("null", "container: expected an element or a CSS selector, found null")):
            error = p.driver.execute_async_script(
                "const done = arguments[0]; try { boardModule.board(" + given + ", {items: '.item', slots: '.slot'})"
                ".ready.then(() => done('ok'), (e) => done(e.message)); } catch (e) { done('thrown: ' + e.message); }")
            self.assertEqual(error, "ImageStage board: " + message)
        # Every wrong option in one message, SortableJS's names with the board's way beside them.
        result = make(grid(), {"items": ".item", "slots": ".slot", "handle": "[", "maxDistence": 40,
                               "ghostClass": "ghost", "delay": 100, "mode": "grid"})
        lines = result.split("\n")
        self.assertEqual(lines[0], "error: ImageStage board: 5 problems:", result)
        self.assertEqual(sorted(lines[1:]), sorted([
            '- handle: "[" is not a valid selector',
            "- maxDistence: not an option (did you mean maxDistance?) (docs/board.md lists them)",
            "- ghostClass: SortableJS's name, not the board's: style .board-lifted (the held item), .board-ghost"
            " (a shortcut's copy), [data-board-over] (where it lands)",
            "- delay: SortableJS's name, not the board's: use touch: {delay, tolerance}",
            '- mode: unknown value "grid"; expected one of: locations, shortcuts']), result)
        self.assertEqual(make(grid(), {"items": ".item", "slots": ".slot"}), "ok")
        error = p.js("try { b.restore('{}'); } catch (e) { return e.message; }")
        self.assertEqual(error, 'ImageStage board: restore(): missing "items" and "slots": not a board state'
                                " (state() writes both)")

    def test_restore_reads_the_state_in_the_page_and_names_each_wrong_field(self):
        # The state line is read in JS (the board's wasm has no JSON reader for it): every
        # mistake names its field; ids the page no longer has are dropped, the rest restored.
        make(grid(items={"a": "s1", "b": "s2"}), {"items": ".item", "slots": ".slot"})
        p = page()
        for text, message in (
                ('{"items": [{"id": "a", "slot": 3.5}]}',
                 "restore(): items[0].slot: expected a string or integer id, found a number"),
                ('{"items": [{"id": "a", "place": "s3"}]}',
                 "restore(): items[0].place: unknown key; expected one of: id, slot, center"),
                ('{"slots": [{"content": "a"}]}', 'restore(): slots[0].id: missing required key "id"'),
                ('{"type": "frame", "items": []}', 'restore(): type: expected "state", found "frame"'),
                ('[1]', "restore(): expected an object, found an array"),
                ('{"items": [', "restore(): invalid JSON")):
            error = p.js("try { b.restore(arguments[0]); return null; } catch (e) { return e.message; }", text)
            self.assertIn(message, error or "", text)
        # A long name or value is shown clipped: a 1 MB key was a 1 MB message.
        for text in ('{"type": "' + "x" * 1000000 + '", "items": []}', '{"items": [], "' + "k" * 1000000 + '": 1}'):
            error = p.js("try { b.restore(arguments[0]); return null; } catch (e) { return e.message; }", text)
            self.assertIn("… (1000000 characters)", error or "")
            self.assertLess(len(error), 300)
        before = p.js("return b.state()")
        p.js("b.restore(arguments[0])", json.dumps({"type": "state", "items": [
            {"id": "gone", "slot": "s4"}, {"id": "a", "slot": "s5"}, {"id": "b", "slot": "nowhere"}]}))
        settled()
        self.assertEqual(slot_of("a"), "s5")
        self.assertEqual(slot_of("b"), "s2", "a slot the page lacks leaves the item where it was")
        self.assertNotEqual(p.js("return b.state()"), before)
        # Before `ready` (and after destroy) it says so, as sort() does: it answered "Cannot read
        # properties of undefined (reading 'map')".
        saved = p.js("return b.state()")
        early = p.driver.execute_async_script("""const done = arguments[arguments.length - 1];
            import('/imagestage-board.js').then(({ board }) => {
              const c = document.createElement('div');
              c.innerHTML = '<div class="slot" data-id="s1"><div class="item" data-id="a">A</div></div>';
              document.body.append(c);
              const early = board(c, { items: '.item', slots: '.slot' });
              let said;
              try { early.restore(arguments[0]); } catch (e) { said = e.message; }
              early.ready.then(() => { early.destroy(); c.remove(); done(said); });
            });""", saved)
        self.assertEqual(early, "ImageStage board: restore(): the board is not ready yet (await b.ready)")

    def test_destroy_leaves_the_page_exactly_as_it_was(self):
        p = page()
        html = ('<div class="slot" data-id="s1"><div class="item" data-id="a"><img alt="A" src="data:image/gif;base64,'
                'R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==">A</div></div>'
                '<div class="slot" data-id="s2"><div class="item" data-id="b" style="color: red;">B</div></div>'
                '<div class="slot" data-id="s3"></div>')
        make(html, {"items": ".item", "slots": ".slot"})
        before = p.js("const t = document.createElement('template'); t.innerHTML = arguments[0]; return t.innerHTML", html)
        p.drag(path(centre('[data-id="a"]'), centre('[data-id="s3"]')))
        settled()
        p.drag(path(centre('[data-id="b"]'), centre('[data-id="s1"]')))
        settled()
        p.drag(path(centre('[data-id="a"]'), centre('[data-id="s2"]')))
        settled()
        p.drag(path(centre('[data-id="b"]'), centre('[data-id="s2"]')))  # a swap: both fly
        settled()
        self.assertEqual((slot_of("a"), slot_of("b")), ("s1", "s2"))
        p.js("b.destroy()")
        self.assertEqual(p.js("return document.getElementById('board').innerHTML"), before)

    def test_ctrl_z_in_a_field_is_the_fields_own(self):
        p = page()
        note = ("document.querySelector('[data-id=call]').insertAdjacentHTML('beforeend',"
                " '<span class=\"note\" contenteditable=\"true\">note</span><textarea class=\"more-text\"></textarea>')")
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}, wrap=note), "ok")
        c = box('[data-id="milk"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "wed")
        value = "return document.querySelector(arguments[0]).value ?? document.querySelector(arguments[0]).textContent"

        def edit_undo_redo(field, original):
            p.driver.find_element("css selector", field).click()
            ActionChains(p.driver).send_keys(Keys.END + " soon").perform()
            self.assertEqual(p.js(value, field), original + " soon")
            ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
            self.assertEqual(p.js(value, field), original, f"the field's own undo in {field}")
            ActionChains(p.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT) \
                .key_up(Keys.CONTROL).perform()
            self.assertEqual(p.js(value, field), original + " soon", f"the field's own redo in {field}")
            ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
            p.frames()  # a redo the board took would show by now: it answers a key at once
            self.assertEqual([e["type"] for e in logged() if e["type"] in ("return", "redo")], [])

        for field, original in (('[data-id="call"] input', "Call the plumber"), ('[data-id="call"] textarea', "")):
            edit_undo_redo(field, original)
            self.assertEqual(parent_of('[data-id="milk"]'), "wed", f"the card move stays: {field}")
            self.assertTrue(p.js("return b.canUndo()"))
        # On the card itself Ctrl+Z is the board's, and Ctrl+Shift+Z redoes.
        p.js("document.querySelector('[data-id=milk]').focus()")
        ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "mon")
        ActionChains(p.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT) \
            .key_up(Keys.CONTROL).perform()
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "wed")
        p.js("window.log = []")
        edit_undo_redo('[data-id="call"] .note', "note")
        self.assertEqual(parent_of('[data-id="milk"]'), "wed", "the card move stays: contenteditable")

    def test_the_pages_roles_stay_and_a_card_is_named_by_its_text_not_its_controls(self):
        p = page()
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        milk = p.driver.find_element("css selector", '[data-id="milk"]')
        self.assertEqual(milk.aria_role, "button")
        self.assertEqual(milk.accessible_name, "Buy milk and bread")
        p.js("document.querySelector('[data-id=milk]').focus()")
        key(Keys.SPACE)
        self.assertTrue(spoken().startswith("Picked up Buy milk and bread,"), spoken())
        key(Keys.ESCAPE)
        # A list of the page's own: an <li> stays a list item, described as draggable, named
        # by its text without its button's; the page's aria-label wins.
        html = ('<ul class="slot" data-id="s1"><li class="item" data-id="a">Write spec <button>Done</button></li></ul>'
                '<ul class="slot" data-id="s2"><li class="item" data-id="b" aria-label="Review">⠿ <button>Done</button></li></ul>'
                '<ul class="slot" data-id="s3"></ul>')
        make(html, {"items": ".item", "slots": ".slot"})
        a = p.driver.find_element("css selector", '[data-id="a"]')
        self.assertIsNone(a.get_attribute("role"))
        self.assertEqual(a.aria_role, "listitem")
        self.assertEqual(a.get_attribute("aria-roledescription"), "draggable")
        self.assertEqual(a.accessible_name, "Write spec")
        self.assertEqual(p.driver.find_element("css selector", '[data-id="b"]').accessible_name, "Review")
        p.js("document.querySelector('[data-id=a]').focus()")
        key(Keys.SPACE)
        self.assertTrue(spoken().startswith("Picked up Write spec,"), spoken())
        key(Keys.ESCAPE)

    def test_a_saved_board_is_merged_into_a_changed_page(self):
        """A gallery whose cells have no ids (by position) loses a photo and its cell: the
        saved layout still applies to the photos it knows; none is set aside as corrupt."""
        p = page()

        def gallery(photos):
            return "".join(f'<div class="slot"><div class="item" data-id="{ph}">{ph.upper()}</div></div>' for ph in photos)
        options = {"items": ".item", "slots": ".slot", "persist": "localStorage", "persistKey": "gallery"}
        make(gallery(["p1"]), {"items": ".item", "slots": ".slot"})  # the test page, to clear its storage
        p.js("localStorage.clear()")
        make(gallery(["p1", "p2", "p3", "p4"]), options)
        p.drag(path(centre('[data-id="p1"]'), centre('.slot:nth-child(2)')))  # p1 and p2 swap
        settled()
        self.assertEqual((slot_of("p1"), slot_of("p2")), ("2", "1"))
        # The page deleted p2 (and so its cell): p1, p3, p4 in cells 1, 2, 3.
        make(gallery(["p1", "p3", "p4"]), options)
        self.assertEqual(events("error"), [])
        self.assertEqual([k for k in p.js("return Object.keys(localStorage)") if "corrupt" in k], [])
        # p1 and p3 keep their saved cells (2 and 3); p4's cell 4 is gone and p3 took its
        # place in the page: it goes to the nearest free cell, 1.
        self.assertEqual((slot_of("p1"), slot_of("p3"), slot_of("p4")), ("2", "3", "1"))
        self.assertEqual(p.js("return [...document.querySelectorAll('.slot')].map((s) => s.textContent)"), ["P4", "P1", "P3"])


class BoardSetUp(unittest.TestCase):
    """Issue 37's set-up: every item's box is read once at the start, before the board writes
    any attribute (a read after a write lays the page out again), and the module is fetched
    while the page is read."""

    def test_no_item_is_restyled_at_rest_only_the_hovered_one_shows_grab(self):
        """Per-item at-rest styles had the browser restyle and repaint every item at set-up:
        an item away from the pointer keeps the computed style it had, the hovered one shows
        the grab cursor and takes no text selection, and after destroy() none does."""
        p = page()
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 1})
        make(grid(slots=4, items={"a": "s1", "b": "s2"}), {"items": ".item", "slots": ".slot"})
        style = ("const cs = getComputedStyle(document.querySelector(arguments[0]));"
                 "return [cs.cursor, cs.userSelect, cs.touchAction]")
        self.assertEqual(p.js(style, '[data-id="a"]'), ["auto", "auto", "auto"])
        x, y = centre('[data-id="b"]')
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self.assertEqual(p.js(style, '[data-id="b"]'), ["grab", "none", "auto"])
        self.assertEqual(p.js(style, '[data-id="a"]'), ["auto", "auto", "auto"])
        p.js("b.destroy()")
        self.assertEqual(p.js(style, '[data-id="b"]'), ["auto", "auto", "auto"])
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 1})

    def count_item_reads(self, options):
        p = page()
        make(grid(slots=12, items={f"i{n}": f"s{n}" for n in range(1, 9)}), {"items": ".item", "slots": ".slot"})
        p.js("b.destroy()")
        return p.driver.execute_async_script(
            """const done = arguments[arguments.length - 1];
            const read = Element.prototype.getBoundingClientRect;
            const counts = new Map();
            Element.prototype.getBoundingClientRect = function () {
              if (this.classList.contains('item')) counts.set(this.dataset.id, (counts.get(this.dataset.id) || 0) + 1);
              return read.call(this);
            };
            window.b = boardModule.board('#board', arguments[0]);
            // The first item's attributes are written before the module answers: the DOM is read meanwhile.
            const marked = () => document.querySelector('.item').hasAttribute('data-board-item');
            const early = [];
            const watch = () => { early.push(marked() && !b.x); if (!b.x) requestAnimationFrame(watch); };
            queueMicrotask(watch);
            b.ready.then(() => {
              Element.prototype.getBoundingClientRect = read;
              done({ reads: [...counts.values()], markedBeforeModule: early.some(Boolean) });
            }, (e) => { Element.prototype.getBoundingClientRect = read; done({ error: e.message }); });""", options)

    def test_each_item_is_measured_once_at_the_start(self):
        result = self.count_item_reads({"items": ".item", "slots": ".slot"})
        self.assertNotIn("error", result, result)
        self.assertEqual(len(result["reads"]), 8, result)
        self.assertEqual(set(result["reads"]), {1}, result)

    def test_items_are_read_while_the_module_loads(self):
        result = self.count_item_reads({"items": ".item", "slots": ".slot"})
        self.assertTrue(result["markedBeforeModule"], result)

    def reads_after_the_start(self, change=""):
        """Item box reads in the three frames after `ready` (`change`: a script run at ready)."""
        p = page()
        make(grid(slots=12, items={f"i{n}": f"s{n}" for n in range(1, 9)}), {"items": ".item", "slots": ".slot"})
        p.js("b.destroy()")
        return p.driver.execute_async_script(
            """const done = arguments[arguments.length - 1];
            const read = Element.prototype.getBoundingClientRect;
            let reads = 0, liveBeforeReads = null;
            Element.prototype.getBoundingClientRect = function () {
              if (this.classList.contains('item')) {
                reads++;
                liveBeforeReads ??= !!document.querySelector('.board-live');
              }
              return read.call(this);
            };
            const frame = () => new Promise((next) => requestAnimationFrame(() => setTimeout(next, 0)));
            window.b = boardModule.board('#board', { items: '.item', slots: '.slot' });
            b.ready.then(async () => {
              const atStart = reads;
              reads = 0;
              eval(arguments[0]);
              for (let k = 0; k < 3; k++) await frame();
              Element.prototype.getBoundingClientRect = read;
              done({ atStart, after: reads, liveBeforeReads });
            }, (e) => { Element.prototype.getBoundingClientRect = read; done({ error: e.message }); });""", change)

    def test_the_frames_after_the_start_measure_nothing_again(self):
        # The resize observer's first report (every element's size) matches what set-up read.
        result = self.reads_after_the_start()
        self.assertEqual(result["atStart"], 8, result)
        self.assertEqual(result["after"], 0, result)

    def test_an_item_resized_before_the_observers_first_report_is_measured(self):
        result = self.reads_after_the_start("document.querySelector('.item').style.width = '80px';")
        self.assertGreaterEqual(result["after"], 8, result)
        page().js("document.querySelector('.item').style.width = '';")

    def test_the_live_region_is_added_after_the_boxes_are_read(self):
        # Added before the reads, it would have the browser lay the page out again for the first.
        result = self.reads_after_the_start()
        self.assertIs(result["liveBeforeReads"], False, result)


class BoardExamplesOnAPhone(unittest.TestCase):
    size = (360, 740)

    def setUp(self):
        web.PhoneScreen.setUp(self)

    def tearDown(self):
        web.PhoneScreen.tearDown(self)

    def test_both_examples_work_by_touch(self):
        p = page()
        open_example("locations.html", "places")
        p.js("scrollTo(0, document.querySelector('[data-id=work]').getBoundingClientRect().top + scrollY - 10)")
        touch_drag(path(centre('[data-id="work"] img'), centre('[data-id="hill"]')))
        p.until("return document.querySelector('[data-id=hill] img')?.alt === 'Dunes'", message="the dunes on the hill")
        self.assertEqual(p.js("return document.querySelector('#where').textContent"), "Hill")
        p.driver.save_screenshot("build/board-locations-phone.png")
        # A phone has no Ctrl+Z: the page's Undo button, tapped, brings the dunes back.
        p.driver.find_element("id", "undo").click()
        p.until("return document.querySelector('[data-id=work] img')?.alt === 'Dunes'", message="the undo")
        self.assertFalse(p.js("return document.getElementById('redo').disabled"))
        p.driver.get(p.base + "examples/shortcuts.html")
        p.driver.execute_async_script("shortcuts.ready.then(() => arguments[0]())")
        touch_drag(path(centre('[data-id="camera"]'), centre('[data-name="Shortcut 2"]')))
        p.until("return document.querySelector('[data-name=\"Shortcut 2\"] [data-board-copy]')?.alt === 'Camera'",
                message="the camera shortcut")
        self.assertEqual(p.js("return document.querySelector('#last').textContent"), "Shortcut 2: Camera")
        p.driver.save_screenshot("build/board-shortcuts-phone.png")
        # Nothing is cut off: the page is no wider than the phone.
        self.assertLessEqual(p.js("return document.documentElement.scrollWidth"), 360)


def cards(options, container="#cards", wrap=None):
    """tests/web/pages/board-cards.html, fresh, with board(container, options) started."""
    p = page()
    p.driver.get(p.base + "pages/board-cards.html")
    p.until("return window.pageReady === true", message="the cards page")
    p.js("localStorage.clear()")
    if wrap:
        p.js(wrap)
    return p.driver.execute_async_script(
        "start(arguments[0], arguments[1]).then(arguments[arguments.length - 1])", container, options)


def logged(kind=None):
    return [e for e in page().js("return window.log") if kind is None or e["type"] == kind]


def mouse(points, release=True, pause=0.0, step_ms=30):
    """A real mouse: moves to the first point, presses, moves along the rest, maybe releases."""
    actions = ActionBuilder(page().driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=step_ms)
    actions.pointer_action.move_to_location(int(points[0][0]), int(points[0][1]))
    actions.pointer_action.pointer_down()
    for x, y in points[1:]:
        actions.pointer_action.move_to_location(int(x), int(y))
    if pause:
        actions.pointer_action.pause(pause)
    if release:
        actions.pointer_action.pointer_up()
    actions.perform()


def release_mouse():
    actions = ActionBuilder(page().driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=30)
    actions.pointer_action.pointer_up()
    actions.perform()


def key(k):
    """A key pressed wherever the focus is (<body> after a mouse press on a card)."""
    ActionChains(page().driver).send_keys(k).perform()


def box(selector):
    return page().js("return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()", selector)


class BoardOnItsOwnPage(unittest.TestCase):
    """What a page that used SortableJS or interact.js meets: cards with controls, a modal
    dialog, a hidden tab, a scrolling box, CSS that does not centre, its own options."""

    def test_controls_inside_cards_keep_working(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        p = page()
        title = '[data-id="milk"] input'
        # A click in the input focuses it and typing goes in; a drag across it selects text.
        t = box(title)
        mouse([(t["left"] + 8, t["top"] + t["height"] / 2)])
        self.assertEqual(p.js("return document.activeElement.className"), "title")
        ActionChains(p.driver).send_keys(Keys.END + " now").perform()
        self.assertEqual(p.js("return document.querySelector(arguments[0]).value", title), "Buy milk and bread now")
        mouse(path((t["left"] + 4, t["top"] + t["height"] / 2), (t["left"] + 90, t["top"] + t["height"] / 2), steps=6))
        selected = p.js("const i = document.querySelector(arguments[0]); return i.selectionEnd - i.selectionStart", title)
        self.assertGreater(selected, 3)
        # A press on a button or a link is the control's, not a drag: it clicks, nothing moves.
        done = centre('[data-id="milk"] .done')
        mouse([done])
        mouse(path(centre('[data-id="milk"] .more'), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "mon")
        self.assertEqual(logged("pickup"), [])
        self.assertEqual(p.js("return clicks"), ["done"])
        # The card itself (its padding, its text) still drags.
        c = box('[data-id="milk"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "wed")

    def test_handle_and_filter_and_a_drag_from_a_button_does_not_click_it(self):
        # `handle`, as SortableJS's docs write it: only the grip starts a drag.
        self.assertEqual(cards({"items": ".card", "slots": ".cell", "handle": ".handle"}), "ok")
        c = box('[data-id="milk"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "mon")
        mouse(path(centre('[data-id="milk"] .handle'), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "wed")
        self.assertEqual(logged("drop")[-1]["from"], "mon")
        # A button as the handle: the drag moves the card and the drop does not click it.
        self.assertEqual(cards({"items": ".card", "slots": ".cell", "handle": ".done"}), "ok")
        mouse(path(centre('[data-id="call"] .done'), centre('[data-id="thu"]')))
        settled()
        self.assertEqual(parent_of('[data-id="call"]'), "thu")
        self.assertEqual(page().js("return clicks"), [])
        # `filter`: what it names does not start a drag either.
        self.assertEqual(cards({"items": ".card", "slots": ".cell", "filter": ".handle"}), "ok")
        mouse(path(centre('[data-id="call"] .handle'), centre('[data-id="thu"]')))
        settled()
        self.assertEqual(parent_of('[data-id="call"]'), "tue")

    def test_escape_cancels_a_mouse_drag_and_in_a_dialog_only_the_drag(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        c = box('[data-id="milk"]')
        start = (c["left"] + c["width"] - 6, c["bottom"] - 4)
        mouse(path(start, centre('[data-id="thu"]')), release=False)
        self.assertEqual(page().js("return document.activeElement.tagName"), "BODY")
        key(Keys.ESCAPE)
        release_mouse()
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "mon")
        self.assertEqual([e["item"] for e in logged("cancel")], ["milk"])
        self.assertEqual(logged("drop"), [])
        # In a modal dialog: the first Escape cancels the drag, the dialog stays open.
        page().js("document.querySelector('#dialog').showModal()")
        self.assertEqual(page().driver.execute_async_script(
            "b.destroy(); start('#dialog-board', {items: '.chip', slots: '.cell'}).then(arguments[0])"), "ok")
        mouse(path(centre('[data-id="x"]'), centre('[data-id="d2"]')), release=False)
        key(Keys.ESCAPE)
        release_mouse()
        settled()
        self.assertTrue(page().js("return document.querySelector('#dialog').open"))
        self.assertEqual(parent_of('[data-id="x"]'), "d1")
        self.assertEqual(logged("cancel")[-1]["item"], "x")
        key(Keys.ESCAPE)  # with no drag, Escape is the dialog's again
        self.assertFalse(page().js("return document.querySelector('#dialog').open"))

    def test_a_click_is_not_a_drag_and_change_means_a_change(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        c = box('[data-id="milk"]')
        body = (c["left"] + c["width"] - 6, c["bottom"] - 4)
        mouse([body])
        p = page()
        p.frames()  # a drag the board began would show by now: it answers a press at once
        self.assertEqual(logged(), [])
        # Dragged about and dropped back on its own cell: a drop, but no change.
        mouse(path(body, (body[0] + 30, body[1] + 20)) + [body])
        settled()
        self.assertEqual([e["type"] for e in logged() if e["type"] != "hover"], ["pickup", "drop"])
        mouse(path(body, centre('[data-id="wed"]')))
        settled()
        self.assertEqual(len(logged("change")), 1)

    def test_a_board_made_in_a_closed_dialog_or_a_hidden_tab_works_when_shown(self):
        for container, show, item, target in (
                ("#dialog-board", "document.querySelector('#dialog').showModal()", "x", "d2"),
                ("#tab-board", "document.querySelector('#show-tab').click()", "y", "t2")):
            self.assertEqual(cards({"items": ".chip", "slots": ".cell"}, container=container), "ok", container)
            page().js(show)
            page().until("return document.querySelector('[data-id=%s]').getBoundingClientRect().width > 0" % target,
                         message="shown")
            page().frames()  # the ResizeObserver's frame, and the measure it asks for
            mouse(path(centre(f'[data-id="{item}"]'), centre(f'[data-id="{target}"]')))
            settled()
            self.assertEqual(parent_of(f'[data-id="{item}"]'), target, container)
        self.assertEqual(page().js("return document.querySelectorAll('.board-live').length"), 3)

    def test_the_held_card_shows_above_an_overflow_box_and_scrolling_waits_for_its_edge(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"},
                               wrap="document.querySelector('#cards').classList.add('scroll')"), "ok")
        p = page()
        scroller = box("#cards")
        c = box('[data-id="milk"]')
        start = (c["left"] + c["width"] - 6, c["bottom"] - 4)
        below = (scroller["right"] + 150, scroller["bottom"] + 364)
        try:
            mouse([start, below], release=False, pause=0.8)  # one jump: it never passes the edge
            # The card is drawn outside the box, above everything: what the pointer is over.
            hit = p.js("const e = document.elementFromPoint(arguments[0] - 6, arguments[1] - 4);"
                       "return e && e.closest('.card')?.dataset.id", below[0], below[1])
            self.assertEqual(hit, "milk")
            # Far below and beside the box: it does not scroll.
            self.assertEqual(p.js("return document.querySelector('#cards').scrollTop"), 0)
            actions = ActionBuilder(p.driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=30)
            actions.pointer_action.move_to_location(int(scroller["left"] + 100), int(scroller["bottom"] - 6))
            actions.pointer_action.pause(0.6)
            actions.perform()
            self.assertGreater(p.js("return document.querySelector('#cards').scrollTop"), 0)  # at its edge it does
        finally:
            key(Keys.ESCAPE)
            release_mouse()
        settled()

    def test_the_snap_ends_where_the_css_puts_the_card(self):
        # A slower snap than the default, so a busy machine's late frame still lands near its end.
        self.assertEqual(cards({"items": ".card", "slots": ".cell", "snapDuration": 0.6}), "ok")
        p = page()
        # Each frame of the snap: the card's box while it is lifted, then at rest.
        p.js("window.frames = []; const card = document.querySelector('[data-id=milk]');"
             "const watch = () => { frames.push([card.classList.contains('board-lifted'),"
             " card.getBoundingClientRect().left, card.getBoundingClientRect().top]); requestAnimationFrame(watch); };"
             "watch();")
        c = box('[data-id="milk"]')
        w = centre('[data-id="wed"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), (w[0] + 20, w[1] + 10)))
        settled()
        p.frames()  # a few frames at rest recorded too
        frames = p.js("return frames")
        rest = box('[data-id="milk"]')
        cell = box('[data-id="wed"]')
        self.assertLess(abs(rest["left"] - (cell["left"] + 6)) + abs(rest["top"] - (cell["top"] + 6)), 1)
        lifted = [f for f in frames if f[0]]
        self.assertTrue(lifted)
        # The last lifted frame is already (nearly) where it rests: no jump at the end.
        self.assertLess(abs(lifted[-1][1] - rest["left"]) + abs(lifted[-1][2] - rest["top"]), 3, lifted[-4:])

    def test_shortcut_copies_by_keyboard_and_the_ghost_keeps_the_pages_css(self):
        self.assertEqual(cards({"items": ".app", "slots": ".shortcut", "mode": "shortcuts", "contentDraggable": True},
                               container="#phone"), "ok")
        p = page()
        mouse(path(centre('[data-id="mail"]'), centre('[data-id="s2"]')), release=False)
        # The ghost is styled by `#phone .app`, as its source is.
        self.assertEqual(p.js("return getComputedStyle(document.querySelector('.board-ghost')).backgroundColor"),
                         "rgb(20, 120, 60)")
        release_mouse()
        settled()
        copy = '[data-id="s2"] [data-board-copy]'
        self.assertEqual(p.js("return document.querySelector(arguments[0]).getAttribute('role')", copy), "button")
        # Tab reaches it after the apps; Delete removes it.
        p.driver.find_element("css selector", '[data-id="maps"]').send_keys(Keys.TAB)
        self.assertEqual(p.js("return document.activeElement.dataset.boardCopy"), "mail")
        ActionChains(p.driver).send_keys(Keys.DELETE).perform()
        self.assertEqual(p.js("return document.querySelectorAll('[data-board-copy]').length"), 0)
        self.assertIn("Removed Mail", p.js("return b.live.textContent"))

    def test_destroy_takes_back_what_it_added_and_a_failed_board_leaves_nothing(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        p = page()
        p.js("document.querySelector('[data-id=call]').setAttribute('aria-label', 'Call card')")
        p.js("b.destroy()")
        left = p.js("return [...document.querySelectorAll('.card, .cell')].flatMap((el) => [...el.attributes]"
                    ".map((a) => a.name)).filter((n) => /^(tabindex|role|aria-|data-board)/.test(n))")
        self.assertEqual(left, ["aria-label"])  # the page's own
        self.assertEqual(p.js("return document.querySelectorAll('.board-live').length"), 0)
        result = p.driver.execute_async_script(
            "start('#cards', {items: '.card', slots: '.cell', maxDistence: 3}).then(arguments[0])")
        self.assertIn("maxDistence: not an option (did you mean maxDistance?)", result)
        self.assertEqual(p.js("return document.querySelectorAll('.board-live').length"), 0)
        self.assertEqual(p.js("return document.querySelectorAll('[data-board-item], [role]').length"), 0)

    def test_the_board_runs_under_a_strict_content_security_policy(self):
        """A host page that allows no inline script or style (docs/viewer.md's directives for
        the board): the board starts and its own rules apply, with no violation."""
        p = page()
        p.driver.get(p.base + "pages/board-csp.html")
        p.until("return window.started !== undefined", timeout=10, message="the board started")
        self.assertIs(p.js("return window.started"), True)
        self.assertEqual(p.js("return violations"), [])
        self.assertEqual(p.js("return getComputedStyle(document.querySelector('.board-live')).position"), "absolute")
        # The grab cursor is the hovered item's only.
        x, y = centre("[data-board-item]")
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self.assertEqual(p.js("return getComputedStyle(document.querySelector('[data-board-item]')).cursor"), "grab")
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 1})

    def test_options_are_checked_with_messages_in_the_pages_words(self):
        p = page()
        cards({"items": ".card", "slots": ".cell"})
        p.js("b.destroy()")
        cases = [
            ("{touch: {dealy: 300}}", "touch.dealy: not an option of touch (did you mean delay?)"),
            ("{touch: {delay: -5}}", "touch.delay: must not be negative (found -5)"),
            ("{snapDuration: -0.2}", "snapDuration: must not be negative"),
            ("{snapDuration: NaN}", "snapDuration: expected a finite number, found NaN"),
            ("{status: '#nope'}", 'status: "#nope" matches nothing on the page'),
            ("{onpikup: () => {}}", "onpikup: not an event (did you mean onpickup?)"),
            ("{ondrop: 'save()'}", "ondrop: expected a function, found a string"),
            ("{handle: 3}", "handle: expected a CSS selector, found a number"),
            ("{persist: 'sessionStorage'}", 'persist: expected "localStorage" or false, found "sessionStorage"'),
        ]
        for extra, message in cases:
            result = p.driver.execute_async_script(
                "start('#cards', Object.assign({items: '.card', slots: '.cell'}, " + extra + ")).then(arguments[0])")
            self.assertIn(message, result, extra)
            self.assertNotIn("line", result)
            self.assertNotIn("column", result)
        self.assertEqual(p.driver.execute_async_script(
            "start('#cards', {items: '.card', slots: '.cell'}).then(arguments[0])"), "ok")
        for call, message in (("b.setOptions({maxDistence: 3})", "maxDistence: not an option"),
                              ("b.setOptions({touch: {delay: 'long'}})", "touch.delay: expected a number"),
                              ("b.setOptions({mode: 'shortcuts'})", "mode: cannot change while the board runs"),
                              ("b.setOptions({maxDistance: Infinity})", "maxDistance: expected a finite number"),
                              ("b.setOptions({touch: {tolerance: NaN}})", "touch.tolerance: expected a finite number"),
                              ("b.restore('{}')", "not a board state")):
            error = p.js("try { " + call + "; return null; } catch (e) { return e.message; }")
            self.assertIn(message, error or "", call)
        p.js("b.setOptions({touch: {delay: 0}, maxDistance: 80})")
        # A second board() on the same container is refused; the first one answers once.
        second = p.driver.execute_async_script(
            "const first = b; start('#cards', {items: '.card', slots: '.cell'}).then((r) => { window.b = first;"
            " arguments[0](r); })")
        self.assertIn("already has a board", second)
        p.js("window.log = []")
        c = box('[data-id="milk"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), centre('[data-id="wed"]')))
        settled()
        self.assertEqual(len(logged("pickup")), 1)
        self.assertEqual(len(logged("drop")), 1)

    def test_swap_state_redo_and_accepts_changed_while_the_page_runs(self):
        self.assertEqual(cards({"items": ".card", "slots": ".cell"}), "ok")
        p = page()
        p.js("window.states = []; b.on('change', (e) => states.push(e.state))")
        c = box('[data-id="milk"]')
        mouse(path((c["left"] + c["width"] - 6, c["bottom"] - 4), centre('[data-id="tue"]')))
        settled()
        self.assertEqual(logged("drop")[-1], {"type": "drop", "item": "milk", "slot": "tue", "from": "mon",
                                              "message": None})
        # The state saved at the drop says where both cards rest, not where they were mid-snap.
        saved = {i["id"]: i["center"] for i in json.loads(p.js("return states[0]"))["items"]}
        for card in ("milk", "call"):
            r, f = box(f'[data-id="{card}"]'), box("#cards")
            rest = [r["left"] + r["width"] / 2 - f["left"], r["top"] + r["height"] / 2 - f["top"]]
            self.assertLess(abs(saved[card][0] - rest[0]) + abs(saved[card][1] - rest[1]), 1, card)
        p.js("b.undo()")
        settled()
        p.js("b.redo()")
        settled()
        self.assertEqual([e["item"] for e in logged("redo")], ["milk"])
        self.assertEqual(parent_of('[data-id="milk"]'), "tue")
        # Thursday starts taking only urgent cards: the page changes data-accepts at run time.
        p.js("document.querySelector('[data-id=thu]').dataset.accepts = 'urgent'")
        p.frames()  # the board rebuilds on the MutationObserver's record, and measures by the next frame
        m = box('[data-id="milk"]')
        mouse(path((m["left"] + m["width"] - 6, m["bottom"] - 4), centre('[data-id="thu"]')), release=False)
        self.assertTrue(p.js("return document.querySelector('[data-id=thu]').hasAttribute('data-board-refuses')"))
        self.assertFalse(p.js("return document.querySelector('[data-id=fri]').hasAttribute('data-board-refuses')"))
        release_mouse()
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "tue")
        self.assertFalse(p.js("return !!document.querySelector('[data-board-refuses]')"))
        p.js("document.querySelector('[data-id=milk]').dataset.tags = 'urgent'")
        p.frames()
        m = box('[data-id="milk"]')
        mouse(path((m["left"] + m["width"] - 6, m["bottom"] - 4), centre('[data-id="thu"]')))
        settled()
        self.assertEqual(parent_of('[data-id="milk"]'), "thu")
