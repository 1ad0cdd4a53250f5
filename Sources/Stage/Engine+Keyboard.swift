/// Keyboard operation, for people who cannot drag (after dnd-kit's keyboard sensor): Tab
/// focuses the next item, Space or Enter picks it up, arrows move it to the neighbouring slot
/// in that direction, Space or Enter drops it, Escape cancels. Every step announces itself.
extension Engine {
  mutating func handleKey(_ key: Key, _ events: inout [StageEvent]) {
    switch key {
    case .undo: undo(&events)
    case .redo: redo(&events)
    case .tab:
      guard keyboardDrag == nil, !board.items.isEmpty else { return }
      let next = focus.map { ($0 + 1) % board.items.count } ?? 0
      focus = next
      events.append(.said(Sentence(.focused, item: next, slot: board.items[next].slot ?? -1)))
    case .space, .enter:
      if keyboardDrag != nil { keyboardDrop(&events) } else { keyboardPickup(&events) }
    case .escape:
      guard let k = keyboardDrag else { return }
      keyboardDrag = nil
      let id = board.items[k.item].id
      events.append(.cancel(item: id))
      if k.over != nil { events.append(.hover(item: id, slot: nil)) }
      sendHome(item: k.item, ghost: k.ghost)
      let said =
        board.items[k.item].slot.map { Sentence(.cancelledHome, item: k.item, slot: $0) }
        ?? Sentence(.cancelled, item: k.item)
      events.append(.said(said))
    case .left, .right, .up, .down:
      keyboardMove(key, &events)
    }
  }

  mutating func keyboardPickup(_ events: inout [StageEvent]) {
    guard !board.items.isEmpty else { return }
    let i = focus ?? 0
    focus = i
    guard !drags.contains(where: { $0.item == i }) else { return }
    var k = KeyboardDrag(item: i, ghost: nil, over: nil)
    if options.style == .ghost {
      let ghost = Ghost(id: nextGhostID, item: i, center: board.items[i].center, motion: nil)
      nextGhostID += 1
      ghosts.append(ghost)
      k.ghost = ghost.id
    } else {
      k.over = board.items[i].slot
    }
    keyboardDrag = k
    events.append(.pickup(item: board.items[i].id, pointer: nil))
    events.append(.said(Sentence(.pickedUp, item: i, slot: board.items[i].slot ?? -1)))
  }

  mutating func keyboardMove(_ key: Key, _ events: inout [StageEvent]) {
    guard var k = keyboardDrag else { return }
    let from: StagePoint
    if let g = k.ghost, let ghost = ghosts.first(where: { $0.id == g }) {
      from = ghost.center
    } else {
      from = k.over.map { board.slots[$0].frame.center } ?? board.items[k.item].center
    }
    guard let next = neighbour(of: from, toward: key, item: k.item, excluding: k.over) else {
      events.append(.said(Sentence(Self.noLocation(key))))
      return
    }
    k.over = next
    keyboardDrag = k
    let slotID = board.slots[next].id
    if let g = k.ghost, let gi = ghosts.firstIndex(where: { $0.id == g }) {
      ghosts[gi].center = board.slots[next].frame.center
    } else {
      animate(item: k.item, to: .slot(next), duration: options.snapDuration)
    }
    let id = board.items[k.item].id
    events.append(.hover(item: id, slot: slotID))
    let said =
      occupant(of: next, besides: k.item).map { Sentence(.overSwaps, item: k.item, slot: next, other: $0) }
      ?? Sentence(.over, item: k.item, slot: next)
    events.append(.said(said))
  }

  static func noLocation(_ key: Key) -> Phrase {
    switch key {
    case .left: return .noneLeft
    case .right: return .noneRight
    case .up: return .noneAbove
    default: return .noneBelow
    }
  }

  /// The eligible slot nearest `p` in the arrow's direction, favouring slots in line with it.
  /// - Complexity: O(slots); a key press is rare next to pointer moves.
  func neighbour(of p: StagePoint, toward key: Key, item: Int, excluding current: Int?) -> Int? {
    var best: Int?
    var bestScore = Double.infinity
    for s in board.slots.indices where s != current {
      let c = board.slots[s].frame.center
      let along: Double, across: Double
      switch key {
      case .left: (along, across) = (p.x - c.x, c.y - p.y)
      case .right: (along, across) = (c.x - p.x, c.y - p.y)
      case .up: (along, across) = (p.y - c.y, c.x - p.x)
      default: (along, across) = (c.y - p.y, c.x - p.x)
      }
      guard along > 0.5 else { continue }
      let score = along + 2 * abs(across)
      if score < bestScore, eligible(item: item, slot: s) {
        best = s
        bestScore = score
      }
    }
    return best
  }

