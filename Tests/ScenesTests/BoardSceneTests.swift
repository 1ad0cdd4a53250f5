import Panorama
import Scenes
import Stage
import Testing

/// The boards driven the way a host drives them: a studio laid out in a viewport, pointer
/// and key input, no window.
@Suite("Board scenes")
struct BoardSceneTests {
  /// An error about one tab's content is shown on that tab only; one for every tab on all;
  /// the close button and Escape dismiss the one shown.
  @Test func aTabsErrorStaysOnItsTab() throws {
    var studio = Studio(active: .panorama)
    _ = studio.layout(viewport: StageSize(width: 800, height: 600), at: 0)
    studio.showMessage("photo.jpg: not a JPEG or PNG file", in: .locations)
    #expect(studio.message == nil)
    #expect(!studio.focusOrder.contains(.dismissMessage))
    _ = studio.show(.locations, at: 0)
    #expect(studio.message == "photo.jpg: not a JPEG or PNG file")
    #expect(studio.focusOrder.contains(.dismissMessage))
    studio.showMessage("Could not save the screenshot")
    _ = studio.show(.panorama, at: 0)
    #expect(studio.message == "Could not save the screenshot")
    _ = studio.handle(.key(.escape, [], isDown: true, isRepeat: false), at: 0)
    #expect(studio.message == nil)
    _ = studio.show(.locations, at: 0)
    #expect(studio.message == "photo.jpg: not a JPEG or PNG file", "the Panorama tab's dismissal left it")
  }

  static func studio(_ active: SceneKind = .locations, photos: Int = 1) -> Studio {
    let list = (0..<photos).map { Photo(id: $0 == 0 ? "photo" : "photo\($0)", name: $0 == 0 ? "Photo" : "Photo \($0 + 1)") }
    var s = Studio(active: .locations, locations: .locations(photos: list))
    _ = s.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
    if active != .locations { _ = s.show(active, at: 0) }
    return s
  }

  static func drag(_ s: inout Studio, from a: StagePoint, to b: StagePoint, at t: Double) -> [SceneEvent] {
    var events = s.handle(.pointer(.down, id: 0, kind: .mouse, at: a), at: t)
    for k in 1...5 {
      let p = StagePoint(x: a.x + (b.x - a.x) * Double(k) / 5, y: a.y + (b.y - a.y) * Double(k) / 5)
      events += s.handle(.pointer(.move, id: 0, kind: .mouse, at: p), at: t + 0.01 * Double(k))
    }
    events += s.handle(.pointer(.up, id: 0, kind: .mouse, at: b), at: t + 0.06)
    s.advance(to: t + 1)
    return events
  }

  static func engineEvents(_ events: [SceneEvent]) -> [StageEvent] {
    events.compactMap { if case .engine(_, let e) = $0 { e } else { nil } }
  }

  static func announcements(_ events: [SceneEvent]) -> [String] {
    events.compactMap {
      switch $0 {
      case .engine(_, .announce(let text)): text
      case .announce(let a): a.text
      default: nil
      }
    }
  }

  @Test func aDropVisiblyInsideABigSlotLandsThere() throws {
    var s = Self.studio()
    let slot = s.locations.engine.board.slots[1].frame
    #expect(slot.size.width > 150, "the slots are big at 1024×720: \(slot.size.width)")
    let from = s.locations.engine.board.items[0].center
    // 80 pt right of the centre: over 50 pt away, yet inside the slot.
    let events = Self.drag(&s, from: from, to: StagePoint(x: slot.center.x + 80, y: slot.center.y), at: 0)
    #expect(Self.engineEvents(events).contains(.drop(item: "photo", slot: "1")))
    #expect(s.locations.engine.board.items[0].slot == 1)
    #expect(events.contains { if case .save(.locations) = $0 { true } else { false } }, "a moved photo is saved")
  }

