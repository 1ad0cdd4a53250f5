import Testing

@testable import Stage

@Suite("Locations (seed 000)")
struct LocationsTests {
  @Test func dropNearASlotSnapsToItInPointTwoSeconds() throws {
    var engine = locationsEngine()
    let events = engine.drag(from: P(60, 60), to: P(150, 70))
    #expect(events.contains(.pickup(item: "photo", pointer: 0)))
    #expect(events.contains(.drop(item: "photo", slot: "1")))
    #expect(events.last == .status("location #1"))
    #expect(engine.board.items[0].slot == 1)
    // The seed animates 0.2 s with UIKit's ease-in-out: half way in time is half way in space.
    let released = engine.now
    engine.advance(to: released + 0.1)
    #expect(abs(engine.board.items[0].center.x - 155) < 1e-9)
    #expect(abs(engine.board.items[0].center.y - 65) < 1e-9)
    engine.advance(to: released + 0.2)
    #expect(engine.board.items[0].center == P(160, 60))
    #expect(engine.isIdle)
  }

  @Test(arguments: [
    (P(160, 109.9), 1),  // 49.9 pt from slot 1's centre: snaps
    (P(160, 110), 0),  // exactly 50 pt: the seed's test is `< 50`, so it returns
    (P(300, 300), 0),
  ])
  func snapRadiusIsExclusive(release: StagePoint, expectedSlot: Int) throws {
    var engine = locationsEngine()
    engine.drag(from: P(60, 60), to: release)
    engine.settle()
    #expect(engine.board.items[0].slot == expectedSlot)
    #expect(engine.board.items[0].center == engine.board.slots[expectedSlot].frame.center)
  }

  @Test func missReturnsToTheSlotItCameFrom() throws {
    var engine = locationsEngine()
    engine.drag(from: P(60, 60), to: P(150, 70))
    engine.settle()
    let events = engine.drag(from: P(160, 60), to: P(160, 300), at: 1)
    #expect(events.contains(.returned(item: "photo", slot: "1")))
    engine.settle()
    #expect(engine.board.items[0].center == P(160, 60))
  }

  @Test func equalDistancesGoToTheLaterSlotAsTheSeedsLoopDoes() throws {
    var engine = locationsEngine { $0.snapRadius = 60 }
    engine.drag(from: P(60, 60), to: P(110, 60))
    #expect(engine.board.items[0].slot == 1)
  }

  @Test func secondPointerOnAHeldItemIsIgnoredAndEmptyPressesDoNothing() throws {
    var engine = locationsEngine()
    _ = try engine.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    #expect(try engine.handle(.pointer(.down, id: 1, at: P(65, 65)), at: 0.01).isEmpty)
    #expect(try engine.handle(.pointer(.move, id: 1, at: P(300, 300)), at: 0.02).isEmpty)
    #expect(engine.board.items[0].center == P(60, 60))
    #expect(try engine.handle(.pointer(.down, id: 2, at: P(300, 400)), at: 0.03).isEmpty)
  }

  @Test func grabbingMidAnimationPicksTheItemUpWhereItIsDrawn() throws {
    var engine = locationsEngine()
    engine.drag(from: P(60, 60), to: P(150, 70))
    engine.advance(to: engine.now + 0.1)
    let drawn = engine.board.items[0].center
    _ = try engine.handle(.pointer(.down, id: 0, at: drawn), at: engine.now)
    #expect(engine.board.items[0].center == drawn)
    engine.advance(to: engine.now + 1)
    #expect(engine.board.items[0].center == drawn, "the animation must stop when the item is grabbed")
    _ = try engine.handle(.pointer(.move, id: 0, at: drawn + Vector(dx: 10, dy: 0)), at: engine.now)
    #expect(engine.board.items[0].center == drawn + Vector(dx: 10, dy: 0))
  }

  @Test func relayoutKeepsSettledAndFlyingItemsOnTheirSlots() throws {
    var engine = locationsEngine()
    let moved = [SlotFrame(slot: 0, frame: StageRect(x: 20, y: 200, width: 80, height: 80))]
    _ = try engine.handle(.layout(moved, canvas: StageSize(width: 480, height: 320)), at: 0)
    #expect(engine.board.items[0].center == P(60, 240))
    #expect(engine.board.canvas == StageSize(width: 480, height: 320))

    engine.drag(from: P(60, 240), to: P(150, 70), at: 1)
    engine.advance(to: engine.now + 0.1)
    let relaid = [SlotFrame(slot: 1, frame: StageRect(x: 120, y: 300, width: 80, height: 80))]
    _ = try engine.handle(.layout(relaid, canvas: nil), at: engine.now)
    engine.settle()
    #expect(engine.board.items[0].center == P(160, 340))
  }

