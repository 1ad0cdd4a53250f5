import Stage
import Testing

/// Bad data from a host is refused with a `BoardError` naming the field, never a trap and
/// never a state the engine cannot leave (issue 41, items 4 and 5). Before these checks,
/// each case below either trapped (a precondition or an index out of range) or left an item
/// at (nan, nan) with `isIdle` false for good.
@Suite struct RefusalTests {
  static let slots = (0..<3).map {
    Slot(id: String($0), frame: StageRect(x: Double(20 + 100 * $0), y: 20, width: 80, height: 80))
  }
  static let item = Item(id: "photo", frame: StageRect(x: 0, y: 0, width: 60, height: 60))
  static let canvas = StageSize(width: 320, height: 480)

  // MARK: Board

  @Test func itemSlotsOfTheWrongCountThrowNamingTheField() {
    #expect(throws: BoardError(.countMismatch(2, expected: 1), "itemSlots")) {
      try Board(canvas: Self.canvas, slots: Self.slots, items: [Self.item], itemSlots: ["0", "1"])
    }
    let error = BoardError(.countMismatch(2, expected: 1), "itemSlots")
    #expect(error.description == "itemSlots: 2 entries where 1 were expected (one per item)")
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aNonFiniteWidthIsNotCalledNegative(width: Double) {
    let slot = Slot(id: "a", frame: StageRect(x: 0, y: 0, width: width, height: 10))
    #expect(throws: BoardError(.notFinite, "slots[0].frame")) {
      try Board(canvas: Self.canvas, slots: [slot], items: [])
    }
    #expect(BoardError(.notFinite, "slots[0].frame").description == "slots[0].frame: must be a finite number")
    // A real negative width still says so.
    let negative = Slot(id: "a", frame: StageRect(x: 0, y: 0, width: -1, height: 10))
    #expect(throws: BoardError(.negativeSize, "slots[0].frame")) { try Board(canvas: Self.canvas, slots: [negative], items: []) }
  }

  @Test func nonFiniteOriginsCanvasAndItemsAreRefused() {
    let far = Slot(id: "a", frame: StageRect(x: .nan, y: 0, width: 10, height: 10))
    #expect(throws: BoardError(.notFinite, "slots[0].frame")) { try Board(canvas: Self.canvas, slots: [far], items: []) }
    #expect(throws: BoardError(.notFinite, "canvas")) {
      try Board(canvas: StageSize(width: .infinity, height: 10), slots: [], items: [])
    }
    let lost = Item(id: "x", frame: StageRect(x: 0, y: .nan, width: 10, height: 10))
    #expect(throws: BoardError(.notFinite, "items[0].frame")) { try Board(canvas: Self.canvas, slots: [], items: [lost]) }
  }

  @Test func placeAndSetContentRefuseIndicesOffTheBoard() throws {
    var board = try Board(canvas: Self.canvas, slots: Self.slots, items: [Self.item])
    #expect(throws: BoardError(.indexOutOfRange(42, count: 3), "slot")) { try board.place(item: 0, on: 42) }
    #expect(throws: BoardError(.indexOutOfRange(1, count: 1), "item")) { try board.place(item: 1, on: 0) }
    #expect(throws: BoardError(.indexOutOfRange(-1, count: 3), "slot")) { try board.setContent("photo", of: -1) }
    #expect(throws: BoardError(.unknownItem("nobody"), "content")) { try board.setContent("nobody", of: 0) }
    #expect(board.items[0].slot == nil, "a refused call changes nothing")
    try board.place(item: 0, on: 2)
    #expect(board.items[0].center == board.slots[2].frame.center)
    #expect(BoardError(.indexOutOfRange(42, count: 3), "slot").description == "slot: 42 is out of range 0..<3")
  }

  // MARK: Engine names

  @Test func slotNameAndItemNameRefuseIndicesOffTheBoard() throws {
    let engine = locationsEngine()
    #expect(throws: BoardError(.indexOutOfRange(42, count: 3), "slot")) { try engine.slotName(42) }
    #expect(throws: BoardError(.indexOutOfRange(-1, count: 1), "item")) { try engine.itemName(-1) }
    #expect(try engine.slotName(1) == "location #1")
    #expect(try engine.itemName(0) == "photo")
  }

  /// The targeting queries and `restingPoint` indexed the board with the caller's numbers
  /// and trapped out of range.
  @Test func targetingQueriesAndRestingPointRefuseIndicesOffTheBoard() throws {
    let engine = locationsEngine()
    let frame = StageRect(center: P(160, 60), size: StageSize(width: 60, height: 60))
    let at = P(160, 60)
    #expect(throws: BoardError(.indexOutOfRange(1, count: 1), "item")) { try engine.restingPoint(of: 1) }
    #expect(throws: BoardError(.indexOutOfRange(-1, count: 1), "item")) { try engine.isEligible(item: -1, slot: 0) }
    #expect(throws: BoardError(.indexOutOfRange(3, count: 3), "slot")) { try engine.isEligible(item: 0, slot: 3) }
    #expect(throws: BoardError(.indexOutOfRange(5, count: 1), "item")) {
      try engine.dropTarget(item: 5, frame: frame, pointer: at)
    }
    #expect(throws: BoardError(.indexOutOfRange(5, count: 1), "item")) {
      try engine.dropTargets(item: 5, frame: frame, pointer: at)
    }
    #expect(throws: BoardError(.indexOutOfRange(5, count: 1), "item")) {
      try engine.hoverTarget(item: 5, frame: frame, pointer: at, current: nil)
    }
    #expect(throws: BoardError(.indexOutOfRange(42, count: 3), "current")) {
      try engine.hoverTarget(item: 0, frame: frame, pointer: at, current: 42)
    }
    // In range they answer as before.
    #expect(try engine.restingPoint(of: 0) == P(60, 60))
    #expect(try engine.isEligible(item: 0, slot: 1))
    #expect(try engine.dropTarget(item: 0, frame: frame, pointer: at) == 1)
    #expect(try engine.dropTargets(item: 0, frame: frame, pointer: at) == [1])
    #expect(try engine.hoverTarget(item: 0, frame: frame, pointer: at, current: 0) == 1)
  }

  @Test func targetingQueriesRefuseNaNGeometry() {
    let engine = shortcutsEngine()
    let good = StageRect(center: P(160, 60), size: StageSize(width: 60, height: 60))
    let nan = StageRect(x: .nan, y: 0, width: 60, height: 60)
    #expect(throws: BoardError(.notFinite, "frame")) { try engine.dropTargets(item: 0, frame: nan, pointer: P(0, 0)) }
    #expect(throws: BoardError(.notFinite, "pointer")) {
      try engine.dropTarget(item: 0, frame: good, pointer: P(.infinity, 0))
    }
    #expect(throws: BoardError(.negativeSize, "frame")) {
      try engine.hoverTarget(item: 0, frame: StageRect(x: 0, y: 0, width: -1, height: 5), pointer: P(0, 0), current: nil)
    }
  }

  // MARK: Inputs

  @Test func aLayoutNamingASlotOffTheBoardThrowsLikeRemoveContent() throws {
    var engine = locationsEngine()
    let frame = StageRect(x: 0, y: 0, width: 10, height: 10)
    #expect(throws: BoardError(.indexOutOfRange(42, count: 3), "layout[1].slot")) {
      try engine.handle(.layout([SlotFrame(slot: 0, frame: frame), SlotFrame(slot: 42, frame: frame)], canvas: nil), at: 1)
    }
    // Refused whole: slot 0 kept its frame, and the clock did not move.
    #expect(engine.board.slots[0].frame == Self.slots[0].frame)
    #expect(engine.now == 0)
    var shortcuts = shortcutsEngine()
    #expect(throws: BoardError(.indexOutOfRange(42, count: 3), "removeContent.slot")) {
      try shortcuts.handle(.removeContent(slot: 42), at: 0)
    }
    // An empty slot in range is no error: there is just nothing to remove.
    #expect(try shortcuts.handle(.removeContent(slot: 0), at: 0) == [.announce("Nothing to remove.")])
  }

  @Test func layoutFramesAndCanvasMustBeFinite() {
    var engine = locationsEngine()
    #expect(throws: BoardError(.notFinite, "layout[0].frame")) {
      try engine.handle(.layout([SlotFrame(slot: 0, frame: StageRect(x: .nan, y: 0, width: 10, height: 10))], canvas: nil), at: 0)
    }
    #expect(throws: BoardError(.negativeSize, "layout[0].frame")) {
      try engine.handle(.layout([SlotFrame(slot: 0, frame: StageRect(x: 0, y: 0, width: -5, height: 10))], canvas: nil), at: 0)
    }
    #expect(throws: BoardError(.notFinite, "layout.canvas")) {
      try engine.handle(.layout([], canvas: StageSize(width: .nan, height: 10)), at: 0)
    }
    #expect(engine.board.canvas == Self.canvas)
  }

  /// Pointer positions and times that are not finite are refused, not ignored: the host
  /// learns its data is bad, and the drag in flight carries on as if the event never came.
  @Test func aNaNPointerOrTimeIsRefusedAndTheDragCarriesOn() throws {
    var engine = locationsEngine()
    _ = try engine.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    _ = try engine.handle(.pointer(.move, id: 0, at: P(100, 60)), at: 0.1)
    #expect(throws: BoardError(.notFinite, "pointer.at")) { try engine.handle(.pointer(.move, id: 0, at: P(.nan, 60)), at: 0.2) }
    #expect(throws: BoardError(.notFinite, "pointer.at")) {
      try engine.handle(.pointer(.up, id: 0, at: P(0, .infinity)), at: 0.2)
    }
    #expect(throws: BoardError(.notFinite, "t")) { try engine.handle(.key(.escape), at: .nan) }
    #expect(engine.board.items[0].center == P(100, 60))
    #expect(engine.now == 0.1)
    #expect(throws: BoardError(.notFinite, "pointer.at")) {
      try engine.press(item: 0, pointer: 1, at: P(.nan, 0), time: 0.3)
    }
    #expect(throws: BoardError(.indexOutOfRange(5, count: 1), "item")) {
      try engine.press(item: 5, pointer: 1, at: P(0, 0), time: 0.3)
    }
    _ = try engine.handle(.pointer(.up, id: 0, at: P(160, 60)), at: 0.3)
    engine.settle()
    #expect(engine.isIdle)
    #expect(engine.board.items[0].slot == 1)
  }

  @Test func advanceIgnoresTimesThatAreNotFinite() throws {
    var engine = locationsEngine()
    engine.drag(from: P(60, 60), to: P(160, 60))
    let now = engine.now
    engine.advance(to: .infinity)
    engine.advance(to: .nan)
    #expect(engine.now == now)
    engine.settle()
    #expect(engine.isIdle)
  }

  @Test func relayoutItemAndSlotOffsetRefuseBadData() {
    var engine = shortcutsEngine()
    #expect(throws: BoardError(.notFinite, "frame")) {
      try engine.relayoutItem(0, frame: StageRect(x: .nan, y: 0, width: 10, height: 10))
    }
    #expect(throws: BoardError(.indexOutOfRange(9, count: 2), "item")) {
      try engine.relayoutItem(9, frame: StageRect(x: 0, y: 0, width: 10, height: 10))
    }
    #expect(throws: BoardError(.notFinite, "offset")) { try engine.setSlotOffset(0, Vector(dx: .nan, dy: 0)) }
    #expect(engine.board.items[0].center == P(60, 60))
  }

  // MARK: Options

  @Test(arguments: [Double.nan, .infinity, -1])
  func badDurationsAreRefusedWhenTheEngineIsMade(value: Double) throws {
    let board = try Board(canvas: Self.canvas, slots: Self.slots, items: [Self.item], itemSlots: ["0"])
    let message = value.isFinite ? "must not be negative" : "must be a finite number"
    for (path, set) in [
      ("options.returnDuration", { (o: inout Options) in o.returnDuration = value }),
      ("options.snapDuration", { (o: inout Options) in o.snapDuration = value }),
      ("options.snapRadius", { (o: inout Options) in o.snapRadius = value }),
      ("options.activationDistance", { (o: inout Options) in o.activationDistance = value }),
      ("options.hoverHysteresis", { (o: inout Options) in o.hoverHysteresis = value }),
      ("options.grid", { (o: inout Options) in o.grid = value }),
      ("options.curve.response", { (o: inout Options) in o.curve = .spring(response: value, dampingRatio: 1) }),
    ] {
      var options = Options.preset(.locations)
      set(&options)
      #expect(throws: BoardError(value.isFinite ? .negative : .notFinite, path)) { try Engine(board: board, options: options) }
      do throws(BoardError) {
        _ = try Engine(board: board, options: options)
      } catch {
        #expect(error.description == "\(path): \(message)")
      }
    }
  }

  /// `options` was settable and skipped the init's check: a NaN duration set there left the
  /// item at (nan, nan) with the engine never idle. Now it changes only through
  /// `setOptions`, which refuses what `init` refuses and keeps the options it had.
  @Test(arguments: [Double.nan, .infinity, -3])
  func badOptionsSetLaterAreRefusedAndTheEngineKeepsItsOwn(value: Double) throws {
    var engine = locationsEngine()
    let before = engine.options
    for (path, set) in [
      ("options.returnDuration", { (o: inout Options) in o.returnDuration = value }),
      ("options.snapDuration", { (o: inout Options) in o.snapDuration = value }),
      ("options.grid", { (o: inout Options) in o.grid = value }),
    ] {
      var options = engine.options
      set(&options)
      #expect(throws: BoardError(value.isFinite ? .negative : .notFinite, path)) { try engine.setOptions(options) }
    }
    #expect(engine.options == before)
    engine.drag(from: P(60, 60), to: P(160, 60))  // a hit: snaps to slot 1 in the kept 0.2 s
    engine.advance(to: engine.now + 1)
    #expect(engine.isIdle)
    #expect(engine.board.items[0].center == P(160, 60))
    // A good value is taken.
    var faster = engine.options
    faster.snapDuration = 0
    try engine.setOptions(faster)
    #expect(engine.options.snapDuration == 0)
  }
}
