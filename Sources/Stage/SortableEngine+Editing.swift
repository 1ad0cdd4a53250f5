// What changes the lists besides a drag: the keyboard's moves, undo and redo, setting an
// order, and items and lists added or removed while the engine runs.

extension SortableEngine {
  // MARK: - Keyboard

  /// Moves the held items one position for an arrow key: along the list (on to the next
  /// list past its end, back to the previous one before its start), a row up or down in a
  /// grid, and across lists (the nearest in that direction) for the other arrows. Lists that
  /// would refuse the items are skipped. Other keys do nothing.
  @inline(never)
  public mutating func moveHeld(_ key: Key) -> [SortEvent] {
    guard let d = drag, let next = step(from: d.target, key, d) else { return [] }
    if let p = position(of: d.item) {
      var moved = d
      moved.pointer = lists[p.list].items[p.index].frame.center
      drag = moved
    }
    return retarget(next)
  }

  /// The insertion point one arrow key away from `from`, or `nil` when there is none.
  func step(from: ListPosition, _ key: Key, _ d: SortDrag) -> ListPosition? {
    let layout = lists[from.list].layout
    let count = others(from.list, d).count
    let horizontal = layout.isHorizontal
    let forward = key == .right || key == .down
    let alongList = layout.isTwoDimensional ? (key == .left || key == .right) : (horizontal == (key == .left || key == .right))
    guard [.left, .right, .up, .down].contains(key) else { return nil }
    if alongList {
      let index = from.index + (forward ? 1 : -1)
      if index >= 0 && index <= count { return ListPosition(list: from.list, index: index) }
      // Past an end: on to the next list that takes the items, or back to the previous one.
      var l = from.list + (forward ? 1 : -1)
      while lists.indices.contains(l) {
        if accepts(l, d) && l != from.list {
          return ListPosition(list: l, index: forward ? 0 : others(l, d).count)
        }
        l += forward ? 1 : -1
      }
      return nil
    }
    if layout.isTwoDimensional {
      let (items, placed) = visualFrames(from.list, d)
      let k = Swift.min(from.index, items.count - 1)
      if k >= 0 {
        let held = placed[k]
        // The nearest row in that direction, then the item in it nearest across.
        var row: Double?
        for (i, r) in placed.enumerated() where !d.items.contains(items[i].id) {
          let beyond = forward ? r.minY >= held.maxY - 0.5 : r.maxY <= held.minY + 0.5
          if beyond { row = row.map { forward ? Swift.min($0, r.minY) : Swift.max($0, r.minY) } ?? r.minY }
        }
        if let row {
          var best: (index: Int, distance: Double)?
          var o = -1
          for (i, r) in placed.enumerated() {
            if d.items.contains(items[i].id) { continue }
            o += 1
            guard abs(r.minY - row) < 0.5 else { continue }
            let distance = abs(r.center.x - held.center.x)
            if distance < best?.distance ?? .infinity { best = (o, distance) }
          }
          if let best { return ListPosition(list: from.list, index: forward ? best.index + 1 : best.index) }
        }
      }
    }
    // Across: the nearest list in that direction, at the same position or its end.
    guard let l = nearestList(from.list, key, d) else { return nil }
    return ListPosition(list: l, index: Swift.min(from.index, others(l, d).count))
  }

  /// The list whose box lies nearest in the arrow's direction from list `l`'s, among those
  /// that take the held items.
  func nearestList(_ l: Int, _ key: Key, _ d: SortDrag) -> Int? {
    let from = lists[l].frame.center
    var best: (list: Int, distance: Double)?
    for (k, list) in lists.enumerated() where k != l && accepts(k, d) {
      if let parent = list.parentItem, d.items.contains(parent) { continue }
      let c = list.frame.center
      let ahead: Bool
      switch key {
      case .left: ahead = c.x < from.x - 0.5
      case .right: ahead = c.x > from.x + 0.5
      case .up: ahead = c.y < from.y - 0.5
      default: ahead = c.y > from.y + 0.5
      }
      let distance = c.distance(to: from)
      if ahead && distance < best?.distance ?? .infinity { best = (k, distance) }
    }
    return best?.list
  }