  @Test func reducedMotionMakesDropsInstant() throws {
    var engine = locationsEngine { $0.reducedMotion = true }
    engine.drag(from: P(60, 60), to: P(150, 70))
    #expect(engine.board.items[0].center == P(160, 60))
    #expect(!engine.isAnimating)
  }

  @Test func fullSlotsAndFilteredSlotsAreNotTargets() throws {
    var slots = (0..<3).map { Slot(id: String($0), frame: StageRect(x: Double(20 + 100 * $0), y: 20, width: 80, height: 80)) }
    slots[2].accepts = ["video"]
    let items = [
      Item(id: "a", frame: StageRect(x: 0, y: 0, width: 60, height: 60)),
      Item(id: "b", frame: StageRect(x: 0, y: 0, width: 60, height: 60)),
    ]
    let board = try! Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: items, itemSlots: ["0", "1"])
    var engine = try Engine(board: board, options: .preset(.locations))
    engine.drag(from: P(60, 60), to: P(155, 60))  // onto b's slot
    #expect(engine.board.items[0].slot == 0)
    engine.settle()
    engine.drag(from: P(60, 60), to: P(255, 60), at: 1)  // slot 2 takes videos only
    #expect(engine.board.items[0].slot == 0)
  }

  /// A swap says where the dropped item is now: the slot it was dropped on, not the one it left.
  @Test func aSwapSaysWhereTheDroppedItemIsNow() throws {
    let slots = (0..<3).map {
      Slot(id: String($0), frame: StageRect(x: Double(20 + 100 * $0), y: 20, width: 80, height: 80), name: "position \($0 + 1)")
    }
    let items = [
      Item(id: "a", frame: StageRect(x: 0, y: 0, width: 60, height: 60), name: "Photo 1"),
      Item(id: "b", frame: StageRect(x: 0, y: 0, width: 60, height: 60), name: "Photo 3"),
    ]
    let board = try Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: items, itemSlots: ["0", "2"])
    var options = Options.preset(.locations)
    options.swapOccupied = true
    var engine = try Engine(board: board, options: options)
    let events = engine.drag(from: P(60, 60), to: P(260, 60))
    #expect(engine.board.items[0].slot == 2 && engine.board.items[1].slot == 0)
    #expect(events.contains(.announce("Swapped Photo 1 with Photo 3, now in position 3.")), "\(events)")
  }

  /// With swapping off a drop on a full slot goes home, and says why.
  @Test func aDropOnAFullSlotSaysWhyItWentBack() throws {
    let slots = (0..<3).map { Slot(id: String($0), frame: StageRect(x: Double(20 + 100 * $0), y: 20, width: 80, height: 80)) }
    let items = [
      Item(id: "a", frame: StageRect(x: 0, y: 0, width: 60, height: 60), name: "c-mandel"),
      Item(id: "b", frame: StageRect(x: 0, y: 0, width: 60, height: 60)),
    ]
    let board = try! Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: items, itemSlots: ["0", "1"])
    var engine = try Engine(board: board, options: .preset(.locations))
    let events = engine.drag(from: P(60, 60), to: P(155, 60))
    #expect(engine.board.items[0].slot == 0)
    #expect(events.contains(.announce("Location #1 is taken: c-mandel went back to location #0.")), "\(events)")
    // A name that leads a sentence stays as its file was named.
    engine.settle()
    _ = try engine.handle(.key(.tab), at: 2)
    _ = try engine.handle(.key(.space), at: 2)
    let over = try engine.handle(.key(.right), at: 2)
    #expect(over.contains(.announce("c-mandel is over location #2.")), "\(over)")
  }
}

@Suite("Shortcuts (seed 001)")
struct ShortcutsTests {
  @Test func ghostFollowsThePointerAndTheSlotUnderItReceivesTheImage() throws {
    var engine = shortcutsEngine()
    _ = try engine.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    #expect(engine.ghosts.count == 1)
    _ = try engine.handle(.pointer(.move, id: 0, at: P(240, 160)), at: 0.1)
    #expect(engine.ghosts[0].center == P(240, 160))
    #expect(engine.board.items[0].center == P(60, 60), "the source stays")
    #expect(engine.highlightedSlots == [1])
    let events = try engine.handle(.pointer(.up, id: 0, at: P(240, 160)), at: 0.2)
    #expect(events.contains(.drop(item: "mail", slot: "t1")))
    #expect(events.contains(.assign(item: "mail", slot: "t1")))
    #expect(engine.board.slots[1].content == "mail")
    #expect(engine.ghosts.isEmpty)
  }

