"""The board's sortable mode against SortableJS on the same pages (issue 38).

tests/web/pages/sortable-kanban.html and sortable-gallery.html run either SortableJS 1.14
(Debian's libjs-sortable, `?lib=sortablejs`, with `forceFallback` so it follows the pointer
itself) or the board's `mode: 'sortable'` with the same options. Each test makes the same
drag on both with real input over the DevTools protocol (Input.dispatchMouseEvent,
Input.dispatchTouchEvent) and asserts the same DOM order. Run:
  build/venv/bin/python tests/web/test_sortable.py [-k NAME]
(it uses test_web.py's browser and server; `make web` first).
"""

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import test_web  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def setUpModule():
    test_web.setUpModule()


def tearDownModule():
    test_web.tearDownModule()


def page():
    return test_web.PAGE


def open_page(name, lib):
    p = page()
    query = "?lib=sortablejs" if lib == "sortablejs" else ""
    p.driver.get(p.base + f"pages/{name}.html{query}")
    p.js("localStorage.clear()")
    p.until("return window.pageReady === true", message=f"{name} with {lib}")


def centre(selector):
    r = page().js("return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()", selector)
    return (r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)


# What the tests wait on (issue 37: waits, not sleeps). A probe in the page counts the input
# events it has handled, so a step waits until its event arrived rather than a fixed time.
PROBE = """if (!window.seen) {
  window.seen = { pointermove: 0, pointerup: 0, keydown: 0 };
  for (const kind of Object.keys(seen)) addEventListener(kind, (e) => {
    seen[kind]++;
    // SortableJS (forceFallback) takes a move only once its drag has a ghost; it reads the
    // position later, at its next 50 ms poll.
    if (kind === 'pointermove') seen.move = { x: e.clientX, y: e.clientY, ghost: !!window.Sortable?.ghost };
  }, true);
}
return seen;"""

# Nothing animates any more: the board's settle (CSS transitions on `translate`) and SortableJS's
# (CSS transitions on `transform`, each item `animated` until its timer ends) are over, and no
# drag is held by either.
AT_REST = ("!window.Sortable?.active && !document.querySelector('[data-board-held]')"
           " && !document.getAnimations().some((a) => a.playState === 'running')"
           " && ![...document.querySelectorAll('[data-id]')].some((el) => el.animated)")


def seen(kind):
    return page().js(PROBE)[kind]


def wait_in_page(condition, *args, result="true", timeout=5.0, message="condition"):
    """Waits in the page itself until `condition` (JS over `args`) holds, checking every 4 ms,
    and returns `result` (JS) then: the wait lasts as long as the event it waits for, not a
    polling round trip."""
    answer = page().driver.execute_async_script(
        "const args = arguments, done = arguments[arguments.length - 1];"
        f"const end = performance.now() + {timeout * 1000};"
        f"const check = () => {{ if ({condition}) done([{result}]); else if (performance.now() > end) done(null);"
        " else setTimeout(check, 4); }; check();", *args)
    if answer is None:
        raise AssertionError(f"timed out waiting for {message}: {condition}")
    return answer[0]


def at_rest():
    wait_in_page(AT_REST, message="both libraries' animations to end")


def moved(before):
    """Waits until the page has handled the move after `before` moves, and, on SortableJS's page,
    its poll has read that position (as a 60 ms step once made sure of); returns the moves seen."""
    return wait_in_page("seen.pointermove > args[0] && (!location.search.includes('lib=sortablejs')"
                 " || !!Sortable.active && (!seen.move.ghost"
                 " || Sortable.active._lastX === seen.move.x && Sortable.active._lastY === seen.move.y))",
                 before, result="seen.pointermove", message="the move handled")


# SortableJS at rest under a still pointer: two polls in a row found nothing animating, so the
# first of them moved nothing (a move starts a 150 ms animation; its 30 ms silence ends before
# the next poll). Its poll writes `_lastX` every 50 ms: a setter there counts them. The board
# answers every move at once and needs no such wait.
HOLD = """const done = arguments[arguments.length - 1];
const s = location.search.includes('lib=sortablejs') && Sortable.active;
if (!s) { done(true); return; }
const animating = () => [...document.querySelectorAll('[data-id]')].some((el) => el.animated);
let value = s._lastX, quiet = 0;
const finish = (ok) => { clearTimeout(timer); delete s._lastX; s._lastX = value; done(ok); };
const timer = setTimeout(() => finish(false), 5000);
Object.defineProperty(s, '_lastX', { configurable: true, get: () => value, set: (x) => {
  value = x;
  quiet = animating() ? 0 : quiet + 1;
  if (quiet >= 2) finish(true);
} });"""