  /// The item an arrow key moves the keyboard focus to from item `id` (a roving focus):
  /// along its list, a row up or down in a grid, on to the next list past an end.
  @inline(never)
  public func neighbour(of id: String, _ key: Key) -> String? {
    guard let p = position(of: id) else { return nil }
    // The same steps as a held item's, with nothing held: an empty selection picked up here.
    let d = SortDrag(
      item: id, items: [], origin: p, target: p, byPointer: false, pointer: .zero, grabOffset: .zero, correction: [:])
    let layout = lists[p.list].layout
    let alongList =
      layout.isTwoDimensional ? (key == .left || key == .right) : (layout.isHorizontal == (key == .left || key == .right))
    let forward = key == .right || key == .down
    if alongList {
      let k = p.index + (forward ? 1 : -1)
      if lists[p.list].items.indices.contains(k) { return lists[p.list].items[k].id }
      var l = p.list + (forward ? 1 : -1)
      while lists.indices.contains(l) {
        if let item = forward ? lists[l].items.first : lists[l].items.last { return item.id }
        l += forward ? 1 : -1
      }
      return nil
    }
    guard let next = step(from: p, key, d) else { return nil }
    let items = lists[next.list].items
    if items.isEmpty { return nil }
    // A row step lands after the item below (`index + 1`): the focus goes to that item.
    let index = next.list == p.list && forward && layout.isTwoDimensional ? next.index - 1 : next.index
    return items[Swift.min(Swift.max(index, 0), items.count - 1)].id
  }

  // MARK: - Undo and redo

  /// Undoes the last sort: the lists it touched get their orders back. Items added since
  /// stay where they are; items removed since stay removed; copies it made go.
  @discardableResult public mutating func undo() -> [SortEvent] {
    guard drag == nil, let op = history.popLast() else { return [] }
    undone.append(op)
    return apply(op.before, known: op, restoring: [])
  }

  /// Redoes the sort undone last.
  @discardableResult public mutating func redo() -> [SortEvent] {
    guard drag == nil, let op = undone.popLast() else { return [] }
    history.append(op)
    return apply(op.after, known: op, restoring: op.created)
  }

  /// Sets the orders of `orders`' lists, keeping what changed at run time since `op`.
  @inline(never)
  mutating func apply(_ orders: [(list: String, items: [String])], known op: SortOperation, restoring: [SortableItem])
    -> [SortEvent]
  {
    var catalog: [String: SortableItem] = [:]
    for list in lists { for item in list.items { catalog[item.id] = item } }
    for item in restoring where catalog[item.id] == nil { catalog[item.id] = item }
    var mentioned: [String: Int] = [:]
    for side in [op.before, op.after] { for entry in side { for id in entry.items { mentioned[id] = 1 } } }
    var changed: [String] = []
    for entry in orders {
      guard let l = listIndex(of: entry.list) else { continue }
      var items = entry.items.compactMap { catalog[$0] }
      // Items the page added to this list since: where they are now.
      for (k, item) in lists[l].items.enumerated() where mentioned[item.id] == nil {
        items.insert(item, at: Swift.min(k, items.count))
      }
      if items.map({ $0.id }) != order(of: l) { changed.append(entry.list) }
      lists[l].items = items
    }
    selection = selection.filter { position(of: $0) != nil }
    return changed.isEmpty ? [] : [.change(lists: changed)]
  }

  /// Sets list `l`'s order (SortableJS's `sort(order)`): the ids of `order` it holds come
  /// first, in that order, then its other items as they were. Unknown ids are ignored. One
  /// undoable step when the order changed.
  ///
  /// - Throws: ``BoardError`` naming `list` when `l` is not a list index.
  @inline(never)
  @discardableResult public mutating func sort(list l: Int, order: [String]) throws(BoardError) -> [SortEvent] {
    try BoardError.checkIndex(l, lists.count, "list")
    let before = self.order(of: l)
    var items: [SortableItem] = []
    for id in order {
      if let item = lists[l].items.first(where: { $0.id == id }), !items.contains(where: { $0.id == id }) { items.append(item) }
    }
    for item in lists[l].items where !items.contains(where: { $0.id == item.id }) { items.append(item) }
    let after = items.map { $0.id }
    guard after != before else { return [] }
    lists[l].items = items
    history.append(SortOperation(before: [(lists[l].id, before)], after: [(lists[l].id, after)], created: []))
    undone.removeAll()
    return [.change(lists: [lists[l].id])]
  }

  // MARK: - Run-time changes

