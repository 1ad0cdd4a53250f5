// Where items go: the lists' layouts, the arrangement while a drag is in flight, and the two
// insertion rules (SortableJS's swap zones, dnd-kit's closest centre).

extension SortableEngine {
  // MARK: - Layout

  /// Where list `l`'s layout puts `items`, in this order, from its content box's top-left.
  ///
  /// - Complexity: O(items).
  @inline(never)
  public func frames(of items: [SortableItem], in l: Int) -> [StageRect] {
    let list = lists[l]
    let box = list.content
    var result: [StageRect] = []
    result.reserveCapacity(items.count)
    switch list.layout {
    case .vertical(let gap):
      var y = box.minY
      for item in items {
        result.append(StageRect(x: box.minX, y: y, width: item.frame.size.width, height: item.frame.size.height))
        y += item.frame.size.height + gap
      }
    case .horizontal(let gap):
      var x = box.minX
      for item in items {
        result.append(StageRect(x: x, y: box.minY, width: item.frame.size.width, height: item.frame.size.height))
        x += item.frame.size.width + gap
      }
    case .wrap(let columnGap, let rowGap):
      var x = box.minX
      var y = box.minY
      var rowHeight = 0.0
      for item in items {
        let size = item.frame.size
        // Half a point of slack: measured boxes are fractional, and a row that fits must not wrap.
        if x > box.minX && x + size.width > box.maxX + 0.5 {
          x = box.minX
          y += rowHeight + rowGap
          rowHeight = 0
        }
        result.append(StageRect(x: x, y: y, width: size.width, height: size.height))
        x += size.width + columnGap
        rowHeight = Swift.max(rowHeight, size.height)
      }
    case .grid(let columns, let cell, let columnGap, let rowGap):
      for (k, item) in items.enumerated() {
        let column = Double(k % Swift.max(columns, 1))
        let row = Double(k / Swift.max(columns, 1))
        result.append(
          StageRect(
            x: box.minX + column * (cell.width + columnGap), y: box.minY + row * (cell.height + rowGap),
            width: item.frame.size.width, height: item.frame.size.height))
      }
    }
    return result
  }

  /// Places every item of list `l` where its layout puts it (a host without its own layout,
  /// such as the app's dock, calls it after a drop).
  public mutating func reflow(list l: Int) {
    guard lists.indices.contains(l) else { return }
    let placed = frames(of: lists[l].items, in: l)
    for k in placed.indices { lists[l].items[k].frame = placed[k] }
  }

  // MARK: - The arrangement while dragging

  /// List `l`'s items without the moving ones (which stay, as the copy's place, while a
  /// clone pull is over another list).
  func others(_ l: Int, _ d: SortDrag) -> [SortableItem] {
    if l == d.origin.list && cloning(d, to: d.target.list) { return lists[l].items }
    return lists[l].items.filter { !d.items.contains($0.id) }
  }

  /// List `l` as it looks now: the others, with the moving items at the insertion point.
  func arrangement(_ l: Int, _ d: SortDrag) -> [SortableItem] {
    var items = others(l, d)
    guard l == d.target.list else { return items }
    var moving: [SortableItem] = []
    for id in d.items { if let p = position(of: id) { moving.append(lists[p.list].items[p.index]) } }
    items.insert(contentsOf: moving, at: Swift.min(d.target.index, items.count))
    return items
  }

  /// Where each item of list `l`'s arrangement is drawn now: its layout place plus its
  /// measured correction.
  @inline(never)
  func visualFrames(_ l: Int, _ d: SortDrag) -> (items: [SortableItem], frames: [StageRect]) {
    let items = arrangement(l, d)
    var placed = frames(of: items, in: l)
    for k in placed.indices { placed[k].origin = placed[k].origin + (d.correction[items[k].id] ?? .zero) }
    return (items, placed)
  }

  /// How far each item is drawn from its measured frame while the drag is in flight: the
  /// neighbours making room, and the moving items' place (the drop point; a host draws the
  /// held one under the pointer instead). Items not listed are at rest.
  ///
  /// - Complexity: O(items of the lists the drag touches).
  @inline(never)
  public func offsets() -> [(item: String, offset: Vector)] {
    guard let d = drag else { return [] }
    var result: [(item: String, offset: Vector)] = []
    var done: [Int] = []
    for l in touchedLists(d) + [d.origin.list] where !done.contains(l) {
      done.append(l)
      let (items, placed) = visualFrames(l, d)
      for k in items.indices {
        let offset = placed[k].origin - items[k].frame.origin
        if offset.dx != 0 || offset.dy != 0 || d.items.contains(items[k].id) { result.append((items[k].id, offset)) }
      }
    }
    return result
  }