def hold():
    if not page().driver.execute_async_script(HOLD):
        raise AssertionError("timed out waiting for SortableJS at rest under the pointer")


def drag(start, end, kind="mouse", steps=16, dy=0.0):
    """A real drag over CDP: press, `steps` moves along a straight line, each sent once the
    last was handled (and, with SortableJS, read by its poll), a hold until both libraries are
    at rest, release, and a wait for the drop's animations to end."""
    p = page()
    (x0, y0), (x1, y1) = start, (end[0], end[1] + dy)
    points = [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps + 1)]
    if kind == "mouse":
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0})
        p.cdp("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0, "button": "left", "buttons": 1,
                                           "clickCount": 1})
        moves = seen("pointermove")
        for x, y in points[1:]:
            p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "left", "buttons": 1})
            moves = moved(moves)
        hold()
        ups = seen("pointerup")
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x1, "y": y1, "button": "left", "buttons": 1})
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1, "button": "left", "buttons": 0,
                                           "clickCount": 1})
    else:
        p.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        moves = seen("pointermove")
        for x, y in points[1:]:
            p.cdp("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
            moves = moved(moves)
        hold()
        ups = seen("pointerup")
        p.cdp("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y1}]})
        p.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_in_page("seen.pointerup > args[0]", ups, message="the release handled")
    at_rest()


def orders_after(name, moves, lib):
    open_page(name, lib)
    for m in moves:
        m()
    return page().js("return order()")


def both(name, moves):
    """The DOM orders SortableJS and the board leave after the same moves."""
    return orders_after(name, moves, "sortablejs"), orders_after(name, moves, "board")


def press(*keys):
    """Real key presses wherever the focus is, each once the page has handled the last."""
    for k in keys:
        before = seen("keydown")
        ActionChains(page().driver).send_keys(k).perform()
        wait_in_page("seen.keydown > args[0]", before, message=f"the key {k!r} handled")


def card(item_id):
    return centre(f'[data-id="{item_id}"] .handle')


class SortableAgainstSortableJS(unittest.TestCase):
    def assertSame(self, name, moves, expected=None):
        reference, ours = both(name, moves)
        self.assertEqual(ours, reference)
        if expected is not None:
            self.assertEqual(dict(ours), {**dict(ours), **expected})
        return ours

    def test_within_a_list_inserts(self):
        # todo-1 dragged down onto todo-3: SortableJS inserts it after todo-3 (no swap).
        ours = self.assertSame("sortable-kanban", [lambda: drag(card("todo-1"), card("todo-3"))],
                               {"todo": ["todo-2", "todo-3", "todo-1", "todo-4"]})
        self.assertTrue(ours)

    def test_within_a_list_by_touch(self):
        self.assertSame("sortable-kanban", [lambda: drag(card("todo-4"), card("todo-2"), kind="touch")])

    def test_between_lists(self):
        self.assertSame("sortable-kanban", [lambda: drag(card("todo-2"), card("doing-1"), dy=10)])
        self.assertSame("sortable-kanban", [lambda: drag(card("todo-3"), card("doing-2"), dy=-10)])

    def test_into_an_empty_list_anywhere_in_its_box(self):
        self.assertSame("sortable-kanban", [lambda: drag(card("todo-1"), centre("#done"))],
                        {"done": ["todo-1"]})

    def test_clone_pull_leaves_a_copy(self):
        ours = self.assertSame("sortable-kanban", [lambda: drag(card("tpl-bug"), card("todo-2"), dy=10)])
        self.assertEqual(dict(ours)["palette"], ["tpl-bug", "tpl-task"])
        self.assertIn("tpl-bug", dict(ours)["todo"])
        self.assertTrue(page().js("return log.some((e) => e.type === 'end' && e.clone)"))

    def test_max_refuses_a_fourth_card(self):
        ours = self.assertSame("sortable-kanban", [
            lambda: drag(card("todo-1"), card("doing-2"), dy=10),
            lambda: drag(card("todo-2"), card("doing-2"), dy=10),
        ])
        self.assertEqual(len(dict(ours)["doing"]), 3)

    def test_gallery_photo_1_to_position_7_shifts_the_others(self):
        ours = self.assertSame("sortable-gallery", [lambda: drag(centre('[data-id="p1"]'), centre('[data-id="p7"]'))])
        self.assertEqual(dict(ours)["gallery"][:8], ["p2", "p3", "p4", "p5", "p6", "p7", "p1", "p8"])

    def test_gallery_backwards_and_across_rows_by_touch(self):
        self.assertSame("sortable-gallery", [
            lambda: drag(centre('[data-id="p11"]'), centre('[data-id="p2"]'), kind="touch"),
            lambda: drag(centre('[data-id="p5"]'), centre('[data-id="p8"]')),
        ])


class SortableBoard(unittest.TestCase):
    """What SortableJS has no answer to compare with: the keyboard, multi-drag, events, undo."""

    def test_neighbours_make_room_while_dragging(self):
        open_page("sortable-kanban", "board")
        p = page()
        (x0, y0), (x1, y1) = card("todo-1"), card("todo-3")
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0})
        p.cdp("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0, "button": "left", "buttons": 1,
                                           "clickCount": 1})
        moves = seen("pointermove")
        for k in range(1, 13):
            p.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0 + (y1 - y0) * k / 12,
                                               "button": "left", "buttons": 1})
            moves = moved(moves)
        # The neighbours' slides end (CSS transitions on `translate`), as a held drag rests.
        wait_in_page("!document.getAnimations().some((a) => a.playState === 'running')", message="the slides")
        # todo-2 and todo-3 slid up by one card (44 px + 6 px margin) while todo-1 is held.
        self.assertEqual(p.js("return document.querySelector('[data-id=\"todo-2\"]').style.translate"), "0px -50px")
        self.assertEqual(p.js("return document.querySelector('[data-id=\"todo-3\"]').style.translate"), "0px -50px")
        self.assertIn(p.js("return document.querySelector('[data-id=\"todo-4\"]').style.translate"), ("", "0px 0px"))
        ups = seen("pointerup")
        p.cdp("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1, "button": "left", "buttons": 0,
                                           "clickCount": 1})
        wait_in_page("seen.pointerup > args[0]", ups, message="the release handled")
        at_rest()
        ends = [e for e in p.js("return log") if e["type"] == "end"]
        self.assertEqual(ends, [{"type": "end", "item": "todo-1", "from": "todo", "to": "todo", "oldIndex": 0,
                                 "newIndex": 2, "clone": False}])
        self.assertEqual([e["type"] for e in p.js("return log")], ["start", "sort", "sort", "end", "change"])
        p.js("b.undo()")
        self.assertEqual(dict(p.js("return order()"))["todo"], ["todo-1", "todo-2", "todo-3", "todo-4"])
        p.js("b.redo()")
        self.assertEqual(p.js("return b.toArray('todo')"), ["todo-2", "todo-3", "todo-1", "todo-4"])

    def test_the_kanban_example_drags_by_its_handle_and_keeps_its_order(self):
        """The shipped example (examples/kanban.html) as a visitor uses it: a card dragged by
        its handle into the empty column, the message, the order after a reload, a keyboard
        move, and Undo as a button."""
        p = page()
        p.driver.get(p.base + "examples/kanban.html")
        p.js("localStorage.clear()")
        p.driver.get(p.base + "examples/kanban.html")
        p.driver.execute_async_script("kanban.ready.then(() => arguments[0]())")
        handle = centre('[data-id="bug"] .handle')
        drag(handle, centre("#done"))
        self.assertEqual(p.js("return kanban.toArray('done')"), ["bug"])
        self.assertEqual(p.js("return document.getElementById('last').textContent"),
                         "Fix the login bug: todo → done, position 1")
        # A press on the card's text, not its handle, moves nothing.
        text = centre('[data-id="spec"]')
        drag((text[0] + 40, text[1]), centre("#done"))
        self.assertEqual(p.js("return kanban.toArray('todo')"), ["spec", "review"])
        p.driver.refresh()
        p.driver.execute_async_script("kanban.ready.then(() => arguments[0]())")
        self.assertEqual(p.js("return kanban.toArray('done')"), ["bug"])
        p.js("document.querySelector('[data-id=\"spec\"]').focus()")
        press(" ", Keys.ARROW_RIGHT, " ")
        at_rest()
        # Arrow right keeps the card's position, first, in the next column.
        self.assertEqual(p.js("return kanban.toArray('doing')"), ["spec", "design"])
        p.until("return !document.getElementById('undo').disabled", message="Undo enabled")
        p.driver.find_element("id", "undo").click()
        at_rest()
        self.assertEqual(p.js("return kanban.toArray('todo')"), ["spec", "review"])

    def test_keyboard_moves_with_announcements(self):
        open_page("sortable-kanban", "board")
        p = page()
        p.js("document.querySelector('[data-id=\"todo-1\"]').focus()")
        live = "return document.querySelector('.board-live[aria-live]').textContent"
        press(" ")
        self.assertEqual(p.js(live), "Picked up Write spec, position 1 of 4 in To do")
        press(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
        self.assertEqual(p.js(live), "Write spec, position 3 of 4 in To do")
        press(Keys.ARROW_RIGHT)
        self.assertEqual(p.js(live), "Write spec, position 3 of 3 in Doing")
        press(" ")
        at_rest()
        self.assertEqual(p.js(live), "Dropped Write spec, position 3 of 3 in Doing")
        self.assertEqual(p.js("return b.toArray('doing')"), ["doing-1", "doing-2", "todo-1"])
        self.assertEqual(p.js("return document.activeElement.dataset.id"), "todo-1")
        # Escape puts it back; arrows without a held card move the focus (one Tab stop a list).
        press(" ", Keys.ARROW_UP, Keys.ESCAPE)
        at_rest()
        self.assertEqual(p.js("return b.toArray('doing')"), ["doing-1", "doing-2", "todo-1"])
        press(Keys.ARROW_UP)
        self.assertEqual(p.js("return document.activeElement.dataset.id"), "doing-2")
        self.assertEqual(p.js("return [...document.querySelectorAll('#doing li')].map((li) => li.tabIndex)"), [-1, 0, -1])

    def test_a_selection_moves_together(self):
        open_page("sortable-kanban", "board")
        p = page()
        for item in ("todo-1", "todo-3"):
            x, y = card(item)
            p.cdp("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1,
                                               "clickCount": 1, "modifiers": 2})
            p.cdp("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left",
                                               "clickCount": 1, "modifiers": 2})
        drag(card("todo-3"), centre("#done"))
        self.assertEqual(dict(p.js("return order()"))["done"], ["todo-1", "todo-3"])
        self.assertEqual(dict(p.js("return order()"))["todo"], ["todo-2", "todo-4"])

    def test_state_and_restore_carry_the_order(self):
        open_page("sortable-kanban", "board")
        p = page()
        drag(card("todo-1"), centre("#done"))
        saved = p.js("return b.state()")
        open_page("sortable-kanban", "board")
        p.js("b.restore(arguments[0])", saved)
        self.assertEqual(dict(p.js("return order()"))["done"], ["todo-1"])
        self.assertEqual(dict(p.js("return order()"))["todo"], ["todo-2", "todo-3", "todo-4"])

    def test_a_hostile_stored_order_is_read_in_linear_time_and_the_board_keeps_working(self):
        # A stored order is input the page did not write: 200 000 ids, one repeated. Each id was
        # looked up by a scan of the list, and every one, repeats included, was written into the
        # engine's buffer of 1024 numbers without asking it to grow (past its end into the wasm heap,
        # or a RangeError out of restore()).
        open_page("sortable-kanban", "board")
        p = page()
        took = p.js("""const ids = Array(200000).fill('todo-3').concat(['todo-2', 'nope', 7]);
            const t0 = performance.now();
            b.restore(JSON.stringify({ order: { todo: ids, done: ['todo-4'] } }));
            return performance.now() - t0;""")
        self.assertEqual(p.js("return b.toArray('todo')"), ["todo-3", "todo-2", "todo-1"])
        self.assertEqual(p.js("return b.toArray('done')"), ["todo-4"])
        self.assertLess(took, 1500, "restore() of 200 000 ids (ms)")
        # The engine still answers: a drag and its undo.
        drag(card("todo-1"), centre("#done"))
        self.assertEqual(p.js("return b.toArray('done')"), ["todo-4", "todo-1"])
        p.js("b.undo()")
        self.assertEqual(p.js("return b.toArray('todo')"), ["todo-3", "todo-2", "todo-1"])
        # An order that is null is named, not a TypeError from Object.entries.
        with self.assertRaisesRegex(Exception, r"restore\(\): order: missing"):
            p.js("b.restore('{\"order\": null}')")

    def test_sortablejs_restore_recipe_moves_cards_between_lists(self):
        # SortableJS's way: each card put back in its saved list, then sort(order, list) per list.
        open_page("sortable-kanban", "board")
        p = page()
        saved = {"todo": ["todo-2", "todo-4"], "doing": ["doing-1", "todo-1", "doing-2"], "done": ["todo-3"]}
        p.js("""const saved = arguments[0];
            for (const [list, ids] of Object.entries(saved))
              for (const id of ids) document.getElementById(list).append(document.querySelector(`[data-id="${id}"]`));
            for (const [list, ids] of Object.entries(saved)) b.sort(ids, list);""", saved)
        at_rest()
        self.assertEqual({k: v for k, v in p.js("return order()") if k in saved}, saved)
        # sort() alone moves an id from another list too, as SortableJS's sort moves the element.
        p.js("b.sort(['todo-3', 'todo-2', 'todo-4'], 'todo')")
        at_rest()
        self.assertEqual(dict(p.js("return order()"))["todo"], ["todo-3", "todo-2", "todo-4"])
        self.assertEqual(dict(p.js("return order()"))["done"], [])
        with self.assertRaisesRegex(Exception, r'sort\(\): no list "nope"'):
            p.js("b.sort(['todo-1'], 'nope')")

    def test_ctrl_z_and_ctrl_y_on_a_card_undo_and_redo(self):
        open_page("sortable-kanban", "board")
        p = page()
        p.js("document.querySelector('[data-id=\"todo-1\"]').focus()")
        press(" ", Keys.ARROW_DOWN, " ")
        at_rest()
        self.assertEqual(p.js("return b.toArray('todo')")[:2], ["todo-2", "todo-1"])
        keys = seen("keydown")
        ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_in_page("seen.keydown >= args[0] + 2", keys, message="Ctrl+Z handled")
        at_rest()
        self.assertEqual(p.js("return b.toArray('todo')")[:2], ["todo-1", "todo-2"])
        self.assertEqual(p.js("return document.activeElement.dataset.id"), "todo-1")
        keys = seen("keydown")
        ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
        wait_in_page("seen.keydown >= args[0] + 2", keys, message="Ctrl+Y handled")
        at_rest()
        self.assertEqual(p.js("return b.toArray('todo')")[:2], ["todo-2", "todo-1"])
        # In a card's field, Ctrl+Z is the field's own: the order stays.
        field = p.driver.find_element("css selector", '[data-id="todo-3"] input')
        field.click()
        field.send_keys("x")
        keys = seen("keydown")
        ActionChains(p.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_in_page("seen.keydown >= args[0] + 2", keys, message="Ctrl+Z handled")
        at_rest()
        self.assertEqual(p.js("return b.toArray('todo')")[:2], ["todo-2", "todo-1"])
        self.assertEqual(field.get_attribute("value"), "note 3")

    def test_live_region_is_polite(self):
        open_page("sortable-kanban", "board")
        self.assertEqual(page().js("return [...document.querySelectorAll('.board-live[aria-live]')]"
                                   ".map((el) => el.getAttribute('aria-live'))"), ["polite"])

    def test_persist_key_is_imagestage_board_id_and_old_key_is_read_once(self):
        p = page()
        p.driver.get(p.base + "pages/sortable-kanban.html")
        p.until("return window.pageReady === true", message="kanban")
        old = '{"order":{"todo":["todo-4","todo-3","todo-2","todo-1"]}}'
        p.js("localStorage.clear(); localStorage.setItem('imagestage.imagestage.board.kanban', arguments[0])", old)
        p.driver.execute_async_script("""const done = arguments[0];
            b.destroy();
            document.querySelector('main').id = 'kanban';
            import('/imagestage-board.js').then(({ board }) => {
              window.b2 = board('#kanban', { mode: 'sortable', lists: 'ul', items: 'li', group: 'kanban',
                persist: 'localStorage' });
              return b2.ready;
            }).then(() => done(), (e) => done(e.message));""")
        self.assertEqual(p.js("return b2.toArray('todo')"), ["todo-4", "todo-3", "todo-2", "todo-1"])
        self.assertIn('"todo":["todo-4","todo-3","todo-2","todo-1"]', p.js("return localStorage.getItem('imagestage.board.kanban')"))
        self.assertIsNone(p.js("return localStorage.getItem('imagestage.imagestage.board.kanban')"))
        p.js("b2.sort(['todo-1', 'todo-2', 'todo-3', 'todo-4'], 'todo')")
        self.assertIn('"todo":["todo-1","todo-2","todo-3","todo-4"]', p.js("return localStorage.getItem('imagestage.board.kanban')"))

    def test_to_array_before_ready_is_the_dom_order(self):
        p = page()
        p.driver.get(p.base + "pages/sortable-kanban.html")
        p.until("return window.pageReady === true", message="kanban")
        # Straight after board(), before its module is instantiated: SortableJS answers at once too.
        self.assertEqual(p.driver.execute_async_script("""const done = arguments[0];
            import('/imagestage-board.js').then(({ board }) => {
              const b3 = board('main', { mode: 'sortable', lists: 'ul', items: 'li' });
              done(b3.toArray('doing'));
            }, (e) => done(e.message));"""), ["doing-1", "doing-2"])
        with self.assertRaisesRegex(Exception, r'toArray\(\): no list "nope"'):
            p.js("b.toArray('nope')")

    def test_a_touch_on_an_item_drags_it_and_a_touch_between_items_scrolls(self):
        """No item has a touch-action at rest (it cost a restyle and repaint of every item at
        set-up): the page's own scrolling stays, yet a touch drag on an item sorts and does
        not scroll the page, since the board cancels that touch's moves."""
        open_page("sortable-gallery", "board")
        p = page()
        p.js("document.body.style.minHeight = '4000px'; scrollTo(0, 0)")
        self.assertEqual(p.js("return getComputedStyle(document.querySelector('[data-id=\"p10\"]')).touchAction"), "auto")
        # Upwards: a page that took this as a scroll would move down.
        drag(centre('[data-id="p10"]'), centre('[data-id="p2"]'), kind="touch")
        self.assertEqual(p.js("return scrollY"), 0)
        self.assertEqual(p.js("return b.toArray()")[:3], ["p1", "p10", "p2"])
        # The gallery's padding, beside the items: the page scrolls as it would without a board.
        x, y = centre('[data-id="p10"]')
        left = p.js("return document.querySelector('#gallery').getBoundingClientRect().left") + 8
        p.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": left, "y": y}]})
        for k in range(1, 11):
            p.cdp("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": left, "y": y - 15 * k}]})
            time.sleep(0.03)  # a finger's pace: while the page scrolls, the browser throttles the touchmoves it sends the page (no event a move to wait on)
        p.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        p.until("return scrollY > 0", message="a swipe beside the items scrolls the page")
        self.assertEqual(p.js("return b.toArray()")[:3], ["p1", "p10", "p2"])

    def test_set_up_reads_no_box_and_destroy_leaves_the_page_as_it_was(self):
        """Set-up marks the items but reads no layout (the first press or key measures) and
        changes no item's computed style; destroy() takes back every attribute it added."""
        p = page()
        snapshot = ("return [...document.querySelectorAll('.photo')].map((el) => {"
                    "  const cs = getComputedStyle(el);"
                    "  return [el.outerHTML, cs.cursor, cs.userSelect, cs.touchAction]; })")
        p.driver.get(p.base + "pages/sortable-gallery.html?lib=none")  # the items, no board on them
        p.until("return window.pageReady === true")
        before = p.js(snapshot)
        reads = p.driver.execute_async_script(
            "const done = arguments[0];"
            "import('/imagestage-board.js').then(async ({ board }) => {"
            "  const real = Element.prototype.getBoundingClientRect; let reads = 0;"
            "  Element.prototype.getBoundingClientRect = function () { reads++; return real.call(this); };"
            "  window.b2 = board('#gallery', { mode: 'sortable', items: '.photo' });"
            "  await b2.ready; Element.prototype.getBoundingClientRect = real; done(reads); });")
        self.assertEqual(reads, 0)
        marked = p.js(snapshot)
        self.assertEqual([m[1:] for m in marked], [b[1:] for b in before])  # no computed style changed
        self.assertNotEqual([m[0] for m in marked], [b[0] for b in before])  # but the items are marked
        # One Tab stop, the only item described as sortable until the focus moves.
        described = ("return [...document.querySelectorAll('.photo')].filter((el) => el.hasAttribute(arguments[0]))"
                     ".map((el) => [el.dataset.id, el.getAttribute('tabindex')])")
        self.assertEqual(p.js(described, "tabindex"), [["p1", "0"]])
        self.assertEqual(p.js(described, "aria-roledescription"), [["p1", "0"]])
        # The first key measures: arrows move the focus on the layout as it is.
        p.js("document.querySelector('[data-id=\"p1\"]').focus()")
        press(Keys.ARROW_DOWN)
        self.assertEqual(p.js("return document.activeElement.dataset.id"), "p5")
        self.assertEqual(p.js(described, "tabindex"), [["p1", "-1"], ["p5", "0"]])
        self.assertEqual(p.js("return document.activeElement.getAttribute('aria-describedby')"),
                         p.js("return document.querySelector('[data-id=\"p1\"]').getAttribute('aria-describedby')"))
        p.js("b2.destroy()")
        after = p.js(snapshot)
        self.assertEqual(after, before)

    def test_unknown_and_sortablejs_options_are_refused_with_hints(self):
        p = page()
        p.driver.get(p.base + "pages/sortable-kanban.html")
        p.until("return window.pageReady === true", message="kanban")
        message = p.driver.execute_async_script("""const done = arguments[0];
            import('/imagestage-board.js').then(({ board }) => board('main', { mode: 'sortable', lists: 'ul',
              items: 'li', ghostClass: 'ghost', delay: 100, animaton: 150, onEnd: () => {}, onEdn: () => {},
              animation: 'fast' }).ready).then(() => done('resolved'), (e) => done(e.message));""")
        self.assertTrue(message.startswith("ImageStage board: 5 problems:"), message)
        self.assertIn("ghostClass: SortableJS's name, not the board's: style [data-board-held]", message)
        self.assertIn("delay: SortableJS's name, not the board's: a drag starts once the pointer moved 3 px", message)
        self.assertIn("animaton: not an option (did you mean animation?)", message)
        self.assertIn("onEdn: not an event (did you mean onend?)", message)
        self.assertIn("animation: expected a number of 0 or more, found \"fast\"", message)
        self.assertNotIn("onEnd:", message)


