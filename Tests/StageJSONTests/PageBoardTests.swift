import Foundation
import Stage
import StageJSON
import Testing

/// The board a web page describes (web/board/imagestage-board.js): errors name the page's own
/// option or element, and the engine runs what it read.
@Suite("PageBoard")
struct PageBoardTests {
  static let twoSlots = """
    "slots": [{"id": "home", "frame": [0, 0, 100, 100], "name": "Home"}, {"id": "park", "frame": [120, 0, 100, 100]}],
    "items": [{"id": "lake", "frame": [20, 20, 60, 60], "slot": "home"}]
    """

  /// The description the component sends, with `options` beside its selectors.
  static func decode(_ options: String) throws(InputError) -> PageBoard {
    let given = "\"items\": \".photo\", \"slots\": \".place\"\(options.isEmpty ? "" : ", ")\(options)"
    return try PageBoard.decode(Array("{\"options\": {\(given)}, \(twoSlots)}".utf8))
  }

  @Test(arguments: [
    ("\"mode\": \"grid\"", "mode: unknown value \"grid\"; expected one of: locations, shortcuts"),
    ("\"maxDistance\": \"far\"", "maxDistance: expected a number, found a string"),
    ("\"maxDistance\": -1", "maxDistance: must not be negative"),
    ("\"strategy\": \"closest\"", "strategy: unknown value \"closest\""),
    ("\"strings\": {\"pickedUpp\": \"x\"}", "strings.pickedUpp"),
    ("\"wobble\": true", "wobble"),
    ("\"maxDistence\": 3", "maxDistence: not an option (did you mean maxDistance?)"),
    ("\"touch\": {\"dealy\": 300}", "touch.dealy: not an option of touch (did you mean delay?)"),
    ("\"touch\": {\"delay\": -5}", "touch.delay: must not be negative (found -5)"),
    ("\"touch\": 200", "touch: expected {delay, tolerance}, found a number"),
    ("\"snapDuration\": -0.2", "snapDuration: must not be negative"),
    ("\"snapDuration\": {\"$number\": \"NaN\"}", "snapDuration: expected a finite number, found NaN"),
    ("\"onpikup\": {\"$function\": true}", "onpikup: not an event (did you mean onpickup?)"),
    ("\"ondrop\": \"save()\"", "ondrop: expected a function, found a string"),
    ("\"accepts\": \"red\"", "accepts: expected a function (item, slot) => boolean"),
    ("\"handle\": 3", "handle: expected a CSS selector, found a number"),
    ("\"status\": \"\"", "status: expected a CSS selector, found an empty string"),
    ("\"placement\": \"dom\"", "placement: unknown value \"dom\"; expected one of: move, event"),
    ("\"persist\": \"sessionStorage\"", "persist: expected \"localStorage\" or false, found \"sessionStorage\""),
    ("\"strings\": {\"dragable\": \"x\"}", "strings.dragable: not a string the board says (did you mean draggable?)"),
  ])
  func aBadOptionIsNamed(options: String, message: String) throws {
    #expect {
      _ = try Self.decode(options)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  /// The web module reads only the options as JSON (its boxes and ids come as numbers): the
  /// same checks, every wrong option at once, and a key beside `options` refused.
  @Test func theOptionsAloneReadAsInADescription() throws {
    let options = try PageBoard.decodeOptions(Array(#"{"options": {"items": ".a", "slots": ".s", "mode": "shortcuts"}}"#.utf8))
    var shortcuts = Options.preset(.shortcuts)
    (shortcuts.snapInsideSlot, shortcuts.swapOccupied) = (false, false)  // a grid of big slots' rule is locations'
    #expect(options == shortcuts)
    #expect {
      _ = try PageBoard.decodeOptions(Array(#"{"options": {"items": ".a", "slots": ".s", "swap": 1, "maxDistence": 3}}"#.utf8))
    } throws: { error in
      "\(error)".contains("swap: expected true or false") && "\(error)".contains("maxDistence: not an option")
    }
    #expect {
      _ = try PageBoard.decodeOptions(Array(#"{"options": {"items": ".a", "slots": ".s"}, "slots": []}"#.utf8))
    } throws: { error in
      "\(error)".contains("slots")
    }
  }

  @Test func aSlotWithNoSizeIsNamedByItsIndex() throws {
    let text = """
      {"options": {"items": ".a", "slots": ".s"}, "slots": [{"id": "1", "frame": [0, 0, 100, 100]},
       {"id": "2", "frame": [0, 0, 0, 40]}], "items": [{"id": "a", "frame": [0, 0, 10, 10]}]}
      """
    #expect {
      _ = try PageBoard.decode(Array(text.utf8))
    } throws: { error in
      "\(error)" == "slots[1].frame: has zero size (0×40 px)"
    }
  }

  /// A closed dialog or a display:none tab: nothing has a size until it is shown, and the
  /// board waits for the component's measurement instead of refusing.
  @Test func aHiddenContainersBoardWaitsForItsSizes() throws {
    let text = """
      {"options": {"items": ".a", "slots": ".s"}, "hidden": true, "canvas": {"width": 1, "height": 1},
       "slots": [{"id": "1", "frame": [0, 0, 0, 0]}, {"id": "2", "frame": [0, 0, 0, 0]}],
       "items": [{"id": "a", "frame": [0, 0, 0, 0], "slot": "1"}]}
      """
    let page = try PageBoard.decode(Array(text.utf8))
    #expect(page.board.items[0].slot == 0)
  }

  /// The component wrote the JSON, not the page: a message names the option, never a line
  /// and column of text the page never saw.
  @Test func messagesCarryNoLineOrColumn() throws {
    #expect {
      _ = try Self.decode("\"maxDistance\": \"far\"")
    } throws: { error in
      let e = error as! InputError
      return e.line == 0 && !"\(e)".contains("line") && "\(e)" == "maxDistance: expected a number, found a string"
    }
  }

  @Test func aPagesDefaultsAreTheSeedsRuleWithSwapsAndDropsInsideASlot() throws {
    let page = try Self.decode("")
    #expect(page.mode == .locations)
    #expect(page.options.snapRadius == 50 && page.options.snapDuration == 0.2)
    #expect(page.options.swapOccupied && page.options.snapInsideSlot)
    #expect(page.board.items[0].slot == 0)
    let exact = try Self.decode("\"snapInside\": false, \"swap\": false, \"maxDistance\": 30, \"reducedMotion\": true")
    #expect(!exact.options.snapInsideSlot && !exact.options.swapOccupied && exact.options.snapRadius == 30)
    #expect(exact.options.reducedMotion)
  }

  /// A press the page hit-tested itself, a drag and a drop: the status label names the slot
  /// by the name the page gave it, in the page's words.
  @Test func thePagesStringsAreWhatTheEngineSays() throws {
    let page = try Self.decode(
      "\"strings\": {\"location\": \"case {id}\", \"pickedUp\": \"{item} pris\", \"itemInSlot\": \"{item} dans {slot}\"}")
    var engine = try Engine(board: page.board, options: page.options)
    #expect(engine.status == "Home")
    _ = try engine.press(item: 0, pointer: 1, at: StagePoint(x: 50, y: 50), time: 0)
    let events = try engine.handle(.pointer(.up, id: 1, at: StagePoint(x: 170, y: 50)), at: 0.1)
    #expect(events.contains(.drop(item: "lake", slot: "park")))
    #expect(events.contains(.status("case park")))
    engine.advance(to: 1)
    #expect(try engine.handle(.key(.space), at: 1.1).contains(.announce("lake dans case park pris")))
  }

  @Test func updatingOptionsChecksThemAndKeepsTheRest() throws {
    var options = try Self.decode("\"maxDistance\": 30").options
    try PageBoard.update(&options, from: Array("{\"reducedMotion\": true}".utf8))
    #expect(options.reducedMotion && options.snapRadius == 30)
    #expect(throws: InputError.self) { try PageBoard.update(&options, from: Array("{\"mode\": \"shortcuts\"}".utf8)) }
    // Names and values the component applies itself are checked too; nothing changes on a refusal.
    for (text, message) in [
      ("{\"maxDistence\": 3}", "maxDistence: not an option (did you mean maxDistance?)"),
      ("{\"touch\": {\"delay\": \"long\"}}", "touch.delay: expected a number, found a string"),
      ("{\"items\": \".other\"}", "items: cannot change while the board runs"),
      ("{\"maxDistance\": 10, \"autoScroll\": 1}", "autoScroll: expected true or false"),
    ] {
      #expect {
        try PageBoard.update(&options, from: Array(text.utf8))
      } throws: { error in
        "\(error)".hasPrefix(message) && !"\(error)".contains("line")
      }
    }
    #expect(options.snapRadius == 30)
    try PageBoard.update(&options, from: Array("{\"touch\": {\"delay\": 0}, \"handle\": \".grip\"}".utf8))
  }

  @Test func aStateThatSaysNothingIsRefused() throws {
    var board = try Self.decode("").board
    for text in ["{}", "{\"type\": \"frame\", \"items\": []}"] {
      #expect(throws: InputError.self) { try SavedState.apply(Array(text.utf8), to: &board, file: "restore()") }
    }
    // The message names what is missing, after the source (no empty field between them).
    #expect {
      try SavedState.apply(Array("{}".utf8), to: &board, file: "restore()")
    } throws: { error in
      "\(error)" == "restore(): missing \"items\" and \"slots\": not a board state (state() writes both)"
    }
    try SavedState.apply(Array("{\"type\": \"state\", \"items\": [], \"slots\": []}".utf8), to: &board, file: "x")
  }

  /// Every wrong option is reported, each on its line, and SortableJS's names point to ours.
  @Test func everyWrongOptionIsReportedAtOnce() throws {
    #expect {
      try Self.decode("\"maxDistence\": 3, \"ghostClass\": \"ghost\", \"onEnd\": {\"$function\": true}, \"mode\": \"grid\"")
    } throws: { error in
      let lines = "\(error)".split(separator: "\n").map(String.init)
      return lines.count == 4 && lines[0].hasPrefix("maxDistence: not an option (did you mean maxDistance?)")
        && lines[1].hasPrefix("ghostClass: SortableJS's name, not the board's: style .board-lifted")
        && lines[2] == "onEnd: SortableJS's name, not the board's: use ondrop (and oncancel)"
        && lines[3].hasPrefix("mode: unknown value \"grid\"")
    }
    #expect {
      try Self.decode("\"filter\": {\"$function\": true}")
    } throws: { error in
      "\(error)".hasPrefix("filter: expected a CSS selector, found a function (SortableJS's function form")
    }
    var options = Options.preset(.locations)
    #expect {
      try PageBoard.update(&options, from: Array("{\"maxDistance\": -1, \"delay\": 100, \"snapDuration\": 0.5}".utf8))
    } throws: { error in
      "\(error)"
        == "maxDistance: must not be negative (found -1)\ndelay: SortableJS's name, not the board's: use touch: {delay, tolerance}"
    }
    #expect(options.snapDuration != 0.5, "nothing is applied when one option is wrong")
  }

  /// A saved board is merged into the page as it is now: a photo the page deleted is dropped,
  /// the others keep their saved places, a new one stays where the page put it (or the
  /// nearest free place when a saved one took it), and one whose slot is gone stays too.
  @Test func aSavedBoardIsMergedIntoAChangedPage() throws {
    // Five cells in a row; the page now has photos 1, 2, 4, 5 and a new 6 (3 was deleted),
    // each in the cell of its number, 6 in the fifth cell (so 5 is in none: the page put it beside).
    let cells = (1...5).map { "{\"id\": \"c\($0)\", \"frame\": [\(100 * $0), 0, 80, 80]}" }.joined(separator: ", ")
    let photo = { (id: String, cell: String?) in
      "{\"id\": \"\(id)\", \"frame\": [0, 200, 60, 60]\(cell.map { ", \"slot\": \"\($0)\"" } ?? "")}"
    }
    let photos = [photo("p1", "c1"), photo("p2", "c2"), photo("p4", "c4"), photo("p5", nil), photo("p6", "c5")]
    let text =
      "{\"options\": {\"items\": \".p\", \"slots\": \".c\"}, \"slots\": [\(cells)], \"items\": [\(photos.joined(separator: ", "))]}"
    var board = try PageBoard.decode(Array(text.utf8)).board
    // Saved before: the photos reversed (p1 in c5 … p5 in c1), and a cell c9 that is gone.
    let saved = """
      {"type": "state", "items": [{"id": "p1", "slot": "c5"}, {"id": "p2", "slot": "c4"}, {"id": "p3", "slot": "c3"},
       {"id": "p4", "slot": "c9"}, {"id": "p5", "slot": "c1"}], "slots": []}
      """
    try SavedState.apply(Array(saved.utf8), to: &board, file: "localStorage")
    let slotOf = { (id: String) in board.items[board.itemIndex(of: id)!].slot.map { board.slots[$0].id } }
    #expect(slotOf("p1") == "c5" && slotOf("p2") == "c4" && slotOf("p5") == "c1")
    // p4's cell c9 is gone, and c4 went to p2: p4 goes to the nearest free cell, c3.
    #expect(slotOf("p4") == "c3")
    // p6 was put in c5 by the page, which p1 took back: the nearest free cell is c2.
    #expect(slotOf("p6") == "c2")
  }

  /// Right after a swap both items are still mid-snap: the state line says where they rest.
  @Test func theStateAfterASwapSaysWhereBothItemsRest() throws {
    let text = """
      {"options": {"items": ".a", "slots": ".s"}, "slots": [{"id": "1", "frame": [0, 0, 100, 100]},
       {"id": "2", "frame": [120, 0, 100, 100]}], "items": [{"id": "a", "frame": [20, 20, 60, 60], "slot": "1"},
       {"id": "b", "frame": [140, 20, 60, 60], "slot": "2"}]}
      """
    let page = try PageBoard.decode(Array(text.utf8))
    var engine = try Engine(board: page.board, options: page.options)
    _ = try engine.press(item: 0, pointer: 1, at: StagePoint(x: 50, y: 50), time: 0, waitForMove: true)
    _ = try engine.handle(.pointer(.move, id: 1, at: StagePoint(x: 160, y: 50)), at: 0.05)
    _ = try engine.handle(.pointer(.up, id: 1, at: StagePoint(x: 160, y: 50)), at: 0.1)
    let state = SavedState.encode(engine, numericIDs: [])
    #expect(state.contains("\"id\":\"a\",\"slot\":\"2\",\"center\":[170,50]"))
    #expect(state.contains("\"id\":\"b\",\"slot\":\"1\",\"center\":[50,50]"))
  }
}

