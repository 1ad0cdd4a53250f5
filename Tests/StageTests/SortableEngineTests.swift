import Testing

@testable import Stage

/// A kanban: columns 200 pt wide side by side, cards 40 pt tall.
func kanban(_ columns: [(id: String, cards: [String])], group: SortGroup = SortGroup(name: "cards"), max: Int? = nil)
  -> [SortableList]
{
  columns.enumerated().map { c, column in
    let x = Double(c) * 220
    return SortableList(
      id: column.id, name: column.id.capitalized, frame: StageRect(x: x, y: 0, width: 200, height: 400),
      layout: .vertical(gap: 0), group: group, max: max,
      items: column.cards.enumerated().map { k, id in
        SortableItem(id: id, frame: StageRect(x: x, y: Double(k) * 40, width: 200, height: 40))
      })
  }
}

extension String {
  fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}

/// The centre of card `k` of column `c`.
func card(_ c: Int, _ k: Int, dy: Double = 0) -> StagePoint { StagePoint(x: Double(c) * 220 + 100, y: Double(k) * 40 + 20 + dy) }

@Suite("SortableEngine")
struct SortableEngineTests {
  @Test func withinAListTheItemIsInsertedNotSwapped() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2", "t3", "t4"])]))
    #expect(try engine.pickUp(item: "t1", pointer: card(0, 0)) == [.start(item: "t1", list: "todo", index: 0)])
    #expect(try engine.move(pointer: card(0, 1)) == [.sort(item: "t1", list: "todo", index: 1)])
    #expect(try engine.move(pointer: card(0, 2)) == [.sort(item: "t1", list: "todo", index: 2)])
    // The neighbours make room: t2 and t3 each move up one card while t1 is held.
    let offsets = Dictionary(uniqueKeysWithValues: engine.offsets().map { ($0.item, $0.offset) })
    #expect(offsets["t2"] == Vector(dx: 0, dy: -40))
    #expect(offsets["t3"] == Vector(dx: 0, dy: -40))
    #expect(offsets["t4"] == nil)
    #expect(offsets["t1"] == Vector(dx: 0, dy: 80))
    let events = engine.drop()
    #expect(
      events == [
        .end(
          SortEnd(
            item: "t1", items: ["t1"], from: "todo", to: "todo", oldIndex: 0, newIndex: 2, clone: nil, cancelled: false)),
        .change(lists: ["todo"]),
      ])
    #expect(engine.order(of: 0) == ["t2", "t3", "t1", "t4"])
  }

  @Test func aDropBackInPlaceChangesNothing() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2", "t3"])]))
    _ = try engine.pickUp(item: "t2", pointer: card(0, 1))
    _ = try engine.move(pointer: card(0, 2))
    _ = try engine.move(pointer: card(0, 1))
    let events = engine.drop()
    #expect(events.count == 1, "end only, no change: \(events)")
    #expect(!engine.canUndo)
  }

  @Test func betweenListsAndIntoAnEmptyOneAnywhereInItsBox() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2"]), ("doing", ["d1", "d2"]), ("done", [])]))
    _ = try engine.pickUp(item: "t1", pointer: card(0, 0))
    // Over d2's lower half: after it.
    #expect(try engine.move(pointer: card(1, 1, dy: 10)) == [.sort(item: "t1", list: "doing", index: 2)])
    #expect(try engine.move(pointer: StagePoint(x: 540, y: 390)) == [.sort(item: "t1", list: "done", index: 0)])
    let events = engine.drop()
    guard case .end(let end) = events.first else { Issue.record("no end"); return }
    #expect((end.from, end.to, end.oldIndex, end.newIndex) == ("todo", "done", 0, 0))
    #expect(events.last == .change(lists: ["todo", "done"]))
    #expect(engine.order(of: 0) == ["t2"])
    #expect(engine.order(of: 2) == ["t1"])
  }

  @Test func groupsDecideWhichListsExchange() throws {
    var lists = kanban([("a", ["a1"]), ("b", ["b1"]), ("c", ["c1"])])
    lists[0].group = SortGroup(name: "x")
    lists[1].group = SortGroup(name: "y", put: .groups(["x"]))
    lists[2].group = SortGroup(name: "z", put: .none)
    var engine = try SortableEngine(lists: lists)
    _ = try engine.pickUp(item: "a1", pointer: card(0, 0))
    #expect(engine.refusingLists == [2])
    #expect(try engine.move(pointer: card(2, 0)).isEmpty, "c puts nothing")
    #expect(try engine.move(pointer: card(1, 0, dy: 10)) == [.sort(item: "a1", list: "b", index: 1)])
    _ = engine.drop()
    // b's items may not go to a: a takes only its own group (no name given to b's put).
    _ = try engine.pickUp(item: "b1", pointer: card(1, 0))
    #expect(engine.refusingLists == [0, 2])
    var noPull = kanban([("a", ["a1"]), ("b", [])])
    noPull[0].group = SortGroup(name: "g", pull: .refuse)
    var still = try SortableEngine(lists: noPull)
    _ = try still.pickUp(item: "a1", pointer: card(0, 0))
    #expect(try still.move(pointer: card(1, 0)).isEmpty)
  }

  @Test func maxRefusesMore() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2"]), ("doing", ["d1"])], max: 2))
    _ = try engine.pickUp(item: "t1", pointer: card(0, 0))
    _ = try engine.move(pointer: card(1, 0, dy: 10))
    _ = engine.drop()
    #expect(engine.order(of: 1) == ["d1", "t1"])
    _ = try engine.pickUp(item: "t2", pointer: card(0, 0))
    #expect(engine.refusingLists == [1])
    #expect(try engine.move(pointer: card(1, 1)).isEmpty)
    #expect(engine.drop().count == 1)
    #expect(engine.order(of: 1) == ["d1", "t1"])
  }

  @Test func aClonePullLeavesACopy() throws {
    var lists = kanban([("palette", ["p1", "p2"]), ("dock", ["d1"])])
    lists[0].group = SortGroup(name: "apps", pull: .clone, put: .none)
    lists[1].group = SortGroup(name: "apps")
    var engine = try SortableEngine(lists: lists)
    _ = try engine.pickUp(item: "p1", pointer: card(0, 0))
    _ = try engine.move(pointer: card(1, 0, dy: -10))
    #expect(engine.isCloning)
    #expect(engine.offsets().first { $0.item == "p2" } == nil, "the copy keeps its place: p2 does not move")
    let events = engine.drop { "\($0)-copy" }
    guard case .end(let end) = events.first else { Issue.record("no end"); return }
    #expect(end.clone == "p1-copy")
    #expect(engine.order(of: 0) == ["p1-copy", "p2"])
    #expect(engine.order(of: 1) == ["p1", "d1"])
    engine.undo()
    #expect(engine.order(of: 0) == ["p1", "p2"])
    #expect(engine.order(of: 1) == ["d1"])
    engine.redo()
    #expect(engine.order(of: 0) == ["p1-copy", "p2"])
    #expect(engine.order(of: 1) == ["p1", "d1"])
  }

  @Test func undoAndRedoOfSorts() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2", "t3"]), ("doing", [])]))
    _ = try engine.pickUp(item: "t3", pointer: card(0, 2))
    _ = try engine.move(pointer: card(0, 0))
    _ = engine.drop()
    _ = try engine.pickUp(item: "t1", pointer: card(0, 1))
    _ = try engine.move(pointer: card(1, 3))
    _ = engine.drop()
    #expect(engine.order(of: 0) == ["t3", "t2"])
    #expect(engine.undo() == [.change(lists: ["todo", "doing"])])
    #expect(engine.order(of: 0) == ["t3", "t1", "t2"])
    engine.undo()
    #expect(engine.order(of: 0) == ["t1", "t2", "t3"])
    #expect(!engine.canUndo && engine.canRedo)
    engine.redo()
    engine.redo()
    #expect(engine.order(of: 0) == ["t3", "t2"])
    #expect(engine.order(of: 1) == ["t1"])
  }

  @Test func runTimeInsertAndRemoveKeepUndo() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2", "t3"])]))
    _ = try engine.pickUp(item: "t1", pointer: card(0, 0))
    _ = try engine.move(pointer: card(0, 2))
    _ = engine.drop()
    #expect(engine.order(of: 0) == ["t2", "t3", "t1"])
    try engine.insertItem(SortableItem(id: "new", frame: StageRect(x: 0, y: 120, width: 200, height: 40)), into: 0, at: 1)
    try engine.removeItem("t3")
    #expect(engine.order(of: 0) == ["t2", "new", "t1"])
    engine.undo()
    // The sort is undone; the added item stays where the page put it, the removed one stays out.
    #expect(engine.order(of: 0) == ["t1", "new", "t2"])
    engine.redo()
    #expect(engine.order(of: 0) == ["t2", "new", "t1"])
    try engine.insertList(SortableList(id: "later", frame: StageRect(x: 220, y: 0, width: 200, height: 400)))
    #expect(engine.canUndo)
    #expect(throws: BoardError(.duplicateID("new"), "item.id")) {
      try engine.insertItem(SortableItem(id: "new", frame: StageRect(x: 0, y: 0, width: 1, height: 1)), into: 0)
    }
    #expect(throws: BoardError(.unknownList("nope"), "list")) { try engine.removeList("nope") }
    try engine.removeList("later")
    #expect(engine.lists.count == 1)
  }

  @Test func aSelectionMovesTogether() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2", "t3", "t4", "t5"])]))
    try engine.select("t1")
    try engine.select("t3")
    _ = try engine.pickUp(item: "t3", pointer: card(0, 2))
    #expect(engine.drag?.items == ["t1", "t3"])
    // Others: t2 t4 t5 (at 0..2 drawn with the pair after t2). Over t5's middle: after it.
    _ = try engine.move(pointer: card(0, 4))
    let events = engine.drop()
    guard case .end(let end) = events.first else { Issue.record("no end"); return }
    #expect(engine.order(of: 0) == ["t2", "t4", "t5", "t1", "t3"])
    #expect(end.newIndex == 4 && end.items == ["t1", "t3"])
  }

  @Test func keyboardMovesOnePositionAndOnToTheNextList() throws {
    var engine = try SortableEngine(lists: kanban([("todo", ["t1", "t2"]), ("doing", ["d1"])]))
    _ = try engine.pickUp(item: "t2")
    #expect(engine.moveHeld(.up) == [.sort(item: "t2", list: "todo", index: 0)])
    #expect(engine.moveHeld(.up).isEmpty, "before the first list's start: nowhere")
    _ = engine.moveHeld(.down)
    #expect(engine.moveHeld(.down) == [.sort(item: "t2", list: "doing", index: 0)], "past the end: the next list")
    #expect(engine.moveHeld(.left) == [.sort(item: "t2", list: "todo", index: 0)], "across: the list on the left")
    _ = engine.cancel()
    #expect(engine.order(of: 0) == ["t1", "t2"])
    #expect(engine.neighbour(of: "t1", .down) == "t2")
    #expect(engine.neighbour(of: "t2", .down) == "d1")
    #expect(engine.neighbour(of: "t1", .right) == "d1")
  }

  @Test func keyboardInAGridMovesByRows() throws {
    let cell = StageSize(width: 50, height: 50)
    let items = (0..<9).map { k in
      SortableItem(id: "p\(k)", frame: StageRect(x: Double(k % 3) * 50, y: Double(k / 3) * 50, width: 50, height: 50))
    }
    let gallery = SortableList(
      id: "gallery", frame: StageRect(x: 0, y: 0, width: 150, height: 150),
      layout: .grid(columns: 3, cell: cell, columnGap: 0, rowGap: 0), items: items)
    var engine = try SortableEngine(lists: [gallery])
    _ = try engine.pickUp(item: "p1")
    #expect(engine.moveHeld(.down) == [.sort(item: "p1", list: "gallery", index: 4)])
    #expect(engine.moveHeld(.down) == [.sort(item: "p1", list: "gallery", index: 7)])
    #expect(engine.moveHeld(.up) == [.sort(item: "p1", list: "gallery", index: 4)])
    #expect(engine.moveHeld(.right) == [.sort(item: "p1", list: "gallery", index: 5)])
    _ = engine.drop()
    #expect(engine.order(of: 0) == ["p0", "p2", "p3", "p4", "p5", "p1", "p6", "p7", "p8"])
    #expect(engine.neighbour(of: "p0", .down) == "p4", "the item below p0 in the new order")
  }

  @Test func aWrappingRowOfDifferentSizesMakesRoom() throws {
    // Widths 100, 50, 100 in a 220-wide box: [100 50] then [100] on the next row.
    let widths = [100.0, 50, 100]
    var x = 0.0
    let items = widths.enumerated().map { k, w in
      defer { x += w + 10 }
      return SortableItem(id: "w\(k)", frame: StageRect(x: k == 2 ? 0 : x, y: k == 2 ? 50 : 0, width: w, height: 40))
    }
    let list = SortableList(
      id: "row", frame: StageRect(x: 0, y: 0, width: 220, height: 200), layout: .wrap(columnGap: 10, rowGap: 10),
      items: items)
    var engine = try SortableEngine(lists: [list])
    _ = try engine.pickUp(item: "w0", pointer: StagePoint(x: 50, y: 20))
    _ = try engine.move(pointer: StagePoint(x: 130, y: 20))  // over w1
    #expect(engine.drag?.target.index == 1)
    let offsets = Dictionary(uniqueKeysWithValues: engine.offsets().map { ($0.item, $0.offset) })
    #expect(offsets["w1"] == Vector(dx: -110, dy: 0))
    #expect(offsets["w0"] == Vector(dx: 60, dy: 0))
  }

  @Test func badInputIsRefusedByName() throws {
    var bad = kanban([("todo", ["t1"])])
    bad[0].max = -1
    #expect(throws: BoardError(.negative, "lists[0].max")) { try SortableEngine(lists: bad) }
    #expect(throws: BoardError(.duplicateID("t1"), "lists[1].items[0].id")) {
      try SortableEngine(lists: kanban([("a", ["t1"]), ("b", ["t1"])]))
    }
    #expect(throws: BoardError(.invalidValue, "options.swapThreshold")) {
      try SortableEngine(lists: [], options: SortOptions(rule: .swapZones(threshold: 2, inverted: false, invertedThreshold: 1)))
    }
    var engine = try SortableEngine(lists: kanban([("todo", ["t1"])]))
    #expect(throws: BoardError(.unknownItem("x"), "item")) { try engine.pickUp(item: "x") }
    _ = try engine.pickUp(item: "t1", pointer: card(0, 0))
    #expect(throws: BoardError(.notFinite, "pointer")) { try engine.move(pointer: StagePoint(x: .nan, y: 0)) }
  }
}
