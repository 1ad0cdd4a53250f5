import Scenes
import Stage
import Testing

/// The Shortcuts scene's sortable dock (issue 38), driven as the app drives it.
@Suite("Shortcuts dock")
struct ShortcutDockTests {
  static func dock(filling icons: [Int]) -> Studio {
    var s = BoardSceneTests.studio(.shortcuts)
    for (k, i) in icons.enumerated() {
      let from = s.shortcuts.engine.board.items[i].center
      _ = BoardSceneTests.drag(&s, from: from, to: s.shortcuts.engine.board.slots[k].frame.center, at: Double(k))
    }
    return s
  }

  static func contents(_ s: Studio) -> [String?] { s.shortcuts.engine.board.slots.map { $0.content } }

  static func texts(_ s: Studio) -> [String] {
    s.displayList().commands.compactMap { if case .text(let t, _, _, _, _, _) = $0 { t } else { nil } }
  }

  static func sorts(_ events: [SceneEvent]) -> [SortEvent] {
    events.compactMap { if case .sort(_, let e) = $0 { e } else { nil } }
  }

  /// Mail dragged from the first shortcut onto the third: Camera and Player slide back one
  /// place while it moves, and the drop leaves Camera, Player, Mail; undo puts it back.
  @Test func aShortcutDraggedAlongTheDockLandsThereAndTheOthersSlideAside() throws {
    var s = Self.dock(filling: [0, 1, 2])
    #expect(Self.contents(s) == ["mail", "camera", "player", nil])
    let slots = s.shortcuts.engine.board.slots.map { $0.frame }
    let a = slots[0].center, b = slots[2].center
    var events = s.handle(.pointer(.down, id: 0, kind: .mouse, at: a), at: 10)
    #expect(!s.shortcuts.isSortingDock, "a press alone is no drag")
    for k in 1...8 {
      let p = StagePoint(x: a.x + (b.x - a.x) * Double(k) / 8, y: a.y + (b.y - a.y) * Double(k) / 8)
      events += s.handle(.pointer(.move, id: 0, kind: .mouse, at: p), at: 10 + 0.02 * Double(k))
    }
    // Mid-drag: Mail is held under the pointer, the others have made room.
    #expect(s.shortcuts.isSortingDock)
    #expect(s.shortcuts.engine.board.slots[0].content == "mail", "nothing is committed before the drop")
    let offsets = s.shortcuts.dockOffsets
    let cameraShift = try #require(offsets[1])
    #expect(abs(slots[1].minX + cameraShift.dx - slots[0].minX) < 0.5 && abs(cameraShift.dy) < 0.5)
    let playerShift = try #require(offsets[2])
    #expect(abs(slots[2].minX + playerShift.dx - slots[1].minX) < 0.5)
    #expect(abs(slots[2].minY + playerShift.dy - slots[1].minY) < 0.5)
    #expect(s.shortcuts.dockPreview == ["camera", "player", "mail", nil], "the labels follow the icons")
    #expect(Self.texts(s).contains("Mail to Shortcut 3"), "the status line says where the drop lands")
    let held = try #require(s.shortcuts.dockHeld)
    #expect(held.slot == 0 && held.frame.contains(b))
    // The held icon is drawn lifted (a shadow) and nothing traps drawing mid-sort.
    #expect(s.displayList().commands.contains { if case .shadow = $0 { true } else { false } })
    events += s.handle(.pointer(.up, id: 0, kind: .mouse, at: b), at: 10.2)
    s.advance(to: 11)
    #expect(Self.contents(s) == ["camera", "player", "mail", nil])
    let sorts = Self.sorts(events)
    #expect(sorts.first == .start(item: "slot1", list: "dock", index: 0))
    #expect(sorts.contains(.sort(item: "slot1", list: "dock", index: 2)))
    guard case .end(let end) = sorts.dropLast().last else {
      Issue.record("no end event: \(sorts)")
      return
    }
    #expect(end.from == "dock" && end.to == "dock" && end.oldIndex == 0 && end.newIndex == 2 && !end.cancelled)
    #expect(sorts.last == .change(lists: ["dock"]))
    #expect(BoardSceneTests.engineEvents(events).contains(.assign(item: "mail", slot: "slot3")))
    #expect(events.contains { if case .save(.shortcuts) = $0 { true } else { false } })
    #expect(BoardSceneTests.announcements(events).contains("Moved Mail to Shortcut 3."))
    _ = s.handle(.key(.character("z"), [.control], isDown: true, isRepeat: false), at: 12)
    #expect(Self.contents(s) == ["mail", "camera", "player", nil], "one undo takes the whole reorder back")
  }