  @Test func missAnimatesTheGhostHomeInHalfASecondThenRemovesIt() throws {
    var engine = shortcutsEngine()
    let events = engine.drag(from: P(60, 60), to: P(120, 400))
    #expect(events.contains(.returned(item: "mail", slot: nil)))
    let released = engine.now
    engine.advance(to: released + 0.25)
    #expect(engine.ghosts.count == 1)
    #expect(abs(engine.ghosts[0].center.y - 230) < 1e-9)
    engine.advance(to: released + 0.5)
    #expect(engine.ghosts.isEmpty)
    #expect(engine.board.slots.allSatisfy { $0.content == nil })
  }

  @Test func seedRuleFillsEveryIntersectingSlotAndLargestOverlapFillsOne() throws {
    var seedRule = shortcutsEngine { $0.strategy = .allIntersecting }
    seedRule.drag(from: P(60, 60), to: P(240, 110))
    #expect(seedRule.board.slots.map(\.content) == ["mail", "mail", nil])

    var overlap = shortcutsEngine()
    overlap.drag(from: P(60, 60), to: P(240, 115))
    #expect(overlap.board.slots.map(\.content) == [nil, "mail", nil])
  }

  @Test func pointerWithinUsesThePointerNotTheFrame() throws {
    var engine = shortcutsEngine { $0.strategy = .pointerWithin }
    // Grabbed near the source's right edge: the ghost mostly covers t0, the pointer is in t1's column but above it.
    engine.drag(from: P(95, 60), to: P(250, 150))
    #expect(engine.board.slots.map(\.content) == [nil, "mail", nil])
  }

  @Test func twoPointersDragTwoItemsAtOnce() throws {
    var engine = shortcutsEngine()
    _ = try engine.handle(.pointer(.down, id: 1, at: P(60, 60)), at: 0)
    _ = try engine.handle(.pointer(.down, id: 2, at: P(60, 160)), at: 0)
    #expect(engine.ghosts.count == 2)
    _ = try engine.handle(.pointer(.move, id: 1, at: P(240, 60)), at: 0.1)
    _ = try engine.handle(.pointer(.move, id: 2, at: P(240, 260)), at: 0.1)
    _ = try engine.handle(.pointer(.up, id: 2, at: P(240, 260)), at: 0.2)
    _ = try engine.handle(.pointer(.up, id: 1, at: P(240, 60)), at: 0.2)
    #expect(engine.board.slots.map(\.content) == ["mail", nil, "maps"])
  }

  @Test func undoAndRedoRestoreAssignments() throws {
    var engine = shortcutsEngine()
    engine.drag(from: P(60, 60), to: P(240, 60))
    engine.drag(from: P(60, 160), to: P(240, 60), at: 1)
    #expect(engine.board.slots[0].content == "maps")
    _ = try engine.handle(.key(.undo), at: 2)
    #expect(engine.board.slots[0].content == "mail")
    _ = try engine.handle(.key(.undo), at: 2)
    #expect(engine.board.slots[0].content == nil)
    let none = try engine.handle(.key(.undo), at: 2)
    #expect(none == [.announce("Nothing to undo.")])
    _ = try engine.handle(.key(.redo), at: 2)
    _ = try engine.handle(.key(.redo), at: 2)
    #expect(engine.board.slots[0].content == "maps")
    _ = try engine.handle(.clearContents, at: 3)
    #expect(engine.board.slots.allSatisfy { $0.content == nil })
    _ = try engine.handle(.key(.undo), at: 3)
    #expect(engine.board.slots[0].content == "maps")
  }

  /// An undone step names its icons: "Undid 2 assignments" said nothing.
  @Test func undoNamesTheIconsItMoved() throws {
    var engine = shortcutsEngine()
    engine.drag(from: P(60, 60), to: P(240, 60))
    var events = try engine.handle(.key(.undo), at: 1)
    #expect(events.contains(.announce("Undid assignment of mail.")), "\(events)")
    _ = try engine.handle(.key(.redo), at: 1)
    engine.drag(from: P(60, 160), to: P(240, 60), at: 2)  // maps replaces mail
    events = try engine.handle(.key(.undo), at: 3)
    #expect(events.contains(.announce("Undid changes to maps and mail.")), "\(events)")
  }

