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
    try SavedState.apply(Array("{\"type\": \"state\", \"items\": [], \"slots\": []}".utf8), to: &board, file: "x")
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