  @Test func theSeedsRuleStaysFiftyPointsInTheEngine() throws {
    let slots = [Slot(id: "0", frame: StageRect(x: 0, y: 0, width: 233, height: 233))]
    let board = try Board(
      canvas: StageSize(width: 800, height: 600), slots: slots,
      items: [Item(id: "p", frame: StageRect(x: 400, y: 400, width: 50, height: 50))])
    var engine = try Engine(board: board, options: .preset(.locations))
    _ = try engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 425, y: 425)), at: 0)
    _ = try engine.handle(.pointer(.move, id: 0, at: StagePoint(x: 116.5 + 51, y: 116.5)), at: 0.1)
    let events = try engine.handle(.pointer(.up, id: 0, at: StagePoint(x: 116.5 + 51, y: 116.5)), at: 0.2)
    #expect(events.contains(.returned(item: "p", slot: nil)), "51 pt is outside the seed's 50 pt")
  }

  @Test func aDropOnAFullSlotSwapsAndUndoSwapsBack() throws {
    var s = Self.studio(photos: 2)
    let board = s.locations.engine.board
    #expect(board.items[0].slot == 0 && board.items[1].slot == 1)
    let events = Self.drag(&s, from: board.items[0].center, to: board.slots[1].frame.center, at: 0)
    #expect(Self.engineEvents(events).contains(.displaced(item: "photo1", slot: "0")))
    #expect(Self.announcements(events).contains { $0.hasPrefix("Swapped Photo with Photo 2") })
    #expect(s.locations.engine.board.items[0].slot == 1 && s.locations.engine.board.items[1].slot == 0)
    _ = s.handle(.key(.character("z"), .control, isDown: true, isRepeat: false), at: 2)
    s.advance(to: 3)
    #expect(s.locations.engine.board.items[0].slot == 0 && s.locations.engine.board.items[1].slot == 1)
  }

  @Test func withoutSwapAFullSlotRefusesAndIsShownRed() throws {
    var s = Self.studio(photos: 2)
    var locations = s.locations
    locations.swapsOccupied = false
    s = Studio(active: .locations, locations: locations)
    _ = s.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
    let board = s.locations.engine.board
    _ = s.handle(.pointer(.down, id: 0, kind: .mouse, at: board.items[0].center), at: 0)
    _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: board.slots[1].frame.center), at: 0.1)
    let red = s.displayList().commands.contains {
      if case .outline(let r, Palette.refuseBorder, _, _) = $0 { r == board.slots[1].frame } else { false }
    }
    #expect(red, "the full slot under the photo is outlined red")
    let events = s.handle(.pointer(.up, id: 0, kind: .mouse, at: board.slots[1].frame.center), at: 0.2)
    #expect(Self.engineEvents(events).contains(.returned(item: "photo", slot: "0")))
  }

  @Test func escapeCancelsAMouseDrag() throws {
    var s = Self.studio()
    let from = s.locations.engine.board.items[0].center
    _ = s.handle(.pointer(.down, id: 0, kind: .mouse, at: from), at: 0)
    _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: from.x + 300, y: from.y)), at: 0.1)
    let events = s.handle(.key(.escape, [], isDown: true, isRepeat: false), at: 0.2)
    #expect(Self.engineEvents(events).contains(.cancel(item: "photo")))
    s.advance(to: 1)
    #expect(s.locations.engine.board.items[0].center == s.locations.engine.board.slots[0].frame.center)
    // The release that follows does nothing more.
    #expect(Self.engineEvents(s.handle(.pointer(.up, id: 0, kind: .mouse, at: from), at: 1.1)).isEmpty)
  }

  @Test func aHeldPhotoIsLiftedWithAShadowAndTheGrabbingCursor() throws {
    var s = Self.studio()
    let from = s.locations.engine.board.items[0].center
    #expect(s.displayList().commands.allSatisfy { if case .shadow = $0 { false } else { true } })
    _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: from), at: 0)
    #expect(s.displayList().cursor == .grab)
    _ = s.handle(.pointer(.down, id: 0, kind: .mouse, at: from), at: 0)
    _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: from.x + 30, y: from.y)), at: 0.1)
    let list = s.displayList()
    #expect(list.cursor == .grabbing)
    #expect(list.commands.contains { if case .shadow = $0 { true } else { false } })
  }

  @Test func aShortcutDraggedOutIsRemovedAndDraggedAcrossMoves() throws {
    var s = Self.studio(.shortcuts)
    let board = s.shortcuts.engine.board
    _ = Self.drag(&s, from: board.items[0].center, to: board.slots[0].frame.center, at: 0)
    #expect(s.shortcuts.engine.board.slots[0].content == "mail")
    var events = Self.drag(&s, from: board.slots[0].frame.center, to: board.slots[3].frame.center, at: 2)
    #expect(s.shortcuts.engine.board.slots[0].content == nil && s.shortcuts.engine.board.slots[3].content == "mail")
    #expect(Self.announcements(events).contains("Moved Mail to Shortcut 4."))
    events = Self.drag(&s, from: board.slots[3].frame.center, to: StagePoint(x: 5, y: 700), at: 4)
    #expect(s.shortcuts.engine.board.slots.allSatisfy { $0.content == nil })
    #expect(Self.announcements(events).contains("Removed Mail from Shortcut 4. Press Ctrl+Z to undo."))
    #expect(events.contains { if case .save(.shortcuts) = $0 { true } else { false } })
    _ = s.handle(.key(.character("z"), .control, isDown: true, isRepeat: false), at: 6)
    #expect(s.shortcuts.engine.board.slots[3].content == "mail")
  }

  @Test func replacingAndClearingSayHowToUndo() throws {
    var s = Self.studio(.shortcuts)
    let board = s.shortcuts.engine.board
    _ = Self.drag(&s, from: board.items[0].center, to: board.slots[1].frame.center, at: 0)
    let events = Self.drag(&s, from: board.items[1].center, to: board.slots[1].frame.center, at: 2)
    #expect(Self.announcements(events).contains("Replaced Mail with Camera in Shortcut 2. Press Ctrl+Z to undo."))
    let status = Self.engineEvents(events).compactMap { if case .status(let t) = $0 { t } else { nil } }
    #expect(status == ["Shortcut 2: Camera"], "no raw ids: \(status)")
    let cleared = s.handle(.key(.character("c"), [], isDown: true, isRepeat: false), at: 4)
    #expect(Self.announcements(cleared).contains("Cleared 1 slot. Press Ctrl+Z to undo."))
  }

  @Test func tabReachesItemsSlotsButtonsAndTabsAndShiftTabGoesBack() throws {
    var s = Self.studio(.shortcuts)
    var seen: [Focus] = []
    for k in 0..<12 {
      _ = s.handle(.key(.tab, [], isDown: true, isRepeat: false), at: Double(k))
      seen.append(s.focus!)
    }
    #expect(seen.prefix(4) == [.board(.item(0)), .board(.item(1)), .board(.item(2)), .board(.item(3))])
    #expect(seen.contains(.board(.slot(0))) && seen.contains(.board(.clearButton)) && seen.contains(.tab(.panorama)))
    let before = s.focus
    _ = s.handle(.key(.tab, .shift, isDown: true, isRepeat: false), at: 20)
    #expect(s.focus != before)
    _ = s.handle(.key(.tab, [], isDown: true, isRepeat: false), at: 21)
    #expect(s.focus == before, "Shift+Tab then Tab comes back")
    let rings = s.displayList().commands.filter { if case .focusRing = $0 { true } else { false } }
    #expect(rings.count == 1, "the focus is drawn")
  }

  /// Tab follows the screen, not the ids: after a swap the photo on the first location comes
  /// first.
  @Test func tabFollowsReadingOrderAfterASwap() throws {
    var s = Self.studio(photos: 3)
    let board = s.locations.engine.board
    // Photo 0 (on location #0) onto location #2, where Photo 2 sits: they swap.
    _ = Self.drag(&s, from: board.items[0].center, to: board.slots[2].frame.center, at: 0)
    #expect(s.locations.engine.board.items[0].slot == 2 && s.locations.engine.board.items[2].slot == 0)
    let order = s.focusOrder.prefix(3)
    #expect(Array(order) == [.board(.item(2)), .board(.item(1)), .board(.item(0))], "\(order)")
  }

  @Test func keyboardPickUpAndDropAnnounceInSentences() throws {
    var s = Self.studio()
    var texts: [String] = []
    for key in [KeyName.tab, .space, .right, .enter] {
      texts += Self.announcements(s.handle(.key(key, [], isDown: true, isRepeat: false), at: 0))
    }
    #expect(texts.contains("Photo is over location #1."))
    #expect(texts.allSatisfy { $0.first?.isUppercase ?? false }, "\(texts)")
    #expect(s.locations.engine.board.items[0].slot == 1)
  }

  @Test func photosAddedLandOnFreeSlotsAndAddSlotsWhenFull() throws {
    var s = Self.studio()
    let many = (0..<7).map { Photo(id: "p\($0)", name: "P\($0)") }
    _ = s.addPhotos(many, at: 0)
    let board = s.locations.engine.board
    #expect(board.items.count == 8 && board.slots.count == 8)
    #expect(Set(board.items.compactMap(\.slot)).count == 8, "every photo has its own slot")
    #expect(board.items[0].slot == 0, "the first photo stays")
  }

  /// The web page restores its boards from `localStorage` before it knows the page's size.
  /// Locations' grid once divided its empty area (0 / 0) and trapped, blanking the page.
  @Test(arguments: [SceneKind.locations, .shortcuts])
  func aSavedBoardRestoresBeforeTheFirstLayout(kind: SceneKind) throws {
    var saved = Self.studio(kind)
    let item = saved.board(kind).engine.board.items[0]
    let target = saved.board(kind).engine.board.slots[kind == .locations ? 5 : 1].frame.center
    _ = Self.drag(&saved, from: item.center, to: target, at: 0)
    let line = saved.savedState(kind)
    #expect(line.contains(kind == .locations ? "\"slot\":5" : "\"content\":\"\(item.id)\""), "\(line)")

    var fresh = Studio(active: kind)
    try fresh.restoreSaved(kind, from: Array(line.utf8), source: "test", at: 0)
    _ = fresh.layout(viewport: StageSize(width: 1024, height: 720), at: 0.1)
    fresh.advance(to: 2)
    #expect(fresh.savedState(kind) == line, "the restored board saves the same line once laid out")
  }
}