  @Test func cancelAllSendsEveryGhostHome() throws {
    var engine = shortcutsEngine()
    engine.drag(from: P(60, 60), to: P(240, 160), release: false)
    let events = try engine.handle(.cancelAll, at: 1)
    #expect(events.contains(.cancel(item: "mail")))
    engine.settle()
    #expect(engine.isIdle)
    #expect(engine.board.slots.allSatisfy { $0.content == nil })
  }
}

@Suite("Modifiers")
struct ModifierTests {
  @Test func activationDistanceTurnsShortPressesIntoClicks() throws {
    var engine = locationsEngine { $0.activationDistance = 10 }
    var events = try engine.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    events += try engine.handle(.pointer(.move, id: 0, at: P(65, 60)), at: 0.1)
    #expect(events.isEmpty)
    #expect(engine.board.items[0].center == P(60, 60))
    events += try engine.handle(.pointer(.move, id: 0, at: P(75, 60)), at: 0.2)
    #expect(events.first == .pickup(item: "photo", pointer: 0))
    #expect(engine.board.items[0].center == P(75, 60))

    var clicked = locationsEngine { $0.activationDistance = 10 }
    _ = try clicked.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    #expect(try clicked.handle(.pointer(.up, id: 0, at: P(62, 60)), at: 0.1).isEmpty)
    #expect(clicked.isIdle)
  }

  @Test func axisLockGridAndCanvasBounds() throws {
    var locked = locationsEngine { $0.axisLock = .horizontal }
    locked.drag(from: P(60, 60), to: P(150, 200), release: false)
    #expect(locked.board.items[0].center == P(150, 60))

    var grid = locationsEngine { $0.grid = 25 }
    grid.drag(from: P(60, 60), to: P(73, 91), release: false)
    // Top-left corner (43, 61) snaps to (50, 50).
    #expect(grid.board.items[0].center == P(80, 80))

    var bounded = locationsEngine { $0.restrictToCanvas = true }
    bounded.drag(from: P(60, 60), to: P(-100, 900), release: false)
    #expect(bounded.board.items[0].center == P(30, 450))
  }

  @Test func hoverHasHysteresisButTheDropUsesTheExactRule() throws {
    var engine = locationsEngine()
    _ = try engine.handle(.pointer(.down, id: 0, at: P(60, 60)), at: 0)
    var hovers: [StageEvent] = []
    func move(_ x: Double, _ t: Double) throws {
      hovers += try engine.handle(.pointer(.move, id: 0, at: P(x, 60)), at: t).filter {
        if case .hover = $0 { return true } else { return false }
      }
    }
    try move(100, 0.1)  // 40 pt from slot 0
    try move(111, 0.2)  // slot 1 is now nearer (49 vs 51), but not by the 8 pt slack
    try move(109, 0.3)
    try move(111, 0.4)
    #expect(hovers == [.hover(item: "photo", slot: "0")], "no flicker at the boundary")
    try move(116, 0.5)
    #expect(hovers.last == .hover(item: "photo", slot: "1"))
    try move(111, 0.6)
    #expect(hovers.count == 2)
    var exact = locationsEngine()
    exact.drag(from: P(60, 60), to: P(111, 60))
    #expect(exact.board.items[0].slot == 1)
  }

  @Test func springsOvershootAndStillEnd() throws {
    let spring = TimingCurve.spring(response: 0.4, dampingRatio: 0.5)
    let duration = spring.settlingDuration(default: 0.2)
    #expect(duration > 0.2 && duration < 10)
    var peak = 0.0
    var t = 0.0
    while t < duration {
      peak = max(peak, spring.progress(at: t, duration: duration))
      t += 0.005
    }
    #expect(peak > 1.05)
    #expect(spring.progress(at: duration, duration: duration) == 1)
    #expect(TimingCurve.easeInOut.progress(at: 0.05, duration: 0.2) < 0.25)
  }
}

