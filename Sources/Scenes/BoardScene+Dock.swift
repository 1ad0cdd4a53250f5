import Stage

// The Shortcuts scene's dock (issue 38): its shortcut slots are one sortable list. Dragging a
// shortcut along it makes the others slide aside (SortableEngine's rule and offsets); dropping
// an icon on a shortcut's leading edge inserts it there. Seed 001's ghost drag and its miss
// animation are the Engine's, untouched: the dock only takes presses on filled shortcuts and
// drops in an insertion zone.

extension BoardScene {
  /// Points the pointer must move before a press on a shortcut picks it up (a tap stays a tap).
  static let dockPickUpDistance = 4.0
  /// The share of a slot's width, at its leading edge, where a dropped icon is inserted
  /// rather than replacing the shortcut.
  static let insertEdge = 0.2

  /// The sortable list of the dock's slots, in slot order, each item named by its slot id.
  static func makeDock(slots: [StageRect], ids: [String], columns: Int, box: StageRect) -> SortableEngine? {
    guard let first = slots.first, slots.count == ids.count else { return nil }
    let cell = first.size
    let columnGap = slots.count > 1 && columns > 1 ? max(slots[1].minX - first.maxX, 0) : 0
    let rowGap = slots.count > columns ? max(slots[columns].minY - first.maxY, 0) : 0
    let items = zip(ids, slots).map { SortableItem(id: $0.0, frame: $0.1) }
    let list = SortableList(
      id: "dock", name: "Shortcuts", frame: box, content: StageRect(origin: first.origin, size: box.size),
      layout: .grid(columns: columns, cell: cell, columnGap: columnGap, rowGap: rowGap), items: items)
    return try? SortableEngine(lists: [list])
  }

  /// Whether a shortcut is being sorted along the dock.
  public var isSortingDock: Bool { dock?.drag != nil }

  /// How far each slot's content is drawn from its slot now: the dock's offsets while a
  /// shortcut is sorted, the slide of an insertion preview while an icon hovers an edge.
  public var dockOffsets: [Int: Vector] {
    var result: [Int: Vector] = [:]
    if let dock, dock.drag != nil {
      for (id, offset) in dock.offsets() { if let s = engine.board.slotIndex(of: id) { result[s] = offset } }
    } else if let dock, let insertion, let hole = insertHole(from: insertion.index) {
      // The empty slot moves to the insertion point: the dock's layout puts the shortcuts
      // between there and the hole one place on, leaving room for the icon.
      var items = dock.lists[0].items
      items.insert(items.remove(at: hole), at: insertion.index)
      let placed = dock.frames(of: items, in: 0)
      for (k, item) in items.enumerated() {
        guard let s = engine.board.slotIndex(of: item.id), s != k else { continue }
        result[s] = placed[k].origin - engine.board.slots[s].frame.origin
      }
    }
    return result
  }

  /// What each slot shows while a shortcut is sorted or an icon hovers an insertion point:
  /// the content that would land there on a drop (labels follow the icons that moved).
  public var dockPreview: [String?] {
    let slots = engine.board.slots
    var shown = slots.map { $0.content }
    let offsets = dockOffsets
    guard !offsets.isEmpty else { return shown }
    for (from, offset) in offsets {
      let at = slots[from].frame.origin + offset
      if let to = slots.indices.first(where: { slots[$0].frame.origin.distance(to: at) < 0.5 }) {
        shown[to] = slots[from].content
      }
    }
    if let insertion, slots.indices.contains(insertion.index) {
      // The icon being dragged (the newest ghost: the one under the pointer).
      shown[insertion.index] = engine.ghosts.last.map { engine.board.items[$0.item].id }
    }
    return shown
  }

  /// What the status line says while the dock previews a move: where the held shortcut or the
  /// hovering icon lands on a drop. The engine's status keeps the last change until then, and
  /// read beside icons already slid aside, it named the old order.
  public var dockStatus: String? {
    let board = engine.board
    if let dock, let d = dock.drag, let from = board.slotIndex(of: d.item),
      case let to = d.target.index, board.slots.indices.contains(to),
      let content = board.slots[from].content, let item = board.itemIndex(of: content)
    {
      return "\(engine.label(item: item)) to \(engine.label(slot: to))"
    }
    if let insertion, board.slots.indices.contains(insertion.index), let ghost = engine.ghosts.last {
      return "\(engine.label(item: ghost.item)) into \(engine.label(slot: insertion.index))"
    }
    return nil
  }