  /// Inserts `item` into list `l` at `index` (its end when `nil`). Undo history stays.
  ///
  /// - Throws: ``BoardError`` when `l` or `index` is out of range, an item already has the
  ///   id, or the frame is not finite; nothing changes then.
  @inline(never)
  public mutating func insertItem(_ item: SortableItem, into l: Int, at index: Int? = nil) throws(BoardError) {
    try BoardError.checkIndex(l, lists.count, "list")
    let at = index ?? lists[l].items.count
    try BoardError.checkIndex(at, lists[l].items.count + 1, "index")
    try BoardError.check(item.frame, "item.frame")
    guard position(of: item.id) == nil else { throw BoardError(.duplicateID(item.id), "item.id") }
    lists[l].items.insert(item, at: at)
    if let d = drag { drag = d.withCorrection(for: item, engine: self) }
  }

  /// Removes item `id` (a drag holding it is cancelled first) and returns it. Undo history
  /// stays; undoing an older sort leaves it out.
  ///
  /// - Throws: ``BoardError`` naming `item` when no item has that id.
  @inline(never)
  @discardableResult public mutating func removeItem(_ id: String) throws(BoardError) -> SortableItem {
    guard position(of: id) != nil else { throw BoardError(.unknownItem(id), "item") }
    if let d = drag, d.items.contains(id) { _ = cancel() }
    guard let p = position(of: id) else { throw BoardError(.unknownItem(id), "item") }
    selection.removeAll { $0 == id }
    return lists[p.list].items.remove(at: p.index)
  }

  /// Inserts `list` at `index` of ``lists`` (the end when `nil`), cancelling a drag in flight.
  ///
  /// - Throws: ``BoardError`` when `index` is out of range, a list or item id is taken, or a
  ///   number is not valid (as ``init(lists:options:)`` checks).
  public mutating func insertList(_ list: SortableList, at index: Int? = nil) throws(BoardError) {
    let at = index ?? lists.count
    try BoardError.checkIndex(at, lists.count + 1, "index")
    try Self.check(list, "list")
    guard listIndex(of: list.id) == nil else { throw BoardError(.duplicateID(list.id), "list.id") }
    for (i, item) in list.items.enumerated() where position(of: item.id) != nil {
      throw BoardError(.duplicateID(item.id), "list.items[\(i)].id")
    }
    _ = cancel()
    lists.insert(list, at: at)
  }

  /// Removes the list with id `id` and its items, cancelling a drag in flight, and returns it.
  ///
  /// - Throws: ``BoardError/Kind/unknownList(_:)`` naming `list`.
  @discardableResult public mutating func removeList(_ id: String) throws(BoardError) -> SortableList {
    guard let l = listIndex(of: id) else { throw BoardError(.unknownList(id), "list") }
    _ = cancel()
    let list = lists.remove(at: l)
    selection = selection.filter { position(of: $0) != nil }
    return list
  }

  /// New measurements for list `l` (the host laid it out again): its box, content box,
  /// layout and each item's frame, in its current order. A drag in flight keeps going.
  ///
  /// - Throws: ``BoardError`` when `l` is out of range, `itemFrames` has not one frame per
  ///   item, or a number is not valid; nothing changes then.
  @inline(never)
  public mutating func relayout(
    list l: Int, frame: StageRect, content: StageRect? = nil, layout: SortLayout? = nil, itemFrames: [StageRect]
  ) throws(BoardError) {
    try BoardError.checkIndex(l, lists.count, "list")
    guard itemFrames.count == lists[l].items.count else {
      throw BoardError(.countMismatch(itemFrames.count, expected: lists[l].items.count), "itemFrames")
    }
    var list = lists[l]
    list.frame = frame
    list.content = content ?? frame
    if let layout { list.layout = layout }
    for k in itemFrames.indices { list.items[k].frame = itemFrames[k] }
    try Self.check(list, "list")
    lists[l] = list
    if var d = drag {
      let rest = frames(of: list.items, in: l)
      for (k, item) in list.items.enumerated() { d.correction[item.id] = item.frame.origin - rest[k].origin }
      drag = d
    }
  }
}

extension SortableEngine.SortDrag {
  /// The drag with `item`'s layout correction measured afresh.
  func withCorrection(for item: SortableItem, engine: SortableEngine) -> Self {
    guard let p = engine.position(of: item.id) else { return self }
    var copy = self
    let rest = engine.frames(of: engine.lists[p.list].items, in: p.list)
    copy.correction[item.id] = item.frame.origin - rest[p.index].origin
    return copy
  }
}