/// The web board checks its options in JS (`boardOptions` in web/board/board-options.js), no
/// longer through `PageBoard`, which stays for the Swift tests and the fuzzer. These hold the
/// two lists in step, so an option, an event or a choice added on one side fails here until
/// the other has it.
@Suite("PageBoard and board-options.js")
struct PageBoardMatchesTheWebTests {
  static func js() throws -> String {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("web/board/board-options.js")
    return try String(contentsOf: file, encoding: .utf8)
  }

  /// The text of `const NAME = [ … ];` (or `export const`).
  static func block(_ name: String, in js: String) throws -> Substring {
    let start = try #require(js.range(of: "const \(name) = [")).lowerBound
    let end = try #require(js.range(of: "];", range: start..<js.endIndex)).upperBound
    return js[start..<end]
  }

  /// Every single-quoted string in `text`, in order.
  static func quoted(_ text: Substring) -> [String] {
    text.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  @Test func theOptionsAndEventsAreTheSameOnBothSides() throws {
    let js = try Self.js()
    #expect(Self.quoted(try Self.block("PAGE_OPTIONS", in: js)) == PageBoard.pageOptionNames)
    #expect(Self.quoted(try Self.block("BOARD_EVENTS", in: js)) == PageBoard.eventNames)
    // ENGINE_OPTIONS is [[name, kind or choices], …].
    let engine = try Self.block("ENGINE_OPTIONS", in: js)
    let names = engine.components(separatedBy: "['").dropFirst().compactMap { part -> String? in
      let name = part.prefix { $0 != "'" }
      let rest = part.dropFirst(name.count + 1)
      // A pair's name is followed by its kind ('n', 'b') or by its list of choices, whose own
      // "['" ended this part.
      return rest == ", " || rest.hasPrefix(", 'n'") || rest.hasPrefix(", 'b'") ? String(name) : nil
    }
    #expect(["mode"] + names + ["strings"] == PageBoard.optionNames)
    #expect(engine.contains(TargetStrategy.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
  }
}