def wasm_exports_and_imports(path):
    """The export names and (module, name) imports of a .wasm file, read from its sections."""
    data = open(path, "rb").read()

    def leb(k):
        value = shift = 0
        while True:
            b = data[k]
            k += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value, k

    def name(k):
        n, k = leb(k)
        return data[k:k + n].decode(), k + n

    exports, imports = [], []
    k = 8
    while k < len(data):
        section, size_end = data[k], leb(k + 1)
        size, body = size_end
        if section in (2, 7):
            count, j = leb(body)
            for _ in range(count):
                if section == 2:
                    module, j = name(j)
                    field, j = name(j)
                    kind, j = data[j], j + 1
                    if kind == 0:
                        _, j = leb(j)
                    else:
                        raise AssertionError(f"{path}: import {module}.{field} of kind {kind} (only functions expected)")
                    imports.append((module, field))
                else:
                    field, j = name(j)
                    _, j = leb(j + 1)
                    exports.append(field)
        k = body + size
    return exports, imports


class SortableModuleSpeaksNumbers(unittest.TestCase):
    """Issue 37: the sortable mode's wasm takes and gives numbers only. Its option names are
    checked in JS (board-options.js), so no text of theirs, and no JSON, is in the module."""

    def test_no_json_and_no_option_text_in_the_module(self):
        path = os.path.join(test_web.WEB, "imagestage-sortable.wasm")
        exports, imports = wasm_exports_and_imports(path)
        self.assertIn("sortable_create", exports)
        self.assertFalse([e for e in exports if "json" in e.lower() or "check_option" in e], exports)
        self.assertFalse([i for i in imports if i[0] != "wasi_snapshot_preview1"], imports)
        data = open(path, "rb").read()
        for text in (b"SortableJS", b"did you mean", b"not an option", b"ghostClass"):
            self.assertNotIn(text, data, f"{text!r} is in {path}: option names are checked in JS")


if __name__ == "__main__":
    unittest.main(verbosity=2)