@Suite("Keyboard operation")
struct KeyboardTests {
  @Test func pickUpMoveAndDropWithAnnouncements() throws {
    var engine = locationsEngine()
    var events: [StageEvent] = []
    for key in [Key.tab, .space, .right, .right, .enter] { events += try engine.handle(.key(key), at: 0) }
    #expect(events.contains(.announce("Focused photo, in location #0.")))
    #expect(events.contains(.pickup(item: "photo", pointer: nil)))
    #expect(events.contains(.announce("photo is over location #1.")), "a name leading a sentence stays as written")
    #expect(events.contains(.drop(item: "photo", slot: "2")))
    #expect(events.contains(.status("location #2")))
    engine.settle()
    #expect(engine.board.items[0].center == P(260, 60))
    let edge = try engine.handle(.key(.space), at: 1) + engine.handle(.key(.right), at: 1)
    #expect(edge.last == .announce("No location to the right."))
  }

  @Test func escapeCancelsAndReturnsHome() throws {
    var engine = locationsEngine()
    var events: [StageEvent] = []
    for key in [Key.space, .right, .escape] { events += try engine.handle(.key(key), at: 0) }
    #expect(events.contains(.cancel(item: "photo")))
    engine.settle()
    #expect(engine.board.items[0].slot == 0)
    #expect(engine.board.items[0].center == P(60, 60))
  }

  @Test func keyboardAssignsInShortcuts() throws {
    var engine = shortcutsEngine()
    for key in [Key.tab, .space, .right, .down, .enter] { _ = try engine.handle(.key(key), at: 0) }
    #expect(engine.board.slots.map(\.content) == [nil, "mail", nil])
    #expect(engine.ghosts.isEmpty)
  }

  @Test func undoMovesTheItemBack() throws {
    var engine = locationsEngine()
    engine.drag(from: P(60, 60), to: P(150, 60))
    engine.settle()
    _ = try engine.handle(.key(.undo), at: 1)
    engine.settle()
    #expect(engine.board.items[0].slot == 0)
    #expect(engine.board.items[0].center == P(60, 60))
    let redo = try engine.handle(.key(.redo), at: 2)
    #expect(redo.contains(.status("location #1")))
    engine.settle()
    #expect(engine.board.items[0].center == P(160, 60))
  }
}

/// A web page's board: the page hit-tests its own elements and its CSS lays them out.
@Suite("A page's own elements")
struct PageElementTests {
  /// A press that never moves is a click: no pickup, no drop, nothing to undo.
  @Test func aClickIsNoDrag() throws {
    var engine = locationsEngine()
    var events = try engine.press(item: 0, pointer: 1, at: P(60, 60), time: 0, waitForMove: true)
    events += try engine.handle(.pointer(.move, id: 1, at: P(60, 60)), at: 0.05)
    events += try engine.handle(.pointer(.up, id: 1, at: P(60, 60)), at: 0.1)
    #expect(events.isEmpty)
    #expect(!engine.canUndo && engine.isIdle)
    // The first move that moves at all picks it up.
    events = try engine.press(item: 0, pointer: 1, at: P(60, 60), time: 1, waitForMove: true)
    #expect(events.isEmpty)
    events = try engine.handle(.pointer(.move, id: 1, at: P(61, 60)), at: 1.05)
    #expect(events.first == .pickup(item: "photo", pointer: 1))
  }

  /// A touch held still until the host's delay ran out is picked up at the press.
  @Test func aHeldTouchIsPickedUpAtOnce() throws {
    var engine = locationsEngine()
    let events = try engine.press(item: 0, pointer: 1, at: P(60, 60), time: 0, waitForMove: false)
    #expect(events == [.pickup(item: "photo", pointer: 1)])
    #expect(engine.dragOrigin(item: 0) == 0)
  }

  /// The page's CSS puts the item in its slot's corner: the snap ends there, not at the
  /// slot's centre, so nothing jumps when the page takes the item back.
  @Test func theSnapEndsWhereTheHostRestsTheItem() throws {
    var engine = locationsEngine()
    _ = try engine.press(item: 0, pointer: 1, at: P(60, 60), time: 0, waitForMove: true)
    _ = try engine.handle(.pointer(.move, id: 1, at: P(150, 70)), at: 0.05)
    _ = try engine.handle(.pointer(.up, id: 1, at: P(150, 70)), at: 0.1)
    #expect(engine.board.items[0].slot == 1)
    // The host moved the element into slot 1 and measured it 10 pt up and left of the centre.
    try engine.setSlotOffset(0, Vector(dx: -10, dy: -10))
    engine.settle()
    #expect(engine.board.items[0].center == P(150, 50))
    #expect(try engine.restingPoint(of: 0) == P(150, 50))
  }
}