  mutating func keyboardDrop(_ events: inout [StageEvent]) {
    guard let k = keyboardDrag else { return }
    keyboardDrag = nil
    let id = board.items[k.item].id
    guard let s = k.over else {
      events.append(.returned(item: id, slot: nil))
      sendHome(item: k.item, ghost: k.ghost)
      events.append(.said(Sentence(.droppedNowhere, item: k.item)))
      return
    }
    let slotID = board.slots[s].id
    events.append(.drop(item: id, slot: slotID))
    if let g = k.ghost {
      ghosts.removeAll { $0.id == g }
      let change = SlotChange(slot: s, old: board.slots[s].content, new: id)
      apply([change], &events)
      record(.assign([change]))
      events.append(.said(Sentence(.dropped, item: k.item, slot: s)))
      announceReplaced([change], &events)
    } else if let other = occupant(of: s, besides: k.item), options.swapOccupied {
      swap(k.item, with: other, on: s, record: true, &events)
      setStatus(Sentence(.current, slot: s), &events)
    } else {
      moveItem(k.item, to: s, record: true, duration: options.snapDuration)
      setStatus(Sentence(.current, slot: s), &events)
      events.append(.said(Sentence(.dropped, item: k.item, slot: s)))
    }
  }

  // MARK: - Undo

  /// Whether an undo would do something (and nothing is being dragged).
  public var canUndo: Bool { !history.isEmpty && drags.isEmpty && keyboardDrag == nil }
  /// Whether a redo would do something: an undo happened since the last change, and nothing is being dragged.
  public var canRedo: Bool { !undone.isEmpty && drags.isEmpty && keyboardDrag == nil }

  mutating func undo(_ events: inout [StageEvent]) {
    guard canUndo, let op = history.popLast() else {
      events.append(.said(Sentence(.nothingToUndo)))
      return
    }
    perform(op, reversed: true, &events)
    undone.append(op)
  }

  mutating func redo(_ events: inout [StageEvent]) {
    guard canRedo, let op = undone.popLast() else {
      events.append(.said(Sentence(.nothingToRedo)))
      return
    }
    perform(op, reversed: false, &events)
    history.append(op)
  }

  mutating func perform(_ op: Operation, reversed: Bool, _ events: inout [StageEvent]) {
    switch op {
    case .move(let item, let from, let to):
      let target = reversed ? from : to
      let id = board.items[item].id
      let slotID = target.map { board.slots[$0].id }
      // A slot filled since then keeps its item; the undo then goes to the resting point.
      let fits = target.map { eligible(item: item, slot: $0) } ?? true
      moveItem(item, to: fits ? target : nil, record: false, duration: options.snapDuration)
      events.append(.returned(item: id, slot: fits ? slotID : nil))
      if fits, let target { setStatus(Sentence(.current, slot: target), &events) }
      events.append(.said(Sentence(reversed ? .undid : .redid, item: item, change: .moveOf)))
    case .swap(let item, let other, let from, let slot):
      if reversed {
        relocate(item, to: from, duration: options.snapDuration)
        relocate(other, to: slot, duration: options.snapDuration)
      } else {
        relocate(other, to: from, duration: options.snapDuration)
        relocate(item, to: slot, duration: options.snapDuration)
      }
      let itemSlot = reversed ? from : slot
      events.append(.returned(item: board.items[item].id, slot: itemSlot.map { board.slots[$0].id }))
      events.append(.displaced(item: board.items[other].id, slot: (reversed ? slot : from).map { board.slots[$0].id }))
      if let itemSlot { setStatus(Sentence(.current, slot: itemSlot), &events) }
      events.append(.said(Sentence(reversed ? .undid : .redid, item: item, other: other, change: .swapOf)))
    case .assign(let changes):
      let applied = changes.map {
        reversed ? SlotChange(slot: $0.slot, old: $0.new, new: $0.old) : $0
      }
      apply(reversed ? applied.reversed() : applied, &events)
      events.append(.said(describe(changes, as: reversed ? .undid : .redid)))
    }
  }

  /// What an assignment step did, by the icons it moved (a count of changes told nothing):
  /// "assignment of Camera", "move of Camera" (off one slot, onto another), "changes to Mail
  /// and Camera" (Clear all, a replacement).
  func describe(_ changes: [SlotChange], as phrase: Phrase) -> Sentence {
    var items: [Int] = []
    for c in changes {
      for id in [c.new, c.old] {
        if let id, let i = board.itemIndex(of: id), !items.contains(where: { name(item: $0) == name(item: i) }) {
          items.append(i)
        }
      }
    }
    guard let first = items.first else { return Sentence(phrase, change: .assignmentOf) }
    if items.count == 1 { return Sentence(phrase, item: first, change: changes.count == 1 ? .assignmentOf : .movedOf) }
    return Sentence(phrase, change: .changesTo, items: items)
  }
}
