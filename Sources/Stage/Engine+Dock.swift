// Slot contents as an ordered dock (the app's Shortcuts scene, issue 38): a host that sorts
// the slots with a `SortableEngine` commits the new order here, so undo and redo cover it.

extension Engine {
  /// Gives slot `k` the content slot `order[k]` had: a reorder of every slot's content at
  /// once, recorded as one undoable step. Slots whose content does not change report nothing.
  /// `held`: the slot the dragged content lands on, which the announcement names.
  ///
  /// - Throws: ``BoardError`` naming `order` when it is not a permutation of the slot indices;
  ///   nothing changes then.
  public mutating func reorderContents(_ order: [Int], held: Int? = nil, at t: Double) throws(BoardError)
    -> [StageEvent]
  {
    guard t.isFinite else { throw BoardError(.notFinite, "t") }
    guard order.count == board.slots.count, Set(order).count == order.count,
      order.allSatisfy({ board.slots.indices.contains($0) })
    else { throw BoardError(.invalidValue, "order") }
    advance(to: t)
    var changes: [SlotChange] = []
    for (k, from) in order.enumerated() where board.slots[k].content != board.slots[from].content {
      changes.append(SlotChange(slot: k, old: board.slots[k].content, new: board.slots[from].content))
    }
    guard !changes.isEmpty else { return [] }
    var events: [StageEvent] = []
    apply(changes, &events)
    record(.assign(changes))
    if let moved = held ?? order.indices.first(where: { order[$0] != $0 && board.slots[$0].content != nil }),
      board.slots.indices.contains(moved),
      let content = board.slots[moved].content
    {
      let item = board.itemIndex(of: content) ?? -1
      // The status line names where the moved shortcut landed, not the last slot that shifted.
      setStatus(Sentence(.slotStatus, item: item, slot: moved), &events)
      events.append(.said(Sentence(.moved, item: item, slot: moved)))
    }
    return inWords(events)
  }

  /// Ends pointer `pointer`'s ghost drag (Shortcuts) by inserting its item at slot `k`: the
  /// contents from `k` up to the first empty slot after it move one slot along, and `k` takes
  /// the item. One undoable step; the ghost goes at once, as on any hit.
  ///
  /// Returns `nil`, changing nothing, when that pointer drags no ghost or no slot from `k`
  /// on is empty (a full dock takes no insertion: the host lets the drop run as usual).
  public mutating func dropInserting(pointer: Int, at k: Int, time t: Double) -> [StageEvent]? {
    guard t.isFinite, board.slots.indices.contains(k),
      let d = drags.firstIndex(where: { $0.pointer == pointer && $0.active && $0.ghost != nil && $0.fromSlot == nil }),
      let hole = board.slots.indices.first(where: { $0 >= k && board.slots[$0].content == nil })
    else { return nil }
    advance(to: t)
    let drag = drags.remove(at: d)
    if let ghost = drag.ghost { ghosts.removeAll { $0.id == ghost } }
    let id = board.items[drag.item].id
    var changes: [SlotChange] = []
    var s = hole
    while s > k {
      changes.append(SlotChange(slot: s, old: board.slots[s].content, new: board.slots[s - 1].content))
      s -= 1
    }
    changes.append(SlotChange(slot: k, old: board.slots[k].content, new: id))
    var events: [StageEvent] = []
    if drag.hover != nil { events.append(.hover(item: id, slot: nil)) }
    events.append(.drop(item: id, slot: board.slots[k].id))
    apply(changes, &events)
    record(.assign(changes))
    events.append(.said(Sentence(.moved, item: drag.item, slot: k)))
    return inWords(events)
  }

  /// Whether pointer `pointer` drags a ghost of a source item (not a slot's content).
  public func dragsGhost(pointer: Int) -> Bool {
    drags.contains { $0.pointer == pointer && $0.active && $0.ghost != nil && $0.fromSlot == nil }
  }

  /// Where pointer `pointer` is, while it drags.
  public func pointerLocation(_ pointer: Int) -> StagePoint? { drags.first { $0.pointer == pointer }?.pointerAt }
}