  /// Player dragged from the third shortcut to the first: the status line names where Player
  /// landed, not the last shortcut that slid aside (it said "Shortcut 3: Camera").
  @Test func theStatusLineNamesWhereTheMovedShortcutLanded() throws {
    var s = Self.dock(filling: [0, 1, 2])
    let slots = s.shortcuts.engine.board.slots.map { $0.frame }
    let a = slots[2].center, b = slots[0].center
    _ = s.handle(.pointer(.down, id: 0, kind: .mouse, at: a), at: 10)
    for k in 1...8 {
      let p = StagePoint(x: a.x + (b.x - a.x) * Double(k) / 8, y: a.y + (b.y - a.y) * Double(k) / 8)
      _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: p), at: 10 + 0.02 * Double(k))
    }
    _ = s.handle(.pointer(.up, id: 0, kind: .mouse, at: b), at: 10.2)
    s.advance(to: 11)
    #expect(Self.contents(s) == ["player", "mail", "camera", nil])
    #expect(s.shortcuts.engine.status == "Shortcut 1: Player")
    #expect(Self.texts(s).contains("Shortcut 1: Player"))
  }

  /// Atlas dropped on Camera's leading edge goes between Mail and Camera; Camera moves on
  /// into the empty slot after it. Dropped on Camera's middle it replaces Camera (seed 001).
  @Test func anIconDroppedBetweenTwoShortcutsIsInsertedThere() throws {
    var s = Self.dock(filling: [0, 1])
    let camera = s.shortcuts.engine.board.slots[1].frame
    let atlas = s.shortcuts.engine.board.items[3].center
    let edge = StagePoint(x: camera.minX + 4, y: camera.center.y)
    var events = s.handle(.pointer(.down, id: 0, kind: .mouse, at: atlas), at: 10)
    events += s.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: edge.x - 40, y: edge.y)), at: 10.05)
    events += s.handle(.pointer(.move, id: 0, kind: .mouse, at: edge), at: 10.1)
    let shift = try #require(s.shortcuts.dockOffsets[1], "Camera makes room while the icon hovers")
    let next = s.shortcuts.engine.board.slots[2].frame
    #expect(abs(camera.minX + shift.dx - next.minX) < 0.5 && abs(camera.minY + shift.dy - next.minY) < 0.5)
    #expect(s.shortcuts.dockPreview == ["mail", "atlas", "camera", nil], "the labels say where each would land")
    #expect(Self.texts(s).contains("Atlas into Shortcut 2"), "the status line names the insertion")
    // Drawn over the slot it slid onto, not under that slot's fill.
    let commands = s.displayList().commands
    let cameraDrawn = commands.lastIndex {
      if case .image(.icon("camera"), let r, _) = $0 { next.contains(r.center) } else { false }
    }
    let nextFilled = commands.lastIndex { if case .fill(let r, _, _) = $0 { r == next } else { false } }
    #expect(cameraDrawn != nil && nextFilled != nil && cameraDrawn! > nextFilled!)
    events += s.handle(.pointer(.up, id: 0, kind: .mouse, at: edge), at: 10.2)
    s.advance(to: 11)
    #expect(Self.contents(s) == ["mail", "atlas", "camera", nil])
    #expect(s.shortcuts.engine.ghosts.isEmpty)
    #expect(BoardSceneTests.engineEvents(events).contains(.drop(item: "atlas", slot: "slot2")))
    _ = BoardSceneTests.drag(&s, from: s.shortcuts.engine.board.items[2].center, to: camera.center, at: 12)
    #expect(Self.contents(s) == ["mail", "player", "camera", nil], "a drop on a shortcut's middle replaces it")
  }

  /// A shortcut dragged off the dock is removed, as before the dock sorted; a miss of an
  /// icon still sends its ghost home in 0.5 s (seed 001).
  @Test func offTheDockRemovesAndAMissStillFliesHome() throws {
    var s = Self.dock(filling: [0])
    let events = BoardSceneTests.drag(
      &s, from: s.shortcuts.engine.board.slots[0].frame.center, to: StagePoint(x: 40, y: 700), at: 10)
    #expect(Self.contents(s) == [nil, nil, nil, nil])
    guard case .end(let end) = Self.sorts(events).last else {
      Issue.record("no end event")
      return
    }
    #expect(end.cancelled)
    let icon = s.shortcuts.engine.board.items[1].center
    _ = s.handle(.pointer(.down, id: 0, kind: .mouse, at: icon), at: 20)
    _ = s.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: 500, y: 690)), at: 20.1)
    _ = s.handle(.pointer(.up, id: 0, kind: .mouse, at: StagePoint(x: 500, y: 690)), at: 20.2)
    s.advance(to: 20.45)
    #expect(s.shortcuts.engine.ghosts.count == 1, "the ghost is still flying home")
    s.advance(to: 20.71)
    #expect(s.shortcuts.engine.ghosts.isEmpty)
  }
}