  /// Where the held shortcut is drawn (under the pointer), while sorting.
  public var dockHeld: (slot: Int, frame: StageRect)? {
    guard let dock, let d = dock.drag, let frame = dock.heldFrame, let s = engine.board.slotIndex(of: d.item) else {
      return nil
    }
    return (s, frame)
  }

  /// The first empty slot at or after `k`: where an insertion at `k` pushes the contents to.
  func insertHole(from k: Int) -> Int? {
    engine.board.slots.indices.first { $0 >= k && engine.board.slots[$0].content == nil }
  }

  /// The slot an icon dropped at `p` is inserted before: `p` on the leading edge of a filled
  /// shortcut, or just past the trailing edge of the last filled one in a row, when a slot
  /// from there on is empty to take the push.
  func insertionIndex(at p: StagePoint) -> Int? {
    let slots = engine.board.slots
    for (s, slot) in slots.enumerated() {
      let f = slot.frame
      guard p.y >= f.minY, p.y <= f.maxY else { continue }
      let edge = f.size.width * Self.insertEdge
      let gapBefore = s > 0 && slots[s - 1].frame.minY == f.minY ? (f.minX - slots[s - 1].frame.maxX) / 2 : edge
      if slot.content != nil, p.x >= f.minX - gapBefore, p.x < f.minX + edge {
        return insertHole(from: s) == nil ? nil : s
      }
      // After the last slot of a row: the next slot in reading order (the next row's first).
      let rowEnd = s + 1 == slots.count || slots[s + 1].frame.minY != f.minY
      if rowEnd, s + 1 < slots.count, slots[s + 1].content != nil, p.x > f.maxX - edge, p.x <= f.maxX + edge {
        return insertHole(from: s + 1) == nil ? nil : s + 1
      }
    }
    return nil
  }

  /// Takes a pointer event for the dock, or returns `nil` to let the Engine have it.
  mutating func dockPointer(_ phase: PointerPhase, id: Int, at p: StagePoint, time t: Double) -> [StageEvent]? {
    guard kind == .shortcuts, dock != nil else { return nil }
    // An icon's ghost over an insertion zone: preview, and insert on the drop.
    if engine.dragsGhost(pointer: id) {
      switch phase {
      case .move:
        let events = handle(.pointer(.move, id: id, at: p), at: t)
        insertion = insertionIndex(at: p).map { (id, $0) }
        return events
      case .up:
        let k = insertionIndex(at: p)
        insertion = nil
        if let k, let events = engine.dropInserting(pointer: id, at: k, time: t) { return note(events) }
        return nil
      case .cancel:
        insertion = nil
        return nil
      case .down: return nil
      }
    }
    if phase == .down {
      guard dockPress == nil, !engine.isPointerDragging, engine.hitTest(p) == nil,
        let s = engine.slotWithContent(at: p)
      else { return nil }
      dockPress = (id, s, p)
      return []
    }
    guard let press = dockPress, press.pointer == id else { return nil }
    switch phase {
    case .down: return []
    case .move:
      if dock?.drag == nil {
        guard p.distance(to: press.at) >= Self.dockPickUpDistance else { return [] }
        pendingSort += (try? dock?.pickUp(item: engine.board.slots[press.slot].id, pointer: press.at)) ?? []
      }
      pendingSort += (try? dock?.move(pointer: p)) ?? []
      hoverAt = p
      return []
    case .up:
      dockPress = nil
      guard var d = dock, d.drag != nil else { return [] }
      pendingSort += (try? d.move(pointer: p)) ?? []
      // Dragged off the dock: removed, as a shortcut dragged away always was.
      if !d.lists[0].frame.contains(p) {
        pendingSort += d.cancel()
        dock = d
        return handle(.removeContent(slot: press.slot), at: t)
      }
      let dropped = d.drop()
      pendingSort += dropped
      var held: Int?
      for case .end(let end) in dropped { held = end.newIndex }
      let order = d.order(of: 0).compactMap { engine.board.slotIndex(of: $0) }
      // The slots stay where they are; their contents took the new order.
      dock = Self.makeDock(
        slots: engine.board.slots.map { $0.frame }, ids: engine.board.slots.map { $0.id }, columns: 2, box: d.lists[0].frame)
      return note((try? engine.reorderContents(order, held: held, at: t)) ?? [])
    case .cancel:
      dockPress = nil
      pendingSort += dock?.cancel() ?? []
      return []
    }
  }

  /// The sortable events since the last call (`start`, `sort`, `end`, `change`).
  public mutating func takeSortEvents() -> [SortEvent] {
    defer { pendingSort.removeAll() }
    return pendingSort
  }
}