  /// Where the held item is drawn now: under the pointer (keeping the grab offset), or on
  /// its insertion point during a keyboard drag.
  public var heldFrame: StageRect? {
    guard let d = drag, let p = position(of: d.item) else { return nil }
    let frame = lists[p.list].items[p.index].frame
    if d.byPointer { return StageRect(center: d.pointer + d.grabOffset, size: frame.size) }
    return offsets().first { $0.item == d.item }.map { StageRect(origin: frame.origin + $0.offset, size: frame.size) }
  }

  // MARK: - Which list

  /// The list the pointer is over: the smallest box holding `p`, an empty list's grown by
  /// `emptyInsertThreshold`; lists inside a moving item do not count.
  @inline(never)
  func list(under p: StagePoint, _ d: SortDrag) -> Int? {
    var best: Int?
    var bestArea = Double.infinity
    for (l, list) in lists.enumerated() {
      if let parent = list.parentItem, d.items.contains(parent) { continue }
      let empty = others(l, d).isEmpty
      let box = empty ? list.frame.insetBy(-options.emptyInsertThreshold) : list.frame
      let inside = p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY
      if inside && box.area < bestArea {
        best = l
        bestArea = box.area
      }
    }
    return best
  }

  /// Whether `p` is past the last of `frames` (SortableJS appends there): below it in a
  /// vertical list; right of it and below its top, or well below it, in a horizontal or
  /// wrapping one.
  func isPastLast(_ p: StagePoint, _ last: StageRect, horizontal: Bool) -> Bool {
    let spacer = 10.0
    if horizontal { return (p.x > last.maxX && p.y > last.minY) || p.y > last.maxY + spacer }
    return p.x > last.maxX + spacer || (p.x >= last.minX && p.x <= last.maxX && p.y > last.maxY)
  }

  // MARK: - SortableJS's swap zones

  /// Whether `p` is before the first of a list's frames (SortableJS puts the held item
  /// first there): left of it or above it in a vertical list; above it, or beside it on
  /// the left, in a horizontal or wrapping one.
  func isBeforeFirst(_ p: StagePoint, _ first: StageRect, horizontal: Bool) -> Bool {
    let spacer = 10.0
    if horizontal { return p.y < first.minY - spacer || (p.y < first.maxY && p.x < first.minX) }
    return p.x < first.minX - spacer || (p.y < first.minY && p.x < first.maxX)
  }

  /// The insertion point for the pointer at `d.pointer` by SortableJS's rule, as its
  /// documentation and its behaviour describe it: past the last item appends, before the
  /// first prepends, and over an item its swap zones decide (``InsertionRule``). The item it
  /// moved past last keeps the zones it was judged by (the inverted ones after entering a
  /// list), and a "shadow" of the distance it moved keeps items of different sizes from
  /// flickering.
  @inline(never)
  func swapZoneTarget(_ d: inout SortDrag, threshold: Double, inverted: Bool, invertedThreshold: Double) -> ListPosition {
    let p = d.pointer
    guard let l = list(under: p, d) else { return d.target }
    let entering = l != d.target.list
    if entering {
      guard accepts(l, d) else { return d.target }
      if l == d.origin.list && !lists[l].sort { return d.origin }
    } else if l == d.origin.list && !lists[l].sort {
      return d.target
    }
    // The list as it is drawn now: with the held items at the insertion point when it is
    // theirs, without them when they are entering it.
    var items: [SortableItem]
    var placed: [StageRect]
    if entering {
      items = others(l, d)
      placed = frames(of: items, in: l)
      for k in placed.indices { placed[k].origin = placed[k].origin + (d.correction[items[k].id] ?? .zero) }
    } else {
      (items, placed) = visualFrames(l, d)
    }
    let count = others(l, d).count
    let k = entering ? -1 : Swift.min(d.target.index, count)
    let m = entering ? 0 : items.count - count
    if items.isEmpty { return ListPosition(list: l, index: 0) }
    let horizontal = lists[l].layout.isHorizontal
    let hit = placed.firstIndex { Self.contains($0, p) }
    if let hit, d.items.contains(items[hit].id) { return d.target }  // over its own place
    if isPastLast(p, placed[placed.count - 1], horizontal: horizontal) {
      if d.items.contains(items[items.count - 1].id) { return d.target }
      return ListPosition(list: l, index: count)
    }
    if isBeforeFirst(p, placed[0], horizontal: horizontal) {
      if d.items.contains(items[0].id) { return d.target }
      return ListPosition(list: l, index: 0)
    }
    guard let hit else { return d.target }
    let o = entering || hit < k ? hit : hit - m  // the target's index among the others
    let target = placed[hit]
    let id = items[hit].id
    let inRow = entering ? false : Self.sameRowOrColumn(placed[k], target, horizontal: horizontal)
    let edge = horizontal ? target.minX : target.minY
    let length = horizontal ? target.size.width : target.size.height
    let along = horizontal ? p.x : p.y
    let isLast = d.lastTarget == id
    if !isLast {
      d.lastTargetEdge = edge
      d.pastFirstInvert = false
      d.invertsHere = (inverted && inRow) || entering
    }
    let zone = inRow ? threshold : 1
    let slack = Swift.min(options.hysteresis, length / 4)
    var direction = 0
    var invert = d.invertsHere
    if !invert {
      if isLast && d.moveDistance < length * zone {
        // Still over the item it just passed, which moved less than its zone: the
        // distance it moved is a "shadow" where the pointer sends the held item back.
        let pastFirst =
          d.lastDirection == 1
          ? along > edge + length * invertedThreshold / 2 : along < edge + length - length * invertedThreshold / 2
        if !d.pastFirstInvert && pastFirst { d.pastFirstInvert = true }
        if !d.pastFirstInvert {
          let inShadow = d.lastDirection == 1 ? along < edge + d.moveDistance : along > edge + length - d.moveDistance
          if inShadow { direction = -d.lastDirection }
        } else {
          invert = true
        }
      } else if along > edge + length * (1 - zone) / 2 + slack && along < edge + length - length * (1 - zone) / 2 - slack {
        direction = o < k ? -1 : 1
      }
    }
    if invert && direction == 0 {
      if along < edge + length * invertedThreshold / 2 - slack || along > edge + length - length * invertedThreshold / 2 + slack {
        direction = along > edge + length / 2 ? 1 : -1
      }
    }
    guard direction != 0 else { return d.target }
    let next = ListPosition(list: l, index: direction == 1 ? o + 1 : o)
    if next == d.target { return d.target }  // already beside it on that side
    let wasNew = !isLast
    d.lastTarget = id
    d.lastDirection = direction
    if wasNew && !d.invertsHere {
      // How far the target moves with this step, measured as it will be drawn.
      var moved = d
      moved.target = next
      let (after, afterPlaced) = visualFrames(l, moved)
      if let j = after.firstIndex(where: { $0.id == id }) {
        d.moveDistance = abs(edge - (horizontal ? afterPlaced[j].minX : afterPlaced[j].minY))
      }
    }
    return next
  }

