import Stage
import StageJSON
import Testing

/// The board a web page describes (web/imagestage-board.js): errors name the page's own
/// option or element, and the engine runs what it read.
@Suite("PageBoard")
struct PageBoardTests {
  static let twoSlots = """
    "slots": [{"id": "home", "frame": [0, 0, 100, 100], "name": "Home"}, {"id": "park", "frame": [120, 0, 100, 100]}],
    "items": [{"id": "lake", "frame": [20, 20, 60, 60], "slot": "home"}]
    """

  static func decode(_ options: String) throws(InputError) -> PageBoard {
    try PageBoard.decode(Array("{\(options)\(options.isEmpty ? "" : ", ")\(twoSlots)}".utf8))
  }

  @Test(arguments: [
    ("\"mode\": \"grid\"", "mode: unknown value \"grid\"; expected one of: locations, shortcuts"),
    ("\"maxDistance\": \"far\"", "maxDistance: expected a number, found a string"),
    ("\"maxDistance\": -1", "maxDistance: must not be negative"),
    ("\"strategy\": \"closest\"", "strategy: unknown value \"closest\""),
    ("\"strings\": {\"pickedUpp\": \"x\"}", "strings.pickedUpp"),
    ("\"wobble\": true", "wobble"),
  ])
  func aBadOptionIsNamed(options: String, message: String) {
    #expect {
      _ = try Self.decode(options)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func aSlotWithNoSizeIsNamedByItsIndex() {
    let text = """
      {"slots": [{"id": "1", "frame": [0, 0, 100, 100]}, {"id": "2", "frame": [0, 0, 0, 40]}],
       "items": [{"id": "a", "frame": [0, 0, 10, 10]}]}
      """
    #expect {
      _ = try PageBoard.decode(Array(text.utf8))
    } throws: { error in
      "\(error)".hasPrefix("slots[1].frame: has zero size (0×40 px)")
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
    var engine = Engine(board: page.board, options: page.options)
    #expect(engine.status == "Home")
    _ = engine.press(item: 0, pointer: 1, at: Point(x: 50, y: 50), time: 0)
    let events = engine.handle(.pointer(.up, id: 1, at: Point(x: 170, y: 50)), at: 0.1)
    #expect(events.contains(.drop(item: "lake", slot: "park")))
    #expect(events.contains(.status("case park")))
    engine.advance(to: 1)
    #expect(engine.handle(.key(.space), at: 1.1).contains(.announce("lake dans case park pris")))
  }

  @Test func updatingOptionsChecksThemAndKeepsTheRest() throws {
    var options = try Self.decode("\"maxDistance\": 30").options
    try PageBoard.update(&options, from: Array("{\"reducedMotion\": true}".utf8))
    #expect(options.reducedMotion && options.snapRadius == 30)
    #expect(throws: InputError.self) { try PageBoard.update(&options, from: Array("{\"mode\": \"shortcuts\"}".utf8)) }
  }
}