  /// Whether two frames share a row (horizontal order) or a column (vertical), as
  /// SortableJS tells: same start, same end or same middle across the order.
  static func sameRowOrColumn(_ a: StageRect, _ b: StageRect, horizontal: Bool) -> Bool {
    func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) < 0.5 }
    if horizontal {
      return close(a.minY, b.minY) || close(a.maxY, b.maxY) || close(a.center.y, b.center.y)
    }
    return close(a.minX, b.minX) || close(a.maxX, b.maxX) || close(a.center.x, b.center.x)
  }

  /// Containment with every edge inside: a pointer on a shared edge is over either item.
  static func contains(_ r: StageRect, _ p: StagePoint) -> Bool {
    p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
  }

  // MARK: - dnd-kit's closest centre

  /// The insertion point by closest centre: the held item's centre against every item's
  /// frame as it was when the drag began (and each empty list's box). The place it is over
  /// now keeps it unless another is closer by more than the hysteresis.
  @inline(never)
  func closestCenterTarget(_ d: inout SortDrag) -> ListPosition {
    let centre = d.pointer + d.grabOffset
    var best: (list: Int, item: Int?, distance: Double)?
    var current: Double?
    for (l, list) in lists.enumerated() where accepts(l, d) {
      if let parent = list.parentItem, d.items.contains(parent) { continue }
      if others(l, d).isEmpty {
        let distance = list.frame.center.distance(to: centre)
        if d.lastTarget == nil && d.overList == l { current = distance }
        if distance < best?.distance ?? .infinity { best = (l, nil, distance) }
      }
      for (k, item) in list.items.enumerated() {
        let distance = item.frame.center.distance(to: centre)
        if d.lastTarget == item.id { current = distance }
        if distance < best?.distance ?? .infinity { best = (l, k, distance) }
      }
    }
    guard let best else { return d.target }
    if let current, current - best.distance <= options.hysteresis { return d.target }
    guard let k = best.item else {
      d.lastTarget = nil
      d.overList = best.list
      return ListPosition(list: best.list, index: 0)
    }
    let over = lists[best.list].items[k]
    d.lastTarget = over.id
    d.overList = nil
    if d.items.contains(over.id) {
      return ListPosition(list: d.origin.list, index: firstIndex(of: d.items, in: d.origin.list))
    }
    let o = others(best.list, d).firstIndex { $0.id == over.id } ?? 0
    if best.list == d.origin.list {
      // dnd-kit's arrayMove: the held item takes the place of the one it is over.
      return ListPosition(list: best.list, index: k > d.origin.index ? o + 1 : o)
    }
    let horizontal = lists[best.list].layout.isHorizontal
    let past = horizontal ? centre.x > over.frame.center.x : centre.y > over.frame.center.y
    return ListPosition(list: best.list, index: past ? o + 1 : o)
  }
}
